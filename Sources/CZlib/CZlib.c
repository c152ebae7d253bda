// CZlib is its header: this file gives the target a source, as SwiftPM asks of a C target.
#include "CZlib.h"
