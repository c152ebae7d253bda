#ifndef CNCURSES_H
#define CNCURSES_H

// The wide-character API is visible only with these defined before curses.h (SwiftPM drops the
// -D flags pkg-config reports).
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <locale.h>
#include <stdio.h>
#include <wchar.h>
#include <curses.h>

// Swift 6 rejects curses' mutable globals; read them through functions.
static inline WINDOW *cn_stdscr(void) { return stdscr; }
static inline int cn_lines(void) { return LINES; }
static inline int cn_cols(void) { return COLS; }
static inline int cn_getmaxy(WINDOW *window) { return getmaxy(window); }
static inline int cn_getmaxx(WINDOW *window) { return getmaxx(window); }
static inline int cn_getcury(WINDOW *window) { return getcury(window); }
static inline int cn_getcurx(WINDOW *window) { return getcurx(window); }

// Attribute and key macros Swift cannot import.
static inline attr_t cn_attr_normal(void) { return A_NORMAL; }
static inline attr_t cn_attr_bold(void) { return A_BOLD; }
static inline attr_t cn_attr_dim(void) { return A_DIM; }
static inline attr_t cn_attr_reverse(void) { return A_REVERSE; }
static inline attr_t cn_attr_underline(void) { return A_UNDERLINE; }
static inline attr_t cn_color_pair(short pair) { return (attr_t)COLOR_PAIR(pair); }
static inline int cn_key_resize(void) { return KEY_RESIZE; }
static inline int cn_key_mouse(void) { return KEY_MOUSE; }
static inline int cn_key_f(int n) { return KEY_F(n); }

/// Sets the locale from the environment, falling back to a UTF-8 one so that wide text works.
/// Returns 1 when the resulting locale uses UTF-8.
int cn_setup_locale(void);

/// Opens a screen that draws into `/dev/null` and reads nothing: a headless ncurses for tests
/// and for measuring. Returns NULL when no terminal description could be loaded.
SCREEN *cn_headless_screen(int lines, int columns);

/// Ends and frees a screen made by cn_headless_screen.
void cn_close_headless_screen(SCREEN *screen);

/// Draws UTF-32 text (`wchar_t` is 32-bit on Linux and macOS) at a position of stdscr.
int cn_draw_text(int y, int x, const wchar_t *text);

/// Reads back up to `count` characters drawn at a position of stdscr.
int cn_read_text(int y, int x, wchar_t *buffer, int count);

#endif
