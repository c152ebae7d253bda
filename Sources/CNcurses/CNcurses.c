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
