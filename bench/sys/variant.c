// SPDX-License-Identifier: GPL-2.0
/*
 * variant.c — registration and the common body of the sys/ benchmarks.
 *
 * libbenchmark 1.7.1 hands a benchmark only its State, not its name or a
 * user pointer, so each registered variant gets one of a fixed set of
 * trampolines that knows its slot; the variants themselves stay data.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/sys/interleave.h"
#include "bench/sys/variant.h"

#define NSB_SLOTS 256

static struct nsb_variant slots[NSB_SLOTS];
static int nslots;

const int64_t nsb_depths_quick[] = { 0, 1, 8, 32 };
const int64_t nsb_depths_full[] = { 0, 1, 2, 4, 8, 16, 32 };
const int nsb_ndepths_quick = 4, nsb_ndepths_full = 7;

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

static void run_slot(struct gb_state *s, int slot)
{
	const struct nsb_variant *v = &slots[slot];
	struct nsb_scn scn = v->scn;
	int64_t arg = v->arg, n;
	struct nsb_worker *w;
	const char *why = "";
	bool skip = false;
	int i = 0, r, want;

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
	/* The fixture's claim about this operation, before the clock. */
	want = v->expect ? v->expect(&scn, arg) : 0;
	r = nsb_worker_call(w, v->op, arg, 1);
	if (r != want) {
		if (want == 0 && refused(r))
			gb_skip(s, "kernel refuses: %s", strerror(-r));
		else
			gb_error(s, "operation gave %d, the kernel should give %d",
				 r, want);
		return;
	}
	if (nsb_interleave_active()) {
		struct nsb_ilv_run *run = nsb_interleave_begin(s, w, v->op,
							       arg);

		while (run && (n = gb__batch(s)) > 0)
			if (nsb_interleave_batch(run, n))
				break;
		nsb_interleave_end(run);
		return;
	}
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

#define T(a, b) static void t_##a##_##b(struct gb_state *s) \
	{ run_slot(s, (a) * 16 + (b)); }
#define ROW(a) T(a, 0) T(a, 1) T(a, 2) T(a, 3) T(a, 4) T(a, 5) T(a, 6) \
	T(a, 7) T(a, 8) T(a, 9) T(a, 10) T(a, 11) T(a, 12) T(a, 13) \
	T(a, 14) T(a, 15)
ROW(0) ROW(1) ROW(2) ROW(3) ROW(4) ROW(5) ROW(6) ROW(7)
ROW(8) ROW(9) ROW(10) ROW(11) ROW(12) ROW(13) ROW(14) ROW(15)
#undef T
#define T(a, b) t_##a##_##b,
static const gb_fn trampolines[NSB_SLOTS] = {
	ROW(0) ROW(1) ROW(2) ROW(3) ROW(4) ROW(5) ROW(6) ROW(7)
	ROW(8) ROW(9) ROW(10) ROW(11) ROW(12) ROW(13) ROW(14) ROW(15)
};
#undef T
#undef ROW

struct gb_bench *nsb_variant_register(const char *name,
				      const struct nsb_variant *v)
{
	struct gb_bench *b;

	if (nslots == NSB_SLOTS) {
		fprintf(stderr, "nsbench-bench: more than %d sys/ variants; "
			"raise NSB_SLOTS in %s\n", NSB_SLOTS, __FILE__);
		abort();
	}
	slots[nslots] = *v;
	b = gb_register(name, trampolines[nslots++]);
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
	const int64_t *d = tier == NSB_TIER_FULL ? nsb_depths_full :
						   nsb_depths_quick;
	int i, n = tier == NSB_TIER_FULL ? nsb_ndepths_full : nsb_ndepths_quick;

	gb_arg_names(b, "depth", NULL);
	for (i = 0; i < n; i++)
		gb_arg(b, d[i]);
}
