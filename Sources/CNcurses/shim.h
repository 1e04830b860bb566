// The wide-character API is only declared with these defined before the header.
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <locale.h>
#include <ncursesw/curses.h>

// Macros and variadic helpers that Swift cannot import, as plain functions.
static inline int redline_color_pair(int pair) { return (int)COLOR_PAIR(pair); }
static inline unsigned int redline_attr_bold(void) { return A_BOLD; }
static inline unsigned int redline_attr_reverse(void) { return A_REVERSE; }
static inline unsigned int redline_attr_underline(void) { return A_UNDERLINE; }
static inline int redline_key_code_yes(void) { return KEY_CODE_YES; }
static inline WINDOW *redline_stdscr(void) { return stdscr; }
static inline int redline_colors(void) { return COLORS; }
static inline int redline_color_pairs(void) { return COLOR_PAIRS; }

// Puts one character cell with an extended colour pair (pairs above 32767 need the opts form).
static inline int redline_put_cell(int row, int col, const wchar_t *text, unsigned int attrs, int pair) {
    cchar_t cell;
    if (setcchar(&cell, text, attrs, 0, &pair) != OK) return ERR;
    return mvadd_wch(row, col, &cell);
}

// Starts ncurses on the process's own terminal; NULL when the terminal type is unusable.
static inline SCREEN *redline_newterm(void) { return newterm(NULL, stdout, stdin); }

// Starts ncurses writing to a file instead of the terminal: what `redline bench` counts the bytes of.
static inline SCREEN *redline_newterm_file(const char *type, FILE *output, FILE *input) { return newterm(type, output, input); }

// Starts ncurses as a named terminal type; NULL when terminfo has no such entry.
static inline SCREEN *redline_newterm_type(const char *type) { return newterm(type, stdout, stdin); }

