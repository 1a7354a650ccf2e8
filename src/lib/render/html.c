// SPDX-License-Identifier: GPL-2.0
/*
 * html.c — escaping for HTML and XML text and attributes, hrefs and
 * file names (see html.h).  Every string of a published page or a JUnit
 * file passes one of these.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/render/html.h"

/*
 * The length of the valid UTF-8 sequence at s that XML 1.0 allows (no
 * surrogates, no U+FFFE/U+FFFF), or 0: a text cut at a fixed size may
 * end inside a character, and xmllint refuses the whole file for it.
 */
static size_t xml_char_len(const unsigned char *u)
{
	size_t n, i;
	unsigned int cp;

	if (u[0] < 0x80)
		return 1;
	if (u[0] >= 0xc2 && u[0] <= 0xdf)
		n = 2, cp = u[0] & 0x1fu;
	else if (u[0] >= 0xe0 && u[0] <= 0xef)
		n = 3, cp = u[0] & 0x0fu;
	else if (u[0] >= 0xf0 && u[0] <= 0xf4)
		n = 4, cp = u[0] & 0x07u;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((u[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (u[i] & 0x3fu);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 ||
	    cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff) ||
	    cp == 0xfffe || cp == 0xffff)
		return 0;
	return n;
}

/*
 * The character references of markup; HTML 4 has no &apos;, so a page
 * says &#39;.
 */
static const struct {
	char c;
	const char *html, *xml;
} refs[] = {
	{ '&', "&amp;", "&amp;" }, { '<', "&lt;", "&lt;" },
	{ '>', "&gt;", "&gt;" }, { '"', "&quot;", "&quot;" },
	{ '\'', "&#39;", "&apos;" },
};

/*
 * The one escaper of text and attribute values.  XML 1.0 also allows no
 * control character but tab and newlines, and no invalid UTF-8 (a '?'
 * for it); HTML passes both as they are.
 */
static void put_markup(FILE *f, const char *s, bool xml)
{
	size_t n, i;

	for (; *s; s += n) {
		n = xml ? xml_char_len((const unsigned char *)s) : 1;
		if (n != 1) {
			if (n)
				fwrite(s, 1, n, f);
			else
				fputc('?', f);
			n = n ? n : 1;
			continue;
		}
		for (i = 0; i < sizeof(refs) / sizeof(*refs); i++)
			if (refs[i].c == *s)
				break;
		if (i < sizeof(refs) / sizeof(*refs))
			fputs(xml ? refs[i].xml : refs[i].html, f);
		else if (!xml || (unsigned char)*s >= 0x20 ||
			 strchr("\t\n\r", *s))
			fputc(*s, f);
	}
}

void nsb_html_put(FILE *f, const char *s)
{
	put_markup(f, s, false);
}

void nsb_xml_put(FILE *f, const char *s)
{
	put_markup(f, s, true);
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
