// SPDX-License-Identifier: GPL-2.0
/*
 * trend.c — the trend chart (trend.h): a median and its CI run by run,
 * from a trend file (nsbench plot trend) or the CI history with its
 * change points marked (nsbench history plot).  The look is the stats
 * engineer's template, plots/trend.gp (median and CI band per run); this
 * file only writes its data file and a preamble of gnuplot numbers and
 * marks — a dashed line at each change point with its size, and each
 * segment's median as a flat line — that the template's plot command
 * then draws over.  Strings reach gnuplot as data
 * (src/lib/render/gnuplot.h), never as code.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/lib/stats/changepoint.h"
#include "src/lib/base/escape.h"
#include "src/lib/render/gnuplot.h"
#include "src/lib/history/histjudge.h"
#include "src/lib/history/history.h"
#include "src/lib/base/mem.h"
#include "src/lib/base/nsbench.h"
#include "src/lib/io/samples.h"
#include "src/lib/stats/stats.h"
#include "src/lib/render/trend.h"


/*
 * The points as rows "run median ci_lo ci_hi label", runs numbered from 0:
 * an axis by run, evenly spaced, reads better than one by the minute.
 */
static int write_data(FILE *f, const struct nsb_trend_pt *pts, size_t n,
		      size_t label_max)
{
	size_t i;

	for (i = 0; i < n; i++) {
		fprintf(f, "%zu %.9g %.9g %.9g ", i, pts[i].median,
			pts[i].ci_lo, pts[i].ci_hi);
		nsb_gp_field(f, pts[i].label, label_max);
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

static int render(const struct nsb_trend_chart *ch, const char *data,
		  const char *fmt, size_t n)
{
	struct nsb_gp_args a = {
		.kind = "trend", .datafile = data, .title = ch->title,
		.unit = ch->unit, .extra = ch->extra,
	};
	char *vars = NULL, *out = NULL, name[32];
	int ret = -1;
	FILE *f;

	snprintf(name, sizeof(name), "vars-%s.gp", fmt);
	f = nsb_gp_create(ch->tmp, name, &vars);
	if (!f || asprintf(&out, "%s.%s", ch->out_base, fmt) < 0)
		goto out;
	fprintf(f, "fmt = \"%s\"\nwidth = 1000\nheight = 560\nnruns = %zu\n"
		"label_every = %zu\n", fmt, n, (n + 14) / 15);
	marks(f, n, ch->cps, ch->ncp);
	if (fclose(f))
		goto out;
	f = NULL;
	a.vars = vars;
	a.outfile = out;
	ret = nsb_gp_run(ch->templates, &a, ch->who, ch->log);
	if (!ret)
		printf("%s\n", out);
out:
	if (f)
		fclose(f);
	free(vars);
	free(out);
	return ret;
}

int nsb_trend_render(const struct nsb_trend_chart *ch,
		     const struct nsb_trend_pt *pts, size_t n)
{
	static const char *const fmts[] = { "svg", "png" };
	bool want[] = { ch->svg, ch->png };
	char *data = NULL;
	int ret = -1;
	size_t i;
	FILE *f;

	f = nsb_gp_create(ch->tmp, "trend.dat", &data);
	if (!f || write_data(f, pts, n, ch->label_max))
		goto out;
	ret = 0;
	for (i = 0; !ret && i < 2; i++)
		if (want[i])
			ret = render(ch, data, fmts[i], n);
out:
	free(data);
	return ret;
}

/* --- a trend file ------------------------------------------------------ */

void nsb_trend_pts_free(struct nsb_trend_pt *pts, size_t n)
{
	nsb_free_each(pts, pts ? n : 0, sizeof(*pts),
		      offsetof(struct nsb_trend_pt, label));
}

/* One row into pts[n], grown as needed; 1 a point, 0 a blank, -1 bad. */
static int trend_row(const char *who, const char *file, long ln,
		     const char *line, struct nsb_trend_pt **pts, size_t *n,
		     size_t *cap)
{
	/* words of the row as long as they are (%ms): none cut at 255 */
	char *when = NULL, *commit = NULL;
	double m, lo, hi;
	int got, ret = -1;

	if (!line[strspn(line, " \t\r")] || line[strspn(line, " \t")] == '#')
		return 0;
	got = sscanf(line, "%ms %lf %lf %lf %ms", &when, &m, &lo, &hi,
		     &commit);
	if (got < 4) {
		fprintf(stderr, "%s: %s:%ld: want \"<UTC time> median ci_lo "
			"ci_hi [commit]\"\n", who, file, ln);
		goto out;
	}
	/* gnuplot would draw nan and inf as nothing, or as a wall */
	if (!isfinite(m) || !isfinite(lo) || !isfinite(hi) || lo > m ||
	    m > hi) {
		fprintf(stderr, "%s: %s:%ld: want finite numbers with ci_lo "
			"<= median <= ci_hi\n", who, file, ln);
		goto out;
	}
	if (got < 5) {
		free(commit);
		commit = strndup(when, strcspn(when, "T"));
		if (!commit)
			goto out;
	}
	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : 64;
		struct nsb_trend_pt *p = realloc(*pts, c * sizeof(*p));

		if (!p)
			goto out;
		*pts = p;
		*cap = c;
	}
	(*pts)[(*n)++] = (struct nsb_trend_pt){ m, lo, hi, commit };
	commit = NULL;		/* the point's label now */
	ret = 1;
out:
	free(when);
	free(commit);
	return ret;
}

long nsb_trend_read(const char *who, const char *file,
		    struct nsb_trend_pt **pts)
{
	size_t len, n = 0, cap = 0;
	/* the one checked reader: a FIFO or /dev/zero hung fopen/fgets */
	char *text = nsb_read_input(file, NSB_INPUT_MAX, &len), *line, *next;
	long ln = 0;

	*pts = NULL;
	if (!text)
		return -1;
	/* a NUL byte ended the line for fgets, which then read forever */
	if (nsb_text_check(file, text, len, "text rows \"<UTC time> median "
			   "ci_lo ci_hi [commit]\""))
		goto bad;
	for (line = text; *line; line = next) {
		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = 0;
		if (trend_row(who, file, ++ln, line, pts, &n, &cap) < 0)
			goto bad;
	}
	free(text);
	return (long)n;
bad:
	free(text);
	nsb_trend_pts_free(*pts, n);
	*pts = NULL;
	return -1;
}

/* --- the CI history ---------------------------------------------------- */

/*
 * The templates: as given, but the default "plots" of a command run
 * elsewhere than the top of the tree means "beside the program".
 */
static const char *templates_of(const struct nsb_trend_opts *o)
{
	if (o->templates && !strcmp(o->templates, "plots") &&
	    !nsb_gp_has_templates(o->templates))
		return nsb_gp_templates(NULL, nsb_prog());
	return nsb_gp_templates(o->templates, nsb_prog());
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
	int vkind = nsb_history_vkind(pts, n);
	char tmp[PATH_MAX], stem[256], lvl[32], *base = NULL, *title = NULL;
	struct nsb_trend_chart ch = {
		.who = nsb_prog(), .tmp = tmp,
		.svg = o->svg, .png = o->png,
		.unit = vkind == NSB_V_INSN ? "guest instructions" :
			vkind == NSB_V_COUNT ? pts[0]->unit : "ns",
		.extra = "run, oldest first (labels: kernel commit, else date)",
		.label_max = 32, .cps = cps, .ncp = ncp,
	};
	struct nsb_trend_pt *tp;
	char (*labels)[32];
	size_t i;
	int ret = -1;

	if (n < 2)
		return 0;	/* no line to draw */
	ch.templates = templates_of(o);
	if (!ch.templates)
		return -1;
	if (mkdir(o->out_dir, 0755) && errno != EEXIST) {
		nsb_err("%s: %s\n", o->out_dir, strerror(errno));
		return -1;
	}
	tp = calloc(n, sizeof(*tp));
	labels = calloc(n, sizeof(*labels));
	if (!tp || !labels || nsb_gp_mktmp(tmp, sizeof(tmp), "trend"))
		goto out;
	snprintf(stem, sizeof(stem), "%s-", o->stem);
	nsb_gp_file_part(stem + strlen(stem), sizeof(stem) - strlen(stem),
			 bench);
	if (asprintf(&base, "%s/%s", o->out_dir, stem) < 0) {
		base = NULL;
		goto rm;
	}
	ch.out_base = base;
	level_label(lvl, sizeof(lvl), pts, n);
	/* as long as the benchmark's name: title[320] cut it */
	if (asprintf(&title, "%s: median and %s CI per run; %zu change "
		     "point(s), dashed, segment medians orange", bench, lvl,
		     ncp) < 0) {
		title = NULL;
		goto rm;
	}
	ch.title = title;
	/* the label: the kernel commit, else the run's date */
	for (i = 0; i < n; i++) {
		const char *t = pts[i]->timestamp ?: "?";

		if (pts[i]->kernel_commit && *pts[i]->kernel_commit)
			snprintf(labels[i], sizeof(labels[i]), "%.12s",
				 pts[i]->kernel_commit);
		else
			snprintf(labels[i], sizeof(labels[i]), "%.*s",
				 (int)strcspn(t, "T"), t);
		tp[i] = (struct nsb_trend_pt){ pts[i]->median, pts[i]->ci_lo,
					       pts[i]->ci_hi, labels[i] };
	}
	ret = nsb_trend_render(&ch, tp, n);
rm:
	nsb_gp_rmtmp(tmp);
out:
	free(title);
	free(base);
	free(tp);
	free(labels);
	return ret;
}
