// SPDX-License-Identifier: GPL-2.0
/*
 * variant.c — registration and the common body of the sys/ benchmarks.
 *
 * Every variant is data (struct nsb_variant) handed to one body,
 * run_variant(), through the shim's gb_data().
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/sys/interleave.h"
#include "bench/sys/slabs.h"
#include "bench/sys/variant.h"

static bool refused(int r)
{
	return r == -EPERM || r == -EACCES || r == -EOPNOTSUPP ||
	       r == -ENOSYS || r == -EINVAL || r == -ENODEV;
}

/*
 * A batch goes to the worker in chunks, so that SIGINT (gb_interrupt)
 * stops a long exec batch within ~a second; a chunk of 4096 keeps the
 * round trip below 1 % of even a 1 us operation.
 */
#define NSB_CHUNK 4096

static void run_batch(struct gb_state *s, struct nsb_worker *w,
		      const struct nsb_variant *v, int64_t arg, int64_t n,
		      int want)
{
	struct timespec t0, t1;
	double secs = 0;
	int64_t k;
	int r;

	while (n > 0 && !gb_was_interrupted()) {
		k = n < NSB_CHUNK ? n : NSB_CHUNK;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		r = nsb_worker_call(w, v->op, arg, k);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		secs += (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
		n -= k;
		if (r != want) {
			gb_error(s, "operation gave %d during the run, not %d",
				 r, want);
			break;
		}
	}
	gb_set_iteration_time(s, secs);
}

/*
 * The fixture's claim about this operation, before the clock: 0 when
 * its first result is what expect says, else -1 after the skip or the
 * error that says why not.
 */
static int prove(struct gb_state *s, struct nsb_worker *w,
		 const struct nsb_variant *v, const struct nsb_scn *scn,
		 int64_t arg)
{
	int want = v->expect ? v->expect(scn, arg) : 0;
	int r = nsb_worker_call(w, v->op, arg, 1);

	if (r == want)
		return 0;
	if (want == 0 && refused(r))
		gb_skip(s, "kernel refuses: %s", strerror(-r));
	else
		gb_error(s, "operation gave %d, the kernel should give %d", r,
			 want);
	return -1;
}

/*
 * The in-boot A/B of a switch.  A fixture per state proves each state's
 * claim in nsb_interleave_begin; a shared one proves it here first, in
 * the state the switch was found in.
 */
static void run_interleaved(struct gb_state *s, struct nsb_worker *w,
			    const struct nsb_variant *v,
			    const struct nsb_scn *scn, int64_t arg)
{
	struct nsb_ilv_states st = { v->on_arg, v->expect, scn };
	struct nsb_ilv_run *run;
	int64_t n;

	if (!v->on_arg && prove(s, w, v, scn, arg))
		return;
	run = nsb_interleave_begin(s, w, v->op, arg, &st);
	while (run && (n = gb__batch(s)) > 0)
		if (nsb_interleave_batch(run, n))
			break;
	nsb_interleave_end(run);
}

/* Holders alive together in a reset (--slab-reset), 0: none. */
static unsigned int slab_reset;
/*
 * After the holders exit, RCU frees their tasks and creds from a
 * softirq: 20 ms of sleep lets that happen before the first run, not in
 * it.  Under -icount (sleep=off) idle time costs the host nothing.
 */
#define SLAB_SETTLE_US	20000

void nsb_variant_slab_reset(unsigned int n)
{
	slab_reset = n;
}

/*
 * Whether this run is a benchmark's first: libbenchmark runs one
 * benchmark's sizing runs and repetitions back to back, so a run whose
 * variant, scenario or argument differs from the last run's starts one.
 */
static bool first_run(const struct nsb_variant *v, const struct nsb_scn *scn,
		      int64_t arg)
{
	static const struct nsb_variant *last_v;
	static struct nsb_scn last_scn;
	static int64_t last_arg;
	bool first = v != last_v || arg != last_arg ||
		     !nsb_scn_same(scn, &last_scn);

	last_v = v;
	last_scn = *scn;
	last_arg = arg;
	return first;
}

/*
 * --slab-reset, after the fixture is made: 0, or -1 after gb_error.  The
 * worker then respawns, so that the process whose task_struct each fork
 * copies is allocated from the reset's slabs too: on 6.12 the copy's
 * direction, 2 insn an exec, followed the worker's slot from the boot.
 */
static int reset_slabs(struct gb_state *s, struct nsb_worker *w)
{
	int alive = nsb_slabs_reset(slab_reset, "/bin/cat", SLAB_SETTLE_US);
	int err;

	if (alive < 0) {
		gb_error(s, "--slab-reset: cannot start /bin/cat: %s",
			 strerror(errno));
		return -1;
	}
	if (alive != (int)slab_reset) {
		gb_error(s, "--slab-reset: %d of %u holders alive together",
			 alive, slab_reset);
		return -1;
	}
	err = nsb_worker_respawn(w);
	if (err)
		gb_error(s, "--slab-reset: respawn the worker: %s",
			 strerror(-err));
	return err ? -1 : 0;
}

static void run_variant(struct gb_state *s)
{
	const struct nsb_variant *v = gb_data(s);
	struct nsb_scn scn = v->scn;
	int64_t arg = v->arg, n;
	struct nsb_worker *w;
	const char *why = "";
	bool skip = false;
	int i = 0, want;

	if (v->args & NSB_ARG_DEPTH)
		scn.depth = gb_range(s, i++);
	if (v->args & NSB_ARG_OP)
		arg = gb_range(s, i++);
	if (v->args & NSB_ARG_NIPC)
		scn.nipc = gb_range(s, i++);
	if (v->args & NSB_ARG_NPROC)
		scn.nproc = gb_range(s, i++);
	w = nsb_worker_get(&scn, &why, &skip);
	if (!w) {
		if (skip)
			gb_skip(s, "%s", why);
		else
			gb_error(s, "fixture: %s", why);
		return;
	}
	if (slab_reset && first_run(v, &scn, arg) && reset_slabs(s, w))
		return;
	if (nsb_interleave_active()) {
		run_interleaved(s, w, v, &scn, arg);
		return;
	}
	if (prove(s, w, v, &scn, arg))
		return;
	want = v->expect ? v->expect(&scn, arg) : 0;
	/*
	 * Each batch pays the round trip to the worker (~9,400 insn under
	 * icount) inside its time.  Batches sized by the clock (doubling
	 * while under 5 ms) gave stock 6.1 exec batches of 128 and the
	 * calibration kernel 64: +56 insn an exec in make validate that no
	 * kernel code ran.  By count alone both run 1, 2, 4, ... alike.
	 */
	gb_fixed_batches(s);
	while ((n = gb__batch(s)) > 0)
		run_batch(s, w, v, arg, n, want);
}

int nsb_expect_exec(const struct nsb_scn *scn, int64_t arg)
{
	return nsb_expect_exec_status(scn, arg & 0xff);
}

int nsb_expect_open(const struct nsb_scn *scn, int64_t arg)
{
	if (arg != NSB_FILE_DEV || nsb_expect_dev(scn))
		return 0;
	return -EACCES;
}

/*
 * Each registered variant's copy lives as long as the process.  libbenchmark
 * frees its own registrations at exit, so the copies are also chained here:
 * still reachable then, they are not reported as leaks by LeakSanitizer.
 */
struct kept_variant {
	struct kept_variant *next;
	struct nsb_variant v;
};
static struct kept_variant *kept_variants;

struct gb_bench *nsb_variant_register(const char *name,
				      const struct nsb_variant *v)
{
	struct kept_variant *k = malloc(sizeof(*k));
	struct gb_bench *b;

	if (!k) {
		fprintf(stderr, "nsbench-bench: out of memory registering %s\n",
			name);
		exit(1);
	}
	k->v = *v;
	k->next = kept_variants;
	kept_variants = k;
	b = gb_register_data(name, run_variant, &k->v);
	/*
	 * The work happens in the worker, so this process's CPU time (which
	 * libbenchmark would use to size the run) stays near zero: the
	 * batch's wall-clock time is reported as manual time instead.
	 */
	gb_use_manual_time(b);
	gb_unit(b, GB_US);
	return b;
}

void nsb_depth_sweep(struct gb_bench *b, enum nsb_tier tier)
{
	struct nsb_sweep d = nsb_depths(tier);

	gb_arg_names(b, "depth", NULL);
	for (size_t i = 0; i < d.n; i++)
		gb_arg(b, d.v[i]);
}
