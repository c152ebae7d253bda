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
/// Makes the next refresh repaint every cell from scratch (Ctrl-L): what the terminal shows is
/// no longer trusted.
static inline void cn_repaint_all(void) { clearok(curscr, TRUE); }

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

/// Installs handlers for SIGINT, SIGTERM and SIGHUP that only record the signal and
/// wake cn_wait_for_input (endwin is not async-signal-safe; the loop restores the terminal).
/// Returns 0 on success.
int cn_install_signal_handlers(void);

/// The last terminating signal received (SIGINT, SIGTERM or SIGHUP), or 0.
int cn_pending_termination(void);

/// Whether a SIGWINCH arrived since the last call (clears it).
int cn_take_resize(void);

/// Wakes cn_wait_for_input from any thread (it returns 0 unless input is also ready).
void cn_wake(void);

/// Waits until standard input is readable, a signal arrives or `timeout_ms` passes (-1: no
/// limit). Returns 1 when input is ready, 0 otherwise.
int cn_wait_for_input(int timeout_ms);

/// Mouse: enables button-1 presses and clicks; returns 1 when the terminal can report them.
int cn_enable_mouse(void);

/// The last mouse event's position; returns 1 for a button-1 press or click, 2 for the wheel
/// turned up, 3 for the wheel turned down, 0 for anything else.
int cn_read_mouse(int *y, int *x);

static inline int cn_key_code_yes(void) { return KEY_CODE_YES; }
static inline int cn_key_enter(void) { return KEY_ENTER; }
static inline int cn_key_up(void) { return KEY_UP; }
static inline int cn_key_down(void) { return KEY_DOWN; }
static inline int cn_key_left(void) { return KEY_LEFT; }
static inline int cn_key_right(void) { return KEY_RIGHT; }
static inline int cn_key_home(void) { return KEY_HOME; }
static inline int cn_key_end(void) { return KEY_END; }
static inline int cn_key_page_up(void) { return KEY_PPAGE; }
static inline int cn_key_page_down(void) { return KEY_NPAGE; }
static inline int cn_key_backspace(void) { return KEY_BACKSPACE; }
static inline int cn_key_delete(void) { return KEY_DC; }
static inline int cn_key_back_tab(void) { return KEY_BTAB; }

/// Opens the real terminal (stdin/stdout) without exiting on failure; NULL when the terminal
/// type cannot be used. Also installs handlers for crash signals (SIGILL, SIGTRAP, SIGABRT,
/// SIGSEGV, SIGBUS, SIGFPE) that put the terminal back as it was before passing the signal on.
SCREEN *cn_open_terminal(void);

/// Whether the open terminal can move its cursor (a `dumb` one cannot show a screen).
int cn_terminal_can_address(void);

/// Removes the crash handlers once the terminal is restored the normal way.
void cn_forget_crash_restore(void);

/// Draws UTF-32 text at a position of stdscr.
int cn_add_text(int y, int x, const wchar_t *text);

/// Reads one key without waiting: a character or a key code (then *is_function_key is 1);
/// -1 when nothing is pending.
int cn_read_key(int *is_function_key);

#endif
