/* SPDX-License-Identifier: GPL-2.0 */
/*
 * changepoint.h — change points in a benchmark's history by E-divisive
 * means (Matteson and James, "A nonparametric approach for multiple change
 * point analysis of multivariate data", JASA 2014), as Apache Otava
 * (Hunter) and MongoDB's signal-processing-algorithms use it: hierarchical
 * bisection on the energy statistic Q^ (alpha = 1, the segment's end as
 * kappa), each split kept only if a permutation test with a fixed-seed GSL
 * generator finds it significant.  Otava's default p is 0.001 (t-test);
 * 0.01 with 499 shuffles keeps the false-alarm rate near 1 % per series
 * (measured: `nsbench history changes --false-alarms`) and still finds a
 * step of 3 noise sd three runs before the end of 40 runs 86 % of the
 * time, in the middle of them 97 %.
 *
 * A statistically real change is not yet worth an alarm: a change point is
 * *flagged* only if its size (median after against median before) is at
 * least the threshold in percent AND the Hodges-Lehmann interval of the
 * shift (src/lib/stats/stats.h) excludes zero.  An icount series (band >
 * 0) is judged as every icount table judges a row: flagged when the shift
 * is slower or faster against +-band instructions (nsb_band_verdict),
 * and only then, if the user gave one, at least the threshold.  Unflagged
 * change points are merged away and the neighbours' statistics recomputed,
 * as Otava does.
 */
#ifndef NSB_CHANGEPOINT_H
#define NSB_CHANGEPOINT_H

#include <stdbool.h>
#include <stddef.h>

#include "src/lib/stats/stats.h"

#define NSB_CP_SIG		0.01	/* see the false-alarm rates in README */
#define NSB_CP_PERMS		499
#define NSB_CP_MIN_SIZE		3
#define NSB_CP_THRESHOLD	1.0	/* percent */
#define NSB_CP_SEED		20140101UL

struct nsb_cp_opts {
	double sig;		/* permutation test level */
	size_t perms;		/* permutations per test */
	size_t min_size;	/* points on each side of a split */
	double threshold;	/* percent: smaller changes are not flagged */
	bool threshold_given;	/* band > 0: only then does it filter */
	double band;		/* > 0: an icount series (instructions),
				 * flagged when the shift lies beyond
				 * +-band (nsb_band_verdict) */
	unsigned long seed;	/* the generator restarts per series */
};

struct nsb_cp {
	size_t index;		/* first point after the change */
	size_t from, to;	/* [from, index) before, [index, to) after */
	double before, after;	/* medians of the two segments */
	double pct;		/* after against before, percent */
	double noise_pct;	/* robust sd (1.4826 MAD) of both, % */
	struct nsb_interval shift;	/* Hodges-Lehmann after - before */
	double q;		/* energy statistic of the split */
	double p;		/* permutation p-value */
};

void nsb_cp_opts_default(struct nsb_cp_opts *o);

/*
 * Flagged change points of x[0..n), in order, into a malloc'd *cps.
 * Returns their number, or -1 (out of memory).  Deterministic: the same
 * input and options give the same answer.
 */
long nsb_changepoints(const double *x, size_t n, const struct nsb_cp_opts *o,
		      struct nsb_cp **cps);

/*
 * The fewest points a series needs before a change point in it can be
 * flagged under o, or 0 if none up to 64 (or out of memory): a clear
 * step (+10 %) in the middle of n points, tried with o's test for n =
 * 2 min_size, ... (the permutation test takes the largest statistic over
 * every split, so the bound is found, not derived: 11 at the defaults).
 * A clear step in a shorter history is not flagged, and the output says
 * so.
 */
size_t nsb_cp_min_runs(const struct nsb_cp_opts *o);

/* Noise-only synthetic series for the false-alarm measurement. */
enum nsb_cp_noise {
	NSB_NOISE_GAUSS,	/* N(100, cv * 100) */
	NSB_NOISE_T3,		/* 100 + Student t(3) * cv * 100: heavy tails */
};

/*
 * Fraction of `series` noise-only series (lengths 30..50, noise CV cv,
 * generator seeded with seed) in which at least one change point is
 * flagged.  Returns -1 on error.
 */
double nsb_cp_false_alarms(const struct nsb_cp_opts *o, size_t series,
			   enum nsb_cp_noise noise, double cv,
			   unsigned long seed);

#endif /* NSB_CHANGEPOINT_H */
