/* SPDX-License-Identifier: GPL-2.0 */
/*
 * marker.h — the events nsbench-bench shows the cache-model plugin
 * (guest/plugin/nsb-cachesim.c) without changing what it measures.
 *
 * QEMU 7.2's plugin API cannot read guest registers or memory, but it
 * sees every instruction's bytes when it translates them.  A marker is a
 * 7-byte NOP, `nopl disp32(%rax)` (0f 1f 80 + disp32), whose displacement
 * is NSB_MARK_MAGIC | event: one instruction, no memory access, no flag
 * or register written.  The same binary runs with or without the plugin,
 * so the instruction counts of either boot are the same.
 *
 * The protocol of one interleaved run (bench/sys/interleave.c):
 *   RUN_BEGIN, then 32 ID_BIT0/ID_BIT1, most significant bit first: the
 *     run's id, which nsbench-bench also writes as the counter nsb_run_id;
 *   per chunk: START_ON|START_OFF1|START_OFF2 (the next rdtsc opens the
 *     chunk: the clock read that starts its timing), then OP as each
 *     operation starts (workloads/ops.c), then END (the next rdtsc
 *     closes the chunk);
 *   at the end, per chunk in order KEEP or DROP: the chunks the
 *     engine's central mean kept, with STEP before the first chunk after
 *     a level step (bench/sys/levels.c: each state's mean is taken on
 *     either side and weighted by the sides' chunks), then RUN_END; or
 *     RUN_ABORT (a sizing run of libbenchmark's, whose counters are
 *     dropped).
 */
#ifndef NSB_GUEST_PLUGIN_MARKER_H
#define NSB_GUEST_PLUGIN_MARKER_H

/* "NSB" in the displacement's top three bytes; the event in the low one. */
#define NSB_MARK_MAGIC		0x4e534200u
#define NSB_MARK_MAGIC_MASK	0xffffff00u

enum nsb_mark_event {
	NSB_MARK_RUN_BEGIN = 0x01,
	NSB_MARK_ID_BIT0 = 0x02,
	NSB_MARK_ID_BIT1 = 0x03,
	NSB_MARK_START_ON = 0x10,	/* + enum nsb_ilv_state */
	NSB_MARK_START_OFF1 = 0x11,
	NSB_MARK_START_OFF2 = 0x12,
	NSB_MARK_END = 0x18,
	NSB_MARK_OP = 0x20,
	NSB_MARK_KEEP = 0x30,
	NSB_MARK_DROP = 0x31,
	NSB_MARK_STEP = 0x32,
	NSB_MARK_RUN_END = 0x3e,
	NSB_MARK_RUN_ABORT = 0x3f,
};

#define NSB_MARK_STR_(x) #x
#define NSB_MARK_STR(x) NSB_MARK_STR_(x)

/*
 * The marker of event EV, a compile-time constant.  "memory": the
 * compiler keeps it in program order with the work it delimits.
 */
#if defined(__x86_64__)
#define NSB_MARK(ev)							\
	__asm__ volatile(".byte 0x0f, 0x1f, 0x80\n\t.long %c0"		\
			 : : "i"(NSB_MARK_MAGIC | (ev)) : "memory")
#else
#define NSB_MARK(ev) do { } while (0)
#endif

/*
 * The chunk start of state 0 (on), 1 (off1) or 2 (off2): a marker is an
 * immediate, so each state has its own site.
 */
static inline void nsb_mark_start(int state)
{
	if (state == 0)
		NSB_MARK(NSB_MARK_START_ON);
	else if (state == 1)
		NSB_MARK(NSB_MARK_START_OFF1);
	else
		NSB_MARK(NSB_MARK_START_OFF2);
}

/* The run's id as 32 markers, most significant bit first. */
static inline void nsb_mark_id(unsigned int id)
{
	int i;

	for (i = 31; i >= 0; i--) {
		if (id >> i & 1)
			NSB_MARK(NSB_MARK_ID_BIT1);
		else
			NSB_MARK(NSB_MARK_ID_BIT0);
	}
}

#endif /* NSB_GUEST_PLUGIN_MARKER_H */
