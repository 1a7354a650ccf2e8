/* SPDX-License-Identifier: GPL-2.0 */
/*
 * escape.h — data from elsewhere on a line-based output, and in
 * Markdown (escape.c).  A control character is any a consumer may read as
 * a line break or that no text line should hold: C0 (tab included), DEL,
 * C1 (U+0085 among them), U+2028, U+2029.
 */
#ifndef NSB_ESCAPE_H
#define NSB_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Where s stops being strict UTF-8 (overlongs, surrogates), or NULL. */
const char *nsb_utf8_bad(const char *s);
/*
 * text[len], a text input, whole: no NUL byte and strict UTF-8.  0, or
 * -1 after naming file, line and column and what it should hold (want).
 */
int nsb_text_check(const char *file, const char *text, size_t len,
		   const char *want);
/* The length in bytes of the control character at s, or 0. */
size_t nsb_ctl_len(const char *s);
bool nsb_has_ctl(const char *s);
/* s with each control character as "\x0b" or "\u2028"; malloc'd. */
char *nsb_text_clean(const char *s);
/* The same onto f, then a newline: one line whatever s holds. */
void nsb_put_line(FILE *f, const char *s);
/* A Markdown code span for a table cell: fences, '|', one line. */
void nsb_md_put_code(FILE *f, const char *s);
/* The same into buf[len] (a span too long for it is not cut in half). */
void nsb_md_code(char *buf, size_t len, const char *s);
/* Markdown inline text: no markup, no HTML, one line. */
void nsb_md_put_text(FILE *f, const char *s);

#endif /* NSB_ESCAPE_H */
