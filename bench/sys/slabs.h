/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slabs.h — the slab allocator put in one state before a benchmark
 * (nsbench-bench --slab-reset=N; slabs.c says why).
 */
#ifndef NSB_BENCH_SYS_SLABS_H
#define NSB_BENCH_SYS_SLABS_H

/*
 * Starts n copies of holder (a program that reads its stdin to the end:
 * /bin/cat) at once, each blocked on one pipe, then closes the pipe,
 * reaps them and sleeps settle_us for the RCU callbacks of their exits.
 * Returns how many were alive together, n unless one died early, or -1
 * with errno set (no child is left behind either way).
 */
int nsb_slabs_reset(unsigned int n, const char *holder,
		    unsigned long settle_us);

#endif /* NSB_BENCH_SYS_SLABS_H */
