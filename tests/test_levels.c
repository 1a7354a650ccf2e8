// SPDX-License-Identifier: GPL-2.0
/*
 * test_levels — each state's central mean of an in-boot check A/B, and
 * the level step it is taken across (bench/sys/levels.c), over runs
 * whose answer is known: a step partway through that puts off1's median
 * before it and off2's after (what made 004 exec/fcaps/init/d8 read an
 * A/A of 135 in one round), and runs that must stay whole.
 */
#include <math.h>

#include "bench/sys/levels.h"
#include "tests/tap.h"

#define N	300
#define WINDOW	8.0
#define BASE	71574.0
#define SHIFT	41.0

/* The states in the order of every quad: off1 sits at 1, 5, 9...,
 * off2 at 3, 7, 11... */
static const enum nsb_ilv_state order[4] = {
	NSB_ILV_ON, NSB_ILV_OFF1, NSB_ILV_ON, NSB_ILV_OFF2,
};

/*
 * A run of a check of SHIFT: every other quad 4 insn up (exec's
 * neighbouring levels, inside the window), every chunk from `at` on up by
 * step.  At 150, off1 has 38 of its 75 chunks before the step and off2
 * 37: off1's median sits below it, off2's above.
 */
static void make_run(struct nsb_pchunk *c, size_t n, size_t at, double step)
{
	size_t i;

	for (i = 0; i < n; i++) {
		enum nsb_ilv_state st = order[i % 4];
		double v = BASE + (i / 4 % 2 ? 4 : 0);

		if (i >= at)
			v += step;
		if (st == NSB_ILV_ON)
			v += SHIFT;
		c[i] = (struct nsb_pchunk){ st, true, v };
	}
}

static double shift_of(const double cm[NSB_ILV_COUNT])
{
	return cm[NSB_ILV_ON] - (cm[NSB_ILV_OFF1] + cm[NSB_ILV_OFF2]) / 2;
}

static double aa_of(const double cm[NSB_ILV_COUNT])
{
	return cm[NSB_ILV_OFF2] - cm[NSB_ILV_OFF1];
}

/* The run's values with step found by nsb_level_step; the step. */
static size_t values(const struct nsb_pchunk *c, size_t n,
		     double cm[NSB_ILV_COUNT])
{
	double med[2][NSB_ILV_COUNT];
	size_t step = nsb_level_step(c, n, WINDOW);

	nsb_central_values(c, n, WINDOW, step, cm, med);
	return step;
}

static void test_step(void)
{
	static struct nsb_pchunk c[N];
	double cm[NSB_ILV_COUNT], med[2][NSB_ILV_COUNT];
	size_t step, i;

	make_run(c, N, 150, 135);
	nsb_central_values(c, N, WINDOW, 0, cm, med);
	ok(fabs(aa_of(cm) - 135) < 1, "the construction: whole-run central "
	   "means put off2 a level above off1 (A/A %+.1f)", aa_of(cm));
	step = values(c, N, cm);
	ok(step >= 150 && step <= 153, "the step is found at the first off "
	   "chunk after it (%zu)", step);
	ok(fabs(aa_of(cm)) < 0.5, "taken on either side, the A/A is 0 "
	   "(%+.2f)", aa_of(cm));
	ok(fabs(shift_of(cm) - SHIFT) < 0.5, "and the shift is the check's "
	   "(%+.2f for %+.0f)", shift_of(cm), SHIFT);
	ok(cm[NSB_ILV_OFF1] > BASE + 135 * 0.4 &&
	   cm[NSB_ILV_OFF1] < BASE + 135 * 0.6 + 4,
	   "off1 is the run's level, weighted by the sides' chunks (%.1f)",
	   cm[NSB_ILV_OFF1]);
	nsb_central_values(c, N, WINDOW, step, cm, med);
	ok(med[0][NSB_ILV_OFF1] < BASE + 5 && med[1][NSB_ILV_OFF1] > BASE + 134,
	   "each side's median is its own level (%.1f, %.1f)",
	   med[0][NSB_ILV_OFF1], med[1][NSB_ILV_OFF1]);

	make_run(c, N, 150, -270);
	step = values(c, N, cm);
	ok(step >= 150 && step <= 153 && fabs(aa_of(cm)) < 0.5 &&
	   fabs(shift_of(cm) - SHIFT) < 0.5, "a step down of 270: found at "
	   "%zu, A/A %+.2f, shift %+.2f", step, aa_of(cm), shift_of(cm));

	/* a chunk a tick landed in is no part of either side */
	make_run(c, N, 150, 135);
	for (i = 0; i < N; i += 7) {
		c[i].clean = false;
		c[i].per_op += 5000;
	}
	step = values(c, N, cm);
	ok(step >= 150 && step <= 155 && fabs(aa_of(cm)) < 0.5 &&
	   fabs(shift_of(cm) - SHIFT) < 0.5, "ticked chunks (one in 7, 5,000 "
	   "dearer) are left out: step %zu, A/A %+.2f, shift %+.2f", step,
	   aa_of(cm), shift_of(cm));
}

/* Runs the central means must keep whole. */
static void test_whole(void)
{
	static struct nsb_pchunk c[N];
	double cm[NSB_ILV_COUNT];
	size_t i;

	make_run(c, N, N, 0);
	is_int((int)values(c, N, cm), 0, "no step: the run is whole");
	ok(fabs(aa_of(cm)) < 0.5 && fabs(shift_of(cm) - SHIFT) < 0.5,
	   "and reads A/A %+.2f, shift %+.2f", aa_of(cm), shift_of(cm));

	make_run(c, N, 150, WINDOW);
	is_int((int)values(c, N, cm), 0, "a step within the window stays whole");

	make_run(c, N, 20, 135);
	is_int((int)values(c, N, cm), 0, "a step after 5 chunks of each off state "
	   "(fewer than 8) stays whole");
	make_run(c, N, N - 20, 135);
	is_int((int)values(c, N, cm), 0, "so does one 5 chunks before the end");

	/* exec's period: every other quad 802 down, the whole run through */
	make_run(c, N, N, 0);
	for (i = 0; i < N; i++)
		if (i / 4 % 2)
			c[i].per_op -= 802;
	is_int((int)values(c, N, cm), 0, "levels that alternate by quad stay whole");

	/*
	 * Three levels in turn by quad for the first 120 chunks, then one:
	 * split there, the first side sits on no level (a third of its
	 * chunks each), and the whole run sits on one better.
	 */
	make_run(c, N, N, 0);
	for (i = 0; i < 120; i++)
		c[i].per_op += 400.0 * (double)(i / 4 % 3) - 600;
	is_int((int)values(c, N, cm), 0, "a first part on three levels in turn, "
	   "then one: stays whole");

	ok(nsb_level_step(c, 0, WINDOW) == 0 && nsb_level_step(c, 10, WINDOW)
	   == 0, "an empty or 10-chunk run has no step");
}

int main(void)
{
	plan_no_plan();
	test_step();
	test_whole();
	return done_testing();
}
