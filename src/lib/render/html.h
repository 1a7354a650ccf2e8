/* SPDX-License-Identifier: GPL-2.0 */
/*
 * html.h — writing static HTML and SVG from data from elsewhere:
 * benchmark names, run ids, commits and paths out of a history are text,
 * never markup, and never a path of their own choosing.
 */
#ifndef NSB_HTML_H
#define NSB_HTML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Text or an attribute value: & < > " ' as character references. */
void nsb_html_put(FILE *f, const char *s);
/*
 * The same for XML 1.0 (JUnit): &apos;, and neither a control character
 * (tab and newlines but) nor invalid UTF-8, which make the whole file
 * invalid: the first dropped, the second a '?'.
 */
void nsb_xml_put(FILE *f, const char *s);
/* printf, then the result as nsb_html_put. */
void nsb_html_printf(FILE *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * A relative path as an href: every byte but [A-Za-z0-9._~/-]
 * percent-encoded, so '#', '?', ':' and '%' in a name stay part of the
 * path and no scheme ("javascript:") can start it.
 */
void nsb_html_put_href(FILE *f, const char *path);

/*
 * A file-name stem for name: at most 60 bytes of it with every byte but
 * [A-Za-z0-9_-] as '_', then '-' and 16 hex digits of its FNV-1a hash.
 * No '/', no "..", no leading '.': a name cannot leave its directory,
 * and two names that read alike still get files of their own.
 */
void nsb_html_stem(char *buf, size_t len, const char *name);

#endif /* NSB_HTML_H */
