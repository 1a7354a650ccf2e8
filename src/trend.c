// SPDX-License-Identifier: GPL-2.0
/*
 * trend.c — a benchmark's history as a trend plot with its change points
 * marked.  The look is the stats engineer's template, plots/trend.gp
 * (median and CI band over time); this file only writes its data file and
 * a preamble of gnuplot variables and marks — a dashed line at each
 * change point with its size, and each segment's median as a flat line —
 * that the template's plot command then draws over.
 */
#include <errno.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "src/changepoint.h"
#include "src/history.h"
#include "src/samples.h"

extern char **environ;

/* Quotes s for a gnuplot single-quoted string ('' escapes a quote). */
static void gp_str(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

static time_t when(const struct nsb_hrec *r)
{
	struct tm tm = { 0 };

	if (!r->timestamp ||
	    !strptime(r->timestamp, "%Y-%m-%dT%H:%M:%S", &tm))
		return 0;
	return timegm(&tm);
}

static void put_time(FILE *f, time_t t)
{
	char buf[32];
	struct tm tm;

	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", gmtime_r(&t, &tm));
	fprintf(f, "\"%s\"", buf);
}

static int write_data(const char *path, const struct nsb_hrec *const *pts,
		      size_t n)
{
	FILE *f = fopen(path, "w");
	size_t i;

	if (!f)
		return -1;
	for (i = 0; i < n; i++)
		fprintf(f, "%s %.9g %.9g %.9g\n", pts[i]->timestamp,
			pts[i]->median, pts[i]->ci_lo, pts[i]->ci_hi);
	return fclose(f);
}

/* The change points and segment medians, drawn by whatever plots next. */
static void marks(FILE *f, const struct nsb_hrec *const *pts, size_t n,
		  const struct nsb_cp *cps, size_t ncp)
{
	size_t i;
	time_t mid;

	fprintf(f, "set xdata time\nset timefmt \"%%Y-%%m-%%dT%%H:%%M:%%S\"\n");
	for (i = 0; i < ncp; i++) {
		const struct nsb_cp *cp = &cps[i];

		mid = when(pts[cp->index - 1]) / 2 + when(pts[cp->index]) / 2;
		fprintf(f, "set arrow from ");
		put_time(f, mid);
		fprintf(f, ", graph 0 to ");
		put_time(f, mid);
		fprintf(f, ", graph 1 nohead dt 2 lw 2 lc rgb \"#c44e52\" "
			"front\nset label \"change %+.2f %%\" at ", cp->pct);
		put_time(f, mid);
		fprintf(f, ", graph 0.96 offset 0.5,0 tc rgb \"#c44e52\" "
			"front\n");
	}
	/* each segment's median, as the change-point analysis sees it */
	for (i = 0; i <= ncp; i++) {
		size_t from = i ? cps[i - 1].index : 0;
		size_t to = i < ncp ? cps[i].index : n;
		double m = i < ncp ? cps[i].before : ncp ? cps[ncp - 1].after :
			   0;

		if (!ncp)
			break;
		fprintf(f, "set arrow from ");
		put_time(f, when(pts[from]));
		fprintf(f, ", first %.9g to ", m);
		put_time(f, when(pts[to - 1]));
		fprintf(f, ", first %.9g nohead lw 3 lc rgb \"#dd8452\" "
			"front\n", m);
	}
}

static int run_gnuplot(const char *vars, const char *tmpl)
{
	const char *gp = getenv("NSB_GNUPLOT") ?: "gnuplot";
	char *argv[] = { (char *)gp, (char *)vars, (char *)tmpl, NULL };
	pid_t pid;
	int st, err;

	err = posix_spawnp(&pid, gp, NULL, NULL, argv, environ);
	if (err) {
		fprintf(stderr, "nsbench history plot: cannot run %s: %s "
			"(install gnuplot-nox)\n", gp, strerror(err));
		return -1;
	}
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "nsbench history plot: %s failed on %s\n", gp,
			tmpl);
		return -1;
	}
	return 0;
}

static int render(const struct nsb_trend_opts *o, const char *tmp,
		  const char *stem, const char *fmt, const char *title,
		  bool icount, const struct nsb_hrec *const *pts, size_t n,
		  const struct nsb_cp *cps, size_t ncp)
{
	char *vars = NULL, *out = NULL, *data = NULL, *tmpl = NULL;
	int ret = -1;
	FILE *f;

	if (asprintf(&vars, "%s/vars-%s.gp", tmp, fmt) < 0 ||
	    asprintf(&data, "%s/trend.dat", tmp) < 0 ||
	    asprintf(&tmpl, "%s/trend.gp", o->templates) < 0 ||
	    asprintf(&out, "%s/%s.%s", o->out_dir, stem, fmt) < 0)
		goto out;
	if (write_data(data, pts, n))
		goto out;
	f = fopen(vars, "w");
	if (!f)
		goto out;
	fprintf(f, "fmt = '%s'\noutfile = ", fmt);
	gp_str(f, out);
	fprintf(f, "\ndatafile = ");
	gp_str(f, data);
	fprintf(f, "\ndir = ");
	gp_str(f, o->templates);
	fprintf(f, "\ntitle_text = ");
	gp_str(f, title);
	fprintf(f, "\nunit_label = '%s'\n", icount ? "guest instructions" :
		"ns");
	marks(f, pts, n, cps, ncp);
	if (fclose(f) || run_gnuplot(vars, tmpl))
		goto out;
	printf("%s\n", out);
	ret = 0;
out:
	if (data)
		unlink(data);
	if (vars)
		unlink(vars);
	free(vars);
	free(out);
	free(data);
	free(tmpl);
	return ret;
}

int nsb_trend_plot(const struct nsb_trend_opts *o, const char *bench,
		   const struct nsb_hrec *const *pts, size_t n,
		   const struct nsb_cp *cps, size_t ncp)
{
	char tmp[] = "/tmp/nsbench-trend.XXXXXX", stem[256], title[320];
	bool icount = n && !strcmp(pts[0]->unit, NSB_UNIT_ICOUNT);
	size_t i;
	int ret = 0;

	if (n < 2)
		return 0;	/* no line to draw */
	if (mkdir(o->out_dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "nsbench history plot: %s: %s\n", o->out_dir,
			strerror(errno));
		return -1;
	}
	if (!mkdtemp(tmp))
		return -1;
	snprintf(stem, sizeof(stem), "%s-%s", o->stem, bench);
	for (i = strlen(o->stem) + 1; stem[i]; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.", stem[i]))
			stem[i] = '_';
	snprintf(title, sizeof(title), "%s: median and 95%% CI per run; "
		 "%zu change point(s), dashed, segment medians orange",
		 bench, ncp);
	if (o->svg)
		ret = render(o, tmp, stem, "svg", title, icount, pts, n, cps,
			     ncp);
	if (!ret && o->png)
		ret = render(o, tmp, stem, "png", title, icount, pts, n, cps,
			     ncp);
	rmdir(tmp);
	return ret;
}
