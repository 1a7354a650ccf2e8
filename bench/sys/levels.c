// SPDX-License-Identifier: GPL-2.0
/*
 * levels.c — the central level of a state's chunks, and where a run's
 * level stepped.
 *
 * Under icount a chunk's cost per op sits on one of a few discrete
 * levels, and each state's value is the central mean of its chunks: the
 * mean of those within the window of its median (interleave.c says why
 * neither the mean nor the median).  That holds while every state's
 * median lands on the level its neighbours' do.  It fails where the
 * level itself steps partway through a run, for every state alike: on
 * 6.1 a pid leaf no live process holds, from which point every fork
 * allocates a radix tree node and frees it at exit (+270 insn per exec),
 * or a slab whose slow path starts or ends (+135).  With the run split
 * about evenly, one state's median falls before the step and another's
 * after it: `make run`'s 004 exec/fcaps/init/d8 read off2 135 below off1
 * in one round (+41 [+41, +108]), and in a 6.12 chunk dump fcaps/init/d8
 * read an A/A of +303 and a shift of +223.5 for +72.
 *
 * nsb_level_step finds such a step: the point of the off chunks' CUSUM
 * of signs about their median (where the share of chunks above it
 * changes most), taken only where
 * - each side holds at least STEP_MIN_CHUNKS clean chunks of every state,
 * - the off chunks' medians of the two sides differ by more than the
 *   window (a step the central mean cannot hold in one window), and
 * - each side sits on one level better than the whole run does: the
 *   share of each state's chunks within the window of its median is at
 *   least STEP_MIN_SHARE on both sides and above the whole run's.
 * The last keeps runs whose levels cycle (a FUSE server's batched
 * reads) or alternate (exec's period-8 pattern) whole: there a split
 * finds no side on one level.
 *
 * Replayed over the 841 runs of 96 chunk dumps at hand (make run,
 * validate and held-out builds, 6.1 and 6.12; runs of --interleave-paired
 * left out), 37 split.  The round of 004 above read A/A -0.0 and shift
 * +41.1 (central means -134.8, +108.5); the 6.12 round A/A 0.0 and
 * +72.0; Smack's FUSE mount control, in 8 rounds of older images where
 * central means read +5.3 to +19.6, within 0.1 of 0.  Of the other 27,
 * one FUSE lookup control moved from -0.0 to -1.8 (two others from +3.2
 * and +1.6 to -0.1 and -1.1); none else by more than 0.7.
 */
#include <math.h>
#include <stdlib.h>

#include "bench/sys/levels.h"
#include "src/lib/stats/order.h"

#define STEP_MIN_CHUNKS	8
#define STEP_MIN_SHARE	0.5

bool nsb_in_window(double v, double median, double window)
{
	return v >= median - window && v <= median + window;
}

static bool in_states(const struct nsb_pchunk *c, unsigned states)
{
	return c->clean && (states & NSB_STATES(c->state));
}

bool nsb_level(const struct nsb_pchunk *c, size_t from, size_t to,
	       unsigned states, double window, struct nsb_level *out)
{
	double *v = malloc((to - from + 1) * sizeof(*v)), sum = 0;
	size_t i, n = 0, kept = 0;

	if (!v)
		return false;
	for (i = from; i < to; i++)
		if (in_states(&c[i], states))
			v[n++] = c[i].per_op;
	if (!n) {
		free(v);
		return false;
	}
	qsort(v, n, sizeof(*v), nsb_cmp_double);
	out->median = nsb_sorted_median(v, n);
	for (i = 0; i < n; i++) {
		if (!nsb_in_window(v[i], out->median, window))
			continue;
		sum += v[i];
		kept++;
	}
	out->mean = kept ? sum / (double)kept : out->median;
	out->n = n;
	out->kept = kept;
	free(v);
	return true;
}

/* The least share of a state's chunks in [from, to) within the window of
 * its median; -1 where a state has fewer than min chunks. */
static double least_share(const struct nsb_pchunk *c, size_t from,
			  size_t to, double window, size_t min)
{
	struct nsb_level l;
	double least = 1;
	int st;

	for (st = 0; st < NSB_ILV_COUNT; st++) {
		if (!nsb_level(c, from, to, NSB_STATES(st), window, &l) ||
		    l.n < min)
			return -1;
		if ((double)l.kept / (double)l.n < least)
			least = (double)l.kept / (double)l.n;
	}
	return least;
}

/* The chunk where the off chunks' CUSUM of signs about their median
 * strays furthest from its trend; 0 where there are too few. */
static size_t cusum_point(const struct nsb_pchunk *c, size_t n)
{
	size_t *at = malloc((n + 1) * sizeof(*at)), i, k, m = 0, t = 0;
	double *v = malloc((n + 1) * sizeof(*v)), *sorted, med, sum, tot = 0;
	double best = -1, dev;

	sorted = malloc((n + 1) * sizeof(*sorted));
	if (!at || !v || !sorted)
		goto out;
	for (i = 0; i < n; i++) {
		if (!in_states(&c[i], NSB_OFF_STATES))
			continue;
		at[m] = i;
		v[m] = sorted[m] = c[i].per_op;
		m++;
	}
	if (m < 2 * STEP_MIN_CHUNKS)
		goto out;
	qsort(sorted, m, sizeof(*sorted), nsb_cmp_double);
	med = nsb_sorted_median(sorted, m);
	for (k = 0; k < m; k++)
		tot += (v[k] > med) - (v[k] < med);
	for (k = 1, sum = 0; k < m; k++) {
		sum += (v[k - 1] > med) - (v[k - 1] < med);
		dev = fabs(sum - (double)k * tot / (double)m);
		if (dev > best) {
			best = dev;
			t = at[k];
		}
	}
out:
	free(at);
	free(v);
	free(sorted);
	return t;
}

/*
 * Where the level of a run's n chunks stepped, for every state alike:
 * the first chunk after the step, or 0 where it did not (see above).
 */
size_t nsb_level_step(const struct nsb_pchunk *c, size_t n, double window)
{
	size_t t = cusum_point(c, n);
	struct nsb_level before, after;
	double share;

	if (!t)
		return 0;
	if (!nsb_level(c, 0, t, NSB_OFF_STATES, window, &before) ||
	    !nsb_level(c, t, n, NSB_OFF_STATES, window, &after) ||
	    nsb_in_window(after.median, before.median, window))
		return 0;
	share = fmin(least_share(c, 0, t, window, STEP_MIN_CHUNKS),
		     least_share(c, t, n, window, STEP_MIN_CHUNKS));
	if (share < STEP_MIN_SHARE || share <= least_share(c, 0, n, window, 1))
		return 0;
	return t;
}

/*
 * Each state's central mean into cm and its median into med[0] (before
 * the level step) and med[1] (after it; as med[0] where step is 0).
 * Where the level stepped, each state's central mean on either side,
 * weighted by the side's chunks: the level each state had over the run,
 * every state's taken on the same levels.  A state without clean chunks
 * reads 0.
 */
void nsb_central_values(const struct nsb_pchunk *c, size_t n, double window,
			size_t step, double cm[NSB_ILV_COUNT],
			double med[2][NSB_ILV_COUNT])
{
	int st;

	for (st = 0; st < NSB_ILV_COUNT; st++) {
		struct nsb_level l = { 0 }, r = { 0 };

		if (!step) {
			(void)nsb_level(c, 0, n, NSB_STATES(st), window, &l);
			med[0][st] = med[1][st] = l.median;
			cm[st] = l.mean;
			continue;
		}
		(void)nsb_level(c, 0, step, NSB_STATES(st), window, &l);
		(void)nsb_level(c, step, n, NSB_STATES(st), window, &r);
		med[0][st] = l.median;
		med[1][st] = r.median;
		cm[st] = (l.mean * (double)step +
			  r.mean * (double)(n - step)) / (double)n;
	}
}
