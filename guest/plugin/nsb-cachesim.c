// SPDX-License-Identifier: GPL-2.0
/*
 * nsb-cachesim.c — the cache-model plugin the icount boots load
 * (`-plugin nsb-cachesim.so,out=FILE`): per interleaved run of
 * nsbench-bench and per state of its switch, what an operation costs in
 * instructions (kernel and user apart), loads, stores and misses of a
 * simulated I1, D1 and last-level cache, warm and cold.
 *
 * Counting: every instruction adds 1 to a kernel or a user counter
 * (inline, chosen when the block is translated: the address says which);
 * within an interleaved run (libbenchmark's sizing runs included, which
 * warm the model as they warm the kernel) every load and store goes
 * through the warm hierarchy (cachemodel.c) on its guest physical
 * address, and so does every instruction fetch (once per cache line a
 * block's instructions enter: a fetch from the line just fetched always
 * hits).  Between runs (the boot, the fixtures' set-up) the callbacks
 * return at once: the model's cost is the measured loops'.  Inside a chunk a second, cold
 * hierarchy sees the same accesses, emptied as each operation starts:
 * what the operation pays when nothing it reads is cached.
 *
 * The chunk boundaries are nsbench-bench's markers (marker.h): a START
 * marker arms the next rdtsc/rdtscp, the clock read that starts the
 * chunk's timing, and END the one that ends it, so a chunk here spans
 * the instructions the icount clock spans.  Per run the plugin keeps
 * every chunk's counts and, once the run replays which chunks its
 * central mean kept (and where its level stepped), writes per state the
 * mean over those chunks of each count per operation: the same chunks,
 * the same mean as the instruction counters nsb_on, nsb_off1, nsb_off2.
 *
 * Output (FILE, tab-separated): '#' lines say the model and the API;
 * then one line per run and state, columns as the header line names
 * them.  src/lib/io/cachesim.c reads it into the results files.  With
 * chunks=1 (a diagnosis, not for make run: some 100 MB a boot) every
 * chunk's instructions per function follow as '#chunk' and '#cfn'
 * lines, each run's kept chunks as a '#keep' line and its level step,
 * where it had one, as a '#step' line; the reader skips them.  With
 * caller=F:G:... as well, the instructions of F (and of G..., the ways
 * into it, such as memcpy's jump to memcpy_orig) follow per chunk as
 * '#caller RUN INDEX NAME INSN' lines, charged to the function NAME
 * whose block ran last before them: which caller's memcpy moved.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

#include "guest/plugin/cachemodel.h"
#include "guest/plugin/funcs.h"
#include "guest/plugin/marker.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

/* Every count the plugin keeps, cumulative since the boot began. */
enum count {
	C_INSN, C_KINSN, C_LOADS, C_STORES,
	C_I1, C_D1, C_LL, C_I1_COLD, C_D1_COLD, C_LL_COLD,
	C_COUNT
};

static const char *const count_names[C_COUNT] = {
	"insn", "kinsn", "loads", "stores", "i1_miss", "d1_miss", "ll_miss",
	"i1_miss_cold", "d1_miss_cold", "ll_miss_cold",
};

struct chunk {
	int state;		/* 0 on, 1 off1, 2 off2 */
	int keep;		/* -1 until the run's replay says */
	uint64_t ops;
	uint64_t d[C_COUNT];	/* counts within the chunk */
};

/*
 * Per kernel function (symbols=System.map) and state, over every chunk
 * of the run: the attribution of what moves between the states.
 */
struct fn_count {
	uint64_t insn, loads, d1, d1_cold;
};

/* A rdtsc the plugin waits for: none, the one opening or closing a chunk. */
enum arm { ARM_NONE, ARM_OPEN, ARM_CLOSE };

#define EV_TSC	0x100		/* an exec callback's event: rdtsc(p) */

static struct {
	FILE *out;
	struct nsb_hier warm, cold;
	uint64_t uinsn, kinsn, loads, stores;
	/* the run in progress */
	bool in_run, in_chunk;
	int id_bits;
	uint32_t id;
	enum arm arm;
	int next_state;
	uint64_t at_open[C_COUNT];
	struct chunk *c;
	size_t n, cap, replayed;
	size_t step;		/* the first chunk after a level step, or 0 */
	uint64_t runs, runs_dropped;
	/* attribution, with symbols= only */
	struct nsb_funcs fs;
	struct fn_count *fc[3];
	uint64_t state_ops[3];
	int state;		/* of the chunk open now */
	/* chunks=1: each chunk's instructions per function (#chunk lines) */
	bool per_chunk;
	uint64_t *chunk_fc;
	/* caller=: the listed functions (1 + index), and their callers' */
	bool *callee;
	size_t last_caller;
	uint64_t *chunk_caller;
} p;

static void counts_now(uint64_t v[C_COUNT])
{
	v[C_INSN] = p.uinsn + p.kinsn;
	v[C_KINSN] = p.kinsn;
	v[C_LOADS] = p.loads;
	v[C_STORES] = p.stores;
	v[C_I1] = p.warm.i1_miss;
	v[C_D1] = p.warm.d1_miss;
	v[C_LL] = p.warm.ll_miss;
	v[C_I1_COLD] = p.cold.i1_miss;
	v[C_D1_COLD] = p.cold.d1_miss;
	v[C_LL_COLD] = p.cold.ll_miss;
}

static void chunk_open(void)
{
	counts_now(p.at_open);
	nsb_hier_flush(&p.cold);
	p.in_chunk = true;
	if (p.n == p.cap) {
		size_t cap = p.cap ? 2 * p.cap : 256;
		struct chunk *c = realloc(p.c, cap * sizeof(*c));

		if (!c) {
			fprintf(stderr, "nsb-cachesim: out of memory\n");
			exit(1);
		}
		p.c = c;
		p.cap = cap;
	}
	p.c[p.n] = (struct chunk){ .state = p.next_state, .keep = -1 };
	p.state = p.next_state;
}

/* "TAG RUN INDEX NAME INSN" per function with a count; clears them. */
static void chunk_write_counts(const char *tag, uint64_t *counts)
{
	size_t i;

	for (i = 0; i <= p.fs.n; i++) {
		if (!counts[i])
			continue;
		fprintf(p.out, "%s\t%" PRIu32 "\t%zu\t%s\t%" PRIu64 "\n", tag,
			p.id, p.n - 1, i ? p.fs.f[i - 1].name : "[user]",
			counts[i]);
		counts[i] = 0;
	}
}

/*
 * chunks=1, a diagnosis: "#chunk RUN INDEX STATE OPS INSN", then
 * "#cfn RUN INDEX NAME INSN" for every function the chunk ran.  What
 * moves a whole chunk's level (a slab refill, a deferred callback, a
 * tick) shows as the functions only the chunks of that level run.
 * caller=: then "#caller RUN INDEX NAME INSN" for each function the
 * listed ones' blocks were charged to.
 */
static void chunk_write_funcs(const struct chunk *c)
{
	fprintf(p.out, "#chunk\t%" PRIu32 "\t%zu\t%d\t%" PRIu64 "\t%" PRIu64
		"\n", p.id, p.n - 1, c->state, c->ops, c->d[C_INSN]);
	chunk_write_counts("#cfn", p.chunk_fc);
	if (p.callee)
		chunk_write_counts("#caller", p.chunk_caller);
}

static void chunk_close(void)
{
	uint64_t now[C_COUNT];
	struct chunk *c = &p.c[p.n++];
	int i;

	counts_now(now);
	for (i = 0; i < C_COUNT; i++)
		c->d[i] = now[i] - p.at_open[i];
	p.state_ops[c->state] += c->ops;
	p.in_chunk = false;
	if (p.per_chunk)
		chunk_write_funcs(c);
}

/*
 * The attribution's counts start at zero with each run; cleared here
 * only, not at its end too (some 2 MB of counters for a kernel's
 * functions).
 */
static void attribution_reset(void)
{
	int st;

	for (st = 0; st < 3 && p.fs.n; st++)
		memset(p.fc[st], 0, (p.fs.n + 1) * sizeof(*p.fc[st]));
	memset(p.state_ops, 0, sizeof(p.state_ops));
}

static void run_reset(void)
{
	p.in_run = p.in_chunk = false;
	p.arm = ARM_NONE;
	p.n = p.replayed = p.step = 0;
	p.id = 0;
	p.id_bits = 0;
	/* a chunk an abort cut short leaves counts behind */
	if (p.per_chunk)
		memset(p.chunk_fc, 0, (p.fs.n + 1) * sizeof(*p.chunk_fc));
	if (p.callee)
		memset(p.chunk_caller, 0,
		       (p.fs.n + 1) * sizeof(*p.chunk_caller));
}

static double per_op(uint64_t v, uint64_t ops)
{
	return ops ? (double)v / (double)ops : 0;
}

/*
 * "#fn" lines: per kernel function whose instructions, loads or D1
 * misses (warm or cold) per op differ by half a unit or more between on
 * and off (both off states pooled), over every chunk of the run.
 */
static void run_write_funcs(void)
{
	uint64_t off_ops = p.state_ops[1] + p.state_ops[2];
	size_t i;

	for (i = 0; i <= p.fs.n; i++) {
		const struct fn_count *on = &p.fc[0][i], *o1 = &p.fc[1][i],
				      *o2 = &p.fc[2][i];
		double v[8] = {
			per_op(on->insn, p.state_ops[0]),
			per_op(o1->insn + o2->insn, off_ops),
			per_op(on->loads, p.state_ops[0]),
			per_op(o1->loads + o2->loads, off_ops),
			per_op(on->d1, p.state_ops[0]),
			per_op(o1->d1 + o2->d1, off_ops),
			per_op(on->d1_cold, p.state_ops[0]),
			per_op(o1->d1_cold + o2->d1_cold, off_ops),
		};
		int k, moved = 0;

		for (k = 0; k < 8; k += 2)
			moved |= v[k] - v[k + 1] >= 0.5 || v[k + 1] - v[k] >= 0.5;
		if (!moved)
			continue;
		fprintf(p.out, "#fn\t%" PRIu32 "\t%s", p.id,
			i ? p.fs.f[i - 1].name : "[user]");
		for (k = 0; k < 8; k++)
			fprintf(p.out, "\t%.3f", v[k]);
		fputc('\n', p.out);
	}
}

/* chunks=1: "#keep RUN FLAGS", a 1 per chunk the central mean kept. */
static void run_write_keeps(void)
{
	size_t j;

	fprintf(p.out, "#keep\t%" PRIu32 "\t", p.id);
	for (j = 0; j < p.n; j++)
		fputc(p.c[j].keep == 1 ? '1' : '0', p.out);
	fputc('\n', p.out);
}

/* chunks=1 and a level step: "#step RUN CHUNK". */
static void run_write_step(void)
{
	if (p.step)
		fprintf(p.out, "#step\t%" PRIu32 "\t%zu\n", p.id, p.step);
}

/*
 * The sum over state st's kept chunks in [from, to) of each count per
 * op into sum, their ops into *ops; how many.
 */
static size_t kept_sum(int st, size_t from, size_t to, double sum[C_COUNT],
		       uint64_t *ops)
{
	size_t j, k = 0;
	int i;

	for (j = from; j < to; j++) {
		const struct chunk *c = &p.c[j];

		if (c->state != st || c->keep != 1 || !c->ops)
			continue;
		for (i = 0; i < C_COUNT; i++)
			sum[i] += (double)c->d[i] / (double)c->ops;
		*ops += c->ops;
		k++;
	}
	return k;
}

/*
 * Per state, the mean over the kept chunks of each count per op; after a
 * level step, the mean on either side weighted by the sides' chunks, as
 * the engine takes it.
 */
static void run_write(void)
{
	static const char *const states[3] = { "on", "off1", "off2" };
	int st, i;

	if (p.replayed != p.n) {
		fprintf(p.out, "# run %" PRIu32 ": %zu chunks, %zu replayed: "
			"dropped\n", p.id, p.n, p.replayed);
		p.runs_dropped++;
		return;
	}
	for (st = 0; st < 3; st++) {
		double before[C_COUNT] = { 0 }, after[C_COUNT] = { 0 }, w;
		uint64_t ops = 0;
		size_t kb, ka;

		kb = kept_sum(st, 0, p.step ? p.step : p.n, before, &ops);
		ka = p.step ? kept_sum(st, p.step, p.n, after, &ops) : 0;
		if (!kb && !ka)
			continue;
		/* the share of the run's chunks before the step */
		w = ka && kb ? (double)p.step / (double)p.n : ka ? 0 : 1;
		fprintf(p.out, "%" PRIu32 "\t%s\t%zu\t%" PRIu64, p.id,
			states[st], kb + ka, ops);
		for (i = 0; i < C_COUNT; i++)
			fprintf(p.out, "\t%.6f",
				(kb ? w * before[i] / (double)kb : 0) +
				(ka ? (1 - w) * after[i] / (double)ka : 0));
		fputc('\n', p.out);
	}
	if (p.fs.n)
		run_write_funcs();
	if (p.per_chunk) {
		run_write_keeps();
		run_write_step();
	}
	p.runs++;
	fflush(p.out);
}

static void on_event(int ev)
{
	switch (ev) {
	case NSB_MARK_RUN_BEGIN:
		run_reset();
		attribution_reset();
		p.in_run = true;
		p.id_bits = 32;
		break;
	case NSB_MARK_ID_BIT0:
	case NSB_MARK_ID_BIT1:
		if (p.in_run && p.id_bits > 0) {
			p.id = p.id << 1 | (ev == NSB_MARK_ID_BIT1);
			p.id_bits--;
		}
		break;
	case NSB_MARK_START_ON:
	case NSB_MARK_START_OFF1:
	case NSB_MARK_START_OFF2:
		if (p.in_run && !p.in_chunk) {
			p.next_state = ev - NSB_MARK_START_ON;
			p.arm = ARM_OPEN;
		}
		break;
	case NSB_MARK_END:
		if (p.in_chunk)
			p.arm = ARM_CLOSE;
		break;
	case EV_TSC:
		if (p.arm == ARM_OPEN)
			chunk_open();
		else if (p.arm == ARM_CLOSE)
			chunk_close();
		p.arm = ARM_NONE;
		break;
	case NSB_MARK_OP:
		if (!p.in_chunk)
			break;
		p.c[p.n].ops++;
		nsb_hier_flush(&p.cold);
		break;
	case NSB_MARK_STEP:
		if (p.in_run && p.replayed < p.n)
			p.step = p.replayed;
		break;
	case NSB_MARK_KEEP:
	case NSB_MARK_DROP:
		if (p.in_run && p.replayed < p.n)
			p.c[p.replayed++].keep = ev == NSB_MARK_KEEP;
		break;
	case NSB_MARK_RUN_END:
		if (p.in_run && !p.id_bits)
			run_write();
		run_reset();
		break;
	case NSB_MARK_RUN_ABORT:
		run_reset();
		break;
	}
}

static void vcpu_event(unsigned int vcpu, void *udata)
{
	on_event((int)(uintptr_t)udata);
}

static void vcpu_mem(unsigned int vcpu, qemu_plugin_meminfo_t info,
		     uint64_t vaddr, void *udata)
{
	struct qemu_plugin_hwaddr *hw;
	struct fn_count *fc = NULL;
	unsigned int size;
	uint64_t pa, d1 = p.warm.d1_miss, d1_cold = p.cold.d1_miss;

	/* outside a run nothing is counted: the set-up, the boot */
	if (!p.in_run)
		return;
	if (p.fs.n && p.in_chunk)
		fc = &p.fc[p.state][(uintptr_t)udata];
	hw = qemu_plugin_get_hwaddr(info, vaddr);
	size = 1u << qemu_plugin_mem_size_shift(info);
	if (qemu_plugin_mem_is_store(info))
		p.stores++;
	else
		p.loads++;
	/* device registers are no memory a cache holds */
	if (!hw || qemu_plugin_hwaddr_is_io(hw))
		return;
	pa = qemu_plugin_hwaddr_phys_addr(hw);
	nsb_hier_data(&p.warm, pa, size);
	if (p.in_chunk)
		nsb_hier_data(&p.cold, pa, size);
	if (fc) {
		fc->loads += !qemu_plugin_mem_is_store(info);
		fc->d1 += p.warm.d1_miss - d1;
		fc->d1_cold += p.cold.d1_miss - d1_cold;
	}
}

/*
 * udata: the block's function (1 + index) << 16 | its instructions.
 * caller=: a block of a listed function is charged to the function of
 * the last block outside the list, in or out of a chunk.
 */
static void vcpu_tb_exec(unsigned int vcpu, void *udata)
{
	uintptr_t v = (uintptr_t)udata;
	size_t f = v >> 16;

	if (p.in_chunk) {
		p.fc[p.state][f].insn += v & 0xffff;
		if (p.per_chunk)
			p.chunk_fc[f] += v & 0xffff;
	}
	if (!p.callee)
		return;
	if (!p.callee[f])
		p.last_caller = f;
	else if (p.in_chunk)
		p.chunk_caller[p.last_caller] += v & 0xffff;
}

/*
 * udata: the fetch's host address (QEMU's RAM is one mapping aligned to
 * 2 MiB, so its low 21 bits are the guest physical address's) and its
 * size in the top byte.
 */
static void vcpu_fetch(unsigned int vcpu, void *udata)
{
	uint64_t v = (uintptr_t)udata;
	uint64_t addr = v & ((1ull << 56) - 1);
	unsigned int size = v >> 56;

	if (!p.in_run)
		return;
	nsb_hier_fetch(&p.warm, addr, size);
	if (p.in_chunk)
		nsb_hier_fetch(&p.cold, addr, size);
}

/* The marker's event, or 0: 0f 1f 80 and a displacement with the magic. */
static int marker_event(const uint8_t *b, size_t len)
{
	uint32_t disp;

	if (len != 7 || b[0] != 0x0f || b[1] != 0x1f || b[2] != 0x80)
		return 0;
	memcpy(&disp, b + 3, 4);
	if ((disp & NSB_MARK_MAGIC_MASK) != NSB_MARK_MAGIC)
		return 0;
	return disp & ~NSB_MARK_MAGIC_MASK;
}

static bool is_rdtsc(const uint8_t *b, size_t len)
{
	return (len == 2 && b[0] == 0x0f && b[1] == 0x31) ||
	       (len == 3 && b[0] == 0x0f && b[1] == 0x01 && b[2] == 0xf9);
}

static void instrument_insn(struct qemu_plugin_insn *insn, uint64_t *line,
			    size_t func)
{
	const uint8_t *b = qemu_plugin_insn_data(insn);
	size_t len = qemu_plugin_insn_size(insn);
	uint64_t va = qemu_plugin_insn_vaddr(insn);
	uint64_t ha = (uintptr_t)qemu_plugin_insn_haddr(insn);
	uint64_t addr = ha ? ha : va;
	uint64_t first = addr >> p.warm.i1.line_shift;
	uint64_t last = (addr + len - 1) >> p.warm.i1.line_shift;
	int ev;

	qemu_plugin_register_vcpu_insn_exec_inline(insn,
		QEMU_PLUGIN_INLINE_ADD_U64,
		va >= NSB_KERNEL_BASE ? &p.kinsn : &p.uinsn, 1);
	if (first != *line || last != first)
		qemu_plugin_register_vcpu_insn_exec_cb(insn, vcpu_fetch,
			QEMU_PLUGIN_CB_NO_REGS,
			(void *)(uintptr_t)((addr & ((1ull << 56) - 1)) |
					    (uint64_t)len << 56));
	*line = last;
	qemu_plugin_register_vcpu_mem_cb(insn, vcpu_mem,
					 QEMU_PLUGIN_CB_NO_REGS,
					 QEMU_PLUGIN_MEM_RW, (void *)(uintptr_t)func);
	ev = marker_event(b, len);
	if (!ev && is_rdtsc(b, len))
		ev = EV_TSC;
	if (ev)
		qemu_plugin_register_vcpu_insn_exec_cb(insn, vcpu_event,
			QEMU_PLUGIN_CB_NO_REGS, (void *)(uintptr_t)ev);
}

/*
 * A block's instructions count to the function of its first (a block
 * ends at a call or return; one that QEMU leaves early is counted
 * whole: the attribution is a guide, the records are exact).
 */
static void vcpu_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb), func = 0;
	uint64_t line = UINT64_MAX;

	if (p.fs.n) {
		func = nsb_funcs_find(&p.fs, qemu_plugin_tb_vaddr(tb));
		if (n < 0x10000)
			qemu_plugin_register_vcpu_tb_exec_cb(tb, vcpu_tb_exec,
				QEMU_PLUGIN_CB_NO_REGS,
				(void *)(uintptr_t)(func << 16 | n));
	}
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);

		instrument_insn(insn, &line, p.fs.n ?
				nsb_funcs_find(&p.fs,
					       qemu_plugin_insn_vaddr(insn)) : 0);
	}
}

static void plugin_exit(qemu_plugin_id_t id, void *udata)
{
	int st;

	fprintf(p.out, "# end: %" PRIu64 " instructions (%" PRIu64
		" kernel), %" PRIu64 " loads, %" PRIu64 " stores, warm misses "
		"i1 %" PRIu64 " d1 %" PRIu64 " ll %" PRIu64 "; %" PRIu64
		" runs written, %" PRIu64 " dropped\n",
		p.uinsn + p.kinsn, p.kinsn, p.loads, p.stores,
		p.warm.i1_miss, p.warm.d1_miss, p.warm.ll_miss, p.runs,
		p.runs_dropped);
	fclose(p.out);
	nsb_hier_free(&p.warm);
	nsb_hier_free(&p.cold);
	for (st = 0; st < 3; st++)
		free(p.fc[st]);
	free(p.chunk_fc);
	free(p.callee);
	free(p.chunk_caller);
	nsb_funcs_free(&p.fs);
	free(p.c);
}

/* One line on stderr, which QEMU shows when the plugin fails to load. */
static int __attribute__((format(printf, 1, 2))) fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "nsb-cachesim: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

struct args {
	const char *out;
	const char *symbols;	/* System.map: attribute per function */
	bool per_chunk;		/* chunks=1 */
	const char *callers;	/* caller=F:G:... */
	struct nsb_cache_geom g[3];	/* i1, d1, ll */
	int api;
};

static int parse_args(int argc, char **argv, struct args *a)
{
	static const char *const geom_keys[3] = { "i1=", "d1=", "ll=" };
	const char *why;
	int i, k;

	for (i = 0; i < argc; i++) {
		const char *s = argv[i];

		if (!strncmp(s, "out=", 4) && s[4]) {
			a->out = s + 4;
			continue;
		}
		if (!strncmp(s, "symbols=", 8) && s[8]) {
			a->symbols = s + 8;
			continue;
		}
		if (!strcmp(s, "chunks=1")) {
			a->per_chunk = true;
			continue;
		}
		if (!strncmp(s, "caller=", 7) && s[7]) {
			a->callers = s + 7;
			continue;
		}
		if (!strncmp(s, "api=", 4)) {
			a->api = atoi(s + 4);
			continue;
		}
		for (k = 0; k < 3; k++)
			if (!strncmp(s, geom_keys[k], 3))
				break;
		if (k == 3)
			return fail("unknown argument '%s' (out=FILE, i1=, d1=, "
				    "ll=SIZE:ASSOC:LINE, chunks=1, "
				    "caller=F:G:...)", s);
		if (nsb_cache_geom_parse(s + 3, &a->g[k], &why))
			return fail("%s: %s", s, why);
	}
	if (!a->out)
		return fail("out=FILE is required");
	return 0;
}

/*
 * caller=F:G:...: marks every function of each name in p.callee (static
 * functions may share one); -1 after fail.
 */
static int mark_callees(const char *list)
{
	const char *s = list, *end;
	size_t i, len, found;

	p.callee = calloc(p.fs.n + 1, sizeof(*p.callee));
	p.chunk_caller = calloc(p.fs.n + 1, sizeof(*p.chunk_caller));
	if (!p.callee || !p.chunk_caller)
		return fail("out of memory");
	for (; *s; s = *end ? end + 1 : end) {
		end = strchr(s, ':');
		if (!end)
			end = s + strlen(s);
		len = (size_t)(end - s);
		for (i = 0, found = 0; len && i < p.fs.n; i++) {
			if (strncmp(p.fs.f[i].name, s, len) ||
			    p.fs.f[i].name[len])
				continue;
			p.callee[i + 1] = true;
			found++;
		}
		if (!found)
			return fail("caller=%s: no function '%.*s' in the "
				    "System.map", list, (int)len, s);
	}
	return 0;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	static const struct nsb_cache_geom def[3] = {
		NSB_CACHE_DEFAULT_I1, NSB_CACHE_DEFAULT_D1,
		NSB_CACHE_DEFAULT_LL,
	};
	struct args a = { .api = QEMU_PLUGIN_VERSION };
	const char *why;
	int i;

	memcpy(a.g, def, sizeof(def));
	if (parse_args(argc, argv, &a))
		return -1;
	/* built against one API version: this QEMU must offer it */
	if (a.api < info->version.min || a.api > info->version.cur)
		return fail("built for QEMU plugin API %d, this QEMU offers "
			    "%d..%d: rebuild it against this QEMU's "
			    "qemu-plugin.h (make)", a.api, info->version.min,
			    info->version.cur);
	if (!info->system_emulation || strcmp(info->target_name, "x86_64"))
		return fail("needs full-system x86_64 emulation, not %s",
			    info->target_name);
	if (info->system.smp_vcpus != 1)
		return fail("needs one vCPU (-smp 1): the counts are one "
			    "core's");
	if (nsb_hier_init(&p.warm, &a.g[0], &a.g[1], &a.g[2], &why) ||
	    nsb_hier_init(&p.cold, &a.g[0], &a.g[1], &a.g[2], &why))
		return fail("cache geometry: %s", why);
	if (a.symbols) {
		if (nsb_funcs_load(&p.fs, a.symbols, &why))
			return fail("%s: %s", a.symbols, why);
		for (i = 0; i < 3; i++) {
			p.fc[i] = calloc(p.fs.n + 1, sizeof(*p.fc[i]));
			if (!p.fc[i])
				return fail("out of memory");
		}
		p.per_chunk = a.per_chunk;
		p.chunk_fc = calloc(p.fs.n + 1, sizeof(*p.chunk_fc));
		if (!p.chunk_fc)
			return fail("out of memory");
	} else if (a.per_chunk) {
		return fail("chunks=1 needs the kernel's System.map (symbols=)");
	}
	if (a.callers && !a.per_chunk)
		return fail("caller= needs chunks=1");
	if (a.callers && mark_callees(a.callers))
		return -1;
	p.out = fopen(a.out, "w");
	if (!p.out)
		return fail("cannot write %s: %m", a.out);
	fprintf(p.out, "# nsb-cachesim api %d model %s i1 %u:%u:%u d1 %u:%u:%u "
		"ll %u:%u:%u lru physical cycles insn+%d*(i1_miss+d1_miss)+"
		"%d*ll_miss\n", a.api,
		memcmp(a.g, def, sizeof(def)) ? "custom" : "skylake-i7-6700",
		a.g[0].size, a.g[0].assoc, a.g[0].line,
		a.g[1].size, a.g[1].assoc, a.g[1].line,
		a.g[2].size, a.g[2].assoc, a.g[2].line,
		NSB_CYCLES_L1_MISS, NSB_CYCLES_LL_MISS);
	fprintf(p.out, "run\tstate\tchunks\tops");
	for (i = 0; i < C_COUNT; i++)
		fprintf(p.out, "\t%s", count_names[i]);
	fputc('\n', p.out);
	fflush(p.out);
	qemu_plugin_register_vcpu_tb_trans_cb(id, vcpu_tb_trans);
	qemu_plugin_register_atexit_cb(id, plugin_exit, NULL);
	return 0;
}
