/* SPDX-License-Identifier: GPL-2.0 */
/*
 * publish_internal.h — what publish.c and pubpages.c share and nothing
 * else sees (as git's refs/refs-internal.h): the site being written,
 * its benchmarks, and the pages pubpages.c writes for publish.c.  The
 * command and the tests know only publish.h; no file outside
 * src/lib/history/ includes this one (t84).
 */
#ifndef NSB_PUBLISH_INTERNAL_H
#define NSB_PUBLISH_INTERNAL_H

#include <stddef.h>

#include <jansson.h>

#include "src/lib/stats/compare.h"
#include "src/lib/history/publish.h"

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

#endif /* NSB_PUBLISH_INTERNAL_H */
