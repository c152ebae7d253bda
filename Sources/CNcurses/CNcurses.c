#include "CNcurses.h"

#include <langinfo.h>
#include <string.h>

static int uses_utf8(void) {
  const char *codeset = nl_langinfo(CODESET);
  return codeset != NULL && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0);
}

int cn_setup_locale(void) {
  if (setlocale(LC_ALL, "") != NULL && uses_utf8()) return 1;
  static const char *fallbacks[] = {"C.UTF-8", "C.utf8", "en_US.UTF-8", NULL};
  for (int i = 0; fallbacks[i] != NULL; i++) {
    if (setlocale(LC_ALL, fallbacks[i]) != NULL && uses_utf8()) return 1;
  }
  return 0;
}

static FILE *headless_output = NULL;
static FILE *headless_input = NULL;

SCREEN *cn_headless_screen(int lines, int columns) {
  headless_output = fopen("/dev/null", "w");
  headless_input = fopen("/dev/null", "r");
  if (headless_output == NULL || headless_input == NULL) return NULL;
  static const char *types[] = {"xterm-256color", "xterm", "vt100", NULL};
  SCREEN *screen = NULL;
  for (int i = 0; types[i] != NULL && screen == NULL; i++) {
    screen = newterm(types[i], headless_output, headless_input);
  }
  if (screen == NULL) return NULL;
  set_term(screen);
  resizeterm(lines, columns);
  return screen;
}

void cn_close_headless_screen(SCREEN *screen) {
  if (screen == NULL) return;
  endwin();
  delscreen(screen);
  if (headless_output) fclose(headless_output);
  if (headless_input) fclose(headless_input);
  headless_output = headless_input = NULL;
}

int cn_draw_text(int y, int x, const wchar_t *text) { return mvaddwstr(y, x, text); }

int cn_read_text(int y, int x, wchar_t *buffer, int count) {
  return mvinnwstr(y, x, buffer, count);
}

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

static volatile sig_atomic_t termination_signal = 0;
static volatile sig_atomic_t resize_pending = 0;
static int wake_pipe[2] = {-1, -1};

static void record_signal(int number) {
  int saved = errno;
  if (number == SIGWINCH) {
    resize_pending = 1;
  } else {
    termination_signal = number;
  }
  if (wake_pipe[1] >= 0) {
    char byte = 1;
    ssize_t ignored = write(wake_pipe[1], &byte, 1);
    (void)ignored;
  }
  errno = saved;
}

void cn_wake(void) {
  if (wake_pipe[1] >= 0) {
    char byte = 1;
    ssize_t ignored = write(wake_pipe[1], &byte, 1);
    (void)ignored;
  }
}

int cn_install_signal_handlers(void) {
  if (wake_pipe[0] < 0) {
    if (pipe(wake_pipe) != 0) return -1;
    for (int i = 0; i < 2; i++) {
      fcntl(wake_pipe[i], F_SETFL, fcntl(wake_pipe[i], F_GETFL) | O_NONBLOCK);
      fcntl(wake_pipe[i], F_SETFD, FD_CLOEXEC);
    }
  }
  struct sigaction action;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;
  action.sa_handler = record_signal;
  int signals[] = {SIGINT, SIGTERM, SIGHUP};
  sigset_t unblock;
  sigemptyset(&unblock);
  for (unsigned i = 0; i < sizeof signals / sizeof signals[0]; i++) {
    if (sigaction(signals[i], &action, NULL) != 0) return -1;
    sigaddset(&unblock, signals[i]);
  }
  // A parent may have blocked them (test runners do); a blocked SIGTERM would never arrive.
  return sigprocmask(SIG_UNBLOCK, &unblock, NULL);
}

int cn_pending_termination(void) { return termination_signal; }

int cn_take_resize(void) {
  int pending = resize_pending;
  resize_pending = 0;
  return pending;
}

int cn_wait_for_input(int timeout_ms) {
  struct pollfd fds[2];
  fds[0].fd = STDIN_FILENO;
  fds[0].events = POLLIN;
  fds[1].fd = wake_pipe[0];
  fds[1].events = POLLIN;
  int count = wake_pipe[0] >= 0 ? 2 : 1;
  int ready = poll(fds, count, timeout_ms);
  if (ready > 0 && count == 2 && (fds[1].revents & POLLIN)) {
    char buffer[64];
    while (read(wake_pipe[0], buffer, sizeof buffer) > 0) {
    }
  }
  return ready > 0 && (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) ? 1 : 0;
}

#ifndef BUTTON5_PRESSED
#define BUTTON5_PRESSED 0
#endif

int cn_enable_mouse(void) {
  mmask_t old;
  return mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED, &old)
      != 0;
}

int cn_read_mouse(int *y, int *x) {
  MEVENT event;
  if (getmouse(&event) != OK) return 0;
  *y = event.y;
  *x = event.x;
  if (event.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)) return 1;
  if (event.bstate & BUTTON4_PRESSED) return 2;
  if (BUTTON5_PRESSED && (event.bstate & BUTTON5_PRESSED)) return 3;
  return 0;
}

// What a crash restores: the terminal modes from before ncurses, and the escape sequences that
// leave the alternate screen, mouse reporting and keypad mode and show the cursor. Made while
// opening, so that the handler only calls async-signal-safe functions.
#include <stdlib.h>
#include <term.h>
#include <termios.h>

static struct termios saved_modes;
static int have_saved_modes = 0;
static char restore_sequence[512];
static size_t restore_length = 0;
static struct sigaction previous_actions[NSIG];
static const int crash_signals[] = {SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE};

static void append_capability(const char *name) {
  char *value = tigetstr((char *)name);
  if (value == NULL || value == (char *)-1) return;
  size_t length = strlen(value);
  if (restore_length + length >= sizeof restore_sequence) return;
  memcpy(restore_sequence + restore_length, value, length);
  restore_length += length;
}

static void restore_after_crash(int number, siginfo_t *info, void *context) {
  if (restore_length > 0) {
    ssize_t ignored = write(STDOUT_FILENO, restore_sequence, restore_length);
    (void)ignored;
  }
  if (have_saved_modes) tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_modes);
  // Let whoever had the signal before report it (Swift's crash reporter), then die of it.
  struct sigaction *previous = &previous_actions[number];
  if (previous->sa_flags & SA_SIGINFO) {
    if (previous->sa_sigaction != NULL) previous->sa_sigaction(number, info, context);
  } else if (previous->sa_handler != SIG_DFL && previous->sa_handler != SIG_IGN) {
    previous->sa_handler(number);
  }
  signal(number, SIG_DFL);
  raise(number);
}

static void install_crash_restore(void) {
  static const char mouse_off[] = "\033[?1000l\033[?1002l\033[?1003l\033[?1006l";
  memcpy(restore_sequence, mouse_off, sizeof mouse_off - 1);
  restore_length = sizeof mouse_off - 1;
  append_capability("sgr0");
  append_capability("rmkx");
  append_capability("cnorm");
  append_capability("rmcup");
  static char *alternate_stack = NULL;
  if (alternate_stack == NULL) {
    alternate_stack = malloc(65536);
    if (alternate_stack != NULL) {
      stack_t stack;
      stack.ss_sp = alternate_stack;
      stack.ss_size = 65536;
      stack.ss_flags = 0;
      sigaltstack(&stack, NULL);
    }
  }
  struct sigaction action;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_ONSTACK | SA_SIGINFO;
  action.sa_sigaction = restore_after_crash;
  for (unsigned i = 0; i < sizeof crash_signals / sizeof crash_signals[0]; i++) {
    sigaction(crash_signals[i], &action, &previous_actions[crash_signals[i]]);
  }
}

SCREEN *cn_open_terminal(void) {
  have_saved_modes = tcgetattr(STDIN_FILENO, &saved_modes) == 0;
  SCREEN *screen = newterm(NULL, stdout, stdin);
  if (screen == NULL) return NULL;
  set_term(screen);
  install_crash_restore();
  return screen;
}

int cn_terminal_can_address(void) {
  char *cup = tigetstr("cup");
  return cup != NULL && cup != (char *)-1;
}

void cn_forget_crash_restore(void) {
  for (unsigned i = 0; i < sizeof crash_signals / sizeof crash_signals[0]; i++) {
    sigaction(crash_signals[i], &previous_actions[crash_signals[i]], NULL);
  }
  restore_length = 0;
  have_saved_modes = 0;
}

int cn_add_text(int y, int x, const wchar_t *text) { return mvaddwstr(y, x, text); }

int cn_read_key(int *is_function_key) {
  wint_t value = 0;
  int result = get_wch(&value);
  if (result == ERR) return -1;
  *is_function_key = (result == KEY_CODE_YES);
  return (int)value;
}
