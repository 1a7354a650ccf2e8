/* SPDX-License-Identifier: GPL-2.0 */
/*
 * expect.h — expected shifts: `nsbench compare --expect=FILE` checks the
 * rows of a comparison against predicted shifts (the calibration series'
 * kernel-patches/VERSION/calibration/predictions) and makes the verdicts
 * scripts/validate.sh prints.
 *
 * FILE: one prediction a line, "NAME PREDICTED GATE SUM" separated by
 * blanks, then at most a '#' comment; '#' lines and blank lines are
 * comments.  NAME is a results name (once per file), PREDICTED the shift
 * per operation in instructions (a number > 0), GATE yes or no (a row
 * that is not gated is reported, never fails), SUM how it adds up (one
 * word, shown only).  A row that is not gated is reported and never
 * fails, not even without a result.
 */
#ifndef NSB_EXPECT_H
#define NSB_EXPECT_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "src/lib/stats/compare.h"

/* One line of the predictions file. */
struct nsb_prediction {
	const char *name;
	const char *text;	/* PREDICTED as written, for the table */
	double predicted;
	bool gated;
	const char *sum;
	size_t line;
};

enum nsb_expect_state {
	NSB_EXPECT_ABSENT,	/* in neither side: another plan's benchmark */
	NSB_EXPECT_MISSING,	/* on a side, but without a measured row */
	NSB_EXPECT_MEASURED,
};

/* A prediction against the comparison. */
struct nsb_expect_result {
	const struct nsb_prediction *pred;
	const struct nsb_row *row;	/* NULL when there is no row */
	enum nsb_expect_state state;
	/* icount: the shift is an instruction count */
	double ratio;		/* measured / predicted */
	double tol;		/* 0.005, or 1 instruction's share */
	bool within;		/* |measured - predicted| <= tol x predicted */
	bool aa_ok;		/* an A/A residual, and inside +-1 */
	/* wall clock: the count cannot be checked, only seen */
	double mde;		/* minimum detectable effect, row's unit */
	bool detected;		/* the CI's lower bound is above 0 */
	bool fail;		/* gates: nsbench compare exits 1 */
	char verdict[64];
};

/* The default tolerance, of the prediction (nsbench compare --expect). */
#define NSB_EXPECT_TOL	0.005

struct nsb_expect {
	const char *file;
	char *text;			/* the file; names point into it */
	struct nsb_prediction *p;	/* in file order */
	size_t n;
	size_t *by_name;		/* indices of p[], sorted by name */
	struct nsb_expect_result *r;	/* per p[], after the check */
	bool icount;			/* the comparison's unit */
	bool aa;			/* the comparison has an A/A side */
	double tol;			/* of the prediction, 0: NSB_EXPECT_TOL */
	size_t measured, within, off, aa_bad, missing, absent, failed;
};

/* Reads a predictions file; 0, or -1 after "nsbench: FILE:LINE: why". */
int nsb_expect_load(struct nsb_expect *x, const char *file);
/* Each prediction against c's rows (c outlives x); -1 out of memory. */
int nsb_expect_check(struct nsb_expect *x, const struct nsb_comparison *c);
void nsb_expect_free(struct nsb_expect *x);

/* The table after compare's own output. */
void nsb_expect_print_text(FILE *f, const struct nsb_expect *x);
void nsb_expect_print_markdown(FILE *f, const struct nsb_expect *x);
/* Adds "expect" to compare's JSON: the table, and to each predicted row. */
int nsb_expect_json(json_t *root, const struct nsb_expect *x);

/*
 * Exit status of nsbench compare --expect: 2 (after saying why) when no
 * prediction was measured; 1 when a row fails (icount only: a gated row
 * off, beyond its A/A bound or without a result) or a row without a
 * prediction is slower; else 0.  A predicted row's 'slower' is expected.
 */
int nsb_expect_status(const struct nsb_expect *x,
		      const struct nsb_comparison *c);

#endif /* NSB_EXPECT_H */
