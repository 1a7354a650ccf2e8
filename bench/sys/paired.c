// SPDX-License-Identifier: GPL-2.0
/*
 * paired.c — the paired estimate of an in-boot check A/B.
 *
 * --interleave-paired=W: the shift and the A/A from pairs of chunks of
 * one quad (adjacent in time), each the mean of the densest W-wide window
 * of the pairs' differences.  Where two states' chunks sit on the same
 * levels, the most frequent difference is the one between corresponding
 * levels, whatever share of the chunks each level holds.
 *
 * What it is for: a FUSE mount under 6.12's EEVDF costs one of many
 * levels 133,000-140,000 insn, by how the worker and the server happen
 * to switch, and partway through a run every state's levels step up by
 * 304 alike (an idr's radix node allocated and freed in each mount from
 * there on).  Each state's central mean lands on whichever level its
 * median fell on by the draw.  In six rounds (the cache-model plugin's
 * chunk dumps of twelve 6.12 boots) the central means read the control
 * lsm/smack/mount/fuse/d0 at -4.1, +7.9 and -8.0 in three (A/A 16),
 * lsm/selinux/mount/fuse/d0 at -77.7 in one (A/A 159.5) and
 * lsm/selinux/mount/fuse/d1 anywhere in -18,436 to -18,486 (A/A 64).
 * Replayed on the same chunks, the paired estimate read every round of
 * the Smack control at 0.0, SELinux's d0 at +2.0 (the compare it runs),
 * its d1 at -18,442 or -18,454 (the levels' own pairs 12 apart), every
 * A/A within 0.1.  Pairs across the whole run failed at d1, whose on
 * state spreads over its levels unlike off (-18,660, A/A -77); so did
 * each state's densest window (A/A -306, +299: the step's two levels
 * hold about half the chunks each).
 *
 * checks.plan uses it for the mount rows on every kernel and for every
 * row on 6.12, where one round of 004 fcaps/init/d32 read +160 (A/A 94)
 * for +113 with central means and +113.0 (A/A 0.0) from pairs; 6.1's
 * other rows keep their central means, exact there.
 */
#include <math.h>
#include <stdlib.h>

#include "bench/sys/paired.h"
#include "src/lib/stats/order.h"

/* a - b over the pairs of clean chunks of one quad, a's state against b
 * or b2's, into d (room for n * per_quad); how many. */
static size_t quad_diffs(const struct nsb_pchunk *c, size_t n,
			 size_t per_quad, enum nsb_ilv_state a,
			 enum nsb_ilv_state b, enum nsb_ilv_state b2, double *d)
{
	size_t i, j, q, k = 0;

	for (i = 0; i < n; i++) {
		if (c[i].state != a || !c[i].clean)
			continue;
		q = i - i % per_quad;
		for (j = q; j < q + per_quad && j < n; j++)
			if (c[j].clean && (c[j].state == b || c[j].state == b2))
				d[k++] = c[i].per_op - c[j].per_op;
	}
	return k;
}

/* The mean of v's densest window (v sorted; from v[i] to v[i] + width);
 * of equally dense windows the one nearest the median. */
static double densest_mean(const double *v, size_t n, double width)
{
	double med = nsb_sorted_median(v, n);
	size_t i, j = 0, bi = 0, bj = 0, k;
	double sum = 0;

	for (i = 0; i < n; i++) {
		if (j < i)
			j = i;
		while (j + 1 < n && v[j + 1] <= v[i] + width)
			j++;
		if (j - i > bj - bi ||
		    (j - i == bj - bi &&
		     fabs((v[i] + v[j]) / 2 - med) <
		     fabs((v[bi] + v[bj]) / 2 - med))) {
			bi = i;
			bj = j;
		}
	}
	for (k = bi; k <= bj; k++)
		sum += v[k];
	return sum / (double)(bj - bi + 1);
}

/*
 * The paired difference of state a against b (pooled with b2; b2 = b for
 * none) over a run's n chunks, per_quad chunks to a quad, into *out.
 * False where no quad holds both or memory ran out.
 */
bool nsb_paired_diff(const struct nsb_pchunk *c, size_t n, size_t per_quad,
		     enum nsb_ilv_state a, enum nsb_ilv_state b,
		     enum nsb_ilv_state b2, double width, double *out)
{
	double *d;
	size_t k;

	if (!n || !per_quad)
		return false;
	d = malloc(n * per_quad * sizeof(*d));
	if (!d)
		return false;
	k = quad_diffs(c, n, per_quad, a, b, b2, d);
	if (k) {
		qsort(d, k, sizeof(*d), nsb_cmp_double);
		*out = densest_mean(d, k, width);
	}
	free(d);
	return k > 0;
}
