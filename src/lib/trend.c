// SPDX-License-Identifier: GPL-2.0
/*
 * trend.c — a benchmark's history as a trend plot with its change points
 * marked.  The look is the stats engineer's template, plots/trend.gp
 * (median and CI band per run); this file only writes its data file and
 * a preamble of gnuplot numbers and marks — a dashed line at each change
 * point with its size, and each segment's median as a flat line — that
 * the template's plot command then draws over.  Strings reach gnuplot as
 * data (src/lib/gnuplot.h), never as code.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/lib/changepoint.h"
#include "src/lib/gnuplot.h"
#include "src/lib/history.h"
#include "src/lib/samples.h"
#include "src/lib/stats.h"

#define WHO "nsbench history plot"

/*
 * The points as rows "run median ci_lo ci_hi label", runs numbered from 0:
 * an axis by run, evenly spaced, reads better than one by the minute; the
 * label is the kernel commit, else the run's date.
 */
static int write_data(FILE *f, const struct nsb_hrec *const *pts, size_t n)
{
	const char *t;
	char label[32];
	size_t i;

	for (i = 0; i < n; i++) {
		t = pts[i]->timestamp ?: "?";
		if (pts[i]->kernel_commit && *pts[i]->kernel_commit)
			snprintf(label, sizeof(label), "%.12s",
				 pts[i]->kernel_commit);
		else
			snprintf(label, sizeof(label), "%.*s",
				 (int)strcspn(t, "T"), t);
		fprintf(f, "%zu %.9g %.9g %.9g ", i, pts[i]->median,
			pts[i]->ci_lo, pts[i]->ci_hi);
		nsb_gp_field(f, label, sizeof(label));
		fputc('\n', f);
	}
	return fclose(f);
}

/*
 * The change points and segment medians, drawn over the template's plot:
 * numbers only (positions by run, sizes in %), no text from the history.
 */
static void marks(FILE *f, size_t n, const struct nsb_cp *cps, size_t ncp)
{
	size_t i;

	for (i = 0; i < ncp; i++) {
		double x = (double)cps[i].index - 0.5;

		if (!isfinite(cps[i].pct))
			continue;
		fprintf(f, "set arrow from %g, graph 0 to %g, graph 1 nohead "
			"dt 2 lw 2 lc rgb \"#c44e52\" front\n", x, x);
		fprintf(f, "set label \"change %+.2f %%\" at %g, graph 0.96 "
			"offset 0.5,0 tc rgb \"#c44e52\" front\n",
			cps[i].pct, x);
	}
	/* each segment's median, as the change-point analysis sees it */
	for (i = 0; ncp && i <= ncp; i++) {
		size_t from = i ? cps[i - 1].index : 0;
		size_t to = i < ncp ? cps[i].index : n;
		double m = i < ncp ? cps[i].before : cps[ncp - 1].after;

		if (!isfinite(m) || to <= from)
			continue;
		fprintf(f, "set arrow from %zu, first %.9g to %zu, first %.9g "
			"nohead lw 3 lc rgb \"#dd8452\" front\n", from, m,
			to - 1, m);
	}
}

static int render(const struct nsb_trend_opts *o, const char *templates,
		  const char *tmp, const char *data, const char *stem,
		  const char *fmt, const char *title, bool icount, size_t n,
		  const struct nsb_cp *cps, size_t ncp)
{
	struct nsb_gp_args a = {
		.kind = "trend", .datafile = data, .title = title,
		.unit = icount ? "guest instructions" : "ns",
		.extra = "run, oldest first (labels: kernel commit, else date)",
	};
	char *vars = NULL, *out = NULL, name[32];
	int ret = -1;
	FILE *f;

	snprintf(name, sizeof(name), "vars-%s.gp", fmt);
	f = nsb_gp_create(tmp, name, &vars);
	if (!f || asprintf(&out, "%s/%s.%s", o->out_dir, stem, fmt) < 0)
		goto out;
	fprintf(f, "fmt = \"%s\"\nwidth = 1000\nheight = 560\nnruns = %zu\n"
		"label_every = %zu\n", fmt, n, (n + 14) / 15);
	marks(f, n, cps, ncp);
	if (fclose(f))
		goto out;
	f = NULL;
	a.vars = vars;
	a.outfile = out;
	ret = nsb_gp_run(templates, &a, WHO, NULL);
	if (!ret)
		printf("%s\n", out);
out:
	if (f)
		fclose(f);
	free(vars);
	free(out);
	return ret;
}

/*
 * The templates: as given, but the default "plots" of a command run
 * elsewhere than the top of the tree means "beside the program".
 */
static const char *templates_of(const struct nsb_trend_opts *o)
{
	if (o->templates && !strcmp(o->templates, "plots") &&
	    !nsb_gp_has_templates(o->templates))
		return nsb_gp_templates(NULL, WHO);
	return nsb_gp_templates(o->templates, WHO);
}

/*
 * The runs' intervals at the coverage they have: an order-statistic CI
 * of the median of 3 rounds covers 75 %, not 95 %; "95%" where each
 * reaches it, "75%" or "75-95%" where some do not.
 */
static void level_label(char *buf, size_t len,
			const struct nsb_hrec *const *pts, size_t n)
{
	double lo, hi;

	if (nsb_history_ci_levels(pts, n, &lo, &hi))
		snprintf(buf, len, "%.0f%%", 100 * lo);
	else
		snprintf(buf, len, "%.0f-%.0f%%", 100 * lo, 100 * hi);
}

int nsb_trend_plot(const struct nsb_trend_opts *o, const char *bench,
		   const struct nsb_hrec *const *pts, size_t n,
		   const struct nsb_cp *cps, size_t ncp)
{
	static const char *const fmts[] = { "svg", "png" };
	bool icount = n && !strcmp(pts[0]->unit, NSB_UNIT_ICOUNT);
	bool want[] = { o->svg, o->png };
	char tmp[PATH_MAX], stem[256], title[320], lvl[32], *data = NULL;
	const char *templates;
	size_t i;
	int ret = -1;
	FILE *f;

	if (n < 2)
		return 0;	/* no line to draw */
	templates = templates_of(o);
	if (!templates)
		return -1;
	if (mkdir(o->out_dir, 0755) && errno != EEXIST) {
		fprintf(stderr, WHO ": %s: %s\n", o->out_dir, strerror(errno));
		return -1;
	}
	if (nsb_gp_mktmp(tmp, sizeof(tmp), "trend"))
		return -1;
	snprintf(stem, sizeof(stem), "%s-", o->stem);
	nsb_gp_file_part(stem + strlen(stem), sizeof(stem) - strlen(stem),
			 bench);
	level_label(lvl, sizeof(lvl), pts, n);
	snprintf(title, sizeof(title), "%s: median and %s CI per run; "
		 "%zu change point(s), dashed, segment medians orange",
		 bench, lvl, ncp);
	f = nsb_gp_create(tmp, "trend.dat", &data);
	if (!f || write_data(f, pts, n))
		goto out;
	ret = 0;
	for (i = 0; !ret && i < 2; i++)
		if (want[i])
			ret = render(o, templates, tmp, data, stem, fmts[i],
				     title, icount, n, cps, ncp);
out:
	free(data);
	nsb_gp_rmtmp(tmp);
	return ret;
}
