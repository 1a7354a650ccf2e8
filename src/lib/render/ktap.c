// SPDX-License-Identifier: GPL-2.0
/*
 * ktap.c — KTAP and JUnit XML output of test points (see ktap.h).
 */
#include <stdlib.h>
#include <string.h>

#include "src/lib/render/html.h"
#include "src/lib/render/ktap.h"
#include "src/lib/base/nsbench.h"

struct counts {
	size_t pass, fail, error, skip;
};

bool nsb_tpoint_error(const struct nsb_tpoint *t)
{
	return t->result == NSB_T_FAIL &&
	       !strncmp(t->text, NSB_T_ERROR_PREFIX,
			strlen(NSB_T_ERROR_PREFIX));
}

static struct counts count(const struct nsb_tpoint *t, size_t n)
{
	struct counts c = { 0 };
	size_t i;

	for (i = 0; i < n; i++) {
		if (t[i].result == NSB_T_SKIP)
			c.skip++;
		else if (nsb_tpoint_error(&t[i]))
			c.error++;
		else if (t[i].result == NSB_T_FAIL)
			c.fail++;
		else
			c.pass++;
	}
	return c;
}

/* The text of an error row without the prefix its writer gave it. */
static const char *error_text(const struct nsb_tpoint *t)
{
	return t->text + strlen(NSB_T_ERROR_PREFIX);
}

/*
 * A KTAP name may not contain '#' (it starts the directive) nor a blank,
 * and a line break would end the result line early: kunit.py splits
 * with str.splitlines(), so \v, \f, \x1c-\x1e, U+0085, U+2028 and
 * U+2029 break it as \n does (a forged "ok" line read a regression as a
 * pass).  The readers clean names (nsb_json_clean); this is the last
 * line of defence, and the safe form is what a name becomes.
 */
static bool name_safe(const char *name)
{
	return !nsb_has_ctl(name) && !name[strcspn(name, "# ")];
}

static void put_name(FILE *f, const char *name)
{
	size_t n;

	for (; *name; name += n ? n : 1) {
		n = nsb_ctl_len(name);
		fputc(n || strchr("# ", *name) ? '_' : *name, f);
	}
}

/* Text after '#' or in a diagnostic line: one line, no '#' confusion. */
static void put_text(FILE *f, const char *s)
{
	size_t n;

	for (; *s; s += n ? n : 1) {
		n = nsb_ctl_len(s);
		fputc(n ? ' ' : *s, f);
	}
}

/*
 * A "# " diagnostic line.  "# Subtest: X" would open a nested test for
 * kunit_parser.py, so a text that starts that way is quoted.
 */
static void put_diag(FILE *f, const char *s)
{
	fputs(strncmp(s, "Subtest:", 8) ? "# " : "# '", f);
	put_text(f, s);
	fputc('\n', f);
}

/* Text in a description: '#' would end it (ktap.rst: "can't include #"). */
static void put_desc(FILE *f, const char *s)
{
	size_t n;

	for (; *s; s += n ? n : 1) {
		n = nsb_ctl_len(s);
		fputc(n ? ' ' : *s == '#' ? '_' : *s, f);
	}
}

/*
 * A verdict goes in the description, after the name: "not ok 1 name
 * regression +3.00 % (95% CI ...)".  kunit.py parse keeps a result
 * line's description as the test's name and drops what follows " # "
 * (kunit_parser.py: TEST_RESULT's name is "[^#]*"), so there the change
 * would never reach its output.  The name stays the first word (it has
 * no blank), which is how nsbench-lava.sh reads it.  SKIP and ERROR are
 * directives, with their reason after them as ktap.rst has it.
 */
static void ktap_result(FILE *f, size_t num, const struct nsb_tpoint *t)
{
	fprintf(f, "%s %zu ", t->result == NSB_T_FAIL ? "not ok" : "ok", num);
	put_name(f, t->name);
	if (t->result == NSB_T_SKIP) {
		fputs(" # SKIP", f);
		if (t->text[0])
			fputc(' ', f);
		put_text(f, t->text);
	} else if (nsb_tpoint_error(t)) {
		fputs(" # ERROR ", f);
		put_text(f, error_text(t));
	} else if (t->text[0]) {
		fputc(' ', f);
		put_desc(f, t->text);
	}
	fputc('\n', f);
}

void nsb_ktap_print(FILE *f, const char *const *header, size_t nheader,
		    const struct nsb_tpoint *t, size_t n)
{
	size_t i;

	fprintf(f, "KTAP version 1\n1..%zu\n", n);
	for (i = 0; i < nheader; i++)
		put_diag(f, header[i]);
	for (i = 0; i < n; i++) {
		/* a name made safe: its original on the line before */
		if (!name_safe(t[i].name)) {
			fputs("# name: ", f);
			put_text(f, t[i].name);
			fputc('\n', f);
		}
		if (t[i].detail[0])
			put_diag(f, t[i].detail);
		ktap_result(f, i + 1, &t[i]);
	}
}

void nsb_ktap_totals(FILE *f, const struct nsb_tpoint *t, size_t n)
{
	struct counts c = count(t, n);

	fprintf(f, "# Totals: pass:%zu fail:%zu xfail:0 xpass:0 skip:%zu error:%zu\n",
		c.pass, c.fail, c.skip, c.error);
}

/*
 * "models/in_userns/2015/..." -> classname "models.in_userns", escaped
 * as the name is: a '"' or '<' in it made the whole file invalid XML
 * and CI showed no results at all.
 */
static void classname(FILE *f, const char *name)
{
	const char *end = strchr(name, '/');
	char *cls;
	size_t i;

	end = end ? strchr(end + 1, '/') : NULL;
	cls = strndup(name, end ? (size_t)(end - name) : strlen(name));
	if (!cls)
		return;
	for (i = 0; cls[i]; i++)
		if (cls[i] == '/')
			cls[i] = '.';
	nsb_xml_put(f, cls);
	free(cls);
}

/*
 * time="..." in seconds as a plain decimal (JUnit schemas type it
 * xs:decimal, which has no exponent): picoseconds are the last digit a
 * nanosecond-scale benchmark needs.
 */
static void put_time(FILE *f, double seconds)
{
	char buf[64];
	size_t len;

	snprintf(buf, sizeof(buf), "%.12f", seconds >= 0 ? seconds : 0);
	len = strlen(buf);
	while (len > 2 && buf[len - 1] == '0' && buf[len - 2] != '.')
		buf[--len] = 0;
	fprintf(f, " time=\"%s\"", buf);
}

/* <failure>, <error> or <skipped> of a point that did not pass. */
static void junit_outcome(FILE *f, const struct nsb_tpoint *t)
{
	const char *tag = "failure", *type = "regression", *msg = t->text;

	if (t->result == NSB_T_SKIP) {
		fputs("      <skipped message=\"", f);
		nsb_xml_put(f, msg);
		fputs("\"/>\n", f);
		return;
	}
	if (nsb_tpoint_error(t)) {
		tag = "error";
		type = "error";
		msg = error_text(t);
	}
	fprintf(f, "      <%s message=\"", tag);
	nsb_xml_put(f, msg);
	fprintf(f, "\" type=\"%s\">", type);
	nsb_xml_put(f, t->detail);
	fprintf(f, "</%s>\n", tag);
}

static void junit_case(FILE *f, const struct nsb_tpoint *t)
{
	fputs("    <testcase classname=\"", f);
	classname(f, t->name);
	fputs("\" name=\"", f);
	nsb_xml_put(f, t->name);
	fputc('"', f);
	if (t->has_time)
		put_time(f, t->seconds);
	fputs(">\n", f);
	if (t->result != NSB_T_OK)
		junit_outcome(f, t);
	if (t->text[0] || t->detail[0]) {
		fputs("      <system-out>", f);
		nsb_xml_put(f, t->text);
		if (t->detail[0]) {
			fputc('\n', f);
			nsb_xml_put(f, t->detail);
		}
		fputs("</system-out>\n", f);
	}
	fputs("    </testcase>\n", f);
}

/* tests= failures= skipped= errors= [time=] of a suite element. */
static void junit_totals(FILE *f, const struct nsb_tpoint *t, size_t n)
{
	struct counts c = count(t, n);
	double seconds = 0;
	bool timed = false;
	size_t i;

	fprintf(f, " tests=\"%zu\" failures=\"%zu\" skipped=\"%zu\" errors=\"%zu\"",
		n, c.fail, c.skip, c.error);
	for (i = 0; i < n; i++) {
		if (t[i].has_time) {
			seconds += t[i].seconds;
			timed = true;
		}
	}
	if (timed)
		put_time(f, seconds);
}

void nsb_junit_print(FILE *f, const char *suite, const struct nsb_tpoint *t,
		     size_t n)
{
	size_t i;

	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites", f);
	junit_totals(f, t, n);
	fputs(">\n  <testsuite name=\"", f);
	nsb_xml_put(f, suite);
	fputc('"', f);
	junit_totals(f, t, n);
	fputs(">\n", f);
	for (i = 0; i < n; i++)
		junit_case(f, &t[i]);
	fputs("  </testsuite>\n</testsuites>\n", f);
}
