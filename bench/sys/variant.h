/* SPDX-License-Identifier: GPL-2.0 */
/*
 * variant.h — a sys/ benchmark is a scenario (struct nsb_scn) plus an
 * operation of the fixture library; this registers one as a Google
 * Benchmark with a readable name, e.g. "sys/exec/vfork/suid/init/depth:8".
 *
 * The worker runs the operation; each request (a batch, in chunks) is
 * timed with CLOCK_MONOTONIC and reported as manual time (the name gets
 * Google Benchmark's "/manual_time" suffix), so one round trip per chunk
 * is added to operations that cost microseconds.  Before timing, the
 * operation runs once and its result must be what the kernel should give
 * in that scenario (expect); a refusal (EPERM, ...) where success was
 * expected is a skip with the reason, anything else an error.
 */
#ifndef NSB_BENCH_SYS_VARIANT_H
#define NSB_BENCH_SYS_VARIANT_H

#include "bench/gbench.h"
#include "bench/registry.h"
#include "workloads/fixture.h"

/* The arguments a variant takes from gb_range(), in this order. */
enum nsb_var_arg {
	NSB_ARG_DEPTH = 1 << 0,	/* scn.depth */
	NSB_ARG_OP = 1 << 1,	/* the operation's argument (path depth) */
	NSB_ARG_NIPC = 1 << 2,	/* scn.nipc */
	NSB_ARG_NPROC = 1 << 3,	/* scn.nproc */
};

struct nsb_variant {
	struct nsb_scn scn;
	nsb_op_fn op;
	int64_t arg;
	/* The operation's result in scenario scn; NULL: 0. */
	int (*expect)(const struct nsb_scn *scn, int64_t arg);
	unsigned int args;	/* enum nsb_var_arg */
	/*
	 * Interleaved (--interleave): bits ORed into arg in the switch's
	 * "on" chunks, where the op keeps a fixture made in each state (a
	 * check read at mount time; see struct nsb_ilv_states); 0: none.
	 */
	int64_t on_arg;
};

/*
 * Registers name with a copy of *v.  The caller adds argument values
 * and names (gb_args, gb_arg_names) in the order of enum nsb_var_arg.
 */
struct gb_bench *nsb_variant_register(const char *name,
				      const struct nsb_variant *v);

/*
 * --slab-reset=N: before each benchmark's first run, N processes at once
 * and then none (slabs.c); 0, the default: never.
 */
void nsb_variant_slab_reset(unsigned int n);

/* Expectations of the fixture library's operations. */
int nsb_expect_exec(const struct nsb_scn *scn, int64_t arg);
int nsb_expect_open(const struct nsb_scn *scn, int64_t arg);

/* Registers b once per depth of the tier (single argument "depth"). */
void nsb_depth_sweep(struct gb_bench *b, enum nsb_tier tier);

#endif /* NSB_BENCH_SYS_VARIANT_H */
