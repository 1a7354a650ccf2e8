/* SPDX-License-Identifier: GPL-2.0 */
/*
 * interleave.h — the in-boot check A/B: one run alternates a switch of
 * the userns-checks-toggles kernel in chunks and reports per state the
 * central mean cost per operation as the counters nsb_on, nsb_off1,
 * nsb_off2 (in the entry's time_unit), nsb_chunk_ops the chunk size.
 * See interleave.c.
 */
#ifndef NSB_BENCH_SYS_INTERLEAVE_H
#define NSB_BENCH_SYS_INTERLEAVE_H

#include <stdbool.h>
#include <stdint.h>

#include "bench/gbench.h"
#include "workloads/fixture.h"

enum nsb_ilv_state { NSB_ILV_ON, NSB_ILV_OFF1, NSB_ILV_OFF2, NSB_ILV_COUNT };

/* How the chunks of an interleaved run are cut, ordered and kept. */
struct nsb_ilv_opts {
	uint64_t seed;			/* of the chunk orders: the round's */
	unsigned long block;		/* chunks in a row in one state */
	unsigned long settle_us;	/* untimed sleep before each chunk */
	unsigned long window;		/* the central mean's half-width */
	unsigned long chunk;		/* ops per chunk; 0: ~200 us of them */
	unsigned long paired;		/* the paired estimate's window, or 0 */
};

/*
 * Switch SW (kernel.userns_checks.SW) for every sys/ benchmark of this
 * run, chunks as o says; *applied is false where the kernel has no such
 * switch (stock: the chunks run all the same).  -1 after printing why.
 */
int nsb_interleave_init(const char *sw, const struct nsb_ilv_opts *o,
			bool *applied);
bool nsb_interleave_active(void);
/* Puts the switch back as nsb_interleave_init() found it. */
void nsb_interleave_restore(void);
/*
 * One benchmark run, interleaved: begin (learns the op's result in each
 * state and the chunk size; NULL after gb_error), then every libbenchmark
 * batch of n operations (sets its time; -1 once it failed), then end
 * (the counters, the switch put back, freed).
 */
struct nsb_ilv_run;

/*
 * A check read when a superblock is mounted (SELinux's and Smack's label
 * policy) is the same in both chunks of one mount: flipping the switch
 * over it compares the operation with itself.  Such a benchmark keeps
 * one fixture per state instead: the operation gets arg | on_arg in the
 * "on" chunks and makes (once, with the switch on) a fixture of its own
 * for them, while the "off" chunks use the fixture made with the switch
 * off.  Before the clock each state's first result must be what
 * expect(scn, arg of that state) says with the switch in that state, so
 * a row whose states do not behave as claimed is never timed.
 * on_arg 0: one fixture for both states (the switch acts per op).
 */
struct nsb_ilv_states {
	int64_t on_arg;
	int (*expect)(const struct nsb_scn *scn, int64_t arg);
	const struct nsb_scn *scn;
};

struct nsb_ilv_run *nsb_interleave_begin(struct gb_state *s,
					 struct nsb_worker *w, nsb_op_fn op,
					 int64_t arg,
					 const struct nsb_ilv_states *st);
int nsb_interleave_batch(struct nsb_ilv_run *run, int64_t n);
void nsb_interleave_end(struct nsb_ilv_run *run);

#endif /* NSB_BENCH_SYS_INTERLEAVE_H */
