// SPDX-License-Identifier: GPL-2.0
/*
 * plot.c — a comparison rendered by gnuplot through the templates
 * plots/<kind>.gp (plot.h), one chart per question and per benchmark
 * family (sys/exec, models/in_userns, ...), each sized for a mail or a
 * slide, a large family split over several files: the A/B shift with its
 * CI, cost against depth:N, the sample distributions.  The templates hold
 * the looks; this file writes data files and numbers, and every string
 * reaches gnuplot as data (src/lib/render/gnuplot.h).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/lib/stats/compare.h"
#include "src/lib/render/gnuplot.h"
#include "src/lib/base/mem.h"
#include "src/lib/base/nsbench.h"
#include "src/lib/render/plot.h"

#define AB_ROWS		30	/* rows of one A/B chart: ~800 px high */
#define DEPTH_GROUPS	4	/* variants of one depth chart: 8 lines */
#define DIST_BENCH	14	/* benchmarks of one box plot: ~1200 px */
#define LABEL_MAX	60	/* bytes of a label on an axis */


/* One chart: a template, its data and numbers, the parts of its name. */
struct chart {
	const char *kind;	/* ab, depth, dist, trend */
	const char *family;	/* file name part (struct family), or NULL */
	size_t part, nparts;
	const char *data, *title, *unit, *extra;
	char nums[256];		/* gnuplot assignments of numbers only */
};

/* --- running gnuplot -------------------------------------------------- */

/* A new file in the private directory, named in order of creation. */
static FILE *tmp_file(struct nsb_plot *o, const char *what, char **path)
{
	char name[64];

	snprintf(name, sizeof(name), "%03u-%s", o->seq++, what);
	return nsb_gp_create(o->tmp, name, path);
}

/* <out_dir>/<stem>-<kind>[-<family>][-<part>].<fmt> */
static char *out_name(const struct nsb_plot *o, const struct chart *ch,
		      const char *fmt)
{
	char fam[160] = "", part[32] = "", *out = NULL;

	if (ch->family)
		snprintf(fam, sizeof(fam), "-%s", ch->family);
	if (ch->nparts > 1)
		snprintf(part, sizeof(part), "-%zu", ch->part + 1);
	if (asprintf(&out, "%s/%s-%s%s%s.%s", o->out_dir, o->stem, ch->kind,
		     fam, part, fmt) < 0)
		return NULL;
	return out;
}

static int render(struct nsb_plot *o, const struct chart *ch)
{
	static const char *const fmts[] = { "svg", "png" };
	bool want[] = { o->svg, o->png };
	char *vars = NULL, *out = NULL, what[32];
	int i, ret = 0;
	FILE *f;

	for (i = 0; !ret && i < 2; i++) {
		struct nsb_gp_args a = {
			.kind = ch->kind, .datafile = ch->data,
			.title = ch->title, .unit = ch->unit,
			.extra = ch->extra,
		};

		if (!want[i])
			continue;
		ret = -1;
		snprintf(what, sizeof(what), "%s-%s.vars", ch->kind, fmts[i]);
		f = tmp_file(o, what, &vars);
		if (!f)
			break;
		fprintf(f, "fmt = \"%s\"\n%s\n", fmts[i], ch->nums);
		out = out_name(o, ch, fmts[i]);
		if (!fclose(f) && out) {
			a.vars = vars;
			a.outfile = out;
			ret = nsb_gp_run(o->templates, &a, nsb_prog(), o->log);
		}
		if (!ret)
			printf("%s\n", out);
		free(vars);
		free(out);
		vars = out = NULL;
	}
	return ret;
}

/* --- names ------------------------------------------------------------ */

static const char *unit_label(const struct nsb_comparison *c)
{
	return c->base.icount ? "guest instructions" : "ns";
}

/* ch drawn from the data in path, with its title, in c's unit */
static int render_from(struct nsb_plot *o, struct chart *ch,
		       const struct nsb_comparison *c, const char *path,
		       const char *title)
{
	ch->data = path;
	ch->title = title;
	ch->unit = unit_label(c);
	return render(o, ch);
}

/*
 * Length of a benchmark's family, its name up to the variant part: the
 * first two components ("sys/exec" of "sys/exec/vfork/bin/..."), the first
 * of a two-part name, none (0) for a name without '/' (hyperfine).
 */
static size_t family_len(const char *name)
{
	const char *a = strchr(name, '/'), *b;

	if (!a)
		return 0;
	b = strchr(a + 1, '/');
	return (size_t)((b ? b : a) - name);
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

/* name inside its family ("vfork/bin/init"), or all of it if nothing is. */
static const char *label_in(const char *name, const char *family, char *buf,
			    size_t len)
{
	size_t fl = strlen(family);

	if (fl && !strncmp(name, family, fl) && name[fl] == '/' &&
	    *display_name(name + fl + 1, buf, len))
		return buf;
	return display_name(name, buf, len);
}

static bool usable(const struct nsb_row *r)
{
	return r->e.verdict < NSB_SKIP;
}

/* --- families --------------------------------------------------------- */

struct family {
	char *name;		/* "sys/exec"; "" for names without '/' */
	char file[128];		/* in file names: "sys_exec", unique */
	size_t *rows;		/* its usable rows, in the comparison's order */
	size_t n;
};

static void families_free(struct family *fm, size_t n)
{
	size_t i;

	for (i = 0; fm && i < n; i++) {
		free(fm[i].name);
		free(fm[i].rows);
	}
	free(fm);
}

/*
 * Each family's part of the file names: its name with '/' and whatever a
 * file name should not hold as '_'; "_2", "_3" ... where two families
 * would share one (sys/a_b and sys/a.b), so none overwrites another.
 */
static void file_parts(struct family *fm, size_t nf)
{
	char base[sizeof(fm->file) - 8];
	size_t i, j, k;

	for (i = 0; i < nf; i++) {
		nsb_gp_file_part(base, sizeof(base),
				 *fm[i].name ? fm[i].name : "other");
		snprintf(fm[i].file, sizeof(fm[i].file), "%s", base);
		for (k = 2, j = 0; j < i; j++)
			if (!strcmp(fm[j].file, fm[i].file)) {
				snprintf(fm[i].file, sizeof(fm[i].file),
					 "%s_%zu", base, k++);
				j = (size_t)-1;	/* compare with all again */
			}
	}
}

/* The families of the usable rows, in order of first appearance. */
static struct family *families(const struct nsb_comparison *c, size_t *nf)
{
	struct family *fm = calloc(c->n ? c->n : 1, sizeof(*fm));
	size_t i, j, len;

	*nf = 0;
	if (!fm)
		return NULL;
	for (i = 0; i < c->n; i++) {
		const char *name = c->rows[i].name;

		if (!usable(&c->rows[i]))
			continue;
		len = family_len(name);
		for (j = 0; j < *nf; j++)
			if (strlen(fm[j].name) == len &&
			    !strncmp(fm[j].name, name, len))
				break;
		if (j == *nf) {
			fm[j].name = strndup(name, len);
			fm[j].rows = calloc(c->n, sizeof(*fm[j].rows));
			++*nf;
			if (!fm[j].name || !fm[j].rows)
				goto fail;
		}
		fm[j].rows[fm[j].n++] = i;
	}
	file_parts(fm, *nf);
	return fm;
fail:
	families_free(fm, *nf);
	return NULL;
}

/* "patched (series) vs base (series), mode" */
static void sides(char *buf, size_t len, const struct nsb_comparison *c)
{
	snprintf(buf, len, "patched (%s) vs base (%s), %s",
		 nsb_side_ctx(&c->patched, "patch_series") ?: "?",
		 nsb_side_ctx(&c->base, "patch_series") ?: "?",
		 nsb_side_ctx(&c->base, "nsbench_mode") ?: "?");
}

/* " (2 of 3)" for a family split over several files, else "". */
static const char *part_of(char *buf, size_t len, size_t part, size_t n)
{
	*buf = 0;
	if (n > 1)
		snprintf(buf, len, " (%zu of %zu)", part + 1, n);
	return buf;
}

/* "FAMILY (k of n): " and then fmt: a chart's title */
static __attribute__((format(printf, 5, 6)))
void chart_title(char *buf, size_t len, const char *family,
		 const struct chart *ch, const char *fmt, ...)
{
	char pt[32];
	va_list ap;
	int n = snprintf(buf, len, "%s%s: ", *family ? family : "benchmarks",
			 part_of(pt, sizeof(pt), ch->part, ch->nparts));

	if (n < 0 || (size_t)n >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, len - (size_t)n, fmt, ap);
	va_end(ap);
}

/* --- A/B: the shift per benchmark ------------------------------------- */

static double ab_row(FILE *f, const struct nsb_comparison *c,
		     const struct nsb_row *r, const char *family, size_t row)
{
	const struct nsb_effect *e = &r->e;
	char label[512], right[160], base[48];

	nsb_fmt_value(base, sizeof(base), e->paired ? e->base : r->sa.median,
		      c->base.icount);
	snprintf(right, sizeof(right), "%+.2f%% [%+.2f, %+.2f] %s, base %s",
		 e->pct, e->lo_pct, e->hi_pct, nsb_verdict_name(e->verdict),
		 base);
	fprintf(f, "%zu ", row);
	nsb_gp_field(f, label_in(r->name, family, label, sizeof(label)),
		     LABEL_MAX);
	fprintf(f, " %.9g %.9g %.9g %d ", e->pct, e->lo_pct, e->hi_pct,
		(int)e->verdict);
	nsb_gp_field(f, right, sizeof(right));
	fputc('\n', f);
	return e->pct;
}

/*
 * Half-width of the x range: every point and every CI the verdict trusts
 * fits; a noisy row's wide CI is cut at the edge rather than squeezing a
 * +0.4 % shift of its neighbours into a hairline.
 */
static double ab_xmax(const struct nsb_comparison *c, const struct family *fm,
		      size_t from, size_t to)
{
	double m = fmax(0.5, 1.5 * c->o.threshold);
	size_t k;

	for (k = from; k < to; k++) {
		const struct nsb_effect *e = &c->rows[fm->rows[k]].e;

		if (isfinite(e->pct))
			m = fmax(m, 1.3 * fabs(e->pct));
		if (e->verdict != NSB_NOISY && isfinite(e->lo_pct) &&
		    isfinite(e->hi_pct))
			m = fmax(m, 1.1 * fmax(fabs(e->lo_pct),
					       fabs(e->hi_pct)));
	}
	return m;
}

static int ab_part(struct nsb_plot *o, const struct nsb_comparison *c,
		   const struct family *fm, struct chart *ch)
{
	size_t from = ch->part * AB_ROWS, to, k;
	char *path = NULL, title[512], sd[256], band[64] = "";
	double thr = c->o.abs_threshold > 0 ? 0 : c->o.threshold;
	int ret = -1;
	FILE *f;

	to = from + AB_ROWS < fm->n ? from + AB_ROWS : fm->n;
	f = tmp_file(o, "ab.dat", &path);
	if (!f)
		return -1;
	fprintf(f, "# row label pct lo hi verdict right-label\n");
	for (k = from; k < to; k++)
		ab_row(f, c, &c->rows[fm->rows[k]], fm->name, k - from + 1);
	if (fclose(f))
		goto out;
	if (thr > 0)
		snprintf(band, sizeof(band), "; grey band: ±%g%% threshold",
			 thr);
	sides(sd, sizeof(sd), c);
	chart_title(title, sizeof(title), fm->name, ch, "%s\nshift of the "
		    "median with its " NSB_CI_S "%% CI%s", sd, band);
	snprintf(ch->nums, sizeof(ch->nums), "nrows = %zu\nxmax = %.6g\n"
		 "threshold = %.6g\nwidth = 1200\nheight = %zu", to - from,
		 ab_xmax(c, fm, from, to), thr, 170 + 22 * (to - from));
	ret = render_from(o, ch, c, path, title);
out:
	free(path);
	return ret;
}

static int plot_ab(struct nsb_plot *o, const struct nsb_comparison *c,
		   const struct family *fm, size_t nf)
{
	size_t i;

	for (i = 0; i < nf; i++) {
		struct chart ch = {
			.kind = "ab", .family = fm[i].file,
			.nparts = (fm[i].n + AB_ROWS - 1) / AB_ROWS,
		};

		for (; ch.part < ch.nparts; ch.part++)
			if (ab_part(o, c, &fm[i], &ch))
				return -1;
	}
	return 0;
}

/* --- cost against depth:N --------------------------------------------- */

/* Position of the "depth:N" argument, or NULL. */
static const char *depth_arg(const char *name, long *n)
{
	const char *p = strstr(name, "depth:");
	char *end;

	if (!p || (p > name && p[-1] != '/'))
		return NULL;
	*n = strtol(p + 6, &end, 10);
	if (end == p + 6 || (*end && *end != '/') || *n < 0)
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

/* log2 axis with room for depth 0: 0 -> 0, 1 -> 1, 2 -> 2, 4 -> 3, ... */
static double depth_x(long d)
{
	return d ? log2((double)d) + 1 : 0;
}

/* Whether row i of the family is in group g; its depth in *d. */
static bool in_group(const struct nsb_comparison *c, size_t i, const char *g,
		     long *d)
{
	char *rg = depth_group(c->rows[i].name);
	bool in = rg && !strcmp(rg, g);

	free(rg);
	return in && depth_arg(c->rows[i].name, d);
}

static void depth_block(FILE *f, const struct nsb_comparison *c,
			const struct family *fm, const char *group, int side)
{
	char label[512], title[600];
	size_t k;
	long d;

	snprintf(title, sizeof(title), "%.*s (%s)", LABEL_MAX,
		 label_in(group, fm->name, label, sizeof(label)),
		 side ? "patched" : "base");
	nsb_gp_field(f, title, sizeof(title));
	fputc('\n', f);
	for (k = 0; k < fm->n; k++) {
		const struct nsb_row *r = &c->rows[fm->rows[k]];
		const struct nsb_summary *s = side ? &r->sb : &r->sa;

		if (in_group(c, fm->rows[k], group, &d))
			fprintf(f, "%.6g %ld %.9g %.9g %.9g\n", depth_x(d), d,
				s->median, s->ci_lo, s->ci_hi);
	}
	fprintf(f, "\n\n");
}

/* Whether group g has rows at two depths or more: a line needs two points. */
static bool two_depths(const struct nsb_comparison *c, const struct family *fm,
		       const char *g)
{
	long d, first = -1;
	size_t k;

	for (k = 0; k < fm->n; k++) {
		if (!in_group(c, fm->rows[k], g, &d))
			continue;
		if (first < 0)
			first = d;
		else if (d != first)
			return true;
	}
	return false;
}

/* The depth groups (names without depth:N) of a family worth a line. */
static size_t depth_groups(const struct nsb_comparison *c,
			   const struct family *fm, char **groups)
{
	size_t ng = 0, k, j;

	for (k = 0; k < fm->n; k++) {
		char *g = depth_group(c->rows[fm->rows[k]].name);

		for (j = 0; g && j < ng; j++)
			if (!strcmp(groups[j], g))
				break;
		if (g && j == ng && two_depths(c, fm, g))
			groups[ng++] = g;
		else
			free(g);
	}
	return ng;
}

static int depth_part(struct nsb_plot *o, const struct nsb_comparison *c,
		      const struct family *fm, char **groups, size_t ng,
		      struct chart *ch)
{
	size_t from = ch->part * DEPTH_GROUPS, to, i, k;
	double lo = INFINITY, hi = 0, xlast = 0;
	char *path = NULL, title[512], sd[256];
	int ret = -1;
	FILE *f;

	to = from + DEPTH_GROUPS < ng ? from + DEPTH_GROUPS : ng;
	f = tmp_file(o, "depth.dat", &path);
	if (!f)
		return -1;
	for (i = from; i < to; i++) {
		depth_block(f, c, fm, groups[i], 0);
		depth_block(f, c, fm, groups[i], 1);
		for (k = 0; k < fm->n; k++) {
			const struct nsb_row *r = &c->rows[fm->rows[k]];
			long d;

			if (!in_group(c, fm->rows[k], groups[i], &d))
				continue;
			xlast = fmax(xlast, depth_x(d));
			lo = fmin(lo, fmin(r->sa.median, r->sb.median));
			hi = fmax(hi, fmax(r->sa.median, r->sb.median));
		}
	}
	if (fclose(f))
		goto out;
	sides(sd, sizeof(sd), c);
	chart_title(title, sizeof(title), fm->name, ch, "cost against "
		    "user-namespace depth\n%s; base solid, patched dashed", sd);
	snprintf(ch->nums, sizeof(ch->nums), "nblocks = %zu\nxlast = %.6g\n"
		 "logy = %d\nwidth = 1000\nheight = %zu", 2 * (to - from),
		 xlast, lo > 0 && hi / lo > 30, 560 + 16 * (to - from));
	ch->extra = "user namespace depth (depth:N; log2 axis, 0 one step "
		    "left of 1)";
	ret = render_from(o, ch, c, path, title);
out:
	free(path);
	return ret;
}

static int plot_depth(struct nsb_plot *o, const struct nsb_comparison *c,
		      const struct family *fm, size_t nf)
{
	char **groups;
	size_t i, ng;
	int ret = 0;

	for (i = 0; !ret && i < nf; i++) {
		struct chart ch = { .kind = "depth", .family = fm[i].file };

		groups = calloc(fm[i].n, sizeof(*groups));
		if (!groups)
			return -1;
		ng = depth_groups(c, &fm[i], groups);
		ch.nparts = (ng + DEPTH_GROUPS - 1) / DEPTH_GROUPS;
		for (; !ret && ch.part < ch.nparts; ch.part++)
			ret = depth_part(o, c, &fm[i], groups, ng, &ch);
		nsb_free_each(groups, ng, sizeof(*groups), 0);
	}
	return ret;
}

/* --- sample distributions --------------------------------------------- */

static void dist_block(FILE *f, const struct nsb_series *s, double base)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		fprintf(f, "%.9g\n", 100 * s->v[i] / base);
	fprintf(f, "\n\n");
}

static int dist_part(struct nsb_plot *o, const struct nsb_comparison *c,
		     const size_t *rows, size_t n, const char *family,
		     struct chart *ch)
{
	char *path = NULL, *lpath = NULL, label[512], title[512];
	char sd[256];
	size_t i, longest = 0, bm, rm;
	int ret = -1;
	FILE *f, *l;

	f = tmp_file(o, "dist.dat", &path);
	l = tmp_file(o, "dist-labels.dat", &lpath);
	if (!f || !l)
		goto out;
	for (i = 0; i < n; i++) {
		const struct nsb_row *r = &c->rows[rows[i]];

		dist_block(f, r->a, r->sa.median);
		dist_block(f, r->b, r->sa.median);
		label_in(r->name, family, label, sizeof(label));
		if (strlen(label) > longest)
			longest = strlen(label) < LABEL_MAX ? strlen(label) :
				  LABEL_MAX;
		fprintf(l, "%zu ", i);
		nsb_gp_field(l, label, LABEL_MAX);
		fputc('\n', l);
	}
	/*
	 * Labels hang from the axis rotated by 40 degrees: a label of L
	 * characters reaches about 0.38 L text lines down and 0.77 L
	 * character widths right of its tic.
	 */
	bm = 3 + (size_t)(longest * 0.38);
	rm = 2 + (size_t)(longest * 0.6);
	sides(sd, sizeof(sd), c);
	chart_title(title, sizeof(title), family, ch, "samples in %% of the "
		    "base median\n%s", sd);
	snprintf(ch->nums, sizeof(ch->nums), "nbench = %zu\nbmargin_lines = "
		 "%zu\nrmargin_chars = %zu\nwidth = %zu\nheight = %zu", n, bm,
		 rm > 12 ? rm : 12, n < 7 ? 700 : 280 + 66 * n, 420 + 14 * bm);
	ch->extra = lpath;
	ret = fclose(f);
	ret |= fclose(l);
	f = l = NULL;
	if (!ret)
		ret = render_from(o, ch, c, path, title);
out:
	if (f)
		fclose(f);
	if (l)
		fclose(l);
	free(path);
	free(lpath);
	return ret;
}

static int plot_dist(struct nsb_plot *o, const struct nsb_comparison *c,
		     const struct family *fm, size_t nf)
{
	size_t i, k, n, *rows;
	int ret = 0;

	for (i = 0; !ret && i < nf; i++) {
		struct chart ch = { .kind = "dist", .family = fm[i].file };

		rows = calloc(fm[i].n, sizeof(*rows));
		if (!rows)
			return -1;
		/* a base median of 0 gives no percentages */
		for (k = n = 0; k < fm[i].n; k++)
			if (c->rows[fm[i].rows[k]].sa.median > 0)
				rows[n++] = fm[i].rows[k];
		ch.nparts = (n + DIST_BENCH - 1) / DIST_BENCH;
		for (; !ret && ch.part < ch.nparts; ch.part++) {
			k = ch.part * DIST_BENCH;
			ret = dist_part(o, c, rows + k, n - k < DIST_BENCH ?
					n - k : DIST_BENCH, fm[i].name, &ch);
		}
		free(rows);
	}
	return ret;
}

int nsb_plot_start(struct nsb_plot *o)
{
	o->templates = nsb_gp_templates(o->templates, nsb_prog());
	if (!o->templates)
		return 2;
	if (nsb_gp_start(nsb_prog(), o->out_dir, o->tmp, sizeof(o->tmp), "plot"))
		return 2;
	if (o->keep) {
		o->log = nsb_gp_create(o->tmp, "gnuplot.sh", NULL);
		if (!o->log)
			return 2;
	}
	return 0;
}

void nsb_plot_finish(struct nsb_plot *o)
{
	if (o->log)
		fclose(o->log);
	if (!*o->tmp)
		return;
	if (o->keep)
		nsb_err("data kept in %s (gnuplot.sh reruns "
			"gnuplot)\n", o->tmp);
	else
		nsb_gp_rmtmp(o->tmp);
}

int nsb_plot_comparison(struct nsb_plot *o, const struct nsb_comparison *c)
{
	struct family *fm;
	size_t nf;
	int ret;

	fm = families(c, &nf);
	if (!fm)
		return 2;
	ret = plot_ab(o, c, fm, nf) || plot_depth(o, c, fm, nf) ||
	      plot_dist(o, c, fm, nf) ? 2 : 0;
	families_free(fm, nf);
	return ret;
}
