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
 * per state the central mean of its chunks' cost per operation
 * (central_mean): adjacent chunks share the kernel's state and drift
 * cancels.  Not the mean, which the few chunks a slab or page-allocator
 * refill lands in carry; not the median, which jumps between the
 * discrete levels chunk costs sit on under icount.  Over 2 boots of
 * checks.plan (34 rows each), off against off differed by up to 118
 * instructions per op with the mean, 3.5 with the median and 1.2 with
 * the central mean.  Nor on - off paired inside each quad: some switch
 * writes cost the next chunk ~800 instructions, so in-quad differences
 * sit on modes 400 per op apart (6 rounds: file_caps +17 read anywhere
 * in [-384, +419]); the central mean of each state leaves those chunks
 * out (+17 [+17, +17]).  A chunk a timer tick
 * landed in (the coarse clock moved) is left out: the tick and the
 * softirq work behind it are no part of the operation.  off1 and off2
 * are the same state kept apart: off against off in the same run is the
 * A/A residual.  The switch is written between chunks, outside the timed
 * region, and left as it was found.
 *
 * Where the level of every state's chunks steps once partway through a
 * run (a pid leaf, a slab's slow path), each state's central mean is
 * taken on either side of the step (levels.c).  Where an op's chunks
 * spread over many levels and those move during a run, the central
 * means fall on whichever level each state's median found;
 * --interleave-paired takes the shift and the A/A from pairs of
 * chunks of one quad instead (paired.c): the densest window of their
 * differences, not their median, which the switch writes' modes above
 * pull about.
 *
 * A quad's states may each be held for several chunks in a row
 * (--interleave-block): where a switch write upsets the next several
 * operations (6.12: ~10 execs), the chunks after it settle before the
 * block ends and the central mean keeps the settled level.
 *
 * libbenchmark's sizing runs (1, 10, 100... operations before the
 * measured one) are interleaved alike and their counters dropped, but
 * they are not wasted: they warm what the measured run then finds.
 * Measured without them (one run filling the time), an init-owned FUSE
 * control read -4,498 insn per lookup between its two mounts instead of
 * -0.3, and the exec rows of 004 and the 2015 walk went noisy.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/sys/interleave.h"
#include "bench/sys/levels.h"
#include "bench/sys/paired.h"
#include "guest/plugin/marker.h"
#include "workloads/wlutil.h"

/* About 200 us of operations per chunk: many chunks, each far above the
 * cost of the round trip to the worker and of a switch write. */
#define CHUNK_NS	200000.0
#define MAX_CHUNK	4096
/* The fewest operations in a settled chunk (see nsb_interleave_begin). */
#define SETTLED_MIN_OPS	2

static struct {
	bool active;		/* --interleave given */
	int fd;			/* the switch, or -1 (stock kernel) */
	char was;		/* its value at start: '0' or '1' */
	char now;
	uint64_t seed;		/* of the chunk orders, never 0 */
	size_t block;		/* chunks per visit of a state */
	unsigned long settle_us;	/* untimed sleep before each chunk */
	double window;		/* the central mean's half-width, per op */
	int64_t chunk;		/* ops per chunk, or 0: by the first op */
	double paired;		/* --interleave-paired's width, per op, or 0 */
} ilv = { .fd = -1 };

int nsb_interleave_init(const char *sw, const struct nsb_ilv_opts *o,
			bool *applied)
{
	char path[256], c;

	ilv.seed = o->seed * 0x9e3779b97f4a7c15ULL | 1;
	ilv.block = o->block;
	ilv.settle_us = o->settle_us;
	ilv.window = (double)o->window;
	ilv.chunk = (int64_t)o->chunk;
	ilv.paired = (double)o->paired;
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
 * --interleave-settle: the bench sleeps before a chunk, so what the last
 * chunk left to the kernel's own threads runs now, untimed, and not in
 * whichever chunk comes next.  A FUSE mount + umount leaves RCU callbacks
 * (the vfsmount, the superblock, the connection, the root inode) and the
 * superblock's destroy work (a kworker) behind; on the 1-CPU guest they
 * ran in later chunks of any state as the scheduler saw fit.  Measured on
 * lsm/selinux/mount/fuse/d1: ~200,000 insn per mount with an A/A of 598,
 * and with the sleep (and SCHED_FIFO) ~120,000, A/A < 1: some 80,000 insn
 * of each mount's teardown had been landing in other chunks.  Under
 * icount (sleep=off) the idle time of the sleep costs no host time.
 */
static void settle(void)
{
	if (ilv.settle_us)
		nsb_sleep_us(ilv.settle_us);
}

/*
 * One timed chunk of k operations; the operation's result.  *clean is
 * false when a timer tick (and the softirq work behind it) landed in it.
 * state: the chunk's, marked for the cache-model plugin, or -1 (an
 * untimed first operation): the plugin's chunk runs from the clock read
 * after the start marker to the one after NSB_MARK_END, as the timing
 * does.
 */
static int chunk(struct nsb_worker *w, nsb_op_fn op, int64_t arg, int64_t k,
		 int state, double *ns, bool *clean)
{
	int64_t tick;
	double t0;
	int r;

	settle();
	tick = tick_ns();
	if (state >= 0)
		nsb_mark_start(state);
	t0 = now_ns();
	r = nsb_worker_call(w, op, arg, k);
	if (state >= 0)
		NSB_MARK(NSB_MARK_END);
	*ns = now_ns() - t0;
	*clean = tick_ns() == tick;
	return r;
}

struct nsb_ilv_run {
	struct gb_state *s;
	struct nsb_worker *w;
	nsb_op_fn op;
	int64_t args[2];	/* the op's argument with the switch off, on */
	bool per_state;		/* a fixture per state (nsb_ilv_states) */
	int wants[2];		/* the op's result with the switch off, on */
	int64_t k;		/* operations per chunk */
	int64_t ahead;		/* ops run beyond the batches asked so far */
	uint32_t id;		/* the run's id for the cache-model plugin */
	uint64_t rng;
	enum nsb_ilv_state quad[4];
	struct nsb_pchunk *c;	/* every chunk, in order: 4 per quad */
	size_t n, cap;
	bool failed;
};

/*
 * Each state's value with --interleave-paired: the off states' pooled
 * central mean is the level, and on and off1/off2 sit the paired shift
 * and A/A from it, so that on - (off1 + off2) / 2 and off2 - off1 are
 * those.  Left as the central means where a state has no pair.
 */
static void paired_values(const struct nsb_ilv_run *run, double *cm)
{
	size_t per = 4 * ilv.block;
	struct nsb_level ref;
	double on, aa;

	if (!nsb_level(run->c, 0, run->n, NSB_OFF_STATES, ilv.window, &ref) ||
	    !nsb_paired_diff(run->c, run->n, per, NSB_ILV_ON, NSB_ILV_OFF1,
			     NSB_ILV_OFF2, ilv.paired, &on) ||
	    !nsb_paired_diff(run->c, run->n, per, NSB_ILV_OFF2, NSB_ILV_OFF1,
			     NSB_ILV_OFF1, ilv.paired, &aa))
		return;
	cm[NSB_ILV_ON] = ref.mean + on;
	cm[NSB_ILV_OFF1] = ref.mean - aa / 2;
	cm[NSB_ILV_OFF2] = ref.mean + aa / 2;
}

/*
 * The first, untimed operation of state on (0 off, 1 on): where the check
 * decides (a device node on a userns mount opens with it off), the two
 * states have their own result, which this learns; with a fixture per
 * state it also makes that state's fixture and proves its claim.
 */
static int first_op(struct nsb_ilv_run *run, const struct nsb_ilv_states *st,
		    int on, double *ns)
{
	bool clean;
	int want;

	if (set_switch(on)) {
		gb_error(run->s, "cannot write the switch: %s",
			 strerror(errno));
		return -1;
	}
	run->wants[on] = chunk(run->w, run->op, run->args[on], 1, -1, ns,
			       &clean);
	if (!run->per_state || !st->expect)
		return 0;
	/* expect reads the switch as it is now: the state's own claim */
	want = st->expect(st->scn, run->args[on]);
	if (run->wants[on] != want) {
		gb_error(run->s, "with the switch %s the operation gave %d, "
			 "the kernel should give %d", on ? "on" : "off",
			 run->wants[on], want);
		return -1;
	}
	return 0;
}

/*
 * A run's id, unique in the boot: the process (each `cost` step is one)
 * and its count of runs.
 */
static uint32_t next_run_id(void)
{
	static uint32_t runs;

	return (uint32_t)(getpid() & 0xffff) << 16 | (++runs & 0xffff);
}

struct nsb_ilv_run *nsb_interleave_begin(struct gb_state *s,
					 struct nsb_worker *w, nsb_op_fn op,
					 int64_t arg,
					 const struct nsb_ilv_states *st)
{
	struct nsb_ilv_run *run = calloc(1, sizeof(*run));
	double first;
	int on;

	if (!run) {
		gb_error(s, "out of memory");
		return NULL;
	}
	*run = (struct nsb_ilv_run){
		.s = s, .w = w, .op = op, .args = { arg, arg | st->on_arg },
		.per_state = st->on_arg != 0, .rng = ilv.seed,
		.id = next_run_id(),
	};
	NSB_MARK(NSB_MARK_RUN_BEGIN);
	nsb_mark_id(run->id);
	for (on = 0; on < 2; on++) {
		if (first_op(run, st, on, &first)) {
			free(run);
			return NULL;
		}
	}
	/*
	 * The second one (switch on) sizes the chunks, unless the caller
	 * fixed them (--interleave-chunk): a comparison across kernels
	 * needs the same count on both, as each chunk pays the worker's
	 * round trip (~9,150 insn) over its ops.  Sized by time, 64 path
	 * components ran 6 per chunk on stock and 5 on a kernel 3,315
	 * insn slower per op: +305 per op that no kernel code ran.
	 */
	run->k = ilv.chunk ? ilv.chunk :
		 first > 0 ? (int64_t)(CHUNK_NS / first) : MAX_CHUNK;
	run->k = run->k < 1 ? 1 : run->k > MAX_CHUNK ? MAX_CHUNK : run->k;
	/*
	 * Settled, a FUSE mount + umount costs one of two levels ~130 insn
	 * apart, in turn from one mount to the next whatever the state (a
	 * chunk dump of lsm/selinux/mount/fuse/d1: 122,638 and 122,767 off,
	 * 105,403 and 105,532 on); one op per chunk left each state's median
	 * on either level by the draw.  Two ops per chunk hold one of each.
	 */
	if (ilv.settle_us && run->k < SETTLED_MIN_OPS)
		run->k = SETTLED_MIN_OPS;
	return run;
}

static int add_chunk(struct nsb_ilv_run *run, enum nsb_ilv_state st,
		     bool clean, double per_op)
{
	if (run->n == run->cap) {
		size_t cap = run->cap ? 2 * run->cap : 256;
		struct nsb_pchunk *c = realloc(run->c, cap * sizeof(*c));

		if (!c)
			return -1;
		run->c = c;
		run->cap = cap;
	}
	run->c[run->n++] = (struct nsb_pchunk){ st, clean, per_op };
	return 0;
}

/* The next chunk of the run, m ops in its quad's state; -1 on failure. */
static int next_chunk(struct nsb_ilv_run *run, int64_t m, double *ns)
{
	struct gb_state *s = run->s;
	enum nsb_ilv_state state;
	bool clean;
	int r, want;

	if (run->n % (4 * ilv.block) == 0)
		next_quad(&run->rng, run->quad);
	state = run->quad[run->n / ilv.block % 4];
	want = run->wants[state == NSB_ILV_ON];
	if (set_switch(state == NSB_ILV_ON)) {
		gb_error(s, "cannot write the switch: %s", strerror(errno));
		return -1;
	}
	r = chunk(run->w, run->op, run->args[state == NSB_ILV_ON], m,
		  state, ns, &clean);
	if (r != want) {
		gb_error(s, "operation gave %d during the run, not %d", r,
			 want);
		return -1;
	}
	if (add_chunk(run, state, clean, *ns / (double)m)) {
		gb_error(s, "out of memory");
		return -1;
	}
	return 0;
}

/*
 * With --interleave-settle every chunk has k operations: a batch's
 * remainder runs as a whole chunk and the next batch is that much
 * shorter.  A chunk's cost per op carries its round trip to the worker
 * and the first operation after the settling sleep (~9,400 insn for a
 * FUSE stat) over its ops: where a settled batch holds a few chunks, its
 * short remainder chunks (1 op of 3) sat ~6,300 insn per op above the
 * whole ones, and each state's median fell on either level by the draw.
 */
static int64_t settled_chunk(struct nsb_ilv_run *run, int64_t n)
{
	return ilv.settle_us ? run->k : n < run->k ? n : run->k;
}

int nsb_interleave_batch(struct nsb_ilv_run *run, int64_t n)
{
	double total = 0, ns;
	int64_t m = run->ahead < n ? run->ahead : n;

	run->ahead -= m;
	n -= m;
	while (n > 0 && !gb_was_interrupted()) {
		m = settled_chunk(run, n);
		if (next_chunk(run, m, &ns)) {
			run->failed = true;
			break;
		}
		total += ns;
		if (m > n)
			run->ahead = m - n;
		n -= m;
	}
	gb_set_iteration_time(run->s, total * 1e-9);
	return run->failed ? -1 : 0;
}

static size_t ticked_chunks(const struct nsb_ilv_run *run)
{
	size_t i, n = 0;

	for (i = 0; i < run->n; i++)
		n += !run->c[i].clean;
	return n;
}

static void counter(struct gb_state *s, const char *name, double per_op)
{
	/* in the benchmarks' time unit (us), like real_time */
	gb_counter(s, name, per_op * 1e-3, GB_COUNTER_DEFAULT);
}

/*
 * Shows the cache-model plugin, chunk by chunk in order, which chunks
 * the central means kept, so its counts per state are over the same
 * chunks as nsb_on, nsb_off1 and nsb_off2: each chunk's state's median
 * of its side of the level step (step: the first chunk after it, or 0).
 */
static void replay_kept(const struct nsb_ilv_run *run, size_t step,
			const double med[2][NSB_ILV_COUNT])
{
	size_t i;

	for (i = 0; i < run->n; i++) {
		const struct nsb_pchunk *c = &run->c[i];
		const double *m = med[step && i >= step];

		if (step && i == step)
			NSB_MARK(NSB_MARK_STEP);
		if (c->clean && nsb_in_window(c->per_op, m[c->state],
					      ilv.window))
			NSB_MARK(NSB_MARK_KEEP);
		else
			NSB_MARK(NSB_MARK_DROP);
	}
	NSB_MARK(NSB_MARK_RUN_END);
}

/*
 * The counters the check-cost engine reads, per state the central mean
 * per op: nsb_on, nsb_off1, nsb_off2; and each state's median.  Returns
 * whether it wrote them (a sizing run writes none).
 */
static bool report(struct nsb_ilv_run *run)
{
	static const char *const names[NSB_ILV_COUNT] = {
		[NSB_ILV_ON] = "on", [NSB_ILV_OFF1] = "off1",
		[NSB_ILV_OFF2] = "off2",
	};
	double med[2][NSB_ILV_COUNT], cm[NSB_ILV_COUNT], whole[NSB_ILV_COUNT];
	struct nsb_level l;
	size_t step;
	char key[32];
	int st;

	for (st = 0; st < NSB_ILV_COUNT; st++) {
		/* A short run (libbenchmark sizing it): no counters. */
		if (!nsb_level(run->c, 0, run->n, NSB_STATES(st), ilv.window,
			       &l))
			return false;
		whole[st] = l.median;
	}
	/*
	 * Each state's central mean: of its chunks within the window
	 * (--interleave-window) of its median, the central level averaged
	 * over the levels next to it, without the tail that refills make.
	 * 8 per op (instructions under icount, the default) keeps exec's
	 * neighbouring levels (3-7 apart) and drops what lands 10 or more
	 * away.  Where an op's cost cycles over levels spread wider than the
	 * window, each state's median lands on one of them by the draw and
	 * the window keeps a different share of the rest: a FUSE lookup's
	 * chunks sit on four levels 5 insn per op apart (the server's reads
	 * of FORGETs in fuse_dev_do_read, batched or single), and at 8
	 * init-owned controls read -3.5 or +3.4 by the round, at 20 within
	 * 0.4 (checks.plan).  Taken on either side of a level step where
	 * the run has one (levels.c).
	 */
	step = ilv.paired ? 0 : nsb_level_step(run->c, run->n, ilv.window);
	nsb_central_values(run->c, run->n, ilv.window, step, cm, med);
	if (ilv.paired) {
		paired_values(run, cm);
		gb_counter(run->s, "nsb_paired_window", ilv.paired,
			   GB_COUNTER_DEFAULT);
	}
	for (st = 0; st < NSB_ILV_COUNT; st++) {
		snprintf(key, sizeof(key), "nsb_%s", names[st]);
		counter(run->s, key, cm[st]);
		snprintf(key, sizeof(key), "nsb_%s_median", names[st]);
		counter(run->s, key, whole[st]);
	}
	replay_kept(run, step, med);
	gb_counter(run->s, "nsb_run_id", run->id, GB_COUNTER_DEFAULT);
	gb_counter(run->s, "nsb_chunk_ops", (double)run->k, GB_COUNTER_DEFAULT);
	gb_counter(run->s, "nsb_chunks", (double)run->n, GB_COUNTER_DEFAULT);
	gb_counter(run->s, "nsb_ticked_chunks", (double)ticked_chunks(run),
		   GB_COUNTER_DEFAULT);
	/* the first chunk after a level step, where there was one */
	if (step)
		gb_counter(run->s, "nsb_level_step", (double)step,
			   GB_COUNTER_DEFAULT);
	if (run->per_state) {
		/* what each state's fixture gave: the report's proof */
		gb_counter(run->s, "nsb_result_off", run->wants[0],
			   GB_COUNTER_DEFAULT);
		gb_counter(run->s, "nsb_result_on", run->wants[1],
			   GB_COUNTER_DEFAULT);
	}
	/* refused in one state, done in the other: another operation */
	if (run->wants[0] != run->wants[1] &&
	    (run->wants[0] < 0 || run->wants[1] < 0 || !run->per_state))
		gb_counter(run->s, "nsb_decides", 1, GB_COUNTER_DEFAULT);
	return true;
}

void nsb_interleave_end(struct nsb_ilv_run *run)
{
	if (!run)
		return;
	if (run->failed || gb_was_interrupted() || !report(run))
		NSB_MARK(NSB_MARK_RUN_ABORT);
	free(run->c);
	free(run);
	/* the next benchmark's fixture checks the kernel as it was found */
	nsb_interleave_restore();
}
