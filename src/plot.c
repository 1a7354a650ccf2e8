// SPDX-License-Identifier: GPL-2.0
/*
 * plot.c — `nsbench plot`: writes the data of a comparison and renders it
 * with gnuplot through the templates plots/<kind>.gp (A/B bars with CIs,
 * cost against depth:N, sample distributions), or a history trend from a
 * data file.  The templates hold the looks; this file only writes data
 * and the few variables a template needs.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "src/compare.h"
#include "src/costs.h"
#include "src/nsbench.h"

extern char **environ;

struct plot_opts {
	const char *out_dir;
	const char *templates;
	const char *stem;
	const char *trend;
	const char *title;
	const char *unit;
	bool svg, png, keep;
	char tmp[64];		/* data and variables for gnuplot */
};

/* --- running gnuplot -------------------------------------------------- */

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

static int run_gnuplot(const char *vars, const char *tmpl)
{
	const char *gp = getenv("NSB_GNUPLOT") ?: "gnuplot";
	char *load = NULL;
	char *argv[] = { (char *)gp, "-e", NULL, (char *)tmpl, NULL };
	pid_t pid;
	int st, err;

	if (asprintf(&load, "load '%s'", vars) < 0)
		return -1;
	argv[2] = load;
	err = posix_spawnp(&pid, gp, NULL, NULL, argv, environ);
	free(load);
	if (err) {
		fprintf(stderr, "nsbench plot: cannot run %s: %s (install "
			"gnuplot-nox)\n", gp, strerror(err));
		return -1;
	}
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "nsbench plot: %s failed on %s\n", gp, tmpl);
		return -1;
	}
	return 0;
}

/*
 * Renders template <templates>/<kind>.gp from datafile into
 * <out_dir>/<stem>-<kind>.svg/.png; extra holds the template's own
 * variables (gnuplot statements).
 */
static int render(const struct plot_opts *o, const char *kind,
		  const char *datafile, const char *title, const char *extra)
{
	static const char *const fmts[] = { "svg", "png" };
	bool want[] = { o->svg, o->png };
	char *vars = NULL, *tmpl = NULL, *out = NULL;
	int i, ret = -1;
	FILE *f;

	if (asprintf(&tmpl, "%s/%s.gp", o->templates, kind) < 0)
		return -1;
	for (i = 0; i < 2; i++) {
		if (!want[i])
			continue;
		free(vars);
		free(out);
		vars = out = NULL;
		if (asprintf(&vars, "%s/%s-%s.vars.gp", o->tmp, kind,
			     fmts[i]) < 0 ||
		    asprintf(&out, "%s/%s-%s.%s", o->out_dir, o->stem, kind,
			     fmts[i]) < 0)
			goto out;
		f = fopen(vars, "w");
		if (!f)
			goto out;
		fprintf(f, "fmt = '%s'\noutfile = ", fmts[i]);
		gp_str(f, out);
		fprintf(f, "\ndatafile = ");
		gp_str(f, datafile);
		fprintf(f, "\ndir = ");
		gp_str(f, o->templates);
		fprintf(f, "\ntitle_text = ");
		gp_str(f, title);
		fprintf(f, "\n%s\n", extra);
		if (fclose(f) || run_gnuplot(vars, tmpl))
			goto out;
		printf("%s\n", out);
	}
	ret = 0;
out:
	free(vars);
	free(tmpl);
	free(out);
	return ret;
}

/* --- data ------------------------------------------------------------- */

static const char *unit_label(const struct nsb_comparison *c)
{
	return c->base.icount ? "guest instructions" : "ns";
}

/* Shortest unambiguous label: the name without the common "dir/". */
static size_t prefix_len(const struct nsb_comparison *c)
{
	size_t len, i, j;

	if (c->n < 2)
		return 0;
	len = strlen(c->rows[0].name);
	for (i = 1; i < c->n; i++) {
		for (j = 0; j < len &&
		     c->rows[i].name[j] == c->rows[0].name[j]; j++)
			;
		len = j;
	}
	while (len && c->rows[0].name[len - 1] != '/')
		len--;
	return len;
}

/*
 * name without Google Benchmark's run-option segments ("/iterations:400",
 * "/manual_time", ...): they say how, not what, and crowd the labels.
 */
static const char *display_name(const char *name, char *buf, size_t len)
{
	static const char *const opts[] = {
		"iterations:", "repeats:", "min_time:", "min_warmup_time:",
		"threads:", "manual_time", "real_time", "process_time", NULL,
	};
	const char *p = name;
	size_t used = 0, w;
	int i;

	*buf = 0;
	while (*p) {
		w = strcspn(p + 1, "/") + 1;
		for (i = 0; opts[i]; i++)
			if (*p == '/' && !strncmp(p + 1, opts[i],
						  strlen(opts[i])))
				break;
		if (!opts[i] && used + w < len) {
			memcpy(buf + used, p, w);
			used += w;
			buf[used] = 0;
		}
		p += w;
	}
	return buf;
}

static bool usable(const struct nsb_row *r)
{
	return r->e.verdict < NSB_SKIP;
}

static int plot_ab(const struct plot_opts *o, const struct nsb_comparison *c,
		   const char *title)
{
	size_t skip = prefix_len(c), i, n = 0;
	double lo = INFINITY, hi = 0, longest = 0;
	char *path = NULL, extra[256], label[512];
	FILE *f;
	int ret;

	if (asprintf(&path, "%s/ab.dat", o->tmp) < 0)
		return -1;
	f = fopen(path, "w");
	if (!f) {
		free(path);
		return -1;
	}
	fprintf(f, "# label base lo hi patched lo hi\n");
	for (i = 0; i < c->n; i++) {
		const struct nsb_row *r = &c->rows[i];

		if (!usable(r))
			continue;
		display_name(r->name + skip, label, sizeof(label));
		longest = fmax(longest, strlen(label) + 16);
		fprintf(f, "\"%s  %+.1f%% %s\" %.9g %.9g %.9g %.9g %.9g "
			"%.9g\n", label, r->e.pct,
			nsb_verdict_name(r->e.verdict), r->sa.median,
			r->sa.ci_lo, r->sa.ci_hi, r->sb.median, r->sb.ci_lo,
			r->sb.ci_hi);
		lo = fmin(lo, fmin(r->sa.median, r->sb.median));
		hi = fmax(hi, fmax(r->sa.median, r->sb.median));
		n++;
	}
	fclose(f);
	/* one axis for 0.6 ns and 2 us only works logarithmically */
	/*
	 * Labels hang from the axis rotated by 40 degrees: a label of L
	 * characters reaches about 0.38 L text lines down and 0.77 L
	 * character widths right, so the margins and the canvas grow with
	 * the longest label instead of cutting it off.
	 */
	snprintf(extra, sizeof(extra), "unit_label = '%s'\nlogscale = %d\n"
		 "width = %zu\nheight = %d\nbmargin_lines = %d\n"
		 "rmargin_chars = %d", unit_label(c), lo > 0 && hi / lo > 30,
		 n > 12 ? 300 + 60 * n : 1000, 440 + (int)(longest * 6),
		 3 + (int)(longest * 0.38), 4 + (int)(longest * 0.77));
	ret = n ? render(o, "ab", path, title, extra) : 0;
	free(path);
	return ret;
}

/* Position of the "depth:N" (or any "<key>:N") argument, or NULL. */
static const char *depth_arg(const char *name, long *n)
{
	const char *p = strstr(name, "depth:");
	char *end;

	if (!p)
		return NULL;
	*n = strtol(p + 6, &end, 10);
	if (end == p + 6 || (*end && *end != '/'))
		return NULL;
	return p;
}

/* The name without its depth:N part (and the '/' before it). */
static char *depth_group(const char *name)
{
	const char *p;
	char *g;
	long n;

	p = depth_arg(name, &n);
	if (!p)
		return NULL;
	g = strdup(name);
	if (!g)
		return NULL;
	g[p - name - (p > name && p[-1] == '/')] = 0;
	strcat(g, p + strcspn(p, "/"));
	return g;
}

static void depth_block(FILE *f, const struct nsb_comparison *c,
			const char *group, int side, size_t skip)
{
	char label[512];
	size_t i;
	long n;

	fprintf(f, "\"%s (%s)\"\n", display_name(group + skip, label,
		sizeof(label)), side ? "patched" : "base");
	for (i = 0; i < c->n; i++) {
		const struct nsb_row *r = &c->rows[i];
		const struct nsb_summary *s = side ? &r->sb : &r->sa;
		char *g = depth_group(r->name);

		if (g && usable(r) && !strcmp(g, group)) {
			depth_arg(r->name, &n);
			fprintf(f, "%ld %.9g %.9g %.9g\n", n, s->median,
				s->ci_lo, s->ci_hi);
		}
		free(g);
	}
	fprintf(f, "\n\n");
}

static int plot_depth(const struct plot_opts *o,
		      const struct nsb_comparison *c, const char *title)
{
	char **groups = calloc(c->n ? c->n : 1, sizeof(*groups));
	size_t ng = 0, i, j, skip = prefix_len(c);
	char *path = NULL, extra[256];
	int ret = -1;
	FILE *f = NULL;

	if (!groups)
		return -1;
	for (i = 0; i < c->n; i++) {
		char *g = usable(&c->rows[i]) ? depth_group(c->rows[i].name) :
			  NULL;

		for (j = 0; g && j < ng; j++)
			if (!strcmp(groups[j], g))
				break;
		if (g && j == ng)
			groups[ng++] = g;
		else
			free(g);
	}
	ret = 0;
	if (!ng)
		goto out;	/* nothing has a depth:N argument */
	ret = -1;
	if (asprintf(&path, "%s/depth.dat", o->tmp) < 0)
		goto out;
	f = fopen(path, "w");
	if (!f)
		goto out;
	for (i = 0; i < ng; i++) {
		depth_block(f, c, groups[i], 0, skip);
		depth_block(f, c, groups[i], 1, skip);
	}
	fclose(f);
	snprintf(extra, sizeof(extra), "nblocks = %zu\nxname = 'user "
		 "namespace depth (depth:N)'\nunit_label = '%s'", 2 * ng,
		 unit_label(c));
	ret = render(o, "depth", path, title, extra);
out:
	for (i = 0; i < ng; i++)
		free(groups[i]);
	free(groups);
	free(path);
	return ret;
}

static void dist_block(FILE *f, const struct nsb_series *s, double base)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		fprintf(f, "%.9g\n", 100 * s->v[i] / base);
	fprintf(f, "\n\n");
}

static int plot_dist(const struct plot_opts *o,
		     const struct nsb_comparison *c, const char *title)
{
	size_t skip = prefix_len(c), i, n = 0, used = 0;
	char *path = NULL, *extra = NULL;
	size_t cap = 256 + c->n * 300;
	char label[512];
	int ret = -1;
	FILE *f;

	extra = malloc(cap);
	if (!extra || asprintf(&path, "%s/dist.dat", o->tmp) < 0)
		goto out;
	f = fopen(path, "w");
	if (!f)
		goto out;
	used = (size_t)snprintf(extra, cap, "xtics_cmd = 'set xtics (");
	for (i = 0; i < c->n; i++) {
		const struct nsb_row *r = &c->rows[i];

		if (!usable(r) || r->sa.median <= 0)
			continue;
		dist_block(f, r->a, r->sa.median);
		dist_block(f, r->b, r->sa.median);
		used += (size_t)snprintf(extra + used, cap - used,
					 "%s\"%.200s\" %zu", n ? ", " : "",
					 display_name(r->name + skip, label,
						      sizeof(label)), n);
		n++;
	}
	fclose(f);
	snprintf(extra + used, cap - used, ")'\nnbench = %zu\nwidth = %zu\n"
		 "height = 640", n, n > 12 ? 300 + 60 * n : 1000);
	ret = n ? render(o, "dist", path, title, extra) : 0;
out:
	free(path);
	free(extra);
	return ret;
}

/* --- command ---------------------------------------------------------- */

static void plot_usage(FILE *f)
{
	fprintf(f, "usage: nsbench plot [options] BASE... -- PATCHED...\n"
		"       nsbench plot [options] --trend=FILE\n"
		"\n"
		"Render plots with gnuplot from the templates in plots/*.gp:\n"
		"  <stem>-ab      A/B bars: median per benchmark and side, "
		"95%% CI whiskers\n"
		"  <stem>-depth   cost against depth:N in the name, a line per "
		"variant\n"
		"                 and side (only if some name has depth:N)\n"
		"  <stem>-dist    box plots of the samples, in %% of the base "
		"median\n"
		"  <stem>-trend   with --trend: a benchmark's history\n"
		"\n"
		"  --out-dir=DIR     where plots go (default plots)\n"
		"  --templates=DIR   the .gp templates (default $NSB_PLOTS or "
		"plots)\n"
		"  --stem=NAME       file name stem (default nsbench)\n"
		"  --format=LIST     svg, png or svg,png (default)\n"
		"  --title=TEXT      title of the trend plot\n"
		"  --trend=FILE      plot FILE: rows of \"<UTC time> median "
		"ci_lo ci_hi\"\n"
		"                    (time as 2026-12-03T08:30:00Z)\n"
		"  --unit=TEXT       unit of the trend's values (default ns)\n"
		"  --keep-data       keep the data and variable files gnuplot "
		"read\n"
		"                    (their directory is printed)\n"
		"%s", nsb_compare_opts_help);
}

static int plot_opt(int key, const char *arg, void *data)
{
	struct plot_opts *o = data;

	switch (key) {
	case 'd':
		o->out_dir = arg;
		break;
	case 't':
		o->templates = arg;
		break;
	case 's':
		o->stem = arg;
		break;
	case 'T':
		o->title = arg;
		break;
	case 'k':
		o->keep = true;
		break;
	case 'u':
		if (strchr(arg, '\''))
			return 2;
		o->unit = arg;
		break;
	case 'f':
		o->svg = strstr(arg, "svg") != NULL;
		o->png = strstr(arg, "png") != NULL;
		if (!o->svg && !o->png)
			return 2;
		break;
	default:
		return 1;
	}
	return 0;
}

static const struct option plot_opts_table[] = {
	{ "out-dir", required_argument, NULL, 'd' },
	{ "templates", required_argument, NULL, 't' },
	{ "stem", required_argument, NULL, 's' },
	{ "format", required_argument, NULL, 'f' },
	{ "title", required_argument, NULL, 'T' },
	{ "keep-data", no_argument, NULL, 'k' },
	{ "unit", required_argument, NULL, 'u' },
	{ NULL, 0, NULL, 0 },
};

/* --trend=FILE: no comparison, just the history file. */
static int plot_trend(struct plot_opts *o)
{
	char extra[256];

	snprintf(extra, sizeof(extra), "unit_label = '%.200s'",
		 o->unit ?: "ns");
	if (access(o->trend, R_OK)) {
		fprintf(stderr, "nsbench plot: %s: %s\n", o->trend,
			strerror(errno));
		return 2;
	}
	return render(o, "trend", o->trend, o->title ?: "history of the "
		      "median with its 95% CI", extra) ? 2 : 0;
}

/* Pulls --trend=FILE out of argv; the rest goes to the usual parser. */
static const char *find_trend(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strncmp(argv[i], "--trend=", 8))
			return argv[i] + 8;
	return NULL;
}

static int trend_main(struct plot_opts *o, int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		const struct option *p;
		const char *eq = strchr(argv[i], '=');
		size_t len = eq ? (size_t)(eq - argv[i]) : strlen(argv[i]);

		if (!strncmp(argv[i], "--trend=", 8))
			continue;
		if (strncmp(argv[i], "--", 2))
			goto bad;
		for (p = plot_opts_table; p->name; p++)
			if (!strncmp(argv[i] + 2, p->name, len - 2) &&
			    strlen(p->name) == len - 2)
				break;
		if (!p->name || (p->has_arg && !eq) ||
		    plot_opt(p->val, eq ? eq + 1 : NULL, o))
			goto bad;
	}
	return plot_trend(o);
bad:
	fprintf(stderr, "nsbench plot: with --trend, only plot options as "
		"--name=value (not '%s')\n", argv[i]);
	return 2;
}

static void cleanup(const struct plot_opts *o)
{
	struct dirent *e;
	DIR *d;

	if (o->keep) {
		fprintf(stderr, "nsbench plot: data kept in %s\n", o->tmp);
		return;
	}
	/* a flat directory of our own files */
	d = opendir(o->tmp);
	if (!d)
		return;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			unlinkat(dirfd(d), e->d_name, 0);
	closedir(d);
	rmdir(o->tmp);
}

/* plot --costs=FILE [--out-dir=DIR] [--stem=NAME] [--templates=DIR] */
static int plot_costs(int argc, char **argv, const char *json,
		      struct plot_opts *o)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--out-dir=", 10))
			o->out_dir = argv[i] + 10;
		else if (!strncmp(argv[i], "--stem=", 7))
			o->stem = argv[i] + 7;
		else if (!strncmp(argv[i], "--templates=", 12))
			o->templates = argv[i] + 12;
		else if (strncmp(argv[i], "--costs=", 8)) {
			fprintf(stderr, "nsbench plot --costs: unknown "
				"argument '%s'\n", argv[i]);
			return 2;
		}
	}
	return nsb_costs_plot(json, o->out_dir, o->stem, o->templates);
}

int cmd_plot(int argc, char **argv)
{
	struct plot_opts o = {
		.out_dir = "plots", .templates = getenv("NSB_PLOTS") ?: "plots",
		.stem = "nsbench", .svg = true, .png = true,
	};
	struct nsb_comparison c;
	char title[256];
	int ret;

	/* --costs=FILE: the check costs of `nsbench report --json` */
	for (ret = 1; ret < argc; ret++)
		if (!strncmp(argv[ret], "--costs=", 8))
			return plot_costs(argc, argv, argv[ret] + 8, &o);
	snprintf(o.tmp, sizeof(o.tmp), "/tmp/nsbench-plot.XXXXXX");
	o.trend = find_trend(argc, argv);
	if (!mkdtemp(o.tmp)) {
		perror("nsbench plot: mkdtemp");
		return 2;
	}
	if (o.trend) {
		ret = trend_main(&o, argc, argv);
		cleanup(&o);
		return ret;
	}
	ret = nsb_compare_main(&c, argc, argv, plot_opts_table, NULL,
			       plot_opt, &o, plot_usage);
	if (ret)
		goto out;
	if (mkdir(o.out_dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "nsbench plot: %s: %s\n", o.out_dir,
			strerror(errno));
		ret = 2;
		goto out;
	}
	snprintf(title, sizeof(title), "patched (%s) vs base (%s), %s: "
		 "median with 95%% CI",
		 nsb_side_ctx(&c.patched, "patch_series") ?: "?",
		 nsb_side_ctx(&c.base, "patch_series") ?: "?",
		 nsb_side_ctx(&c.base, "nsbench_mode") ?: "?");
	if (plot_ab(&o, &c, title) || plot_depth(&o, &c, title))
		ret = 2;
	snprintf(title, sizeof(title), "distribution of the samples, "
		 "patched (%s) vs base (%s)",
		 nsb_side_ctx(&c.patched, "patch_series") ?: "?",
		 nsb_side_ctx(&c.base, "patch_series") ?: "?");
	if (!ret && plot_dist(&o, &c, title))
		ret = 2;
out:
	nsb_comparison_free(&c);
	cleanup(&o);
	return ret == 3 ? 0 : ret;
}
