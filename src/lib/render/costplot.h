/* SPDX-License-Identifier: GPL-2.0 */
/*
 * costplot.h — private to the check-cost chart: costplot.c reads
 * costs.json into points and families, costpanel.c lays them out in
 * panels and pages and writes each page's data and numbers.  No other
 * file includes it; the public entry is nsb_costs_plot() (costs.h).
 */
#ifndef NSB_COSTPLOT_H
#define NSB_COSTPLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "src/lib/stats/costs.h"

struct nsb_rowchart;

/* Verdicts as plots/costs.gp draws them (column 5 of the data). */
enum {
	NSB_CP_SAME, NSB_CP_FASTER, NSB_CP_SLOWER, NSB_CP_NOISY,
	NSB_CP_DECIDES,
};

/* A check under one LSM: the rows of one heading of the table. */
struct nsb_cp_family {
	const char *seed, *sw, *check, *lsm;	/* strings of costs.json */
};

/* A row with a shift. */
struct nsb_cp_point {
	double est, lo, hi, pct;
	int verdict;		/* NSB_CP_* */
	bool unreliable;	/* '*': judged against its A/A residual */
	const char *word;	/* the table's verdict, as costs.json has it */
	const char *label;
	size_t fam;
};

/*
 * Rows of one family drawn on one x range: all of them, or those of one
 * size where a family's shifts differ so much that a shared axis would
 * draw the small ones as dots on zero (band of nbands).
 */
struct nsb_cp_panel {
	size_t fam, *rows, n;	/* rows: indices of points, table order */
	double lo, hi, step;	/* x range and tick step */
	bool zoomed;		/* 0 is off the axis: a narrow CI far out */
	int band, nbands;
};

struct nsb_cp {
	const char *unit;
	const char *quantity;	/* a cache-model quantity, or NULL */
	struct nsb_cp_point *pt;
	size_t npt;
	struct nsb_cp_family *fam;
	size_t nfam;
	struct nsb_cp_panel *pan;
	size_t npan;
	size_t *page;		/* page k: panels page[k] .. page[k+1]-1 */
	int np;
};

/* The panels of every family and the pages they fill; -1: no memory. */
int nsb_cp_panels(struct nsb_cp *cp);
/*
 * Page k's data to f (blocks of rows, then blocks of ticks, a pair per
 * panel) and its size and numbers to ch; returns its rows.
 */
int nsb_cp_page(const struct nsb_cp *cp, int k, FILE *f,
		struct nsb_rowchart *ch);

#endif /* NSB_COSTPLOT_H */
