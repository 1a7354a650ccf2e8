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

#endif /* NSB_SHQUOTE_H */
