/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shquote.h — values as shell words: a command line nsbench prints (a
 * report's "Reproduce", gnuplot's log, history's bisect hint) pasted into
 * sh runs with exactly those arguments, whatever quotes, blanks or $ a
 * benchmark name or path holds.
 */
#ifndef NSB_SHQUOTE_H
#define NSB_SHQUOTE_H

#include <stdio.h>

/* "<prefix><s>" as one word: as is if plain, else in single quotes. */
void nsb_sh_word(FILE *f, const char *prefix, const char *s);
/* The same after a space: one more argument of a command line. */
void nsb_sh_arg(FILE *f, const char *prefix, const char *s);
/* "'<prefix><s>'": always quoted. */
void nsb_sh_quoted(FILE *f, const char *prefix, const char *s);

/*
 * A shell command (words as sh would split them), wrapped with
 * backslash-newlines at 72 columns; lines after the first under ind plus
 * four blanks.  A word longer than a line is split inside its quotes.
 */
void nsb_sh_print_cmd(FILE *f, const char *ind, const char *cmd);
/* "nsbench ARGV..." shell-quoted where needed, as nsb_sh_print_cmd. */
void nsb_sh_print_argv(FILE *f, const char *ind, int argc, char **argv);

#endif /* NSB_SHQUOTE_H */
