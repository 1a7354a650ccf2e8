/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trend.h — a trend chart: a benchmark's median with its CI, run by run,
 * rendered by gnuplot through plots/trend.gp.  One renderer for both
 * its callers: `nsbench plot trend FILE` (rows of a text file) and
 * `nsbench history plot` (the CI history, change points marked).  The
 * publish site draws its own SVG (svgtrend.c): another output kind.
 */
#ifndef NSB_TREND_H
#define NSB_TREND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct nsb_cp;
struct nsb_hrec;

/* One run of a trend: its median and CI, and its tic label. */
struct nsb_trend_pt {
	double median, ci_lo, ci_hi;
	const char *label;
};

/* One chart, as <out_base>.svg and/or <out_base>.png. */
struct nsb_trend_chart {
	const char *who;	/* prefixes errors: "nsbench plot" */
	const char *templates;	/* where trend.gp is */
	const char *tmp;	/* a private directory (nsb_gp_mktmp) */
	FILE *log;		/* the gnuplot command lines, or NULL */
	const char *out_base;
	bool svg, png;
	const char *title, *unit, *extra;	/* extra: the x axis */
	size_t label_max;	/* bytes of a tic label */
	const struct nsb_cp *cps;	/* change points marked, or NULL */
	size_t ncp;
};

/*
 * The points as trend.dat in ch->tmp, then each format: its variables
 * (and the marks of the change points), gnuplot, the output's path on
 * stdout.  0, or -1 after "who: why" on stderr.
 */
int nsb_trend_render(const struct nsb_trend_chart *ch,
		     const struct nsb_trend_pt *pts, size_t n);

/*
 * A trend file's rows "<UTC time> median ci_lo ci_hi [commit]" as points
 * (label: the commit, else the date), *pts malloc'd with their labels;
 * the number of points, or -1 after "who: file:line: why" on stderr.
 */
long nsb_trend_read(const char *who, const char *file,
		    struct nsb_trend_pt **pts);
void nsb_trend_pts_free(struct nsb_trend_pt *pts, size_t n);

/* history plot: one benchmark's runs, change points marked. */
struct nsb_trend_opts {
	const char *out_dir, *templates, *stem;
	bool svg, png;
};
int nsb_trend_plot(const struct nsb_trend_opts *o, const char *bench,
		   const struct nsb_hrec *const *pts, size_t n,
		   const struct nsb_cp *cps, size_t ncp);

#endif /* NSB_TREND_H */
