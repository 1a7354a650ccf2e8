// SPDX-License-Identifier: GPL-2.0
/*
 * shim — what the C API costs per iteration: empty loops through the C
 * API next to the same loops written in C++ directly against libbenchmark
 * (registered by the shim itself, gbench.cc):
 *
 *	c/for_each_iteration  vs  cxx/range_for     (counter in a register)
 *	c/keep_running        vs  cxx/keep_running  (counter in memory)
 *
 * Their differences are the harness's overhead on every other number.
 */
#include "bench/gbench.h"
#include "bench/registry.h"

static void bm_for_each_iteration(struct gb_state *s)
{
	gb_for_each_iteration(s)
		gb_clobber_memory();
}

static void bm_keep_running(struct gb_state *s)
{
	while (gb_keep_running(s))
		gb_clobber_memory();
}

void nsb_register_shim(enum nsb_tier tier)
{
	gb_register("models/shim/c/for_each_iteration", bm_for_each_iteration);
	gb_register("models/shim/c/keep_running", bm_keep_running);
	gb_register_cxx_references("models/shim/cxx");
}
