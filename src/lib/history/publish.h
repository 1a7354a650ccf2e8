/* SPDX-License-Identifier: GPL-2.0 */
/*
 * publish.h — `nsbench history publish`: the history as a static site a
 * person can browse from file:// or any web server (publish.c, the pages
 * in pubpages.c).  No script, nothing fetched: HTML with inline CSS and
 * inline SVG charts.
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

#include <jansson.h>

#include "src/lib/stats/changepoint.h"
#include "src/lib/stats/compare.h"
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

/* One benchmark as the site shows it. */
struct nsb_pub_bench {
	const char *name;
	char stem[96];
	size_t family_len;	/* "sys/exec" of "sys/exec/bin/init/d0" */
	const struct nsb_hrec **pts;	/* usable points, oldest first */
	size_t n;
	struct nsb_cp *cps;
	size_t ncp;
	int vkind;		/* enum nsb_vkind of its values */
	const struct nsb_hrec *last;	/* its newest record, any status */
	const struct nsb_hrec *base;	/* what the verdict compares with */
	enum nsb_verdict verdict;	/* NSB_SKIP/ERROR: last not ok */
	double pct[3];
	struct nsb_interval shift;
};

struct nsb_pub {
	const struct nsb_publish_opts *o;
	const struct nsb_history *h;
	struct nsb_pub_bench *b;	/* sorted by name */
	size_t n;
	const struct nsb_hrec **run_first;	/* a record per run */
	char *out;		/* o->out without trailing slashes */
	char *root;		/* the site's absolute path, once renamed */
	char *tmp;		/* where it is written */
	json_t *costs;		/* the costs.json, or NULL */
	char *costs_path;
	json_t *pages;		/* files written, for the mark */
};

int nsb_history_publish(const struct nsb_publish_opts *o,
			const struct nsb_history *h);

/* --- pubpages.c: the pages ------------------------------------------- */

/* Each writes one page into p->tmp; 0, or -1 after saying why. */
int nsb_pub_index(struct nsb_pub *p);
int nsb_pub_bench_page(struct nsb_pub *p, const struct nsb_pub_bench *b);
int nsb_pub_regressions(struct nsb_pub *p);
int nsb_pub_costs(struct nsb_pub *p);

/*
 * The run's report (report.html, .md or .txt beside its results files
 * or one directory up, as scripts/ab.sh and run-main.sh leave them),
 * else its first results file: a path relative to the site's root,
 * malloc'd; NULL if there is none.
 */
char *nsb_pub_run_link(const struct nsb_pub *p, const char *run,
		       const char **what);

#endif /* NSB_PUBLISH_H */
