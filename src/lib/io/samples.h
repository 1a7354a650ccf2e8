/* SPDX-License-Identifier: GPL-2.0 */
/*
 * samples.h — samples from results files, pooled by benchmark name and
 * plan step: a name that files of two steps hold (a label and LSM each)
 * is one series per step, "NAME [STEP]".
 *
 * Reads nsbench / Google Benchmark JSON (results/README.md: one sample per
 * run_type "iteration" entry, aggregates ignored, skips and errors counted
 * apart) and hyperfine's --export-json output (one sample per run, from
 * "times" in seconds).  Values are converted to ns.  Each sample keeps the
 * A/B round it was measured in ("round/seed" from the file's context) so
 * the comparison can pair sides by round.
 */
#ifndef NSB_SAMPLES_H
#define NSB_SAMPLES_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

/* One benchmark on one side. */
struct nsb_series {
	char *name;
	double *v;		/* ns (or guest instructions in icount mode) */
	char **round;		/* per sample "round/seed", or NULL */
	size_t n, cap;
	size_t skipped, errors;	/* entries that are not samples */
	char *why;		/* first skip or error message */
	const char *file;	/* first file it came from */
	char *step;		/* its files' plan step (label, LSM), or NULL */
};

struct nsb_side {
	const char *label;	/* "base", "patched", "A/A" */
	struct nsb_series *s;
	size_t n, cap;
	json_t *index;		/* name -> position in s[] */
	const char **files;	/* as given on the command line */
	json_t **ctx;		/* each file's context, or NULL (hyperfine) */
	size_t nfiles;
	const char *metric;	/* the entries' field to read (real_time) */
	const char *unit;	/* meaning of "ns": wall-clock or guest insn */
	const char *unit_file;	/* the file that set it */
	bool icount;
	bool zero_ok;		/* a count per op that may be 0 (the cache
				 * model's misses), not a time */
	bool optional;		/* an entry without the metric gives no
				 * sample instead of an error */
};

/*
 * The longest time a sample may have, in ns (31 years): longer is a wrong
 * unit, and it keeps sums and squares of samples finite.
 */
#define NSB_TIME_MAX	1e18

#define NSB_UNIT_WALL	"wall-clock ns"
#define NSB_UNIT_ICOUNT	"virtual ns = guest instructions"

void nsb_side_init(struct nsb_side *side, const char *label);
/* Adds a file's samples; on bad input prints "file: why" and returns -1. */
int nsb_side_load(struct nsb_side *side, const char *path);
void nsb_side_free(struct nsb_side *side);
/* Factor from a time_unit ("ns", "us", "ms", "s") to ns; 0 if unknown. */
double nsb_unit_to_ns(const char *unit);
void nsb_series_free(struct nsb_series *s);
struct nsb_series *nsb_side_find(const struct nsb_side *side,
				 const char *name);
/* After s[] was compacted or reordered: the name index again. */
int nsb_side_reindex(struct nsb_side *side);
/*
 * What pairs a results file with its partner on the other side: the
 * context's "nsbench_round/nsbench_seed" (malloc'd), NULL without a round.
 */
char *nsb_round_key(json_t *ctx);
/* Whether a context's times are guest instructions (icount mode). */
bool nsb_ctx_icount(json_t *ctx);
/* A JSON value's type as messages name it: "an object", "nothing". */
const char *nsb_json_type_name(const json_t *j);
/* A context value of the side's first file that has it, or NULL. */
const char *nsb_side_ctx(const struct nsb_side *side, const char *key);

/*
 * hyperfine --export-json, checked as the loader checks it (import_hyperfine.c
 * shares it): root's "results" array, non-empty, into *results; result i
 * (command, times, exit codes, parameters, user/system time).  Each prints
 * "nsbench: path: results[i].field (command): why" and returns -1.
 */
int nsb_hyperfine_results(const char *path, json_t *root, json_t **results);
int nsb_hyperfine_check(const char *path, json_t *r, size_t i);
/* Did a run of the (checked) result fail?  Then why, into why[len]. */
bool nsb_hyperfine_failed(json_t *r, char *why, size_t len);

#endif /* NSB_SAMPLES_H */
