// SPDX-License-Identifier: GPL-2.0
/*
 * test_paired — the paired estimate (nsbench-bench --interleave-paired)
 * over runs whose answer is known: chunks on two levels in shares that
 * differ by state, and a step partway through, the pattern that put
 * 6.12's FUSE mount rows on the wrong level with central means.
 */
#include <stdlib.h>

#include "bench/sys/paired.h"
#include "src/lib/stats/order.h"
#include "tests/tap.h"

#define BLOCK	8
#define PER_QUAD	(4 * BLOCK)
#define QUADS	12
#define N	(QUADS * PER_QUAD)

/* A quad's states in blocks, as interleave.c runs them: on, off1, on,
 * off2 (any order pairs alike). */
static const enum nsb_ilv_state order[4] = {
	NSB_ILV_ON, NSB_ILV_OFF1, NSB_ILV_ON, NSB_ILV_OFF2,
};

/*
 * A run of a control (shift 0) or a check (on + shift): each chunk on a
 * low or a high level, 16 apart, high for hi[st] of every 3 chunks of its
 * state (each state its own share), and every level up by step from quad
 * QUADS / 2 on.
 */
static void make_run(struct nsb_pchunk *c, double shift, double step,
		     const int hi[NSB_ILV_COUNT])
{
	int seen[NSB_ILV_COUNT] = { 0 };
	size_t i;

	for (i = 0; i < N; i++) {
		enum nsb_ilv_state st = order[i / BLOCK % 4];
		double v = 136000;

		if (seen[st]++ % 3 < hi[st])
			v += 16;
		if (i / PER_QUAD >= QUADS / 2)
			v += step;
		if (st == NSB_ILV_ON)
			v += shift;
		c[i] = (struct nsb_pchunk){ st, true, v };
	}
}

static double diff(const struct nsb_pchunk *c, size_t n, enum nsb_ilv_state a,
		   enum nsb_ilv_state b, enum nsb_ilv_state b2, double width)
{
	double d;

	return nsb_paired_diff(c, n, PER_QUAD, a, b, b2, width, &d) ? d : -1e9;
}

/* A state's median, which its share of high chunks moves. */
static double median(const struct nsb_pchunk *c, enum nsb_ilv_state st)
{
	static double v[N];
	size_t i, n = 0;

	for (i = 0; i < N; i++)
		if (c[i].state == st)
			v[n++] = c[i].per_op;
	qsort(v, n, sizeof(*v), nsb_cmp_double);
	return v[n / 2];
}

int main(void)
{
	/* high: off1 2 chunks of 3, off2 and on 1 of 3 */
	static const int shares[NSB_ILV_COUNT] = {
		[NSB_ILV_ON] = 1, [NSB_ILV_OFF1] = 2, [NSB_ILV_OFF2] = 1,
	};
	static struct nsb_pchunk c[N];
	double d;

	plan_no_plan();

	/* a control whose states' medians sit on different levels */
	make_run(c, 0, 0, shares);
	d = median(c, NSB_ILV_OFF2) - median(c, NSB_ILV_OFF1);
	is_near(d, -16, 1e-9, "the construction puts off2's median a level "
		"below off1's");
	make_run(c, 0, 304, shares);
	is_near(diff(c, N, NSB_ILV_ON, NSB_ILV_OFF1, NSB_ILV_OFF2, 1), 0, 1e-9,
		"control: on - off reads 0 across the shares and the step");
	is_near(diff(c, N, NSB_ILV_OFF2, NSB_ILV_OFF1, NSB_ILV_OFF1, 1), 0,
		1e-9, "control: the A/A reads 0");

	/* a check of +16, the levels' own distance: still exact */
	make_run(c, 16, 304, shares);
	is_near(diff(c, N, NSB_ILV_ON, NSB_ILV_OFF1, NSB_ILV_OFF2, 1), 16,
		1e-9, "a check of +16 reads +16");
	is_near(diff(c, N, NSB_ILV_OFF2, NSB_ILV_OFF1, NSB_ILV_OFF1, 1), 0,
		1e-9, "and its A/A 0");
	make_run(c, -18454, 304, shares);
	is_near(diff(c, N, NSB_ILV_ON, NSB_ILV_OFF1, NSB_ILV_OFF2, 1), -18454,
		1e-9, "a check of -18,454 reads -18,454");

	/* pairs stay in their quad: the step is no difference */
	make_run(c, 0, 30000, shares);
	is_near(diff(c, N, NSB_ILV_ON, NSB_ILV_OFF1, NSB_ILV_OFF2, 1), 0, 1e-9,
		"a step of 30,000 between quads moves nothing");

	/* a chunk a tick landed in is no pair */
	make_run(c, 0, 0, shares);
	for (size_t i = 0; i < N; i += 3) {
		c[i].clean = false;
		c[i].per_op += 5000;
	}
	is_near(diff(c, N, NSB_ILV_ON, NSB_ILV_OFF1, NSB_ILV_OFF2, 1), 0, 1e-9,
		"ticked chunks (a third, 5,000 dearer) are left out");

	/* the window's differences are averaged */
	make_run(c, 0, 0, shares);
	for (size_t i = 0; i < N; i++)
		if (c[i].state == NSB_ILV_ON)
			c[i].per_op += i % 2 ? 2.0 : 2.5;
	d = diff(c, N, NSB_ILV_ON, NSB_ILV_OFF1, NSB_ILV_OFF2, 1);
	ok(d > 2.0 && d < 2.5, "on 2.0 and 2.5 above off: the window's mean "
	   "(%.3f)", d);
	d = diff(c, N, NSB_ILV_ON, NSB_ILV_OFF1, NSB_ILV_OFF2, 0);
	ok(d == 2.0 || d == 2.5, "a window of 0 keeps one value (%.3f)", d);

	/* no pair: refused, not made up */
	make_run(c, 0, 0, shares);
	for (size_t i = 0; i < N; i++)
		if (c[i].state == NSB_ILV_OFF2)
			c[i].clean = false;
	ok(!nsb_paired_diff(c, N, PER_QUAD, NSB_ILV_OFF2, NSB_ILV_OFF1,
			    NSB_ILV_OFF1, 1, &d),
	   "a state without a clean chunk has no paired difference");
	ok(!nsb_paired_diff(c, 0, PER_QUAD, NSB_ILV_ON, NSB_ILV_OFF1,
			    NSB_ILV_OFF2, 1, &d), "an empty run has none");
	return done_testing();
}
