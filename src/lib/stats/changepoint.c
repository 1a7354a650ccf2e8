// SPDX-License-Identifier: GPL-2.0
/*
 * changepoint.c — E-divisive means with a permutation test, and the
 * filter that keeps only changes larger than the benchmark's own noise
 * (see changepoint.h).
 *
 * For a segment y[0..m) and a split t, with D(i, j) = |y_i - y_j|,
 * W(t) the sum of D over pairs left of t, R(t) over pairs right of it and
 * B(t) over pairs across it, the statistic is
 *
 *   Q(t) = t (m - t) / m * (2 B / (t (m - t)) - W / C(t, 2)
 *                           - R / C(m - t, 2)),
 *
 * a scaled energy distance between the two sides.  Every Q(t) of a
 * segment comes from running sums of D to each point's left and right,
 * which Fenwick trees over the values' ranks give in O(m log m): the
 * permutation test's shuffles stay cheap for histories of 20,000 runs
 * (the pairwise double loop was O(m^2) per shuffle, hours for those).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "src/lib/stats/changepoint.h"
#include "src/lib/stats/compare.h"

struct cp_ctx {
	const struct nsb_cp_opts *o;
	gsl_rng *rng;
	double *left, *right;	/* per-point sums of D to the left / right */
	struct pv *seg;		/* a segment's values with their ranks */
	struct pv *perm;	/* shuffled copy of a segment */
	size_t *idx;		/* change points found, unordered */
	size_t nidx;
	/* the sums of D in O(m log m): values by rank in Fenwick trees */
	struct ranked_y *by;	/* (value, position), sorted */
	double *cnt, *sum;	/* Fenwick trees over ranks */
};

struct ranked_y {
	double v;
	size_t i;
};

/*
 * A value and its rank in its segment.  A shuffle moves both, so a
 * permutation's ranks need no sort: the segment is sorted once.
 */
struct pv {
	double v;
	size_t rank;
};

void nsb_cp_opts_default(struct nsb_cp_opts *o)
{
	o->sig = NSB_CP_SIG;
	o->perms = NSB_CP_PERMS;
	o->min_size = NSB_CP_MIN_SIZE;
	o->threshold = NSB_CP_THRESHOLD;
	o->threshold_given = false;
	o->band = 0;	/* timed series; history.c sets it for icount */
	o->seed = NSB_CP_SEED;
}

/*
 * Does a clear step in the middle of n points get flagged?  +10 %, far
 * beyond any threshold, with a little jitter so that no two points tie.
 */
static int step_found(const struct nsb_cp_opts *o, size_t n)
{
	struct nsb_cp_opts so = *o;
	struct nsb_cp *cps = NULL;
	double *x = malloc(n * sizeof(*x));
	long k = -1;

	if (!x)
		return -1;
	so.band = 0;
	so.threshold = 1;
	for (size_t i = 0; i < n; i++)
		x[i] = (i < n / 2 ? 100 : 110) + 1e-3 * (double)(i % 5);
	k = nsb_changepoints(x, n, &so, &cps);
	free(x);
	free(cps);
	return k < 0 ? -1 : k > 0;
}

size_t nsb_cp_min_runs(const struct nsb_cp_opts *o)
{
	size_t n;
	int found;

	/* the permutation test's max over splits: tried, not derived */
	for (n = 2 * (o->min_size ? o->min_size : 1); n <= 64; n++) {
		found = step_found(o, n);
		if (found)
			return found < 0 ? 0 : n;
	}
	return 0;
}

static int cmp_ranked_y(const void *a, const void *b)
{
	double x = ((const struct ranked_y *)a)->v;
	double y = ((const struct ranked_y *)b)->v;

	return (x > y) - (x < y);
}

/* Count and sum of the values inserted with rank <= r (from 0). */
static void fen_query(const struct cp_ctx *c, size_t r, double *n, double *s)
{
	*n = *s = 0;
	for (r++; r; r &= r - 1) {
		*n += c->cnt[r];
		*s += c->sum[r];
	}
}

static void fen_add(struct cp_ctx *c, size_t r, double v, size_t m)
{
	for (r++; r <= m; r += r & -r) {
		c->cnt[r] += 1;
		c->sum[r] += v;
	}
}

/*
 * out[t] = sum of |y_i - y_t| over the i inserted before t, in the order
 * given by step (+1: left to right, -1: right to left).  Values are
 * centred first: the sums subtract, and small numbers lose less.
 */
static void abs_sums(struct cp_ctx *c, const struct pv *y, size_t m,
		     double mean, bool backward, double *out)
{
	double n_le, s_le, total = 0, v;
	size_t k, t;

	memset(c->cnt, 0, (m + 1) * sizeof(*c->cnt));
	memset(c->sum, 0, (m + 1) * sizeof(*c->sum));
	for (k = 0; k < m; k++) {
		t = backward ? m - 1 - k : k;
		v = y[t].v - mean;
		fen_query(c, y[t].rank, &n_le, &s_le);
		out[t] = (n_le * v - s_le) +
			 ((total - s_le) - ((double)k - n_le) * v);
		fen_add(c, y[t].rank, v, m);
		total += v;
	}
}

/* The values of y[0..m) with their ranks into c->seg: one sort. */
static void rank_segment(struct cp_ctx *c, const double *y, size_t m)
{
	size_t i;

	for (i = 0; i < m; i++)
		c->by[i] = (struct ranked_y){ y[i], i };
	qsort(c->by, m, sizeof(*c->by), cmp_ranked_y);
	for (i = 0; i < m; i++)
		c->seg[c->by[i].i] = (struct pv){ c->by[i].v, i };
}

/*
 * left[t] = sum of D(i, t) over i < t, right[i] = sum over j > i: the
 * same numbers the pairwise double loop gave, in O(m log m).
 */
static void pair_sums(struct cp_ctx *c, const struct pv *y, size_t m)
{
	double mean = 0;
	size_t i;

	for (i = 0; i < m; i++)
		mean += y[i].v;
	mean /= (double)m;
	abs_sums(c, y, m, mean, false, c->left);
	abs_sums(c, y, m, mean, true, c->right);
}

/* Largest Q over the splits with min points on each side; its t in *tau. */
static double best_split(struct cp_ctx *c, const struct pv *y, size_t m,
			 size_t *tau)
{
	size_t min = c->o->min_size, t;
	double w = 0, r, total, best = -1;

	pair_sums(c, y, m);
	for (t = 0, total = 0; t < m; t++)
		total += c->left[t];
	r = total;
	for (t = 1; t < m; t++) {
		double q, dm = (double)m, dt = (double)t;

		w += c->left[t - 1];	/* pairs inside [0, t) */
		r -= c->right[t - 1];	/* pairs inside [t, m) */
		if (t < min || m - t < min)
			continue;
		q = 2 * (total - w - r) / dm -
		    2 * w * (dm - dt) / (dm * (dt - 1)) -
		    2 * r * dt / (dm * (dm - dt - 1));
		if (q > best) {
			best = q;
			if (tau)
				*tau = t;
		}
	}
	return best;
}

/*
 * Permutation p-value of q_obs: shuffles of the segment that reach it.
 * Stops as soon as the answer can no longer be "significant", which is
 * what makes noise-only series cheap; the p returned then is a lower
 * estimate, only ever compared with sig.
 */
static double perm_p(struct cp_ctx *c, const struct pv *y, size_t m,
		     double q_obs)
{
	const struct nsb_cp_opts *o = c->o;
	double limit = o->sig * (double)(o->perms + 1);
	double tol = 1e-12 * fabs(q_obs);
	size_t i, hit = 0;

	memcpy(c->perm, y, m * sizeof(*y));	/* the same swaps as ever */
	for (i = 0; i < o->perms; i++) {
		gsl_ran_shuffle(c->rng, c->perm, m, sizeof(*c->perm));
		if (best_split(c, c->perm, m, NULL) >= q_obs - tol)
			hit++;
		if ((double)(hit + 1) > limit)
			return (double)(hit + 1) / (double)(i + 2);
	}
	return (double)(hit + 1) / (double)(o->perms + 1);
}

/* Bisects x[from, to) while the best split is significant. */
static void bisect(struct cp_ctx *c, const double *x, size_t from, size_t to)
{
	size_t m = to - from, tau = 0;
	double q;

	if (m < 2 * c->o->min_size)
		return;
	rank_segment(c, x + from, m);
	q = best_split(c, c->seg, m, &tau);
	if (q <= 0 || perm_p(c, c->seg, m, q) > c->o->sig)
		return;
	c->idx[c->nidx++] = from + tau;
	bisect(c, x, from, from + tau);
	bisect(c, x, from + tau, to);
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* Robust sd of both segments around their own medians, in % of before. */
static double noise_pct(const double *x, const struct nsb_cp *cp,
			double *buf)
{
	size_t i, k = 0;

	for (i = cp->from; i < cp->to; i++)
		buf[k++] = fabs(x[i] - (i < cp->index ? cp->before :
						       cp->after));
	gsl_sort(buf, 1, k);
	return 100 * 1.4826 * gsl_stats_median_from_sorted_data(buf, 1, k) /
	       fabs(cp->before);
}

/* Sizes and intervals of the change at idx[i] between its neighbours. */
static int measure(const double *x, size_t n, const size_t *idx, size_t k,
		   size_t i, struct nsb_cp *cp, double *buf)
{
	size_t nb, na;

	cp->index = idx[i];
	cp->from = i ? idx[i - 1] : 0;
	cp->to = i + 1 < k ? idx[i + 1] : n;
	nb = cp->index - cp->from;
	na = cp->to - cp->index;
	cp->before = nsb_median_of(x + cp->from, nb, buf);
	cp->after = nsb_median_of(x + cp->index, na, buf);
	cp->pct = 100 * (cp->after - cp->before) / fabs(cp->before);
	cp->noise_pct = noise_pct(x, cp, buf);
	return nsb_hodges_lehmann(x + cp->from, nb, x + cp->index, na,
				  NSB_ALPHA, &cp->shift);
}

static bool flagged(const struct nsb_cp *cp, const struct nsb_cp_opts *o)
{
	bool big = fabs(cp->pct) >= o->threshold;
	enum nsb_verdict v;

	if (cp->before == 0 || !isfinite(cp->pct))
		return false;
	if (o->band > 0) {
		v = nsb_band_verdict(&cp->shift, o->band, true);
		return (v == NSB_SLOWER || v == NSB_FASTER) &&
		       (!o->threshold_given || big);
	}
	return big && (cp->shift.lo > 0 || cp->shift.hi < 0);
}

/*
 * Measures every change point against its neighbours; drops the smallest
 * unflagged one and measures again until all that remain are flagged, so
 * a real step is never judged against a spurious neighbour.  Returns the
 * number kept, or -1.
 */
static long filter(const double *x, size_t n, size_t *idx, size_t k,
		   const struct nsb_cp_opts *o, struct nsb_cp *cps)
{
	double *buf = malloc((n ? n : 1) * sizeof(*buf));
	size_t i, worst;
	bool drop;

	if (!buf)
		return -1;
	for (;;) {
		drop = false;
		worst = 0;
		for (i = 0; i < k; i++) {
			if (measure(x, n, idx, k, i, &cps[i], buf))
				goto fail;
			if (flagged(&cps[i], o))
				continue;
			if (!drop || fabs(cps[i].pct) < fabs(cps[worst].pct))
				worst = i;
			drop = true;
		}
		if (!drop)
			break;
		memmove(idx + worst, idx + worst + 1,
			(k - worst - 1) * sizeof(*idx));
		k--;
	}
	free(buf);
	return (long)k;
fail:
	free(buf);
	return -1;
}

static void ctx_free(struct cp_ctx *c)
{
	gsl_rng_free(c->rng);
	free(c->left);
	free(c->right);
	free(c->perm);
	free(c->idx);
	free(c->by);
	free(c->seg);
	free(c->cnt);
	free(c->sum);
}

/* q and p of each kept change point: the test of its own split. */
static void attach_tests(struct cp_ctx *c, const double *x,
			 struct nsb_cp *cps, long k)
{
	long i;
	size_t tau;

	for (i = 0; i < k; i++) {
		struct nsb_cp *cp = &cps[i];

		rank_segment(c, x + cp->from, cp->to - cp->from);
		cp->q = best_split(c, c->seg, cp->to - cp->from, &tau);
		cp->p = perm_p(c, c->seg, cp->to - cp->from, cp->q);
	}
}

long nsb_changepoints(const double *x, size_t n, const struct nsb_cp_opts *o,
		      struct nsb_cp **cps)
{
	struct nsb_cp_opts opts = *o;
	struct cp_ctx c = { .o = &opts };
	long k = -1;

	*cps = NULL;
	if (opts.min_size < 2)	/* the within-side sums need pairs */
		opts.min_size = 2;
	/* too short to split: no generator, no buffers (100k such series) */
	if (n < 2 * opts.min_size)
		return 0;
	c.rng = gsl_rng_alloc(gsl_rng_mt19937);
	c.left = malloc((n + 1) * sizeof(double));
	c.right = malloc((n + 1) * sizeof(double));
	c.perm = malloc((n + 1) * sizeof(*c.perm));
	c.idx = malloc((n + 1) * sizeof(size_t));
	c.by = malloc((n + 1) * sizeof(*c.by));
	c.seg = malloc((n + 1) * sizeof(*c.seg));
	c.cnt = malloc((n + 1) * sizeof(*c.cnt));
	c.sum = malloc((n + 1) * sizeof(*c.sum));
	if (!c.rng || !c.left || !c.right || !c.perm || !c.idx || !c.by ||
	    !c.seg || !c.cnt || !c.sum)
		goto out;
	gsl_rng_set(c.rng, opts.seed);
	bisect(&c, x, 0, n);
	qsort(c.idx, c.nidx, sizeof(*c.idx), cmp_size);
	*cps = calloc(c.nidx ? c.nidx : 1, sizeof(**cps));
	if (!*cps)
		goto out;
	k = filter(x, n, c.idx, c.nidx, &opts, *cps);
	if (k < 0) {
		free(*cps);
		*cps = NULL;
		goto out;
	}
	/* the reported p: a fresh test of the final segments, same seed */
	gsl_rng_set(c.rng, opts.seed);
	attach_tests(&c, x, *cps, k);
out:
	ctx_free(&c);
	return k;
}

double nsb_cp_false_alarms(const struct nsb_cp_opts *o, size_t series,
			   enum nsb_cp_noise noise, double cv,
			   unsigned long seed)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	double x[50], sd = cv * 100;
	size_t s, i, len, alarms = 0;
	struct nsb_cp *cps;
	long k;

	if (!r)
		return -1;
	gsl_rng_set(r, seed);
	for (s = 0; s < series; s++) {
		len = 30 + gsl_rng_uniform_int(r, 21);
		for (i = 0; i < len; i++)
			x[i] = 100 + sd * (noise == NSB_NOISE_T3 ?
					   gsl_ran_tdist(r, 3) :
					   gsl_ran_gaussian(r, 1));
		k = nsb_changepoints(x, len, o, &cps);
		free(cps);
		if (k < 0) {
			gsl_rng_free(r);
			return -1;
		}
		alarms += k > 0;
	}
	gsl_rng_free(r);
	return series ? (double)alarms / (double)series : 0;
}
