/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gnuplot.h — how nsbench hands a plot to gnuplot (plot.c, trend.c,
 * costplot.c).  Every value travels as data: numbers nsbench computed go
 * into a variables file, strings (paths, titles, units) as arguments of
 * `gnuplot -c plots/plot.gp ...`, labels from results as fields of a data
 * file.  No string from a results file or a command line is ever spliced
 * into gnuplot code, so none can run a command.
 */
#ifndef NSB_GNUPLOT_H
#define NSB_GNUPLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The strings a template gets (plots/plot.gp gives them names). */
struct nsb_gp_args {
	const char *kind;	/* template <templates>/<kind>.gp */
	const char *vars;	/* file of numeric variables (nsb_gp_create) */
	const char *outfile;
	const char *datafile;
	const char *title;	/* title_text */
	const char *unit;	/* unit_label */
	const char *extra;	/* per template: an axis name, a 2nd file */
};

/*
 * A private directory for data and variable files: mkdtemp (mode 0700)
 * under $TMPDIR if that is an absolute path, else /tmp.  Returns 0 or -1.
 */
int nsb_gp_mktmp(char *buf, size_t len, const char *what);
/*
 * The most charts one plot command renders (two files each): 100k rows
 * of costs once made one chart per 32 rows without end.  What is left
 * out is said on stderr.
 */
#define NSB_GP_MAX_CHARTS	64
/*
 * What a plot needs before its first chart: out_dir (made if missing)
 * and the private directory (nsb_gp_mktmp; *buf stays "" if it could not
 * be made).  Returns 0, or -1 after "who: why" on stderr.
 */
int nsb_gp_start(const char *who, const char *out_dir, char *buf,
		 size_t len, const char *what);
/* Removes the files of a directory made by nsb_gp_mktmp, then it. */
void nsb_gp_rmtmp(const char *dir);
/*
 * Creates dir/name for writing, O_EXCL|O_NOFOLLOW, mode 0600: never an
 * existing file or a planted link.  *path (malloc'd) names it if path.
 */
FILE *nsb_gp_create(const char *dir, const char *name, char **path);

/*
 * Writes s as one double-quoted field of a gnuplot data file, at most max
 * bytes of it: quotes, backslashes and control characters, which would
 * break the field or the line, become ' / and space; bytes that are not
 * UTF-8 become '?' (an SVG must stay well-formed).
 */
void nsb_gp_field(FILE *f, const char *s, size_t max);
/* The same cleaning in place (newlines kept: a title may have two lines). */
void nsb_gp_clean(char *s);
/* s made fit for a file name: [A-Za-z0-9._-], anything else '_'. */
void nsb_gp_file_part(char *buf, size_t len, const char *s);

/*
 * The templates directory: given (--templates, $NSB_PLOTS) as is; else
 * beside the program, /proc/self/exe's ../share/nsbench/plots (installed),
 * ../plots (build/) or ../../plots (build/check/), then ./plots — each
 * only if it holds plot.gp and neither is writable by other users.
 * Returns NULL, after saying why, if none does.
 */
const char *nsb_gp_templates(const char *given, const char *who);
/* Whether dir holds the driver plots/plot.gp. */
bool nsb_gp_has_templates(const char *dir);

/*
 * Runs `gnuplot -c <templates>/plot.gp KIND VARS DIR OUTFILE DATAFILE
 * TITLE UNIT EXTRA` ($NSB_GNUPLOT instead of gnuplot if set).  log, if not
 * NULL, gets the command as a shell line (--keep-data).  who prefixes
 * messages.  Returns 0, or -1 after saying why.
 */
int nsb_gp_run(const char *templates, const struct nsb_gp_args *a,
	       const char *who, FILE *log);
/*
 * A row chart as out_base.svg and out_base.png, each path printed on
 * stdout once written: per format the variable fmt and the assignments
 * nums (numbers only: width, height, nrows, ...) go to dir/vars-FMT.gp,
 * then nsb_gp_run().  a->outfile and a->vars are set here.
 */
int nsb_gp_plot_rows(const char *dir, const char *templates,
		     struct nsb_gp_args *a, const char *out_base,
		     const char *nums, const char *who);

#endif /* NSB_GNUPLOT_H */
