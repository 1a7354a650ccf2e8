/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plot.h — a comparison as gnuplot charts (plot.c): per benchmark family
 * the A/B shift with its CI (<stem>-ab-<family>), cost against depth:N
 * (<stem>-depth-<family>) and the sample distributions
 * (<stem>-dist-<family>), each output's path printed on stdout.
 */
#ifndef NSB_PLOT_H
#define NSB_PLOT_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

struct nsb_comparison;

struct nsb_plot {
	const char *out_dir;
	const char *templates;	/* NULL: found (nsb_gp_templates) */
	const char *stem;
	bool svg, png;
	bool keep;		/* keep the data, and gnuplot.sh to rerun it */
	char tmp[PATH_MAX];	/* private: data and variables for gnuplot */
	FILE *log;		/* keep: the gnuplot command lines */
	unsigned int seq;	/* numbers the files in tmp */
};

/* The templates, the private directory, the log if keep; 0 or 2. */
int nsb_plot_start(struct nsb_plot *p);
/* The private directory removed, or (keep) named on stderr. */
void nsb_plot_finish(struct nsb_plot *p);
/* Every chart of c; 0, or 2 after why. */
int nsb_plot_comparison(struct nsb_plot *p, const struct nsb_comparison *c);

#endif /* NSB_PLOT_H */
