// SPDX-License-Identifier: GPL-2.0
/*
 * shquote.c — values as shell words (shquote.h).
 */
#include <string.h>

#include "src/lib/shquote.h"

static const char plain[] = "abcdefghijklmnopqrstuvwxyz"
	"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=/.,:@%";

/* s inside single quotes: each ' as '\'' (close, escaped quote, reopen). */
static void sq_body(FILE *f, const char *s)
{
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
}

void nsb_sh_quoted(FILE *f, const char *prefix, const char *s)
{
	fputc('\'', f);
	sq_body(f, prefix);
	sq_body(f, s);
	fputc('\'', f);
}

void nsb_sh_word(FILE *f, const char *prefix, const char *s)
{
	if (*s && !s[strspn(s, plain)] &&
	    !prefix[strspn(prefix, plain)])
		fprintf(f, "%s%s", prefix, s);
	else
		nsb_sh_quoted(f, prefix, s);
}

void nsb_sh_arg(FILE *f, const char *prefix, const char *s)
{
	fputc(' ', f);
	nsb_sh_word(f, prefix, s);
}
