/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h — the statistics behind `nsbench compare`: summaries with a
 * distribution-free CI of the median, Mann-Whitney U, Hodges-Lehmann shift
 * with the Moses interval, Wilcoxon signed-rank with the Walsh-average
 * interval, a bootstrap ratio of medians, minimum detectable effect, Holm.
 *
 * Every function works on plain arrays of doubles and does not modify its
 * input.  Confidence intervals follow one rule (also in
 * tests/fixtures/stats/make_reference.py): with S the rank statistic of the
 * interval (binomial count, U or signed-rank T) and k the largest integer
 * >= 1 with P(S <= k - 1) <= alpha/2 under H0, the interval is
 * [v_(k), v_(M + 1 - k)] over the M sorted values (order statistics,
 * pairwise differences, Walsh averages); its coverage 1 - 2 P(S <= k - 1)
 * is reported as `level`, which is below 1 - alpha when the sample is too
 * small for any k to qualify (then k = 1: the whole range).
 */
#ifndef NSB_STATS_H
#define NSB_STATS_H

#include "src/lib/stats/order.h"

#include <stdbool.h>
#include <stddef.h>

#define NSB_ALPHA_LIT	0.05	/* two-sided, for every CI and test */
#define NSB_POWER_LIT	0.8	/* for the minimum detectable effect */
#define NSB_CI_PCT	95	/* 100 (1 - NSB_ALPHA): the CIs' level, % */
#define NSB_ALPHA	NSB_ALPHA_LIT
#define NSB_POWER	NSB_POWER_LIT

/*
 * The same as the reports print them, made from the literals above so
 * that no output says a level the statistics do not use ("p < " NSB_ALPHA_S,
 * NSB_CI_S "% CI"); test_stats holds the three in step.
 */
#define NSB_STR_(x)	#x
#define NSB_STR(x)	NSB_STR_(x)
#define NSB_ALPHA_S	NSB_STR(NSB_ALPHA_LIT)	/* "0.05" */
#define NSB_POWER_S	NSB_STR(NSB_POWER_LIT)	/* "0.8" */
#define NSB_CI_S	NSB_STR(NSB_CI_PCT)	/* "95" */

enum nsb_method {
	NSB_AUTO,	/* exact when small and without ties */
	NSB_EXACT,
	NSB_ASYMPTOTIC,
};

struct nsb_summary {
	size_t n;
	double median, mean, sd, cv, min, max;
	double ci_lo, ci_hi, ci_level;	/* CI of the median */
};

/* An estimate with its confidence interval and the interval's coverage. */
struct nsb_interval {
	double est, lo, hi, level;
};

struct nsb_mwu {
	double u;	/* U of the first sample (SciPy's U1) */
	double z;	/* standardised, asymptotic method only */
	double p;	/* two-sided */
	bool exact;
};

struct nsb_signrank {
	size_t n;	/* non-zero differences used */
	double t_plus, t_minus;
	double t;	/* min(t_plus, t_minus), as SciPy reports */
	double z;	/* asymptotic method only */
	double p;	/* two-sided; 1 when no difference is non-zero */
	bool exact;
};

int nsb_summarize(const double *x, size_t n, struct nsb_summary *s);
/* Order-statistic (sign-test) CI of the median of sorted[0..n). */
void nsb_median_ci(const double *sorted, size_t n, double alpha,
		   struct nsb_interval *r);

int nsb_mann_whitney(const double *x, size_t nx, const double *y, size_t ny,
		     enum nsb_method method, struct nsb_mwu *r);
/* Shift of y against x: median of y_j - x_i, Moses CI. */
int nsb_hodges_lehmann(const double *x, size_t nx, const double *y,
		       size_t ny, double alpha, struct nsb_interval *r);

/* Wilcoxon signed-rank test of d (zeros dropped, as SciPy's "wilcox"). */
int nsb_wilcoxon(const double *d, size_t n, enum nsb_method method,
		 struct nsb_signrank *r);
/* Pseudo-median of d (median of Walsh averages) with its CI. */
int nsb_walsh(const double *d, size_t n, double alpha,
	      struct nsb_interval *r);

/* median(y) / median(x), percentile bootstrap CI, fixed seed. */
int nsb_boot_ratio(const double *x, size_t nx, const double *y, size_t ny,
		   unsigned long seed, size_t reps, double alpha,
		   struct nsb_interval *r);

/*
 * Minimum detectable effect (absolute) of a rank test at NSB_ALPHA and
 * NSB_POWER given the standard deviations and sizes, and the samples per
 * side needed to detect an absolute effect delta.  Paired: pass sy = 0,
 * ny = 0 and the differences' sd as sx.
 */
double nsb_mde(double sx, size_t nx, double sy, size_t ny);
size_t nsb_n_needed(double sx, double sy, bool paired, double delta);

/* Holm-adjusted p-values, adj[i] for p[i]. */
int nsb_holm(const double *p, size_t n, double *adj);

/* Helpers shared with the loader and plots (nsb_cmp_double: order.h). */
double *nsb_sorted_copy(const double *x, size_t n);
/* The median of x[0..n), n > 0, sorted into buf (room for n). */
double nsb_median_of(const double *x, size_t n, double *buf);

#endif /* NSB_STATS_H */
