// SPDX-License-Identifier: GPL-2.0
/*
 * html.c — escaping for HTML text and attributes, hrefs and file names
 * (see html.h).  Every string of a published page passes one of these.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/html.h"

void nsb_html_put(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

void nsb_html_printf(FILE *f, const char *fmt, ...)
{
	char *s = NULL;
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (r < 0)
		return;
	nsb_html_put(f, s);
	free(s);
}

static bool url_safe(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || (c && strchr("._~/-", c));
}

void nsb_html_put_href(FILE *f, const char *path)
{
	const unsigned char *p = (const unsigned char *)path;

	for (; *p; p++)
		if (url_safe(*p))
			fputc(*p, f);
		else
			fprintf(f, "%%%02X", *p);
}

static uint64_t fnv1a(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

void nsb_html_stem(char *buf, size_t len, const char *name)
{
	char part[61];
	size_t i;

	/* readable part first, so a directory listing sorts by name */
	for (i = 0; name[i] && i < sizeof(part) - 1; i++) {
		unsigned char c = (unsigned char)name[i];

		part[i] = url_safe(c) && c != '.' && c != '/' && c != '~' ?
			  (char)c : '_';
	}
	part[i] = 0;
	snprintf(buf, len, "%s-%016llx", part,
		 (unsigned long long)fnv1a(name));
}
