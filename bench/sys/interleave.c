// SPDX-License-Identifier: GPL-2.0
/*
 * interleave.c — the in-boot check A/B (nsbench-bench --interleave=SW).
 *
 * A check costs a few instructions on an operation of thousands to tens
 * of thousands.  Measured in separate runs, the two states of a switch
 * differ by what else changed in between (the first run of a boot was
 * 10,000 instructions per exec dearer than the next, whatever the
 * switch) far more than by the check.  So one run alternates the switch
 * kernel.userns_checks.SW in chunks of about 200 us of operations, in
 * quads of on, on, off1, off2 in a drawn order (next_quad), and reports
 * per state the cost per operation of its central chunks (central_mean):
 * adjacent chunks share the kernel's state and drift cancels.  Not the
 * mean: under icount most chunks of an operation retire the same
 * instructions, and the few a slab or page-allocator refill lands in
 * carry the mean.  Not the median either: chunk costs sit on a few
 * discrete levels and the median jumps between them.  Over 2 boots of
 * checks.plan (34 rows each), off against off differed by up to 118
 * instructions per op with the mean, 3.5 with the median and 1.2 with
 * the central mean (1 row above 1).  The median and the mean stay in
 * the results as nsb_<state>_median and nsb_<state>_mean.  A chunk a timer tick
 * landed in (the coarse clock moved) is left out: the tick and the
 * softirq work behind it are no part of the operation.  off1 and off2
 * are the same state kept apart: off against off in the same run is the
 * A/A residual.  The switch is written between chunks, outside the timed
 * region, and left as it was found.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/sys/interleave.h"

/* About 200 us of operations per chunk: many chunks, each far above the
 * cost of the round trip to the worker and of a switch write. */
#define CHUNK_NS	200000.0
#define MAX_CHUNK	4096

static struct {
	bool active;		/* --interleave given */
	int fd;			/* the switch, or -1 (stock kernel) */
	char was;		/* its value at start: '0' or '1' */
	char now;
	uint64_t seed;		/* of the chunk orders, never 0 */
} ilv = { .fd = -1 };

int nsb_interleave_init(const char *sw, uint64_t seed, bool *applied)
{
	char path[256], c;

	ilv.seed = seed * 0x9e3779b97f4a7c15ULL | 1;
	if (!*sw || strchr(sw, '/') || strlen(sw) > 64) {
		fprintf(stderr, "nsbench-bench: --interleave: bad switch name "
			"'%s'\n", sw);
		return -1;
	}
	ilv.active = true;
	snprintf(path, sizeof(path), "/proc/sys/kernel/userns_checks/%s", sw);
	ilv.fd = open(path, O_RDWR | O_CLOEXEC);
	*applied = ilv.fd >= 0;
	if (ilv.fd < 0) {
		if (errno != ENOENT) {
			fprintf(stderr, "nsbench-bench: --interleave: %s: %s\n",
				path, strerror(errno));
			return -1;
		}
		return 0;	/* stock: same chunks, no switch */
	}
	if (pread(ilv.fd, &c, 1, 0) != 1 || (c != '0' && c != '1')) {
		fprintf(stderr, "nsbench-bench: --interleave: cannot read %s\n",
			path);
		close(ilv.fd);
		ilv.fd = -1;
		return -1;
	}
	ilv.was = ilv.now = c;
	return 0;
}

bool nsb_interleave_active(void)
{
	return ilv.active;
}

static int set_switch(int on)
{
	char c = on ? '1' : '0';

	if (ilv.fd < 0 || ilv.now == c)
		return 0;
	if (pwrite(ilv.fd, &c, 1, 0) != 1)
		return -1;
	ilv.now = c;
	return 0;
}

void nsb_interleave_restore(void)
{
	if (ilv.fd >= 0 && ilv.was)
		(void)!set_switch(ilv.was == '1');
}

/*
 * The states of the next quad of chunks: on, on, off1, off2 in an order
 * drawn from a fixed-seed generator.  A fixed pattern (on/off/off/on,
 * off/on/on/off) aliases with the kernel's own periodic work (a slab
 * page every few execs, the deferred work of a switch write): measured
 * here, it put +400 instructions per exec into one off state and none
 * into the other.  Drawn orders spread that work over the states alike.
 */
static void next_quad(uint64_t *rng, enum nsb_ilv_state q[4])
{
	static const enum nsb_ilv_state base[4] = {
		NSB_ILV_ON, NSB_ILV_ON, NSB_ILV_OFF1, NSB_ILV_OFF2,
	};
	int i;

	memcpy(q, base, sizeof(base));
	for (i = 3; i > 0; i--) {
		int j;
		enum nsb_ilv_state t;

		/* xorshift64: plenty for shuffling four items */
		*rng ^= *rng << 13;
		*rng ^= *rng >> 7;
		*rng ^= *rng << 17;
		j = (int)(*rng % (uint64_t)(i + 1));
		t = q[i];
		q[i] = q[j];
		q[j] = t;
	}
}

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

/* The tick count, as the coarse clock shows it (the vDSO: no syscall). */
static int64_t tick_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/*
 * One timed chunk of k operations; the operation's result.  *clean is
 * false when a timer tick (and the softirq work behind it) landed in it.
 */
static int chunk(struct nsb_worker *w, nsb_op_fn op, int64_t arg, int64_t k,
		 double *ns, bool *clean)
{
	int64_t tick = tick_ns();
	double t0 = now_ns();
	int r = nsb_worker_call(w, op, arg, k);

	*ns = now_ns() - t0;
	*clean = tick_ns() == tick;
	return r;
}

struct ilv_acc {
	double ns, ops;		/* clean chunks only */
	size_t chunks, ticked;
	double *per_op;		/* each clean chunk's cost per operation */
	size_t n, cap;
};

static int acc_add(struct ilv_acc *a, double ns, int64_t m)
{
	if (a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 64;
		double *p = realloc(a->per_op, cap * sizeof(*p));

		if (!p)
			return -1;
		a->per_op = p;
		a->cap = cap;
	}
	a->per_op[a->n++] = ns / (double)m;
	a->ns += ns;
	a->ops += (double)m;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Sorts v; its median. */
static double median_of(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * The mean of the chunks within CENTRAL_HALF_WIDTH of the median (v
 * sorted): the central level of the distribution, averaged over the
 * levels next to it, without the tail that refills make.  8 per op
 * (instructions under icount) keeps exec's neighbouring levels (3-7
 * apart) and drops what lands 10 or more away.
 */
#define CENTRAL_HALF_WIDTH	8.0

static double central_mean(const double *v, size_t n, double median)
{
	double sum = 0;
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if (v[i] < median - CENTRAL_HALF_WIDTH ||
		    v[i] > median + CENTRAL_HALF_WIDTH)
			continue;
		sum += v[i];
		k++;
	}
	return k ? sum / (double)k : median;
}

static void report(struct gb_state *s, struct ilv_acc *acc, int64_t k,
		   const int wants[2])
{
	static const char *const names[NSB_ILV_COUNT] = {
		[NSB_ILV_ON] = "nsb_on", [NSB_ILV_OFF1] = "nsb_off1",
		[NSB_ILV_OFF2] = "nsb_off2",
	};
	size_t ticked = 0, chunks = 0;
	char key[32];
	int st;

	/* A short run (libbenchmark sizing it) may miss a state: no counters. */
	for (st = 0; st < NSB_ILV_COUNT; st++)
		if (!acc[st].ops)
			return;
	for (st = 0; st < NSB_ILV_COUNT; st++) {
		/* in the benchmarks' time unit (us), like real_time */
		struct ilv_acc *a = &acc[st];
		double med = median_of(a->per_op, a->n);

		gb_counter(s, names[st], central_mean(a->per_op, a->n, med) *
			   1e-3, GB_COUNTER_DEFAULT);
		snprintf(key, sizeof(key), "%s_median", names[st]);
		gb_counter(s, key, med * 1e-3, GB_COUNTER_DEFAULT);
		snprintf(key, sizeof(key), "%s_mean", names[st]);
		gb_counter(s, key, a->ns / a->ops * 1e-3, GB_COUNTER_DEFAULT);
		ticked += acc[st].ticked;
		chunks += acc[st].chunks;
	}
	gb_counter(s, "nsb_chunk_ops", (double)k, GB_COUNTER_DEFAULT);
	gb_counter(s, "nsb_chunks", (double)chunks, GB_COUNTER_DEFAULT);
	gb_counter(s, "nsb_ticked_chunks", (double)ticked, GB_COUNTER_DEFAULT);
	if (wants[0] != wants[1])
		gb_counter(s, "nsb_decides", 1, GB_COUNTER_DEFAULT);
}

int nsb_interleave_batch(struct gb_state *s, struct nsb_worker *w,
			 nsb_op_fn op, int64_t arg, int64_t n, int want)
{
	struct ilv_acc acc[NSB_ILV_COUNT] = { 0 };
	double total = 0, ns, first;
	int wants[2], r = 0, st;
	size_t j;
	enum nsb_ilv_state quad[4];
	uint64_t rng = ilv.seed;
	bool clean;
	int64_t k;

	/*
	 * Where the check decides (a device node on a userns mount opens
	 * with it off), the two states have their own result: one untimed
	 * operation in each learns it.
	 */
	for (st = 0; st < 2; st++) {
		if (set_switch(st)) {
			gb_error(s, "cannot write the switch: %s",
				 strerror(errno));
			return 0;
		}
		wants[st] = chunk(w, op, arg, 1, &ns, &clean);
	}
	want = wants[1];
	/* The first operation sizes the chunks; it is timed like the rest. */
	if ((r = chunk(w, op, arg, 1, &first, &clean)) != want)
		goto bad;
	total += first;
	n--;
	k = first > 0 ? (int64_t)(CHUNK_NS / first) : MAX_CHUNK;
	k = k < 1 ? 1 : k > MAX_CHUNK ? MAX_CHUNK : k;
	if (n < 4 * k)
		k = n / 4 ? n / 4 : 1;
	for (j = 0; n > 0 && !gb_was_interrupted(); j++) {
		enum nsb_ilv_state state;

		if (j % 4 == 0)
			next_quad(&rng, quad);
		state = quad[j % 4];
		struct ilv_acc *a = &acc[state];
		int64_t m = n < k ? n : k;

		if (set_switch(state == NSB_ILV_ON)) {
			gb_error(s, "cannot write the switch: %s",
				 strerror(errno));
			goto out;
		}
		want = wants[state == NSB_ILV_ON];

		if ((r = chunk(w, op, arg, m, &ns, &clean)) != want)
			goto bad;
		total += ns;
		n -= m;
		a->chunks++;
		if (!clean) {
			a->ticked++;
			continue;
		}
		if (acc_add(a, ns, m)) {
			gb_error(s, "out of memory");
			goto out;
		}
	}
	gb_set_iteration_time(s, total * 1e-9);
	report(s, acc, k, wants);
	goto out;
bad:
	gb_error(s, "operation gave %d during the run, not %d", r, want);
out:
	for (st = 0; st < NSB_ILV_COUNT; st++)
		free(acc[st].per_op);
	/* the next benchmark's fixture checks the kernel as it was found */
	nsb_interleave_restore();
	return 0;
}
