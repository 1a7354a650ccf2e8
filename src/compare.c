// SPDX-License-Identifier: GPL-2.0
/*
 * compare.c — `nsbench compare BASE... -- PATCHED...`: is the difference
 * real, how big is it, and could this run have seen it?
 *
 * Per benchmark: summaries of both sides; if every sample of both sides
 * carries an A/B round (nsbench_round/nsbench_seed in its file's context)
 * and at least two rounds are common, the comparison is paired: per-round
 * medians, their differences, the median difference with its sign-test
 * CI and the Wilcoxon signed-rank p (DESIGN.md: "Pair and perturb").
 * Otherwise it is unpaired: Hodges-Lehmann shift with the Moses CI and the
 * Mann-Whitney p, plus a bootstrap ratio of medians.
 */
#include <getopt.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "src/compare.h"
#include "src/nsbench.h"

#define BOOT_SEED	20150204UL	/* fixed: output is deterministic */
#define BOOT_REPS	2000
#define COLS		72

static const char *const verdict_names[] = {
	[NSB_SAME] = "same", [NSB_FASTER] = "faster", [NSB_SLOWER] = "slower",
	[NSB_NOISY] = "noisy", [NSB_SKIP] = "skip", [NSB_ERROR] = "error",
};

const char *nsb_verdict_name(enum nsb_verdict v)
{
	return verdict_names[v];
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

/* A common round: where it first appears in the base, and its values. */
struct rpair {
	size_t first;
	double d, ma;
};

static int cmp_rpair(const void *pa, const void *pb)
{
	const struct rpair *a = pa, *b = pb;

	return (a->first > b->first) - (a->first < b->first);
}

/*
 * Per-round differences b - a of the per-round medians into d[], the
 * base's per-round medians into ma[], in the order the base's rounds
 * first appear; returns the number of common rounds.  Both sides sorted
 * by round and merged: n log n, not a walk per sample.
 */
static size_t pair_rounds(const struct nsb_series *a,
			  const struct nsb_series *b, double *d, double *ma,
			  size_t *dropped)
{
	struct rsample *ra = by_round(a), *rb = by_round(b);
	struct rpair *p = malloc((a->n ? a->n : 1) * sizeof(*p));
	double *buf = malloc((a->n > b->n ? a->n : b->n) * sizeof(*buf));
	size_t i = 0, j = 0, ie, je, k = 0;
	double mb;
	int c;

	*dropped = 0;
	if (!ra || !rb || !p || !buf)
		goto out;
	while (i < a->n) {
		while (j < b->n && strcmp(rb[j].round, ra[i].round) < 0)
			j++;
		c = j < b->n ? strcmp(rb[j].round, ra[i].round) : 1;
		ie = round_run(ra, a->n, i, buf, &p[k].ma);
		if (c) {
			(*dropped)++;
		} else {
			je = round_run(rb, b->n, j, buf, &mb);
			p[k].first = ra[i].i;
			p[k].d = mb - p[k].ma;
			k++;
			j = je;
		}
		i = ie;
	}
	qsort(p, k, sizeof(*p), cmp_rpair);
	for (i = 0; i < k; i++) {
		d[i] = p[i].d;
		ma[i] = p[i].ma;
	}
out:
	free(ra);
	free(rb);
	free(p);
	free(buf);
	return k;
}

static void to_pct(struct nsb_effect *e)
{
	e->pct = 100 * e->shift.est / e->base;
	e->lo_pct = 100 * e->shift.lo / e->base;
	e->hi_pct = 100 * e->shift.hi / e->base;
}

/*
 * The verdict against +-thr percent of the base, or, when abs > 0,
 * against +-abs in the row's own unit (the in-boot check costs: an
 * instruction is the resolution icount gives, whatever the op costs).
 */
static void verdict(struct nsb_effect *e, double thr, double abs)
{
	double est = e->pct, lo = e->lo_pct, hi = e->hi_pct;

	if (abs > 0) {
		est = e->shift.est;
		lo = e->shift.lo;
		hi = e->shift.hi;
		thr = abs;
	}
	e->verdict = NSB_NOISY;
	if (e->base <= 0 || !isfinite(e->pct)) {
		snprintf(e->note, sizeof(e->note), "base median is not > 0");
		return;
	}
	if (e->shift.level < 1 - NSB_ALPHA - 1e-9) {
		snprintf(e->note, sizeof(e->note),
			 "too few %s for a 95%% CI (%.0f%% only)",
			 e->paired ? "rounds" : "samples",
			 100 * e->shift.level);
		return;
	}
	if (lo >= -thr && hi <= thr)
		e->verdict = NSB_SAME;
	else if (e->p < NSB_ALPHA && lo > 0 && est > thr)
		e->verdict = NSB_SLOWER;
	else if (e->p < NSB_ALPHA && hi < 0 && est < -thr)
		e->verdict = NSB_FASTER;
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
				   o->threshold / 100 * e->base);
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
				   o->threshold / 100 * e->base);
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
	return 0;
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
		c->count[c->rows[i].e.verdict]++;
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

/* --- command line ----------------------------------------------------- */

const char nsb_compare_opts_help[] =
"  --threshold=PCT   noise threshold in percent of the base median\n"
"                    (default 2).  Verdicts: slower/faster when p < 0.05\n"
"                    and the estimate lies beyond +-PCT; same when the\n"
"                    whole 95% CI lies inside +-PCT; else noisy\n"
"  --aa=FILE         a second run of the base (an A/A pair; repeatable):\n"
"                    its residual against BASE is reported per benchmark\n"
"  --unpaired        ignore A/B rounds even where both sides have them\n"
"  --strict          a benchmark on one side only is an error (exit 2)\n"
"                    instead of a warning and a skipped row\n"
"  --metric=FIELD    real_time (default) or cpu_time\n"
"  --filter=REGEX    only benchmarks whose name matches (extended regex)\n"
"  --seed=N          bootstrap seed (default 20150204)\n"
"\n"
"Samples are run_type \"iteration\" entries (aggregates are ignored) of\n"
"Google Benchmark / nsbench JSON, or the runs of hyperfine --export-json\n"
"files; several files per side pool by benchmark name.  When every sample\n"
"of both sides carries nsbench_round (and nsbench_seed) the comparison is\n"
"paired by round: the per-round median differences, their median with a\n"
"sign-test CI and the Wilcoxon signed-rank p.  Otherwise: Hodges-Lehmann\n"
"shift with its Moses CI and the Mann-Whitney U p, and a bootstrap ratio\n"
"of medians.  Exit: 0 no regression beyond the threshold, 1 regression\n"
"(a 'slower' row), 2 usage or input error.  Rows that failed or were\n"
"skipped are reported, not gated.\n";

enum { OPT_THRESHOLD = 256, OPT_AA, OPT_UNPAIRED, OPT_STRICT, OPT_METRIC,
	OPT_SEED, OPT_FILTER, OPT_HELP };

static const struct option common_opts[] = {
	{ "threshold", required_argument, NULL, OPT_THRESHOLD },
	{ "aa", required_argument, NULL, OPT_AA },
	{ "unpaired", no_argument, NULL, OPT_UNPAIRED },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "filter", required_argument, NULL, OPT_FILTER },
	{ "help", no_argument, NULL, OPT_HELP },
};

#define N_COMMON (NSB_ARRAY_SIZE(common_opts))

static int parse_double(const char *arg, double *v)
{
	char *end;

	*v = strtod(arg, &end);
	return *arg && !*end && isfinite(*v) && *v >= 0 ? 0 : -1;
}

static int common_opt(struct nsb_comparison *c, int key, const char *arg,
		      const char **aa, size_t *naa)
{
	char *end;

	switch (key) {
	case OPT_THRESHOLD:
		if (parse_double(arg, &c->o.threshold))
			goto bad;
		return 0;
	case OPT_AA:
		aa[(*naa)++] = arg;
		return 0;
	case OPT_UNPAIRED:
		c->o.unpaired = true;
		return 0;
	case OPT_STRICT:
		c->o.strict = true;
		return 0;
	case OPT_METRIC:
		if (strcmp(arg, "real_time") && strcmp(arg, "cpu_time"))
			goto bad;
		nsb_metric = !strcmp(arg, "cpu_time") ? "cpu_time" :
			     "real_time";
		return 0;
	case OPT_FILTER:
		c->o.filter = arg;
		return 0;
	case OPT_SEED:
		c->o.seed = strtoul(arg, &end, 0);
		if (!*arg || *end)
			goto bad;
		return 0;
	}
	return 1;
bad:
	return 2;	/* the caller names the option */
}

/* "nsbench compare: --threshold: bad value 'abc'": which option. */
static void bad_value(const char *cmd, const struct option *all, int idx,
		      int key, const char *arg)
{
	const char *name = idx >= 0 ? all[idx].name : NULL;
	size_t i;

	for (i = 0; !name && all[i].name; i++)
		if (all[i].val == key && !all[i].flag)
			name = all[i].name;
	fprintf(stderr, "nsbench %s: --%s: bad value '%s'\n", cmd,
		name ? name : "?", arg ? arg : "");
}

static int load_side(struct nsb_side *s, char **files, int n)
{
	int i;

	for (i = 0; i < n; i++)
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

static int load_all(struct nsb_comparison *c, char **base, int nb,
		    char **patched, int np, char **aa, int naa)
{
	if (load_side(&c->base, base, nb) ||
	    load_side(&c->patched, patched, np) ||
	    load_side(&c->aa, aa, naa) ||
	    same_unit(&c->base, &c->patched) || same_unit(&c->base, &c->aa))
		return -1;
	return 0;
}

/* getopt_long table: the common options, the caller's, the terminator. */
static struct option *merge_opts(const struct option *extra)
{
	size_t n = 0;
	struct option *all;

	while (extra && extra[n].name)
		n++;
	all = calloc(N_COMMON + n + 1, sizeof(*all));
	if (!all)
		return NULL;
	memcpy(all, common_opts, sizeof(common_opts));
	if (n)
		memcpy(all + N_COMMON, extra, n * sizeof(*all));
	return all;
}

int nsb_compare_main(struct nsb_comparison *c, int argc, char **argv,
		     const struct option *extra, const char *extra_short,
		     int (*opt)(int key, const char *arg, void *data),
		     void *data, void (*usage)(FILE *f))
{
	const char **aa = calloc((size_t)argc, sizeof(*aa));
	struct option *all = merge_opts(extra);
	int sep, key, ret = 2, r, idx = -1;
	size_t naa = 0;

	memset(c, 0, sizeof(*c));
	c->o = (struct nsb_cmp_opts){ .threshold = 2.0, .seed = BOOT_SEED,
				      .reps = BOOT_REPS };
	c->argc = argc;
	c->argv = argv;
	nsb_side_init(&c->base, "base");
	nsb_side_init(&c->patched, "patched");
	nsb_side_init(&c->aa, "A/A");
	if (!aa || !all)
		goto out;
	/* Options before "--" only: getopt would swallow the separator. */
	for (sep = 1; sep < argc && strcmp(argv[sep], "--"); sep++)
		;
	optind = 0;
	while ((key = getopt_long(sep, argv, extra_short ? extra_short : "",
				  all, &idx)) != -1) {
		if (key == OPT_HELP) {
			usage(stdout);
			ret = 3;	/* help shown: exit 0 */
			goto out;
		}
		r = common_opt(c, key, optarg, aa, &naa);
		if (r == 1 && opt)
			r = opt(key, optarg, data);
		if (r == 2)
			bad_value(argv[0], all, idx, key, optarg);
		idx = -1;	/* a short option leaves it as it was */
		if (r) {
			usage(stderr);
			goto out;
		}
	}
	if (sep >= argc || optind >= sep || sep + 1 >= argc) {
		fprintf(stderr, "nsbench %s: need BASE... -- PATCHED...\n",
			argv[0]);
		usage(stderr);
		goto out;
	}
	if (load_all(c, argv + optind, sep - optind, argv + sep + 1,
		     argc - sep - 1, (char **)aa, (int)naa) ||
	    build_rows(c))
		goto out;
	finish(c);
	ret = 0;
out:
	free(aa);
	free(all);
	return ret;
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
	return c->count[NSB_SLOWER] ? 1 : 0;
}

/* --- formatting ------------------------------------------------------- */

void nsb_fmt_value(char *buf, size_t len, double v, bool icount)
{
	static const struct { double f; const char *unit; } scale[] = {
		{ 1e9, "s" }, { 1e6, "ms" }, { 1e3, "us" }, { 1, "ns" },
	};
	size_t i;

	if (icount) {
		snprintf(buf, len, v >= 1000 ? "%.0f insn" : "%.1f insn", v);
		return;
	}
	for (i = 0; i < 3 && fabs(v) < scale[i].f; i++)
		;
	snprintf(buf, len, "%#.4g %s", v / scale[i].f, scale[i].unit);
}

void nsb_fmt_p(char *buf, size_t len, double p)
{
	if (p < 0.001)
		snprintf(buf, len, "<0.001");
	else
		snprintf(buf, len, "%.3f", p);
}

static void fmt_ci(char *buf, size_t len, const struct nsb_effect *e)
{
	snprintf(buf, len, "[%+.1f%%, %+.1f%%]", e->lo_pct, e->hi_pct);
}

/* Length of the "dir/" prefix all row names share (0 for one row). */
static size_t common_prefix(const struct nsb_comparison *c)
{
	size_t len, i, j;

	if (c->n < 2)
		return 0;
	len = strlen(c->rows[0].name);
	for (i = 1; i < c->n; i++) {
		for (j = 0; j < len && c->rows[i].name[j] ==
		     c->rows[0].name[j]; j++)
			;
		len = j;
	}
	while (len && c->rows[0].name[len - 1] != '/')
		len--;
	return len;
}

void nsb_wrap_hang(FILE *f, const char *first, const char *rest,
		   const char *text)
{
	const char *p = text, *pre = first;
	size_t col = 0;

	while (*p) {
		size_t w = strcspn(p, " ");

		if (col && col + 1 + w > COLS) {
			fputc('\n', f);
			col = 0;
		}
		if (!col) {
			fputs(pre, f);
			col = strlen(pre);
			pre = rest;
		} else {
			fputc(' ', f);
			col++;
		}
		fwrite(p, 1, w, f);
		col += w;
		p += w;
		p += strspn(p, " ");
	}
	if (col)
		fputc('\n', f);
}

void nsb_wrap(FILE *f, const char *indent, const char *text)
{
	nsb_wrap_hang(f, indent, indent, text);
}

static void text_name(FILE *f, const struct nsb_row *r, size_t skip)
{
	const char *name = r->name + skip;
	char tag[40] = "";
	size_t len, room;

	if (r->e.paired)
		snprintf(tag, sizeof(tag), "  (paired, %zu rounds)",
			 r->e.rounds);
	len = strlen(name);
	room = COLS - strlen(tag);
	if (len > room)
		fprintf(f, "...%s%s\n", name + len - (room - 3), tag);
	else
		fprintf(f, "%s%s\n", name, tag);
}

static void text_row(FILE *f, const struct nsb_comparison *c,
		     const struct nsb_row *r, size_t skip)
{
	char a[24], b[24], ci[40], p[16], line[400];
	bool ic = c->base.icount;

	text_name(f, r, skip);
	if (r->e.verdict >= NSB_SKIP) {
		snprintf(line, sizeof(line), "%s (%s)",
			 nsb_verdict_name(r->e.verdict), r->e.note);
		nsb_wrap(f, "    ", line);
		return;
	}
	nsb_fmt_value(a, sizeof(a), r->e.paired ? r->e.base : r->sa.median,
		      ic);
	nsb_fmt_value(b, sizeof(b), r->e.paired ? r->e.base + r->e.shift.est
		      : r->sb.median, ic);
	fmt_ci(ci, sizeof(ci), &r->e);
	nsb_fmt_p(p, sizeof(p), r->e.p);
	fprintf(f, "  %12s %12s %+7.1f%%  %-16s %6s  %s\n", a, b,
		r->e.pct, ci, p, nsb_verdict_name(r->e.verdict));
	if (ic) {
		/* a +101-instruction change is what icount is for */
		snprintf(line, sizeof(line), "shift %+.1f insn [%+.1f, %+.1f]",
			 r->e.shift.est, r->e.shift.lo, r->e.shift.hi);
		nsb_wrap(f, "    ", line);
	}
	if (r->e.verdict == NSB_NOISY) {
		snprintf(line, sizeof(line), "noisy: MDE %.1f%%; ~%zu %s "
			 "needed to resolve %.1f%%%s%s", r->e.mde_pct,
			 r->e.n_needed, r->e.paired ? "rounds" :
			 "samples per side", c->o.threshold,
			 *r->e.note ? "; " : "", r->e.note);
		nsb_wrap(f, "    ", line);
	} else if (*r->e.note) {
		nsb_wrap(f, "    ", r->e.note);
	}
	if (r->has_aa) {
		fmt_ci(ci, sizeof(ci), &r->aa);
		snprintf(line, sizeof(line), "A/A residual %+.1f%% %s: %s",
			 r->aa.pct, ci, nsb_verdict_name(r->aa.verdict));
		nsb_wrap(f, "    ", line);
	}
}

static void text_notes(FILE *f, const struct nsb_comparison *c)
{
	char line[600];
	size_t tested = c->n - c->count[NSB_SKIP] - c->count[NSB_ERROR];

	snprintf(line, sizeof(line), "%zu slower, %zu faster, %zu same, "
		 "%zu noisy, %zu skipped, %zu failed (threshold %.1f%%).",
		 c->count[NSB_SLOWER], c->count[NSB_FASTER], c->count[NSB_SAME],
		 c->count[NSB_NOISY], c->count[NSB_SKIP], c->count[NSB_ERROR],
		 c->o.threshold);
	nsb_wrap(f, "", line);
	nsb_wrap(f, "", "delta: patched vs base in % of the base median; "
		 "unpaired rows: Hodges-Lehmann shift, Moses 95% CI, "
		 "Mann-Whitney U p; paired rows: median of per-round "
		 "differences, sign-test 95% CI, Wilcoxon signed-rank p. "
		 "MDE: minimum detectable effect (alpha 0.05, power 0.8).");
	if (tested > 1) {
		snprintf(line, sizeof(line), "p-values are per row, not "
			 "adjusted for the %zu comparisons; with Holm's "
			 "adjustment %zu of %zu slower/faster verdicts keep "
			 "p < 0.05.", tested, c->holm_kept,
			 c->count[NSB_SLOWER] + c->count[NSB_FASTER]);
		nsb_wrap(f, "", line);
	}
}

void nsb_print_text(FILE *f, const struct nsb_comparison *c)
{
	size_t skip = common_prefix(c), i;

	if (skip)
		fprintf(f, "Benchmarks under %.*s\n", (int)skip,
			c->rows[0].name);
	fprintf(f, "  %12s %12s %8s  %-16s %6s  %s\n", "base", "patched",
		"delta", "95% CI", "p", "verdict");
	for (i = 0; i < c->n; i++)
		text_row(f, c, &c->rows[i], skip);
	fputc('\n', f);
	text_notes(f, c);
}

void nsb_print_markdown(FILE *f, const struct nsb_comparison *c)
{
	char a[24], b[24], ci[40], p[16], d[64];
	size_t i;
	bool ic = c->base.icount;

	fprintf(f, "| benchmark | n | base | patched | delta | 95 %% CI | "
		"p | MDE | verdict |\n");
	fprintf(f, "|---|---:|---:|---:|---:|---|---:|---:|---|\n");
	for (i = 0; i < c->n; i++) {
		const struct nsb_row *r = &c->rows[i];

		if (r->e.verdict >= NSB_SKIP) {
			fprintf(f, "| `%s` | | | | | | | | %s: %s |\n",
				r->name, nsb_verdict_name(r->e.verdict),
				r->e.note);
			continue;
		}
		/* paired: the per-round base median and base + shift */
		nsb_fmt_value(a, sizeof(a), r->e.paired ? r->e.base :
			      r->sa.median, ic);
		nsb_fmt_value(b, sizeof(b), r->e.paired ? r->e.base +
			      r->e.shift.est : r->sb.median, ic);
		fmt_ci(ci, sizeof(ci), &r->e);
		nsb_fmt_p(p, sizeof(p), r->e.p);
		if (r->e.paired)
			fprintf(f, "| `%s` | %zu rounds ", r->name,
				r->e.rounds);
		else
			fprintf(f, "| `%s` | %zu / %zu ", r->name, r->sa.n,
				r->sb.n);
		/* icount resolves single instructions: show them */
		if (ic)
			snprintf(d, sizeof(d), "%+.1f insn (%+.2f %%)",
				 r->e.shift.est, r->e.pct);
		else
			snprintf(d, sizeof(d), "%+.1f %%", r->e.pct);
		fprintf(f, "| %s | %s | %s | %s | %s | %.1f %% | **%s**%s%s |\n",
			a, b, d, ci, p, r->e.mde_pct,
			nsb_verdict_name(r->e.verdict), *r->e.note ? ": " : "",
			r->e.note);
	}
	fprintf(f, "\n%zu slower, %zu faster, %zu same, %zu noisy, "
		"%zu skipped, %zu failed; threshold %.1f %%.\n",
		c->count[NSB_SLOWER], c->count[NSB_FASTER], c->count[NSB_SAME],
		c->count[NSB_NOISY], c->count[NSB_SKIP], c->count[NSB_ERROR],
		c->o.threshold);
	fprintf(f, "Delta: patched vs base in %% of the base median; unpaired "
		"rows: Hodges-Lehmann shift, Moses CI, Mann-Whitney U p; "
		"paired rows: median of per-round differences, sign-test CI, "
		"Wilcoxon signed-rank p.  p-values are not adjusted for "
		"multiple comparisons; with Holm, %zu slower/faster verdicts "
		"keep p < 0.05.\n", c->holm_kept);
	for (i = 0; i < c->n; i++) {
		const struct nsb_row *r = &c->rows[i];

		if (!r->has_aa)
			continue;
		fmt_ci(ci, sizeof(ci), &r->aa);
		fprintf(f, "\n- A/A residual of `%s`: %+.1f %% %s, %s",
			r->name, r->aa.pct, ci, nsb_verdict_name(r->aa.verdict));
	}
	fputc('\n', f);
}

/* --- JSON ------------------------------------------------------------- */

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *summary_json(const struct nsb_summary *s)
{
	return json_pack("{s:I,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}",
			 "n", (json_int_t)s->n, "median", num(s->median),
			 "mean", num(s->mean), "sd", num(s->sd),
			 "cv", num(s->cv), "min", num(s->min),
			 "max", num(s->max), "ci_lo", num(s->ci_lo),
			 "ci_hi", num(s->ci_hi), "ci_level", num(s->ci_level));
}

static json_t *interval_json(const struct nsb_interval *i)
{
	return json_pack("{s:o,s:o,s:o,s:o}", "est", num(i->est),
			 "lo", num(i->lo), "hi", num(i->hi),
			 "level", num(i->level));
}

static json_t *effect_json(const struct nsb_effect *e)
{
	json_t *j = json_pack("{s:s,s:b,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:I,s:s}",
		"verdict", nsb_verdict_name(e->verdict), "paired", e->paired,
		"base_ref", num(e->base), "shift", interval_json(&e->shift),
		"delta_pct", num(e->pct), "delta_lo_pct", num(e->lo_pct),
		"delta_hi_pct", num(e->hi_pct), "p", num(e->p),
		"mde_pct", num(e->mde_pct), "n_needed", (json_int_t)e->n_needed,
		"note", e->note);

	if (!j)
		return NULL;
	if (e->paired) {
		json_object_set_new(j, "test", json_string("wilcoxon"));
		json_object_set_new(j, "rounds", json_integer((json_int_t)
							      e->rounds));
		json_object_set_new(j, "signed_rank", json_pack(
			"{s:I,s:o,s:o,s:o,s:b}", "n", (json_int_t)e->wsr.n,
			"t_plus", num(e->wsr.t_plus), "t", num(e->wsr.t),
			"p", num(e->wsr.p), "exact", e->wsr.exact));
		json_object_set_new(j, "median_diff",
				    interval_json(&e->dmed));
		json_object_set_new(j, "walsh", interval_json(&e->walsh));
	} else {
		json_object_set_new(j, "test", json_string("mann-whitney"));
		json_object_set_new(j, "mann_whitney", json_pack(
			"{s:o,s:o,s:b}", "u", num(e->mwu.u), "p",
			num(e->mwu.p), "exact", e->mwu.exact));
		json_object_set_new(j, "hodges_lehmann",
				    interval_json(&e->hl));
		json_object_set_new(j, "ratio", interval_json(&e->ratio));
	}
	return j;
}

static json_t *row_json(const struct nsb_row *r)
{
	json_t *e, *j = json_pack("{s:s,s:s}", "name", r->name, "verdict",
			      nsb_verdict_name(r->e.verdict));

	if (!j)
		return NULL;
	json_object_set_new(j, "skipped", json_pack("{s:I,s:I}", "base",
			    (json_int_t)r->a->skipped, "patched",
			    (json_int_t)r->b->skipped));
	json_object_set_new(j, "errors", json_pack("{s:I,s:I}", "base",
			    (json_int_t)r->a->errors, "patched",
			    (json_int_t)r->b->errors));
	if (r->e.verdict >= NSB_SKIP) {
		json_object_set_new(j, "note", json_string(r->e.note));
		return j;
	}
	json_object_set_new(j, "base", summary_json(&r->sa));
	json_object_set_new(j, "patched", summary_json(&r->sb));
	e = effect_json(&r->e);
	json_object_update(j, e);
	json_decref(e);
	json_object_set_new(j, "p_holm", num(r->p_holm));
	if (r->has_aa)
		json_object_set_new(j, "aa", effect_json(&r->aa));
	return j;
}

static json_t *files_json(const struct nsb_side *s)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < s->nfiles; i++)
		json_array_append_new(a, json_string(s->files[i]));
	return a;
}

json_t *nsb_compare_json(const struct nsb_comparison *c)
{
	json_t *rows = json_array(), *root;
	size_t i;

	for (i = 0; i < c->n; i++)
		json_array_append_new(rows, row_json(&c->rows[i]));
	root = json_pack("{s:i,s:s,s:f,s:f,s:s,s:s,s:o,s:o,s:o,s:o}",
		"nsbench_compare", 1, "nsbench_version", nsb_version(),
		"threshold_pct", c->o.threshold, "alpha", NSB_ALPHA,
		"metric", nsb_metric, "unit", c->base.unit,
		"base_files", files_json(&c->base),
		"patched_files", files_json(&c->patched),
		"aa_files", files_json(&c->aa), "rows", rows);
	if (!root)
		return NULL;
	json_object_set_new(root, "summary", json_pack(
		"{s:I,s:I,s:I,s:I,s:I,s:I,s:I}",
		"slower", (json_int_t)c->count[NSB_SLOWER],
		"faster", (json_int_t)c->count[NSB_FASTER],
		"same", (json_int_t)c->count[NSB_SAME],
		"noisy", (json_int_t)c->count[NSB_NOISY],
		"skip", (json_int_t)c->count[NSB_SKIP],
		"error", (json_int_t)c->count[NSB_ERROR],
		"holm_kept", (json_int_t)c->holm_kept));
	return root;
}

/* --- nsbench compare -------------------------------------------------- */

enum fmt { FMT_TEXT, FMT_MARKDOWN, FMT_JSON };

static void compare_usage(FILE *f)
{
	fprintf(f, "usage: nsbench compare [options] BASE... -- PATCHED...\n"
		"\n"
		"Compare results files benchmark by benchmark: summaries, "
		"tests, CIs\nand a verdict per row.\n\n"
		"  --format=FMT      text (default), markdown or json (one "
		"object per row\n"
		"                    with every statistic, for CI history)\n"
		"%s", nsb_compare_opts_help);
}

static int compare_opt(int key, const char *arg, void *data)
{
	enum fmt *fmt = data;

	if (key != 'f')
		return 1;
	if (!strcmp(arg, "text"))
		*fmt = FMT_TEXT;
	else if (!strcmp(arg, "markdown"))
		*fmt = FMT_MARKDOWN;
	else if (!strcmp(arg, "json"))
		*fmt = FMT_JSON;
	else
		return 2;
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 },
	};
	struct nsb_comparison c;
	enum fmt fmt = FMT_TEXT;
	json_t *j;
	int ret;

	ret = nsb_compare_main(&c, argc, argv, opts, NULL, compare_opt, &fmt,
			       compare_usage);
	if (ret) {
		nsb_comparison_free(&c);
		return ret == 3 ? 0 : ret;
	}
	if (fmt == FMT_JSON) {
		j = nsb_compare_json(&c);
		if (!j || json_dumpf(j, stdout, JSON_INDENT(2) |
				     JSON_PRESERVE_ORDER)) {
			fprintf(stderr, "nsbench: cannot encode JSON\n");
			ret = 2;
		}
		putchar('\n');
		json_decref(j);
	} else if (fmt == FMT_MARKDOWN) {
		nsb_print_markdown(stdout, &c);
	} else {
		nsb_print_text(stdout, &c);
	}
	if (!ret)
		ret = nsb_compare_status(&c);
	nsb_comparison_free(&c);
	return ret;
}
