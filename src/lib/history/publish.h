/* SPDX-License-Identifier: GPL-2.0 */
/*
 * publish.h — `nsbench history publish`: the history as a static site a
 * person can browse from file:// or any web server (publish.c, the pages
 * in pubpages.c; what the two share is publish_internal.h).  No script,
 * nothing fetched: HTML with inline CSS and inline SVG charts.
 *
 *   DIR/index.html           families, each benchmark's latest verdict
 *   DIR/regressions.html     change points by commit range, run reports
 *   DIR/costs.html           the in-boot check-cost table, if a
 *                            costs.json was given or found
 *   DIR/b/<stem>.html        one benchmark: trend chart, change points,
 *                            runs (stem: html.h's nsb_html_stem)
 *   DIR/nsbench-publish.json what was written; marks DIR as a site that
 *                            a later publish may replace
 */
#ifndef NSB_PUBLISH_H
#define NSB_PUBLISH_H

#include <regex.h>
#include <stdbool.h>
#include <stdio.h>

#include "src/lib/stats/changepoint.h"
#include "src/lib/history/history.h"

#define NSB_PUBLISH_MARK	"nsbench-publish.json"
/*
 * The most benchmarks a site shows, a page each: 2,000 of two runs are
 * 17 MB and 0.3 s; a history of 100,000 benchmarks made 100,000 pages
 * (835 MB, 14 s).  Past it publish refuses and says --benchmark=RE.
 */
#define NSB_PUBLISH_MAX_PAGES	2000

struct nsb_publish_opts {
	const char *out;	/* the site's directory */
	const char *costs;	/* costs.json; NULL: beside the latest run */
	const char *title;
	const regex_t *re;	/* only the benchmarks it matches, or NULL */
	bool skip_bad;		/* publish a history with bad lines too */
	struct nsb_cp_opts cp;	/* the change points, as `changes` */
};

int nsb_history_publish(const struct nsb_publish_opts *o,
			const struct nsb_history *h);

#endif /* NSB_PUBLISH_H */
