// SPDX-License-Identifier: GPL-2.0
/*
 * test_html.c — html.c's escapes, one by one: text and attributes, hrefs
 * (no scheme can start one, '#' and '?' stay in the path), file stems
 * (no '/', no "..", no leading '.', look-alike names apart), and an SVG
 * chart of a flat series at a large value that ends (its gridlines are
 * counted, not summed).
 */
#include <stdlib.h>
#include <string.h>

#include "src/lib/history/history.h"
#include "src/lib/render/html.h"
#include "src/lib/render/svgtrend.h"
#include "tests/tap.h"

/* What fn wrote for s, malloc'd. */
static char *written(void (*fn)(FILE *, const char *), const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(f, s);
	fclose(f);
	return buf;
}

static void check(void (*fn)(FILE *, const char *), const char *in,
		  const char *want, const char *what)
{
	char *got = written(fn, in);

	ok(!strcmp(got, want), "%s: got '%s'", what, got);
	free(got);
}

static void stems(void)
{
	static const char *const names[] = {
		"../../etc", "../../etc/passwd", ".hidden", "a/b", "a_b",
		"<script>alert(1)</script>", "", "A", "a",
	};
	char s[NSB_ARRAY_SIZE(names)][96];
	size_t i, j;
	bool safe = true, apart = true;

	for (i = 0; i < NSB_ARRAY_SIZE(names); i++) {
		nsb_html_stem(s[i], sizeof(s[i]), names[i]);
		safe &= !strchr(s[i], '/') && !strstr(s[i], "..") &&
			s[i][0] != '.' && strspn(s[i], "abcdefghijklmnopqrstuvwxyz"
			"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == strlen(s[i]);
		for (j = 0; j < i; j++)
			apart &= strcmp(s[i], s[j]) != 0;
	}
	ok(safe, "stems: only [A-Za-z0-9_-] (%s, %s)", s[0], s[5]);
	ok(apart, "stems: a/b and a_b, A and a apart");
	ok(!strncmp(s[3], "a_b-", 4),
	   "stems: the name readable first (%s)", s[3]);
}

static void flat_chart(void)
{
	struct nsb_hrec r = { .run = "r", .unit = "wall-clock ns",
			      .median = 1e12, .ci_lo = 1e12, .ci_hi = 1e12 };
	const struct nsb_hrec *pts[] = { &r, &r, &r };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	nsb_svg_trend(f, pts, 3, NULL, 0, false);
	fclose(f);
	ok(buf && strstr(buf, "</svg>") && !strstr(buf, "nan"),
	   "a flat series at 1e12 ns: a chart, no NaN (%zu bytes)", len);
	free(buf);
}

int main(void)
{
	plan_no_plan();
	check(nsb_html_put, "<a href=\"x\" onclick='y'>&amp;</a>",
	      "&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;amp;"
	      "&lt;/a&gt;", "text: every special character a reference");
	check(nsb_html_put_href, "javascript:alert(1)",
	      "javascript%3Aalert%281%29", "href: no scheme");
	check(nsb_html_put_href, "../r/ab 1/run #2?.json",
	      "../r/ab%201/run%20%232%3F.json", "href: '#', '?', ' ' encoded");
	check(nsb_html_put_href, "a\"><b>", "a%22%3E%3Cb%3E",
	      "href: cannot close the attribute");
	stems();
	flat_chart();
	return done_testing();
}
