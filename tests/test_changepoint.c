// SPDX-License-Identifier: GPL-2.0
/*
 * test_changepoint.c — E-divisive change points on synthetic histories:
 * known steps are found at the right index (+-1) and size, small or
 * noise-sized ones are not flagged, and noise-only series raise alarms
 * no more often than stated.  Fixed GSL seeds: nothing depends on the
 * machine or its speed.
 */
#include <stdlib.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "src/lib/stats/changepoint.h"
#include "tests/tap.h"

static gsl_rng *rng;

/* base * (1 + steps) + noise of sd cv * base; heavy: Student t(3). */
static void series(double *x, size_t n, double base, double cv, bool heavy,
		   const size_t *at, const double *pct, size_t nsteps)
{
	size_t i, s;

	for (i = 0; i < n; i++) {
		double level = base;

		for (s = 0; s < nsteps; s++)
			if (i >= at[s])
				level *= 1 + pct[s] / 100;
		x[i] = level + cv * base * (heavy ? gsl_ran_tdist(rng, 3) :
					    gsl_ran_gaussian(rng, 1));
	}
}

static long detect(const double *x, size_t n, double threshold,
		   struct nsb_cp **cps)
{
	struct nsb_cp_opts o;

	nsb_cp_opts_default(&o);
	o.threshold = threshold;
	return nsb_changepoints(x, n, &o, cps);
}

static void one_step(const char *what, size_t n, size_t at, double pct,
		     double cv, bool heavy)
{
	double x[64], tol;
	struct nsb_cp *cp;
	long k;

	series(x, n, 1000, cv, heavy, &at, &pct, 1);
	k = detect(x, n, NSB_CP_THRESHOLD, &cp);
	is_int(k, 1, "%s: one change point", what);
	if (k >= 1) {
		ok(labs((long)cp[0].index - (long)at) <= 1,
		   "%s: at index %zu (want %zu +-1)", what, cp[0].index, at);
		/* 3 standard errors of a difference of two medians */
		tol = 3 * 1.2533 * 100 * cv * sqrt(1.0 / (double)at +
						    1.0 / (double)(n - at));
		is_near(cp[0].pct, pct, tol, "%s: size %+.2f %% (want %+.0f "
			"+- %.1f)", what, cp[0].pct, pct, tol);
		ok(cp[0].shift.lo <= pct * 10 && cp[0].shift.hi >= pct * 10,
		   "%s: shift CI [%.1f, %.1f] covers %.1f", what,
		   cp[0].shift.lo, cp[0].shift.hi, pct * 10);
		ok(cp[0].p <= NSB_CP_SIG, "%s: p %.3f", what, cp[0].p);
	} else {
		skip(4, "no change point");
	}
	free(cp);
}

static void two_steps(void)
{
	size_t at[2] = { 20, 42 };
	double pct[2] = { 4, -6 }, x[64];
	struct nsb_cp *cp;
	long k;

	series(x, 60, 1000, 0.005, false, at, pct, 2);
	k = detect(x, 60, NSB_CP_THRESHOLD, &cp);
	is_int(k, 2, "two steps: two change points");
	if (k == 2) {
		ok(labs((long)cp[0].index - 20) <= 1 &&
		   labs((long)cp[1].index - 42) <= 1,
		   "two steps: at %zu and %zu (want 20, 42)", cp[0].index,
		   cp[1].index);
		is_near(cp[0].pct, 4, 0.5, "two steps: first %+.2f %%",
			cp[0].pct);
		is_near(cp[1].pct, -6, 0.5, "two steps: second %+.2f %%",
			cp[1].pct);
		ok(cp[0].to == cp[1].index && cp[1].from == cp[0].index,
		   "two steps: each measured against its neighbours");
	} else {
		skip(4, "not two change points");
	}
	free(cp);
}

/* icount: bit-identical runs, one extra 101 instructions per exec. */
static void icount_step(void)
{
	double x[30];
	struct nsb_cp *cp;
	size_t i;
	long k;

	for (i = 0; i < 30; i++)
		x[i] = i < 18 ? 150000 : 150101;
	k = detect(x, 30, 0.05, &cp);
	is_int(k, 1, "icount +101 insn: found with --threshold=0.05");
	ok(k == 1 && cp[0].index == 18 && cp[0].before == 150000 &&
	   cp[0].after == 150101, "icount +101 insn: exact index and size");
	free(cp);
	k = detect(x, 30, NSB_CP_THRESHOLD, &cp);
	is_int(k, 0, "icount +0.07 %%: below the default 1 %% threshold");
	free(cp);
	for (i = 0; i < 30; i++)
		x[i] = 150000;
	k = detect(x, 30, 0, &cp);
	is_int(k, 0, "constant series: no change point, even at threshold 0");
	free(cp);
}

/* A step of one noise sd is real for the test, too small to flag. */
static void small_step(void)
{
	size_t at = 20;
	double pct = 0.5, x[40];
	struct nsb_cp *cp;
	long k;

	series(x, 40, 1000, 0.0005, false, &at, &pct, 1);
	k = detect(x, 40, NSB_CP_THRESHOLD, &cp);
	is_int(k, 0, "+0.5 %% step: not flagged at threshold 1 %%");
	free(cp);
	k = detect(x, 40, 0.25, &cp);
	ok(k == 1 && labs((long)cp[0].index - 20) <= 1,
	   "+0.5 %% step: flagged at threshold 0.25 %%");
	free(cp);
}

static void deterministic(void)
{
	size_t at = 25;
	double pct = 2, x[40];
	struct nsb_cp *a, *b;
	long ka, kb;

	series(x, 40, 1000, 0.01, true, &at, &pct, 1);
	ka = detect(x, 40, 0, &a);
	kb = detect(x, 40, 0, &b);
	ok(ka == kb && (ka <= 0 || !memcmp(a, b, (size_t)ka * sizeof(*a))),
	   "same input, same answer (fixed seed)");
	free(a);
	free(b);
}

/*
 * The rates README.md and --help state, at the defaults: measured with
 * these seeds they are 1.0 % and 0.9 %; the bound leaves room for a
 * change of GSL's generators, not for a change of the method.
 */
static void false_alarms(void)
{
	struct nsb_cp_opts o;
	double g, t, g0;

	nsb_cp_opts_default(&o);
	g = nsb_cp_false_alarms(&o, 1000, NSB_NOISE_GAUSS, 0.01, 42);
	t = nsb_cp_false_alarms(&o, 1000, NSB_NOISE_T3, 0.01, 43);
	o.threshold = 0;
	g0 = nsb_cp_false_alarms(&o, 1000, NSB_NOISE_GAUSS, 0.01, 42);
	diag("false alarms: Gaussian %.1f %%, t(3) %.1f %%, Gaussian at "
	     "threshold 0 %.1f %%", 100 * g, 100 * t, 100 * g0);
	ok(g >= 0 && g <= 0.02, "noise-only Gaussian: %.1f %% <= 2 %%",
	   100 * g);
	ok(t >= 0 && t <= 0.02, "noise-only t(3): %.1f %% <= 2 %%", 100 * t);
	ok(g0 >= 0 && g0 <= 0.02,
	   "noise-only, no size threshold: %.1f %% <= 2 %% (the test alone)",
	   100 * g0);
}

int main(void)
{
	plan_no_plan();
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 8);
	one_step("+5 % mid, 1 % noise", 40, 20, 5, 0.01, false);
	one_step("-3 % mid, 0.5 % noise", 40, 22, -3, 0.005, false);
	one_step("+5 % late, t(3) noise", 40, 34, 5, 0.01, true);
	one_step("+10 % early", 32, 4, 10, 0.01, false);
	two_steps();
	icount_step();
	small_step();
	deterministic();
	false_alarms();
	gsl_rng_free(rng);
	return done_testing();
}
