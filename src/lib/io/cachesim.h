/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cachesim.h — the cache-model plugin's records (guest/plugin/
 * nsb-cachesim.c, one file per boot) into the results files of that
 * boot: per benchmark entry, matched by its run id (nsb_run_id), per
 * state of the switch and per count the plugin keeps, a counter
 * nsb_<state>_cs_<count> per operation in the entry's time unit (as
 * nsb_on), plus the estimated cycles warm and cold.  The context gets
 * nsbench_cachesim (the model, its geometry and formula) and
 * nsbench_cachesim_complete: "yes" when every interleaved entry got
 * every count, else why not, so that a reader never pools a row of
 * which some rounds lack the model.  Where the plugin attributed per
 * kernel function, each entry also gets nsb_cs_funcs: { function:
 * [insn on, insn off, loads on, off, L1d misses on, off, cold on, cold
 * off] } per op, plain counts (not in the time unit).
 */
#ifndef NSB_CACHESIM_H
#define NSB_CACHESIM_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

/* The counts of a record, in the plugin's column order. */
enum nsb_cs_count {
	NSB_CS_INSN, NSB_CS_KINSN, NSB_CS_LOADS, NSB_CS_STORES,
	NSB_CS_I1, NSB_CS_D1, NSB_CS_LL,
	NSB_CS_I1_COLD, NSB_CS_D1_COLD, NSB_CS_LL_COLD,
	NSB_CS_NCOUNT
};

/* The derived ones the results also get: Cachegrind's cycle estimate. */
#define NSB_CS_CYCLES		"cycles"
#define NSB_CS_CYCLES_COLD	"cycles_cold"

extern const char *const nsb_cs_count_names[NSB_CS_NCOUNT];

struct nsb_cs_record {
	uint32_t run;
	int state;		/* 0 on, 1 off1, 2 off2 */
	double v[NSB_CS_NCOUNT];	/* per operation */
};

/*
 * A "#fn" line: per op, on and off (both off states pooled, every chunk
 * of the run), a kernel function's instructions, loads, D1 misses warm
 * and cold, where one of them moves by half a unit or more.
 */
#define NSB_CS_FN_NVAL	8
struct nsb_cs_func {
	uint32_t run;
	char *name;
	double v[NSB_CS_FN_NVAL];	/* insn on, off, loads on, off, ... */
};

struct nsb_cachesim {
	char *model;		/* the file's "# nsb-cachesim ..." line */
	struct nsb_cs_record *r;
	size_t n;
	struct nsb_cs_func *fn;	/* by run, in the file's order */
	size_t nfn;
};

/* Reads a plugin file; on bad input prints "file:line: why", -1. */
int nsb_cachesim_load(struct nsb_cachesim *cs, const char *path);
void nsb_cachesim_free(struct nsb_cachesim *cs);
/*
 * Adds the counters to the entries of root (a results file, path names
 * it in errors) and the context keys; -1 after saying why.
 */
int nsb_cachesim_apply(const struct nsb_cachesim *cs, json_t *root,
		       const char *path);
/*
 * Estimated cycles from per-op counts: instructions, plus 10 per L1
 * miss (I1 and D1), plus 100 per LL miss (Cachegrind's estimate).
 */
double nsb_cs_cycles(const double v[NSB_CS_NCOUNT], int cold);

#endif /* NSB_CACHESIM_H */
