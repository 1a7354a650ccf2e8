// SPDX-License-Identifier: GPL-2.0
/*
 * shquote.c — values as shell words, and command lines of them wrapped
 * at 72 columns (shquote.h).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/base/shquote.h"

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

/*
 * Length of the shell word at s: up to the first blank outside quotes, so
 * a quoted argument with a blank in it is never split by a wrap.
 */
static size_t sh_word_len(const char *s)
{
	const char *p;
	char q = 0;

	for (p = s; *p; p++) {
		if (q == '\'') {
			if (*p == '\'')
				q = 0;
		} else if (*p == '\\' && p[1]) {
			p++;
		} else if (q) {
			if (*p == '"')
				q = 0;
		} else if (*p == '\'' || *p == '"') {
			q = *p;
		} else if (*p == ' ') {
			break;
		}
	}
	return (size_t)(p - s);
}

/*
 * Writes the shell word w[0..n) from column *col; one longer than a line
 * (a filter, a hash) is split at column 68: backslash-
 * newline continues it, inside single quotes closed before and reopened
 * after; the continuation starts at column 0, where a blank would end
 * the word.  Never after an escaping backslash.
 */
static void put_word(FILE *f, const char *w, size_t n, size_t *col)
{
	bool bs = false;	/* the character before escapes this one */
	char q = 0;
	size_t i;

	if (*col + n + 2 <= 72) {	/* fits, with a " \\" after it */
		fwrite(w, 1, n, f);
		*col += n;
		return;
	}
	for (i = 0; i < n; i++) {
		char ch = w[i];

		if (!bs && *col >= 68 && ch != '\n') {
			fputs(q == '\'' ? "'\\\n'" : "\\\n", f);
			*col = q == '\'';
		}
		fputc(ch, f);
		*col = ch == '\n' ? 0 : *col + 1;
		if (bs)
			bs = false;
		else if (q == '\'')
			q = ch == '\'' ? 0 : q;
		else if (ch == '\\')
			bs = true;
		else if (q == '"')
			q = ch == '"' ? 0 : q;
		else if (ch == '\'' || ch == '"')
			q = ch;
	}
}

void nsb_sh_print_cmd(FILE *f, const char *ind, const char *cmd)
{
	size_t col = 0;

	while (*cmd) {
		size_t w = sh_word_len(cmd);

		if (col && col + 1 + w + 2 > 72) {
			fputs(" \\\n", f);
			col = 0;
		}
		if (!col) {
			fputs(ind, f);
			col = strlen(ind);
		} else {
			fputc(' ', f);
			col++;
		}
		put_word(f, cmd, w, &col);
		cmd += w;
		cmd += strspn(cmd, " ");
		ind = "    ";
	}
	fputc('\n', f);
}

void nsb_sh_print_argv(FILE *f, const char *ind, int argc, char **argv)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int i;

	if (!m)
		return;
	fputs("nsbench", m);
	for (i = 0; i < argc; i++)
		nsb_sh_arg(m, "", argv[i]);
	if (!fclose(m))
		nsb_sh_print_cmd(f, ind, buf);
	free(buf);
}
