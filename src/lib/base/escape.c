// SPDX-License-Identifier: GPL-2.0
/*
 * escape.c — data from elsewhere (benchmark names, context values, history
 * lines) made safe for the line-based text formats nsbench writes: UTF-8
 * and control-character checks, plain and KTAP lines, Markdown code spans
 * and text.  Other formats escape beside their writers: HTML and XML in
 * html.c, shell words in shquote.c, gnuplot data fields in gnuplot.c.  A
 * name is data: a vertical tab or U+2028 in it must not split a KTAP line
 * for kunit.py (Python's str.splitlines() breaks at \v, \f, \x1c-\x1e,
 * U+0085, U+2028 and U+2029 as well as \n and \r), a '|' must not split
 * a Markdown table row, a '<' must not open an HTML tag.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/base/escape.h"
#include "src/lib/base/nsbench.h"

/* Strict UTF-8 (no overlongs, surrogates or NUL): what JSON can carry. */
const char *nsb_utf8_bad(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;

	while (*u) {
		unsigned int c = *u, n, i, cp;

		if (c < 0x80) {
			u++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf)
			n = 1, cp = c & 0x1f;
		else if (c >= 0xe0 && c <= 0xef)
			n = 2, cp = c & 0x0f;
		else if (c >= 0xf0 && c <= 0xf4)
			n = 3, cp = c & 0x07;
		else
			return (const char *)u;
		for (i = 1; i <= n; i++) {
			if ((u[i] & 0xc0) != 0x80)
				return (const char *)u;
			cp = cp << 6 | (u[i] & 0x3f);
		}
		if ((n == 2 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff)))
		    || (n == 3 && (cp < 0x10000 || cp > 0x10ffff)))
			return (const char *)u;
		u += n + 1;
	}
	return NULL;
}

/*
 * A reader that skipped what it could not parse took a UTF-16 file's
 * byte-order mark (\xff\xfe) for part of its first field and read on;
 * one that split lines at NUL read a different file than was given.
 */
int nsb_text_check(const char *file, const char *text, size_t len,
		   const char *want)
{
	const char *bad = memchr(text, 0, len), *p, *line = text;
	size_t ln = 1;

	if (!bad)
		bad = nsb_utf8_bad(text);
	if (!bad)
		return 0;
	for (p = text; p < bad; p++)
		if (*p == '\n') {
			ln++;
			line = p + 1;
		}
	return nsb_bad_at(file, ln, "column %zu: %s (byte 0x%02x): want %s",
			  (size_t)(bad - line) + 1,
			  *bad ? "not UTF-8 text" : "a NUL byte",
			  (unsigned char)*bad, want);
}

size_t nsb_ctl_len(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;

	if (!u[0])
		return 0;
	if (u[0] < 0x20 || u[0] == 0x7f)
		return 1;
	/* C1 controls, U+0085 (NEL) among them: C2 80..C2 9F */
	if (u[0] == 0xc2 && u[1] >= 0x80 && u[1] <= 0x9f)
		return 2;
	/* U+2028 LINE SEPARATOR, U+2029 PARAGRAPH SEPARATOR */
	if (u[0] == 0xe2 && u[1] == 0x80 && (u[2] == 0xa8 || u[2] == 0xa9))
		return 3;
	return 0;
}

/* The escape of the control character of n bytes at s: \x0b, \u2028. */
static int put_escape(char *out, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned int cp = n == 1 ? u[0] : n == 2 ? u[1] :
			  0x2000u | (u[2] & 0x3fu);

	return n == 1 ? sprintf(out, "\\x%02x", cp) :
			sprintf(out, "\\u%04x", cp);
}

bool nsb_has_ctl(const char *s)
{
	size_t n;

	for (; *s; s += n ? n : 1) {
		n = nsb_ctl_len(s);
		if (n)
			return true;
	}
	return false;
}

char *nsb_text_clean(const char *s)
{
	const char *p;
	char *out, *o;
	size_t n, count = 0;

	for (p = s; *p; p += n ? n : 1) {
		n = nsb_ctl_len(p);
		count += n > 0;
	}
	/* "\u2028" is 6 bytes for 3: at most 6 per control character */
	out = malloc(strlen(s) + 6 * count + 1);
	if (!out)
		return NULL;
	for (o = out, p = s; *p; p += n ? n : 1) {
		n = nsb_ctl_len(p);
		if (n)
			o += put_escape(o, p, n);
		else
			*o++ = *p;
	}
	*o = 0;
	return out;
}

void nsb_put_line(FILE *f, const char *s)
{
	char esc[8];
	size_t n;

	for (; *s; s += n ? n : 1) {
		n = nsb_ctl_len(s);
		if (!n) {
			fputc(*s, f);
			continue;
		}
		put_escape(esc, s, n);
		fputs(esc, f);
	}
	fputc('\n', f);
}

/*
 * Markdown: s with a control character as '?' (a cell stays one line),
 * any other as esc() writes it, or itself when esc() returns false.
 */
static void md_put(FILE *f, const char *s, bool (*esc)(FILE *f, char c))
{
	size_t n;

	for (; *s; s += n ? n : 1) {
		n = nsb_ctl_len(s);
		if (n)
			fputc('?', f);
		else if (!esc(f, *s))
			fputc(*s, f);
	}
}

static bool code_esc(FILE *f, char c)
{
	if (c != '|')
		return false;
	fputs("\\|", f);
	return true;
}

/*
 * Code span: as many backticks as the longest run inside plus one (a
 * name with a code fence cannot close it, CommonMark 6.1), a space
 * inside the fences when the name starts or ends with one, '|' as "\|"
 * (a GFM table splits cells before it reads code spans), a control
 * character as '?' (one line).
 */
static size_t longest_tick_run(const char *s)
{
	size_t run = 0, best = 0;

	for (; *s; s++) {
		run = *s == '`' ? run + 1 : 0;
		if (run > best)
			best = run;
	}
	return best;
}

void nsb_md_put_code(FILE *f, const char *s)
{
	size_t ticks = longest_tick_run(s) + 1, i, len = strlen(s);
	bool pad = ticks > 1 || (len && (s[0] == ' ' || s[len - 1] == ' '));

	for (i = 0; i < ticks; i++)
		fputc('`', f);
	if (pad)
		fputc(' ', f);
	md_put(f, s, code_esc);
	if (pad)
		fputc(' ', f);
	for (i = 0; i < ticks; i++)
		fputc('`', f);
}

void nsb_md_code(char *buf, size_t len, const char *s)
{
	char *text = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&text, &n);

	if (len)
		buf[0] = 0;
	if (!m)
		return;
	nsb_md_put_code(m, s);
	if (!fclose(m) && len) {
		/* cut whole: a half code span would open one for the rest */
		if (n < len)
			memcpy(buf, text, n + 1);
		else
			snprintf(buf, len, "`(name too long)`");
	}
	free(text);
}

static bool text_esc(FILE *f, char c)
{
	if (c == '<')
		fputs("&lt;", f);
	else if (c == '&')
		fputs("&amp;", f);
	else if (strchr("\\`*_[]>|#!~", c))
		fprintf(f, "\\%c", c);
	else
		return false;
	return true;
}

void nsb_md_put_text(FILE *f, const char *s)
{
	md_put(f, s, text_esc);
}
