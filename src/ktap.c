// SPDX-License-Identifier: GPL-2.0
/*
 * ktap.c — KTAP and JUnit XML output of test points (see ktap.h).
 */
#include <string.h>

#include "src/ktap.h"

/*
 * KTAP names may not contain '#' (it starts the directive) and a line
 * break would end the result line; benchmark names have neither today,
 * but a history is data from elsewhere.
 */
static void put_name(FILE *f, const char *name)
{
	for (; *name; name++)
		fputc(strchr("#\n\r\t ", *name) ? '_' : *name, f);
}

/* Text after '#' or in a diagnostic line: one line, no '#' confusion. */
static void put_text(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
}

void nsb_ktap_print(FILE *f, const char *const *header, size_t nheader,
		    const struct nsb_tpoint *t, size_t n)
{
	size_t i;

	fprintf(f, "KTAP version 1\n");
	for (i = 0; i < nheader; i++) {
		fputs("# ", f);
		put_text(f, header[i]);
		fputc('\n', f);
	}
	fprintf(f, "1..%zu\n", n);
	for (i = 0; i < n; i++) {
		if (t[i].detail[0]) {
			fputs("# ", f);
			put_text(f, t[i].detail);
			fputc('\n', f);
		}
		fprintf(f, "%s %zu ", t[i].result == NSB_T_FAIL ? "not ok" :
			"ok", i + 1);
		put_name(f, t[i].name);
		if (t[i].result == NSB_T_SKIP)
			fputs(" # SKIP", f);
		else if (t[i].text[0])
			fputs(" #", f);
		if (t[i].text[0]) {
			fputc(' ', f);
			put_text(f, t[i].text);
		}
		fputc('\n', f);
	}
}

static void xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&apos;", f);
			break;
		default:
			/* XML 1.0 allows no other control characters */
			if ((unsigned char)*s >= 0x20 || strchr("\t\n\r", *s))
				fputc(*s, f);
		}
	}
}

/* "models/in_userns/2015/..." -> classname "models.in_userns" */
static void classname(FILE *f, const char *name)
{
	const char *end = strchr(name, '/');

	end = end ? strchr(end + 1, '/') : NULL;
	for (; *name && name != end; name++)
		fputc(*name == '/' ? '.' : *name, f);
}

static size_t count(const struct nsb_tpoint *t, size_t n,
		    enum nsb_tresult r)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		k += t[i].result == r;
	return k;
}

static void junit_case(FILE *f, const struct nsb_tpoint *t)
{
	fputs("    <testcase classname=\"", f);
	classname(f, t->name);
	fputs("\" name=\"", f);
	xml_text(f, t->name);
	fputs("\" time=\"0\">\n", f);
	if (t->result != NSB_T_OK) {
		fprintf(f, "      <%s message=\"", t->result == NSB_T_FAIL ?
			"failure" : "skipped");
		xml_text(f, t->text);
		fputs(t->result != NSB_T_FAIL ? "\"/>\n" :
		      !strncmp(t->text, "error", 5) ? "\" type=\"error\">" :
		      "\" type=\"regression\">", f);
		if (t->result == NSB_T_FAIL) {
			xml_text(f, t->detail);
			fputs("</failure>\n", f);
		}
	}
	if (t->text[0] || t->detail[0]) {
		fputs("      <system-out>", f);
		xml_text(f, t->text);
		if (t->detail[0]) {
			fputc('\n', f);
			xml_text(f, t->detail);
		}
		fputs("</system-out>\n", f);
	}
	fputs("    </testcase>\n", f);
}

void nsb_junit_print(FILE *f, const char *suite, const struct nsb_tpoint *t,
		     size_t n)
{
	size_t i, fail = count(t, n, NSB_T_FAIL), skip = count(t, n,
							       NSB_T_SKIP);

	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<testsuites tests=\"%zu\" failures=\"%zu\" "
		"skipped=\"%zu\" errors=\"0\">\n", n, fail, skip);
	fputs("  <testsuite name=\"", f);
	xml_text(f, suite);
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" skipped=\"%zu\" "
		"errors=\"0\">\n", n, fail, skip);
	for (i = 0; i < n; i++)
		junit_case(f, &t[i]);
	fputs("  </testsuite>\n</testsuites>\n", f);
}
