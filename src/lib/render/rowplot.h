/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rowplot.h — the rows of a JSON file as row charts (plots/KIND.gp): the
 * one driver of `nsbench plot costs` (costplot.c) and `plot profile`
 * (profplot.c).  A plot says what its charts are; the driver makes the
 * output and private directories, writes each chart's data file, names
 * its SVG and PNG and runs gnuplot.
 */
#ifndef NSB_ROWPLOT_H
#define NSB_ROWPLOT_H

#include <stddef.h>
#include <stdio.h>

#include "src/lib/base/strbuf.h"

/*
 * One chart, as the plot's chart function describes it.  part is a file
 * name's part (nsb_gp_file_part bounds it); the title and the numbers
 * are as long as the data makes them.
 */
struct nsb_rowchart {
	struct nsb_sb title;
	char part[160];		/* after STEM-KIND in the file names */
	const char *unit;	/* of the axis */
	int width, height;	/* pixels; 0: 1000 by top + 24 a row */
	struct nsb_sb nums;	/* more gnuplot assignments, numbers only */
};

struct nsb_rowplot {
	const char *who;	/* prefixes messages */
	const char *kind;	/* plots/KIND.gp; files STEM-KIND*.svg */
	const char *tmp;	/* the private directory's name */
	int top;		/* pixels above the rows */
	int n;			/* charts, at most NSB_GP_MAX_CHARTS */
	/* Chart k's data rows to f, and its names; returns its rows. */
	int (*chart)(FILE *f, int k, struct nsb_rowchart *ch, void *arg);
	void *arg;
};

/* The charts in out_dir: 0, or 2 after saying why. */
int nsb_rowplot(const struct nsb_rowplot *p, const char *out_dir,
		const char *stem, const char *templates);

#endif /* NSB_ROWPLOT_H */
