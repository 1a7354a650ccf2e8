/* SPDX-License-Identifier: GPL-2.0 */
/*
 * profile.h — where a benchmark's instructions go: perf profiles of the
 * timed region of each A/B boot, pooled by round like the results.
 *
 * In an icount guest (one virtual ns = one guest instruction) perf
 * samples cpu-clock every PERIOD ns while libbenchmark's timer runs, so a
 * symbol's samples * PERIOD / ops is the instructions per operation spent
 * in it.  `nsbench profile-import` turns one boot's `perf report` table
 * into a profile JSON; the loaders here pair profiles of base and patched
 * by round (nsbench_round/nsbench_seed, the keys the results loaders
 * use), and per symbol the per-round differences give a median shift with
 * the sign-test CI the report rows use (nsb_median_ci).
 */
#ifndef NSB_PROFILE_H
#define NSB_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "src/lib/stats/stats.h"

#define NSB_PROFILE_VERSION	1
/* The symbol of the samples perf could not resolve, one per dso. */
#define NSB_PROF_UNRESOLVED	"[unresolved]"

struct nsb_prof_sym {
	const char *symbol, *dso;	/* in the profile's JSON */
	bool kernel;
	double samples;
};

/* One profile file: one benchmark, one boot (side and round). */
struct nsb_profile {
	char *file;
	const char *benchmark, *event;
	char *round;			/* "round/seed", or NULL */
	bool icount;
	double period, ops, samples;
	struct nsb_prof_sym *sym;
	size_t nsym;
	json_t *root;			/* owns the strings */
};

/* The profiles of one side, as given on the command line. */
struct nsb_prof_set {
	const char *label;		/* "base", "patched" */
	struct nsb_profile *p;
	size_t n, cap;
};

/* One symbol (or the total, or "rest") across the common rounds. */
struct nsb_prof_row {
	const char *symbol, *dso;
	bool kernel;
	double base, patched;		/* medians over rounds, per op */
	struct nsb_interval shift;	/* median of patched - base, CI */
	bool significant;		/* 95 % CI excludes 0, above floor */
	double floor;			/* what counting noise alone gives */
	size_t id;			/* column in the per-round matrix */
};

/* One benchmark profiled on both sides. */
struct nsb_prof_cmp {
	const char *benchmark, *event;
	double period;			/* 0: the profiles' periods differ */
	bool icount;			/* per op values are instructions */
	size_t rounds;			/* paired */
	size_t dropped;			/* profiles without a partner */
	struct nsb_prof_row total;
	struct nsb_prof_row *sym;	/* by |shift| descending, then name */
	size_t nsym, nsig;
	double *d;			/* d[id * rounds + r]: patched - base */
	double *dtotal;			/* per round, the total's */
};

void nsb_prof_set_init(struct nsb_prof_set *s, const char *label);
/* A profile file, or a directory's *.profile.json (sorted); -1 after why. */
int nsb_prof_set_load(struct nsb_prof_set *s, const char *path);
void nsb_prof_set_free(struct nsb_prof_set *s);
/* Does the set hold a profile of the benchmark? */
bool nsb_prof_set_has(const struct nsb_prof_set *s, const char *benchmark);

/*
 * Pools base and patched profiles of a benchmark.  Returns 0, 1 when
 * fewer than 2 rounds are common (c->rounds says how many), -1 after
 * printing why (out of memory, mixed events).
 */
int nsb_prof_compare(const struct nsb_prof_set *a, const struct nsb_prof_set *b,
		     const char *benchmark, struct nsb_prof_cmp *c);
void nsb_prof_cmp_free(struct nsb_prof_cmp *c);
/*
 * "rest": per round the total minus the n listed symbols (rows of
 * c->sym[]), then the median and CI of that.  Returns -1 out of memory.
 */
int nsb_prof_rest(const struct nsb_prof_cmp *c,
		  const struct nsb_prof_row *const *listed, size_t n,
		  struct nsb_interval *r);
/* The symbol's name as the tables show it: "sym" or "sym (dso)". */
void nsb_prof_sym_label(char *buf, size_t len, const struct nsb_prof_row *r);
/* `nsbench profile`'s table of one comparison: its top symbols. */
void nsb_prof_print(FILE *f, const struct nsb_prof_cmp *c, size_t top);
/* The same as JSON (with every statistic), or NULL out of memory. */
json_t *nsb_prof_cmp_json(const struct nsb_prof_cmp *c, size_t top);

/*
 * Most samples a line or a profile may count: JSON integers stay exact
 * in a double up to 2^53, and no run samples anywhere near it.
 */
#define NSB_PROF_MAX_SAMPLES	(1ULL << 53)

/* Top symbols the report lists under a row: significant, at most this. */
#define NSB_PROF_WHERE_TOP	5
/* Standard errors of counting noise a significant shift must exceed. */
#define NSB_PROF_FLOOR_Z	4.0
/*
 * The "where it goes" block under a report row whose measured shift per
 * op is measured (its unit: the row's).  Text: indented under the row,
 * at most 72 columns; Markdown: a heading line and a small table.
 */
void nsb_prof_where(FILE *f, const struct nsb_prof_cmp *c, double measured,
		    const char *row, bool markdown);

/*
 * The profiles of both sides for the report (--profile-base/-patched),
 * compared once per row of a comparison that shifted (slower, faster)
 * and was profiled on both sides.
 */
enum nsb_prof_state {
	NSB_PROF_NONE,		/* no block: no shift or no profiles */
	NSB_PROF_DONE,		/* cmp[i] holds the comparison */
	NSB_PROF_FEW,		/* fewer than 2 common rounds */
};

struct nsb_prof_sides {
	struct nsb_prof_set base, patched;
	struct nsb_prof_cmp *cmp;	/* per row */
	enum nsb_prof_state *state;	/* per row */
	size_t n;
};

struct nsb_comparison;
/* Loads both sides' profiles; -1 after printing why. */
int nsb_prof_sides_load(struct nsb_prof_sides *p, const char *base,
			const char *patched);
/* Compares the rows that get a block; -1 after printing why. */
int nsb_prof_sides_prepare(struct nsb_prof_sides *p,
			   const struct nsb_comparison *c);
void nsb_prof_sides_free(struct nsb_prof_sides *p);
/* The block under row i (nothing if it has none). */
void nsb_prof_sides_where(FILE *f, const struct nsb_prof_sides *p,
			  const struct nsb_comparison *c, size_t i,
			  bool markdown);

/*
 * nsbench plot profile FILE (profplot.c): per benchmark of `nsbench
 * profile --json`, OUT_DIR/STEM-profile-<name>.{svg,png}.  0, or 2.
 */
int nsb_prof_plot(const char *json, const char *out_dir, const char *stem,
		  const char *templates);

#endif /* NSB_PROFILE_H */
