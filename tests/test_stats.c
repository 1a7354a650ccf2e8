// SPDX-License-Identifier: GPL-2.0
/*
 * test_stats.c — src/lib/stats/stats.c against SciPy's values
 * (tests/fixtures/stats/reference.h, made by make_reference.py there)
 * and the edge cases: ties, n = 1, zero variance, identical samples.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <gsl/gsl_statistics_double.h>

#include "tests/tap.h"
#include "src/lib/stats/stats.h"
#include "tests/fixtures/stats/reference.h"

#define TOL 1e-9

static void test_two(const struct ref_two *r)
{
	struct nsb_interval hl;
	struct nsb_mwu u;

	nsb_mann_whitney(r->x, r->nx, r->y, r->ny,
			 r->exact ? NSB_EXACT : NSB_ASYMPTOTIC, &u);
	is_near(u.u, r->u, TOL, "%s: U", r->name);
	is_near(u.p, r->p, TOL, "%s: p", r->name);
	nsb_hodges_lehmann(r->x, r->nx, r->y, r->ny, NSB_ALPHA, &hl);
	is_near(hl.est, r->hl, TOL, "%s: HL shift", r->name);
	is_near(hl.lo, r->hl_lo, TOL, "%s: HL CI low", r->name);
	is_near(hl.hi, r->hl_hi, TOL, "%s: HL CI high", r->name);
	is_near(hl.level, r->hl_level, 1e-6, "%s: HL CI coverage", r->name);
}

static void test_one(const struct ref_one *r)
{
	struct nsb_signrank w;
	struct nsb_interval pm, med;
	double *s;

	nsb_wilcoxon(r->d, r->n, r->exact ? NSB_EXACT : NSB_ASYMPTOTIC, &w);
	is_near(w.t, r->t, TOL, "%s: signed-rank T", r->name);
	is_near(w.p, r->p, TOL, "%s: signed-rank p", r->name);
	nsb_walsh(r->d, r->n, NSB_ALPHA, &pm);
	is_near(pm.est, r->pm, TOL, "%s: pseudo-median", r->name);
	is_near(pm.lo, r->pm_lo, TOL, "%s: Walsh CI low", r->name);
	is_near(pm.hi, r->pm_hi, TOL, "%s: Walsh CI high", r->name);
	is_near(pm.level, r->pm_level, 1e-6, "%s: Walsh coverage", r->name);
	s = nsb_sorted_copy(r->d, r->n);
	nsb_median_ci(s, r->n, NSB_ALPHA, &med);
	free(s);
	is_near(med.est, r->med, TOL, "%s: median", r->name);
	is_near(med.lo, r->med_lo, TOL, "%s: median CI low", r->name);
	is_near(med.hi, r->med_hi, TOL, "%s: median CI high", r->name);
	is_near(med.level, r->med_level, 1e-9, "%s: median CI coverage",
		r->name);
}

/* AUTO picks exact without ties for small n, asymptotic otherwise. */
static void test_auto(void)
{
	struct nsb_mwu u;
	struct nsb_signrank w;

	nsb_mann_whitney(small_x, 5, small_y, 6, NSB_AUTO, &u);
	ok(u.exact, "auto: exact U without ties");
	nsb_mann_whitney(ties_x, 8, ties_y, 8, NSB_AUTO, &u);
	ok(!u.exact, "auto: asymptotic U with ties");
	nsb_wilcoxon(p8_d, 8, NSB_AUTO, &w);
	ok(w.exact, "auto: exact signed rank without ties");
	nsb_wilcoxon(ptie_d, 10, NSB_AUTO, &w);
	ok(!w.exact, "auto: asymptotic signed rank with ties and a zero");
}

static void test_edges(void)
{
	static const double one[] = { 7.5 };
	static const double same[] = { 4, 4, 4, 4, 4, 4 };
	static const double a[] = { 1, 2, 3, 4, 5, 6, 7 };
	static const double zeros[] = { 0, 0, 0, 0 };
	struct nsb_summary s;
	struct nsb_interval hl, br, br2;
	struct nsb_mwu u;
	struct nsb_signrank w;

	ok(nsb_summarize(one, 0, &s) < 0, "summary of nothing fails");
	nsb_summarize(one, 1, &s);
	is_int(s.n, 1, "n = 1: n");
	is_near(s.median, 7.5, 0, "n = 1: median");
	is_near(s.sd, 0, 0, "n = 1: sd 0");
	is_near(s.ci_lo, 7.5, 0, "n = 1: CI is the value");
	is_near(s.ci_level, 0, 0, "n = 1: CI has no coverage");

	nsb_summarize(same, 6, &s);
	is_near(s.sd, 0, 0, "zero variance: sd 0");
	is_near(s.cv, 0, 0, "zero variance: cv 0");
	ok(s.ci_lo == 4 && s.ci_hi == 4, "zero variance: CI [4, 4]");
	is_near(s.ci_level, 1 - 2.0 / 64, 1e-12, "n = 6: CI coverage 96.9 %%");

	nsb_summarize(a, 7, &s);
	is_near(s.mean, 4, 1e-12, "1..7: mean");
	is_near(s.sd, sqrt(28.0 / 6), 1e-12, "1..7: sd");
	is_near(s.min, 1, 0, "1..7: min");

	nsb_mann_whitney(same, 6, same, 6, NSB_AUTO, &u);
	is_near(u.p, 1, 0, "identical samples: p = 1");
	nsb_hodges_lehmann(same, 6, same, 6, NSB_ALPHA, &hl);
	ok(hl.est == 0 && hl.lo == 0 && hl.hi == 0,
	   "identical samples: shift 0, CI [0, 0]");
	nsb_hodges_lehmann(a, 7, a, 7, NSB_ALPHA, &hl);
	ok(hl.est == 0 && hl.lo < 0 && hl.hi > 0,
	   "same data: shift 0 inside its CI");

	nsb_wilcoxon(zeros, 4, NSB_AUTO, &w);
	ok(w.n == 0 && w.p == 1, "all-zero differences: p = 1, none used");

	nsb_boot_ratio(a, 7, a, 7, 42, 500, NSB_ALPHA, &br);
	nsb_boot_ratio(a, 7, a, 7, 42, 500, NSB_ALPHA, &br2);
	ok(br.lo == br2.lo && br.hi == br2.hi, "bootstrap is deterministic");
	ok(br.est == 1 && br.lo <= 1 && br.hi >= 1, "bootstrap CI holds 1");
	nsb_boot_ratio(same, 6, same, 6, 42, 200, NSB_ALPHA, &br);
	ok(br.lo == 1 && br.hi == 1, "bootstrap of constants: [1, 1]");
	nsb_boot_ratio(zeros, 4, a, 7, 42, 200, NSB_ALPHA, &br);
	ok(isnan(br.est), "no ratio to a zero baseline");
}

static void test_power(void)
{
	static const double p[] = { 0.01, 0.04, 0.03, 0.5 };
	double adj[4];

	nsb_holm(p, 4, adj);
	is_near(adj[0], 0.04, 1e-12, "Holm: smallest p times 4");
	is_near(adj[2], 0.09, 1e-12, "Holm: second times 3");
	is_near(adj[1], 0.09, 1e-12, "Holm: monotone");
	is_near(adj[3], 0.5, 1e-12, "Holm: last times 1");
	/* 2.8016 = z(0.975) + z(0.8); ARE 3/pi */
	is_near(nsb_mde(1, 10, 1, 10), 2.8016 * sqrt(0.2 / (3 / M_PI)),
		1e-3, "MDE of two sd-1 samples of 10");
	is_int(nsb_n_needed(0, 0, false, 1), 4, "no noise: 4 per side");
	is_int(nsb_n_needed(0, 0, true, 1), 6, "no noise: 6 rounds");
	is_int(nsb_n_needed(1, 1, false, 1),
	       (long long)ceil(2.8016 * 2.8016 * 2 / (3 / M_PI) - 1e-3),
	       "n for a 1-sd shift");
}

/*
 * Is [lo, hi] = [v_(k), v_(m + 1 - k)] for some k, and est the median,
 * over the values v[0..m) once sorted?  With ties several k may fit.
 */
static bool order_stats(double *v, size_t m, const struct nsb_interval *r)
{
	size_t k;

	qsort(v, m, sizeof(*v), nsb_cmp_double);
	if (r->est != (m % 2 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2))
		return false;
	for (k = 1; k <= m; k++)
		if (v[k - 1] == r->lo && v[m - k] == r->hi)
			return true;
	return false;
}

/*
 * The selection behind HL and Walsh (no m x n array any more) against
 * the definitions, on samples with and without ties, sizes past the
 * exact tables: the same order statistics, to the bit.
 */
static void test_selection(void)
{
	static const size_t sizes[][2] = {
		{ 1, 1 }, { 1, 9 }, { 7, 3 }, { 60, 45 }, { 200, 333 },
	};
	unsigned long seed = 12345;
	struct nsb_interval hl, wa;
	size_t t, i, j, k, bad = 0;
	double x[333], y[333], *d;

	for (t = 0; t < 2 * NSB_ARRAY_SIZE(sizes); t++) {
		size_t nx = sizes[t / 2][0], ny = sizes[t / 2][1];

		for (i = 0; i < 333; i++) {
			seed = seed * 6364136223846793005UL +
			       1442695040888963407UL;
			/* odd t: few distinct values, many ties */
			x[i] = t % 2 ? (double)(seed >> 60) :
			       (double)(seed >> 11) / 9007199254740992.0;
			seed = seed * 6364136223846793005UL +
			       1442695040888963407UL;
			y[i] = t % 2 ? (double)(seed >> 61) + 1 :
			       (double)(seed >> 11) / 9007199254740992.0 + 0.1;
		}
		nsb_hodges_lehmann(x, nx, y, ny, NSB_ALPHA, &hl);
		d = malloc(nx * ny * sizeof(*d));
		for (i = 0; i < nx; i++)
			for (j = 0; j < ny; j++)
				d[i * ny + j] = y[j] - x[i];
		bad += !order_stats(d, nx * ny, &hl);
		free(d);
		nsb_walsh(x, nx, NSB_ALPHA, &wa);
		d = malloc(nx * (nx + 1) / 2 * sizeof(*d));
		for (i = 0, k = 0; i < nx; i++)
			for (j = i; j < nx; j++)
				d[k++] = (x[i] + x[j]) / 2;
		bad += !order_stats(d, k, &wa);
		free(d);
	}
	is_int(bad, 0, "HL and Walsh by selection: the order statistics of "
	       "all pairs, ties or not");
}

/* 20,000 samples a side: 3.2 GB as all pairwise differences; not now. */
static void test_large(void)
{
	size_t n = 20000, i;
	double *x = malloc(n * sizeof(*x)), *y = malloc(n * sizeof(*y));
	struct nsb_interval hl;

	for (i = 0; i < n; i++) {
		x[i] = 1000 + (double)(i * 7919 % 1000) / 10;
		y[i] = 1010 + (double)(i * 104729 % 1000) / 10;
	}
	is_int(nsb_hodges_lehmann(x, n, y, n, NSB_ALPHA, &hl), 0,
	       "HL of 20,000 x 20,000");
	ok(fabs(hl.est - 10) < 0.2 && hl.lo <= hl.est && hl.est <= hl.hi,
	   "HL shift %.3f, CI [%.3f, %.3f]", hl.est, hl.lo, hl.hi);
	free(x);
	free(y);
}

/* The levels the reports print are the ones the statistics use. */
static void test_printed_levels(void)
{
	ok(strtod(NSB_ALPHA_S, NULL) == NSB_ALPHA, "NSB_ALPHA_S \"%s\" is "
	   "NSB_ALPHA", NSB_ALPHA_S);
	ok(strtod(NSB_POWER_S, NULL) == NSB_POWER, "NSB_POWER_S \"%s\" is "
	   "NSB_POWER", NSB_POWER_S);
	ok(fabs(NSB_CI_PCT - 100 * (1 - NSB_ALPHA)) < 1e-9, "NSB_CI_S \"%s\" "
	   "is 100 (1 - NSB_ALPHA)", NSB_CI_S);
}

/* order.c, which the guest links without GSL, agrees with GSL. */
static void test_order(void)
{
	double v[] = { 7, -1.5, 3, 3, 10, 0.25 };
	size_t n;

	qsort(v, NSB_ARRAY_SIZE(v), sizeof(*v), nsb_cmp_double);
	ok(v[0] == -1.5 && v[1] == 0.25 && v[5] == 10, "nsb_cmp_double sorts up");
	for (n = 1; n <= NSB_ARRAY_SIZE(v); n++)
		is_near(nsb_sorted_median(v, n),
			gsl_stats_median_from_sorted_data(v, 1, n), 0,
			"median of %zu sorted values, as GSL's", n);
}

/* nsb_median_of: the median of unsorted values, which it leaves alone. */
static void test_median_of(void)
{
	const double x[] = { 9, 2, 7, 4 }, odd[] = { 5, 1, 3 };
	double buf[4];

	is_near(nsb_median_of(x, 4, buf), 5.5, 0, "median of 9 2 7 4 is 5.5");
	ok(x[0] == 9 && x[1] == 2 && x[3] == 4, "and the values stay as given");
	is_near(nsb_median_of(odd, 3, buf), 3, 0, "median of 5 1 3 is 3");
}

int main(void)
{
	size_t i;

	plan_no_plan();
	for (i = 0; i < NSB_ARRAY_SIZE(ref_two); i++)
		test_two(&ref_two[i]);
	for (i = 0; i < NSB_ARRAY_SIZE(ref_one); i++)
		test_one(&ref_one[i]);
	test_auto();
	test_edges();
	test_power();
	test_selection();
	test_large();
	test_printed_levels();
	test_order();
	test_median_of();
	return done_testing();
}
