// SPDX-License-Identifier: GPL-2.0
/*
 * compare.c — `nsbench compare BASE... -- PATCHED...`: is the difference
 * real, how big is it, and could this run have seen it?
 *
 * Per benchmark: summaries of both sides; if every sample of both sides
 * carries an A/B round (nsbench_round/nsbench_seed in its file's context)
 * and at least two rounds are common, the comparison is paired: per-round
 * medians, their differences, the median difference with its sign-test
 * CI and the Wilcoxon signed-rank p: a boot settles on one of several
 * levels, and the round's shared seed puts both sides on the same one.
 * Otherwise it is unpaired: Hodges-Lehmann shift with the Moses CI and the
 * Mann-Whitney p, plus a bootstrap ratio of medians.
 *
 * This file is the engine: nsb_comparison_init() and nsb_compare_load()
 * take options and files, no command line.  src/cmd/compare.c parses the
 * options every comparing command shares; compare_out.c prints the rows
 * as text, Markdown and JSON.
 */
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "src/lib/stats/compare.h"
#include "src/lib/base/nsbench.h"

#define BOOT_SEED	20150204UL	/* fixed: output is deterministic */
#define BOOT_REPS	2000

static const char *const verdict_names[] = {
	[NSB_SAME] = "same", [NSB_FASTER] = "faster", [NSB_SLOWER] = "slower",
	[NSB_NOISY] = "noisy", [NSB_SKIP] = "skip", [NSB_ERROR] = "error",
};

const char *nsb_verdict_name(enum nsb_verdict v)
{
	return verdict_names[v];
}

const char *nsb_verdict_change(enum nsb_verdict v)
{
	switch (v) {
	case NSB_SLOWER:	return "regression";
	case NSB_FASTER:	return "improvement";
	default:		return nsb_verdict_name(v);
	}
}

enum nsb_verdict nsb_verdict_of(const char *word)
{
	size_t i;

	for (i = 0; i < NSB_ARRAY_SIZE(verdict_names); i++)
		if (!strncmp(word, verdict_names[i], strlen(verdict_names[i])))
			return (enum nsb_verdict)i;
	return NSB_SAME;
}

/* --- per-benchmark statistics ----------------------------------------- */

static bool has_rounds(const struct nsb_series *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!s->round[i])
			return false;
	return s->n > 0;
}

/* A sample with its round and its place in the series. */
struct rsample {
	const char *round;
	double v;
	size_t i;
};

static int cmp_rsample(const void *pa, const void *pb)
{
	const struct rsample *a = pa, *b = pb;
	int c = strcmp(a->round, b->round);

	return c ? c : (a->i > b->i) - (a->i < b->i);
}

/* The samples of s sorted by round (then by place): rounds are runs. */
static struct rsample *by_round(const struct nsb_series *s)
{
	struct rsample *r = malloc((s->n ? s->n : 1) * sizeof(*r));
	size_t i;

	if (!r)
		return NULL;
	for (i = 0; i < s->n; i++)
		r[i] = (struct rsample){ s->round[i], s->v[i], i };
	qsort(r, s->n, sizeof(*r), cmp_rsample);
	return r;
}

/* End of the run of round r[from].round; its median into *med. */
static size_t round_run(const struct rsample *r, size_t n, size_t from,
			double *buf, double *med)
{
	size_t to, k = 0;

	for (to = from; to < n && !strcmp(r[to].round, r[from].round); to++)
		buf[k++] = r[to].v;
	gsl_sort(buf, 1, k);
	*med = gsl_stats_median_from_sorted_data(buf, 1, k);
	return to;
}

static int cmp_first(const void *pa, const void *pb)
{
	const struct nsb_round_pair *a = pa, *b = pb;

	return (a->first > b->first) - (a->first < b->first);
}

/*
 * The rounds both series have, in the order the base's rounds first
 * appear, with each side's median in that round.  Both sides sorted by
 * round and merged: n log n, not a walk per sample.
 */
long nsb_round_pairs(const struct nsb_series *a, const struct nsb_series *b,
		     struct nsb_round_pair **out, size_t *dropped)
{
	struct rsample *ra = by_round(a), *rb = by_round(b);
	struct nsb_round_pair *p = malloc((a->n ? a->n : 1) * sizeof(*p));
	double *buf = malloc(((a->n > b->n ? a->n : b->n) ?: 1) * sizeof(*buf));
	size_t i = 0, j = 0, ie, je, k = 0;
	long ret = -1;
	int c;

	*dropped = 0;
	if (!ra || !rb || !p || !buf)
		goto out;
	while (i < a->n) {
		while (j < b->n && strcmp(rb[j].round, ra[i].round) < 0)
			j++;
		c = j < b->n ? strcmp(rb[j].round, ra[i].round) : 1;
		ie = round_run(ra, a->n, i, buf, &p[k].base);
		if (c) {
			(*dropped)++;
		} else {
			je = round_run(rb, b->n, j, buf, &p[k].patched);
			p[k].round = ra[i].round;
			p[k].first = ra[i].i;
			k++;
			j = je;
		}
		i = ie;
	}
	qsort(p, k, sizeof(*p), cmp_first);
	*out = p;
	p = NULL;
	ret = (long)k;
out:
	free(ra);
	free(rb);
	free(p);
	free(buf);
	return ret;
}

/*
 * Per-round differences b - a of the per-round medians into d[], the
 * base's per-round medians into ma[]; returns the number of common
 * rounds (0 out of memory).
 */
static size_t pair_rounds(const struct nsb_series *a,
			  const struct nsb_series *b, double *d, double *ma,
			  size_t *dropped)
{
	struct nsb_round_pair *p;
	long k = nsb_round_pairs(a, b, &p, dropped);

	if (k < 0)
		return 0;
	for (long i = 0; i < k; i++) {
		d[i] = p[i].patched - p[i].base;
		ma[i] = p[i].base;
	}
	free(p);
	return (size_t)k;
}

static void to_pct(struct nsb_effect *e)
{
	e->pct = 100 * e->shift.est / e->base;
	e->lo_pct = 100 * e->shift.lo / e->base;
	e->hi_pct = 100 * e->shift.hi / e->base;
}

enum nsb_verdict nsb_band_verdict(const struct nsb_interval *s, double band,
				  bool sig)
{
	if (s->lo >= -band && s->hi <= band)
		return NSB_SAME;
	if (sig && s->lo > 0 && s->est > band)
		return NSB_SLOWER;
	if (sig && s->hi < 0 && s->est < -band)
		return NSB_FASTER;
	return NSB_NOISY;
}

/*
 * The verdict against +-thr percent of the base, or, when abs > 0,
 * against +-abs in the row's own unit (icount: an instruction is the
 * resolution it gives, whatever the op costs).
 */
static void verdict(struct nsb_effect *e, double thr, double abs)
{
	struct nsb_interval pct = { e->pct, e->lo_pct, e->hi_pct, 0 };

	e->band = abs > 0 ? abs : 0;
	e->verdict = NSB_NOISY;
	if (e->base <= 0 || !isfinite(e->pct)) {
		snprintf(e->note, sizeof(e->note), "base median is not > 0");
		return;
	}
	if (e->shift.level < 1 - NSB_ALPHA - 1e-9) {
		snprintf(e->note, sizeof(e->note),
			 "too few %s for a " NSB_CI_S "%% CI (%.0f%% only)",
			 e->paired ? "rounds" : "samples",
			 100 * e->shift.level);
		return;
	}
	e->verdict = abs > 0 ? nsb_band_verdict(&e->shift, abs,
						 e->p < NSB_ALPHA) :
		     nsb_band_verdict(&pct, thr, e->p < NSB_ALPHA);
}

void nsb_effect_verdict(struct nsb_effect *e, const struct nsb_cmp_opts *o)
{
	to_pct(e);
	verdict(e, o->threshold, o->abs_threshold);
}

double nsb_icount_verdict(struct nsb_effect *e, double residual)
{
	double band = fmax(NSB_ICOUNT_BAND, residual);

	verdict(e, 0, band);
	if (residual > NSB_ICOUNT_BAND && e->verdict == NSB_SAME)
		e->verdict = NSB_NOISY;
	return band;
}

double nsb_control_verdict(struct nsb_effect *e, double residual)
{
	double noise = fmax(fmax(e->band, residual),
			    (e->shift.hi - e->shift.lo) / 2);

	if ((e->verdict == NSB_SLOWER || e->verdict == NSB_FASTER) &&
	    !(fabs(e->shift.est) > noise)) {
		snprintf(e->note, sizeof(e->note), "control: %s %+.1f within "
			 "its noise +-%.1f", nsb_verdict_name(e->verdict),
			 e->shift.est, noise);
		e->verdict = NSB_NOISY;
	}
	return noise;
}

/* The smallest shift a row must resolve: the band, else the threshold. */
static double resolve(const struct nsb_cmp_opts *o, double base)
{
	return o->abs_threshold > 0 ? o->abs_threshold :
	       o->threshold / 100 * base;
}

static int effect_paired(const struct nsb_cmp_opts *o,
			 const struct nsb_series *a,
			 const struct nsb_series *b, struct nsb_effect *e)
{
	size_t n = a->n, dropped, k;
	double *d = malloc(n * sizeof(*d)), *ma = malloc(n * sizeof(*ma));
	double *sd = NULL;
	int ret = -1;

	if (!d || !ma)
		goto out;
	k = pair_rounds(a, b, d, ma, &dropped);
	ret = 1;	/* not enough rounds: the caller goes unpaired */
	if (k < 2)
		goto out;
	ret = -1;
	sd = nsb_sorted_copy(d, k);
	if (!sd || nsb_wilcoxon(d, k, NSB_AUTO, &e->wsr) ||
	    nsb_walsh(d, k, NSB_ALPHA, &e->walsh))
		goto out;
	nsb_median_ci(sd, k, NSB_ALPHA, &e->dmed);
	e->paired = true;
	e->rounds = k;
	gsl_sort(ma, 1, k);
	e->base = gsl_stats_median_from_sorted_data(ma, 1, k);
	e->shift = e->dmed;
	e->p = e->wsr.p;
	to_pct(e);
	e->mde_pct = 100 * nsb_mde(gsl_stats_sd(d, 1, k), k, 0, 0) / e->base;
	e->n_needed = nsb_n_needed(gsl_stats_sd(d, 1, k), 0, true,
				   resolve(o, e->base));
	if (dropped)
		snprintf(e->note, sizeof(e->note),
			 "%zu base round(s) without a patched partner", dropped);
	ret = 0;
out:
	free(d);
	free(ma);
	free(sd);
	return ret;
}

static int effect_unpaired(const struct nsb_cmp_opts *o,
			   const struct nsb_series *a,
			   const struct nsb_series *b,
			   const struct nsb_summary *sa,
			   const struct nsb_summary *sb, struct nsb_effect *e)
{
	if (nsb_mann_whitney(a->v, a->n, b->v, b->n, NSB_AUTO, &e->mwu) ||
	    nsb_hodges_lehmann(a->v, a->n, b->v, b->n, NSB_ALPHA, &e->hl) ||
	    nsb_boot_ratio(a->v, a->n, b->v, b->n, o->seed, o->reps,
			   NSB_ALPHA, &e->ratio))
		return -1;
	e->base = sa->median;
	e->shift = e->hl;
	e->p = e->mwu.p;
	to_pct(e);
	e->mde_pct = 100 * nsb_mde(sa->sd, sa->n, sb->sd, sb->n) / e->base;
	e->n_needed = nsb_n_needed(sa->sd, sb->sd, false,
				   resolve(o, e->base));
	return 0;
}

/* Shift of b against a; a and b have samples. */
static int effect(const struct nsb_cmp_opts *o, const struct nsb_series *a,
		  const struct nsb_series *b, const struct nsb_summary *sa,
		  const struct nsb_summary *sb, struct nsb_effect *e)
{
	int ret = 1;

	memset(e, 0, sizeof(*e));
	if (!o->unpaired && has_rounds(a) && has_rounds(b)) {
		ret = effect_paired(o, a, b, e);
		if (ret < 0)
			return -1;
		if (ret > 0) {
			memset(e, 0, sizeof(*e));
			snprintf(e->note, sizeof(e->note),
				 "fewer than 2 common rounds: unpaired");
		}
	}
	if (ret > 0 && effect_unpaired(o, a, b, sa, sb, e))
		return -1;
	verdict(e, o->threshold, o->abs_threshold);
	return 0;
}

int nsb_effect(const struct nsb_cmp_opts *o, const struct nsb_series *a,
	       const struct nsb_series *b, struct nsb_effect *e)
{
	struct nsb_summary sa, sb;

	memset(e, 0, sizeof(*e));
	if (!a->n || !b->n) {
		e->verdict = NSB_SKIP;
		snprintf(e->note, sizeof(e->note), "no samples on a side");
		return 0;
	}
	if (nsb_summarize(a->v, a->n, &sa) || nsb_summarize(b->v, b->n, &sb))
		return -1;
	return effect(o, a, b, &sa, &sb, e);
}

/* A row without samples on a side: skip or error, with the reason. */
static bool row_unusable(struct nsb_row *r)
{
	const struct nsb_series *s[2] = { r->a, r->b }, *bad = NULL;
	int i;

	for (i = 0; i < 2; i++)
		if (!s[i]->n && !bad)
			bad = s[i];
	if (!bad)
		return false;
	r->e.verdict = bad->errors ? NSB_ERROR : NSB_SKIP;
	snprintf(r->e.note, sizeof(r->e.note), "%s: %s",
		 bad == r->a ? "base" : "patched",
		 bad->why ? bad->why : "no samples");
	return true;
}

static int compare_row(struct nsb_comparison *c, struct nsb_row *r)
{
	struct nsb_series *aa;
	struct nsb_summary saa;

	if (row_unusable(r))
		return 0;
	if (nsb_summarize(r->a->v, r->a->n, &r->sa) ||
	    nsb_summarize(r->b->v, r->b->n, &r->sb) ||
	    effect(&c->o, r->a, r->b, &r->sa, &r->sb, &r->e))
		return -1;
	aa = c->aa.nfiles ? nsb_side_find(&c->aa, r->name) : NULL;
	if (!aa || !aa->n)
		return 0;
	r->has_aa = true;
	if (nsb_summarize(aa->v, aa->n, &saa) ||
	    effect(&c->o, r->a, aa, &r->sa, &saa, &r->aa))
		return -1;
	/* as the in-boot table: a larger A/A residual is the band */
	if (c->base.icount && r->e.verdict < NSB_SKIP &&
	    r->aa.verdict < NSB_SKIP)
		nsb_icount_verdict(&r->e, fabs(r->aa.shift.est));
	return 0;
}

/*
 * Under icount the verdict says whether the change is real; a
 * --threshold the user gave says whether it is big enough to matter to
 * them.  Reported beside the verdict, never instead of it.
 */
static void mark_threshold(const struct nsb_comparison *c, struct nsb_row *r)
{
	struct nsb_effect *e = &r->e;

	e->under_thr = c->base.icount && c->o.threshold_given &&
		       (e->verdict == NSB_SLOWER ||
			e->verdict == NSB_FASTER) &&
		       fabs(e->pct) < c->o.threshold;
}

static void warn_one_sided(const struct nsb_side *s,
			   const struct nsb_side *other, bool strict,
			   size_t *missing)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		if (nsb_side_find(other, s->s[i].name))
			continue;
		fprintf(stderr, "nsbench: %s: %s: benchmark '%s' only on the "
			"%s side, %s\n", strict ? "error" : "warning",
			s->s[i].file, s->s[i].name, s->label,
			strict ? "refusing (--strict)" : "skipped");
		(*missing)++;
	}
}

/* Drops the series whose names do not match --filter, from one side. */
static int filter_side(struct nsb_side *s, const regex_t *re)
{
	size_t i, k = 0;

	/* s->s[] is the side's own array: compact it in place */
	for (i = 0; i < s->n; i++) {
		if (!regexec(re, s->s[i].name, 0, NULL, 0)) {
			s->s[k++] = s->s[i];
			continue;
		}
		nsb_series_free(&s->s[i]);
	}
	s->n = k;
	return nsb_side_reindex(s);
}

static int apply_filter(struct nsb_comparison *c)
{
	regex_t re;
	int err = regcomp(&re, c->o.filter, REG_EXTENDED | REG_NOSUB);

	if (err) {
		char msg[128];

		regerror(err, &re, msg, sizeof(msg));
		fprintf(stderr, "nsbench: --filter=%s: %s\n", c->o.filter, msg);
		return -1;
	}
	err = filter_side(&c->base, &re) || filter_side(&c->patched, &re) ||
	      filter_side(&c->aa, &re);
	regfree(&re);
	return err ? -1 : 0;
}

static int build_rows(struct nsb_comparison *c)
{
	size_t i, missing = 0;

	if (c->o.filter && apply_filter(c))
		return -1;

	warn_one_sided(&c->base, &c->patched, c->o.strict, &missing);
	warn_one_sided(&c->patched, &c->base, c->o.strict, &missing);
	if (missing && c->o.strict)
		return -1;
	c->rows = calloc(c->base.n ? c->base.n : 1, sizeof(*c->rows));
	if (!c->rows)
		return -1;
	for (i = 0; i < c->base.n; i++) {
		struct nsb_series *b = nsb_side_find(&c->patched,
						     c->base.s[i].name);
		struct nsb_row *r = &c->rows[c->n];

		if (!b)
			continue;
		r->name = c->base.s[i].name;
		r->a = &c->base.s[i];
		r->b = b;
		c->n++;
		if (compare_row(c, r)) {
			fprintf(stderr, "nsbench: %s: out of memory\n",
				r->name);
			return -1;
		}
	}
	if (!c->n) {
		fprintf(stderr, "nsbench: %s and %s have no benchmark in "
			"common; nothing to compare\n", c->base.files[0],
			c->patched.files[0]);
		return -1;
	}
	return 0;
}

static void finish(struct nsb_comparison *c)
{
	double *p = malloc(c->n * sizeof(*p)), *adj = malloc(c->n *
							     sizeof(*adj));
	size_t i, k = 0;

	for (i = 0; i < c->n; i++) {
		struct nsb_effect *e = &c->rows[i].e;

		mark_threshold(c, &c->rows[i]);
		c->count[e->verdict]++;
		if (e->under_thr)
			c->under_thr[e->verdict]++;
		c->rows[i].p_holm = NAN;
	}
	if (!p || !adj)
		goto out;
	for (i = 0; i < c->n; i++)
		if (c->rows[i].e.verdict < NSB_SKIP)
			p[k++] = c->rows[i].e.p;
	nsb_holm(p, k, adj);
	for (i = k = 0; i < c->n; i++) {
		struct nsb_row *r = &c->rows[i];

		if (r->e.verdict >= NSB_SKIP)
			continue;
		r->p_holm = adj[k++];
		if ((r->e.verdict == NSB_SLOWER ||
		     r->e.verdict == NSB_FASTER) && r->p_holm < NSB_ALPHA)
			c->holm_kept++;
	}
out:
	free(p);
	free(adj);
}

/* --- the engine: options and files in, rows out ---------------------- */

static int load_side(struct nsb_side *s, char **files, size_t n,
		     const char *metric)
{
	s->metric = metric;
	for (size_t i = 0; i < n; i++)
		if (nsb_side_load(s, files[i]))
			return -1;
	return 0;
}

static int same_unit(const struct nsb_side *a, const struct nsb_side *b)
{
	if (!b->nfiles || !strcmp(a->unit, b->unit))
		return 0;
	fprintf(stderr, "nsbench: %s: time unit means \"%s\" but %s has "
		"\"%s\"; refusing to compare\n", b->unit_file, b->unit,
		a->unit_file, a->unit);
	return -1;
}

const struct nsb_cmp_opts nsb_cmp_defaults = {
	.threshold = 2.0, .seed = BOOT_SEED, .reps = BOOT_REPS,
	.metric = "real_time",
};

void nsb_comparison_init(struct nsb_comparison *c,
			 const struct nsb_cmp_opts *o)
{
	memset(c, 0, sizeof(*c));
	c->o = o ? *o : nsb_cmp_defaults;
	nsb_side_init(&c->base, "base");
	nsb_side_init(&c->patched, "patched");
	nsb_side_init(&c->aa, "A/A");
}

int nsb_compare_load(struct nsb_comparison *c,
		     const struct nsb_cmp_files *f)
{
	const char *m = c->o.metric;

	if (load_side(&c->base, f->base, f->nbase, m) ||
	    load_side(&c->patched, f->patched, f->npatched, m) ||
	    load_side(&c->aa, f->aa, f->naa, m) ||
	    same_unit(&c->base, &c->patched) || same_unit(&c->base, &c->aa))
		return -1;
	/* icount: the instrument's resolution, not a % of the op */
	if (c->base.icount && !(c->o.abs_threshold > 0))
		c->o.abs_threshold = NSB_ICOUNT_BAND;
	if (build_rows(c))
		return -1;
	finish(c);
	return 0;
}

void nsb_comparison_free(struct nsb_comparison *c)
{
	nsb_side_free(&c->base);
	nsb_side_free(&c->patched);
	nsb_side_free(&c->aa);
	free(c->rows);
	c->rows = NULL;
	c->n = 0;
}

int nsb_compare_status(const struct nsb_comparison *c)
{
	return c->count[NSB_SLOWER] > c->under_thr[NSB_SLOWER] ? 1 : 0;
}
