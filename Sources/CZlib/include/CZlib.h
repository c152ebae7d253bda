#ifndef CZLIB_H
#define CZLIB_H

// zlib's inflate, for checking that a PNG's image data is a whole zlib stream. zlib's
// initialisers are macros Swift cannot call, so they are wrapped here.
#include <zlib.h>

/// inflateInit(stream), callable from Swift.
static inline int czlib_inflate_init(z_streamp stream) { return inflateInit(stream); }

#endif
