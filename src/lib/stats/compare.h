/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare.h — A/B comparison of two sides' samples, benchmark by benchmark,
 * shared by `nsbench compare`, `nsbench report` and `nsbench plot`: the
 * engine (compare.c) and its output (compare_out.c), each section below
 * headed by its file; the command line they share is src/cmd/compare.c's
 * (cli.h).
 */
#ifndef NSB_COMPARE_H
#define NSB_COMPARE_H

#include <stdbool.h>
#include <stdio.h>

#include "src/lib/io/samples.h"
#include "src/lib/stats/stats.h"
#include "src/lib/render/table.h"

/*
 * The band a verdict is judged against: +-threshold % of the base in
 * native, KVM and TCG runs; under icount +-NSB_ICOUNT_BAND instructions,
 * the resolution of the instrument, or the row's A/A residual where one
 * was measured and is larger.
 */
enum nsb_verdict {
	NSB_SAME,	/* estimate and CI inside +-band */
	NSB_FASTER,	/* significant, beyond -band */
	NSB_SLOWER,	/* significant, beyond +band */
	NSB_NOISY,	/* the run cannot tell */
	NSB_SKIP,	/* no samples: skipped on a side */
	NSB_ERROR,	/* no samples: failed on a side */
};

const char *nsb_verdict_name(enum nsb_verdict v);
/*
 * A verdict as a change, the one mapping of it: "regression" (slower),
 * "improvement" (faster), else its name; the gate's test points and the
 * site's classes say it so.
 */
const char *nsb_verdict_change(enum nsb_verdict v);
/*
 * The verdict whose name starts word ("slower*" of a costs row), or
 * NSB_SAME where none does ("decides").
 */
enum nsb_verdict nsb_verdict_of(const char *word);

/*
 * Instructions: what icount resolves (one virtual ns is one retired
 * guest instruction), so the band of every icount verdict unless a
 * row's A/A residual is larger.
 */
#define NSB_ICOUNT_BAND	1.0

/* The shift of one side against another, as the verdict sees it. */
struct nsb_effect {
	bool paired;
	size_t rounds;			/* paired: rounds used */
	double base;			/* reference for percentages */
	struct nsb_interval shift;	/* absolute, ns */
	double pct, lo_pct, hi_pct;	/* shift and CI in % of base */
	double p;
	double mde_pct;			/* minimum detectable effect */
	size_t n_needed;		/* per side (or rounds) for threshold */
	enum nsb_verdict verdict;
	double band;			/* > 0: judged against +-band in
					 * the row's unit (icount) */
	bool under_thr;			/* icount: slower or faster, but
					 * under the user's --threshold */
	/* unpaired */
	struct nsb_mwu mwu;
	struct nsb_interval hl, ratio;
	/* paired */
	struct nsb_signrank wsr;
	struct nsb_interval dmed, walsh;	/* median of diffs; Walsh */
	char note[160];
};

struct nsb_row {
	const char *name;
	struct nsb_series *a, *b;
	struct nsb_summary sa, sb;
	struct nsb_effect e;
	double p_holm;
	bool has_aa;
	struct nsb_effect aa;		/* base vs the A/A side */
};

struct nsb_cmp_opts {
	double threshold;	/* percent */
	bool threshold_given;	/* icount: --threshold was typed, so it
				 * filters what fails the exit status */
	double abs_threshold;	/* > 0: in the row's unit instead */
	unsigned long seed;	/* bootstrap */
	size_t reps;		/* bootstrap resamples */
	bool unpaired;		/* ignore rounds */
	bool strict;		/* one-sided benchmarks are errors */
	const char *filter;	/* extended regex on names, or NULL */
	const char *metric;	/* "real_time" or "cpu_time" */
	bool show_rounds;	/* text: each paired row's rounds under it */
};

/* One round both sides ran: its key ("round/seed") and medians. */
struct nsb_round_pair {
	const char *round;	/* the base series' string */
	size_t first;		/* where the base's round first appears */
	double base, patched;
};

/*
 * The rounds a and b share, in the base's order (*out malloc'd); returns
 * how many, or -1 out of memory.  *dropped: base rounds without a partner.
 */
long nsb_round_pairs(const struct nsb_series *a, const struct nsb_series *b,
		     struct nsb_round_pair **out, size_t *dropped);

/* The defaults of nsbench compare's options. */
extern const struct nsb_cmp_opts nsb_cmp_defaults;

/* The results files of each side, as given (several pool by name). */
struct nsb_cmp_files {
	char **base, **patched, **aa;
	size_t nbase, npatched, naa;
};

struct nsb_comparison {
	struct nsb_cmp_opts o;
	struct nsb_side base, patched, aa;
	struct nsb_row *rows;
	size_t n;
	size_t count[NSB_ERROR + 1];
	size_t holm_kept;	/* slower/faster rows with Holm p < alpha */
	size_t under_thr[NSB_SLOWER + 1];	/* of count[]: under_thr */
	char **argv;		/* the command line, for "reproduce" */
	int argc;
};

/* --- compare.c ---------------------------------------------------------- */

/*
 * The comparison engine, without a command line: nsb_comparison_init()
 * with options (NULL: the defaults), then nsb_compare_load() loads every
 * side's files and builds the rows.  Returns 0, or -1 after saying why;
 * nsb_comparison_free() in either case.
 */
void nsb_comparison_init(struct nsb_comparison *c,
			 const struct nsb_cmp_opts *o);
int nsb_compare_load(struct nsb_comparison *c,
		     const struct nsb_cmp_files *files);
void nsb_comparison_free(struct nsb_comparison *c);

/*
 * The shift of b against a, paired by round where every sample of both
 * carries one, with its verdict under o (NSB_SKIP if a side is empty).
 * Returns 0, or -1 out of memory.
 */
int nsb_effect(const struct nsb_cmp_opts *o, const struct nsb_series *a,
	       const struct nsb_series *b, struct nsb_effect *e);
/*
 * The verdict of an interval against +-band: same when it lies inside,
 * slower (faster) when sig and it lies above 0 with its estimate beyond
 * +band (below 0, beyond -band), noisy otherwise.  Every verdict of
 * nsbench is this rule, in percent or in the row's unit.
 */
enum nsb_verdict nsb_band_verdict(const struct nsb_interval *s, double band,
				  bool sig);
/*
 * The verdict of an effect whose shift, base and p are set (the gate's
 * history records without samples), by the rule nsb_effect() applies:
 * the percentages from the shift, noisy when the interval covers less
 * than 95 %, else nsb_band_verdict() against o's band.
 */
void nsb_effect_verdict(struct nsb_effect *e, const struct nsb_cmp_opts *o);
/*
 * The icount rule, shared by the in-boot table (costs.c) and every
 * two-kernel table: e judged against +-NSB_ICOUNT_BAND instructions, or
 * against the A/A residual (>= 0) where it is larger; inside a residual
 * larger than the band is noisy, not same (the run cannot tell a cost
 * from its absence there).  Returns the band.
 */
double nsb_icount_verdict(struct nsb_effect *e, double residual);
/*
 * A control: a row where the change cannot act, whose truth is zero
 * (costs.c: the mounts made with the check on and off behaved alike
 * before the clock).  Its noise is the largest of e's band, the A/A
 * residual (>= 0) and half its CI's width (hi - lo) / 2; a slower or
 * faster e whose |estimate| does not exceed it becomes noisy, its note
 * saying why.  A sign-test CI excludes 0 whenever every round leans one
 * way, by 1 instruction or by 25: an estimate that lies within half the
 * rounds' own spread is that lean, not a difference between the states.
 * Returns the noise.
 */
double nsb_control_verdict(struct nsb_effect *e, double residual);
/*
 * Exit status for a CI gate: 1 if any row is slower, except, in icount
 * units, rows under a --threshold the user gave; else 0.
 */
int nsb_compare_status(const struct nsb_comparison *c);

/* --- compare_out.c ------------------------------------------------------ */

/*
 * What a value is: time (ns), guest instructions (icount), or a count
 * of something else (the cache model's misses), in the caller's unit.
 * A bool icount converts to the first two.
 */
enum nsb_vkind { NSB_V_TIME, NSB_V_INSN, NSB_V_COUNT };
/* Value in the row's unit ("1.234 us", "150012 insn", "2134.5"). */
void nsb_fmt_value(char *buf, size_t len, double v, int kind);
void nsb_fmt_p(char *buf, size_t len, double p);
/* Prints words of text wrapped at 72 columns, each line after indent. */
void nsb_wrap(FILE *f, const char *indent, const char *text);
/* The same, with first before the first line and rest before the others. */
void nsb_wrap_hang(FILE *f, const char *first, const char *rest,
		   const char *text);

/*
 * The rule the verdicts were taken under, one sentence naming the mode:
 * icount's instruction band and the user's --threshold as a filter, or
 * the percent band of native, KVM and TCG runs.
 */
void nsb_rule_text(char *buf, size_t len, const struct nsb_comparison *c);
/* "+1.8%, under your 2% threshold" for such a row, else "". */
void nsb_fmt_under(char *buf, size_t len, const struct nsb_comparison *c,
		   const struct nsb_effect *e);
/* "1 slower, 0 faster, ... 0 failed" with the rows under a threshold. */
void nsb_fmt_counts(char *buf, size_t len, const struct nsb_comparison *c);

/* Output of compare; also used by report. */
void nsb_print_text(FILE *f, const struct nsb_comparison *c);
void nsb_print_markdown(FILE *f, const struct nsb_comparison *c);
/* The rows' table alone in fmt (NSB_MD or NSB_HTML; text: nsb_print_text). */
void nsb_compare_table(FILE *f, const struct nsb_comparison *c,
		       enum nsb_tfmt fmt);
json_t *nsb_compare_json(const struct nsb_comparison *c);

#endif /* NSB_COMPARE_H */
