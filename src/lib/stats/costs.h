/* SPDX-License-Identifier: GPL-2.0 */
/*
 * costs.h — what each userns mount check costs: the in-boot A/B of the
 * userns-checks-toggles kernel (guest/init.sh, `cost` steps).
 *
 * Every results file of such a run (nsbench-bench --interleave=SWITCH)
 * names its switch (nsbench_check) and whether the kernel had it
 * (nsbench_check_applied yes|no); each benchmark entry carries the median
 * cost per operation with the switch on (nsb_on) and in the first and
 * second off chunk of each quad (nsb_off1, nsb_off2), all from one run.
 * Per switch and benchmark the engine forms on against off (the cost)
 * and off2 against off1 (the A/A residual) per round and pools the rounds
 * with the comparison engine (nsb_effect: median of the per-round
 * differences, sign-test CI, Wilcoxon p).  Files of a kernel without the
 * switches (stock) running the same plan give the provenance line: what
 * the toggles' own branches cost.
 */
#ifndef NSB_COSTS_H
#define NSB_COSTS_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "src/lib/stats/compare.h"
#include "src/lib/render/table.h"

/* A row of kernel-patches/checks.def: a switch of the toggles series. */
struct nsb_check {
	const char *sw;		/* kernel.userns_checks.<sw> */
	const char *seed;	/* "005" */
	const char *what;	/* the check, a few words */
	const char *path;	/* the hot path it sits on */
	bool form;		/* a 2015 form against today's (2nd table) */
	bool on;		/* the switch's default */
	const char *lsm;	/* "none", "selinux", "smack" */
	const char *funcs;	/* its hot path's functions, blank-separated */
};

/*
 * The cache model's quantities a row shows, per op, from the plugin's
 * counters (src/lib/io/cachesim.h): nsb_cost_cs[] names each one's
 * counters, header and unit.
 */
enum nsb_cost_cs {
	NSB_COST_CS_INSN,	/* the plugin's own instruction count */
	NSB_COST_CS_LOADS,
	NSB_COST_CS_D1, NSB_COST_CS_LL, NSB_COST_CS_CYCLES,
	NSB_COST_CS_D1_COLD, NSB_COST_CS_LL_COLD, NSB_COST_CS_CYCLES_COLD,
	NSB_COST_CS_I1, NSB_COST_CS_I1_COLD,	/* costs.json only */
	NSB_COST_NCS
};

struct nsb_cost_cs_metric {
	const char *key;	/* costs.json: rows[].cache.<key> */
	const char *on, *off1, *off2;	/* the results' counters */
	const char *head;	/* the tables' header */
	const char *unit;	/* what one of it is */
};

extern const struct nsb_cost_cs_metric nsb_cost_cs[NSB_COST_NCS];

struct nsb_cost_row {
	const char *name;	/* benchmark name */
	struct nsb_effect cost;	/* on against off, same boot */
	struct nsb_effect aa;	/* second off block against the first */
	struct nsb_effect toggles;	/* toggles (on) against stock */
	bool has_aa, has_stock, unreliable;
	bool decides;		/* the check refuses or allows the op: its
				 * shift is behaviour, not a cost */
	/*
	 * A fixture per state (a check read at mount time): what each
	 * state's mount gave before the clock, and whether they differ
	 * (labelled apart: the row's two states run different code).
	 */
	bool has_states, states_differ;
	/*
	 * A control: mounts made in each state behaved alike, so the check
	 * cannot act in the timed op.  Its verdict is slower or faster only
	 * beyond its noise (nsb_control_verdict); within_noise: it was
	 * one of those within.
	 */
	bool control, within_noise;
	double noise;
	/*
	 * Two mounts are two instances: the init-owned control of the same
	 * operation (the row with the same name at depth 0, whose mounts
	 * behave alike) shows what the second mount differs by without the
	 * check.  net = shift - the control's shift, its CI the difference
	 * of the two CIs' far ends (conservative).
	 */
	bool has_net;
	struct nsb_interval net;
	/* the cache model's shifts, where every round of the row had it */
	bool has_cs;
	struct nsb_effect cs[NSB_COST_NCS];
	/* the functions that move most, medians over rounds, or NULL */
	json_t *cs_funcs;
};

/*
 * The LSMs a boot can have active (context nsbench_lsm), a check's
 * families one per LSM: "none", the baseline, then each LSM a row of
 * kernel-patches/checks.def lives in, in row order.  Puts at most max
 * into lsm; returns how many there are.
 */
#define NSB_COST_LSM_MAX 8
size_t nsb_cost_lsms(const char **lsm, size_t max);
/* An LSM's name as the tables and plots print it: "SELinux", "Smack". */
const char *nsb_cost_lsm_title(const char *lsm);

/* One check under one LSM: its rows pool over the boots of that LSM. */
struct nsb_cost_family {
	const struct nsb_check *chk;
	const char *lsm;	/* "none", "selinux", "smack" */
	struct nsb_side on, off, off1, off2, stock;
	struct nsb_side cs_on[NSB_COST_NCS], cs_off[NSB_COST_NCS];
	/* per row, function, round: [d insn, d loads, d L1d, d L1d cold] */
	json_t *cs_funcs;
	struct nsb_cost_row *rows;
	size_t n;
	double aa_max;		/* largest |A/A residual| of its rows */
	json_t *decides;	/* names of rows whose op the check decides */
	json_t *states;		/* name: [off result, on result] */
};

struct nsb_costs {
	struct nsb_cmp_opts o;
	struct nsb_cost_family *fam;	/* per known switch and LSM */
	size_t nfam;
	const char *lsm[NSB_COST_LSM_MAX];	/* nsb_cost_lsms() */
	size_t nlsm;			/* fam[i] is under lsm[i % nlsm] */
	size_t nfiles, nstock;
	const char *unit, *unit_file;
	bool icount;
	double aa_limit;	/* a residual beyond it: unreliable */
	json_t *ctx;		/* first toggles file's context */
	json_t *stock_ctx;	/* first stock file's context, or NULL */
	/* the cache model: its description, files with and without it */
	char *cs_model;
	size_t cs_files, cs_partial;
};

/* The switches the engine knows, NULL-terminated by sw. */
extern const struct nsb_check nsb_checks[];

/*
 * Expands arguments (files, or directories: their *.json, sorted) into
 * a malloc'd NULL-terminated list; NULL after printing why.
 */
char **nsb_costs_expand(char **args, int n);

void nsb_costs_init(struct nsb_costs *c);
/* Adds one results file; on bad input prints "file: why", returns -1. */
int nsb_costs_load(struct nsb_costs *c, const char *path);
/* Forms every row; -1 after printing why (e.g. nothing to compare). */
int nsb_costs_compute(struct nsb_costs *c);
void nsb_costs_free(struct nsb_costs *c);

/* The two tables, the residuals and the provenance line (72 columns). */
void nsb_costs_print(FILE *f, const struct nsb_costs *c, bool markdown);
json_t *nsb_costs_json(const struct nsb_costs *c);

/* "005 current_in_userns in mnt_may_suid (exec), under SELinux" */
void nsb_cost_family_title(char *buf, size_t len,
			   const struct nsb_cost_family *fam);

/* --- costcache.c: the cache model's share of the above ---------------- */

void nsb_costs_cs_init(struct nsb_cost_family *f);
void nsb_costs_cs_free(struct nsb_cost_family *f);
/* A toggles file's cache-model counters, if it has them all; -1: bad. */
int nsb_costs_cs_load(struct nsb_costs *c, struct nsb_cost_family *f,
		      json_t *root, const char *path);
/*
 * The row's cache-model shifts (r->has_cs) and the functions that move
 * (r->cs_funcs, freed by nsb_costs_free); -1 out of memory.
 */
int nsb_costs_cs_row(struct nsb_costs *c, struct nsb_cost_family *f,
		     const struct nsb_series *on, struct nsb_cost_row *r);
/* The cache-model table, text or Markdown; nothing without the model. */
void nsb_costs_cs_print(FILE *f, const struct nsb_costs *c, bool markdown);
/* A row's rows[].cache object for costs.json, or NULL. */
json_t *nsb_costs_cs_json(const struct nsb_cost_row *r);

/* --- costplot.c --------------------------------------------------------- */

/* The headline figure from a costs JSON: OUT_DIR/STEM-costs.{svg,png}. */
int nsb_costs_plot(const char *json, const char *out_dir, const char *stem,
		   const char *templates, const char *quantity);

#endif /* NSB_COSTS_H */
