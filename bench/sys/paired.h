/* SPDX-License-Identifier: GPL-2.0 */
/*
 * paired.h — the paired estimate of an in-boot check A/B
 * (nsbench-bench --interleave-paired): pure, over a run's chunks, so the
 * tests can give it chunks whose answer is known.
 */
#ifndef NSB_BENCH_SYS_PAIRED_H
#define NSB_BENCH_SYS_PAIRED_H

#include <stdbool.h>
#include <stddef.h>

#include "bench/sys/interleave.h"

/* One timed chunk of a run: its state, whether no tick landed in it, its
 * cost per op. */
struct nsb_pchunk {
	enum nsb_ilv_state state;
	bool clean;
	double per_op;
};

bool nsb_paired_diff(const struct nsb_pchunk *c, size_t n, size_t per_quad,
		     enum nsb_ilv_state a, enum nsb_ilv_state b,
		     enum nsb_ilv_state b2, double width, double *out);

#endif /* NSB_BENCH_SYS_PAIRED_H */
