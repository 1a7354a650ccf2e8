/* SPDX-License-Identifier: GPL-2.0 */
/*
 * levels.h — the central level of an in-boot check A/B's chunks, and the
 * point where a run's level stepped: pure, over a run's chunks, so the
 * tests can give it chunks whose answer is known (see levels.c).
 */
#ifndef NSB_BENCH_SYS_LEVELS_H
#define NSB_BENCH_SYS_LEVELS_H

#include <stdbool.h>
#include <stddef.h>

#include "bench/sys/paired.h"

/* A set of states: NSB_STATES(NSB_ILV_OFF1) | NSB_STATES(NSB_ILV_OFF2). */
#define NSB_STATES(st)	(1u << (st))
#define NSB_OFF_STATES	(NSB_STATES(NSB_ILV_OFF1) | NSB_STATES(NSB_ILV_OFF2))

/* The clean chunks of some states over chunks [from, to) of a run. */
struct nsb_level {
	double median;	/* their cost per op */
	double mean;	/* the central mean: of those within the window */
	size_t n;	/* clean chunks */
	size_t kept;	/* of them within the window of the median */
};

bool nsb_in_window(double v, double median, double window);
bool nsb_level(const struct nsb_pchunk *c, size_t from, size_t to,
	       unsigned states, double window, struct nsb_level *out);
size_t nsb_level_step(const struct nsb_pchunk *c, size_t n, double window);
void nsb_central_values(const struct nsb_pchunk *c, size_t n, double window,
			size_t step, double cm[NSB_ILV_COUNT],
			double med[2][NSB_ILV_COUNT]);

#endif /* NSB_BENCH_SYS_LEVELS_H */
