/* SPDX-License-Identifier: GPL-2.0 */
/*
 * history.h — the CI history, results/history.jsonl: one JSON object per
 * line, appended and never rewritten.
 *
 *   {"type":"result","run":"20261203T083659Z-vm-native-quick",
 *    "benchmark":"models/shim/c/keep_running","status":"ok","n":5,
 *    "median":1.38,"ci_lo":1.37,"ci_hi":1.40,"ci_level":0.9375,
 *    "unit":"wall-clock ns","mode":"native","timestamp":"2026-...Z",
 *    "kernel_release":"6.1.0","kernel_commit":"abc123" (if known),
 *    "series":"none","config_hash":"sha256:...","nsbench_version":"...",
 *    "metric":"real_time","host":"vm",
 *    "files":["results/....json", ...],
 *    "samples":[1.37, 1.38, ...], "rounds":["1/42", ...] (if every
 *    sample has an A/B round)}
 *   {"type":"accept","run":"...","timestamp":"...","note":"..."}
 *
 * "files" are all results files of the run, as append was given them;
 * "samples" are the values in the files' order, so the gate from the
 * history alone runs the test it runs on the files (records of older
 * nsbench versions have none: the gate then cannot decide, and says so);
 * "end_reason" is there only for a run that ended early (--allow-incomplete).
 * One "result" line per benchmark per run (status "skip"/"error" with
 * "why" and n = 0 when it has no samples); an "accept" line marks a run
 * as a gate baseline.  The order of the file is the order of the history.
 */
#ifndef NSB_HISTORY_H
#define NSB_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#define NSB_HISTORY_DEFAULT	"results/history.jsonl"
/*
 * The largest history read or grown (1 GiB: some 2 million records, years
 * of CI runs).  The loader keeps every record in memory; past this, start
 * a new history (the gate needs only the accepted run and the new one).
 */
#define NSB_HISTORY_MAX		((size_t)1 << 30)
#define NSB_HREC_END		((size_t)-1)

struct nsb_hrec {
	const char *run, *bench, *status, *why, *unit, *mode, *timestamp;
	const char *kernel_release, *kernel_commit, *series, *config_hash;
	const char *version;
	json_t *files;		/* the run's results files, or NULL */
	json_t *samples;	/* the n values, or NULL (an older record) */
	json_t *rounds;		/* each sample's A/B round, or NULL */
	double median, ci_lo, ci_hi, ci_level;
	size_t n;
	size_t line;		/* in the history file, from 1 */
	size_t run_index;	/* position of its run in nsb_history.runs */
	size_t next_same;	/* next record of its benchmark, NSB_HREC_END */
};

struct nsb_history {
	const char *path;
	json_t *lines;		/* the parsed objects; records point into */
	struct nsb_hrec *r;
	size_t n;
	const char **runs;	/* distinct run ids, in order of appearance */
	size_t nruns;
	const char *accepted;	/* the last accepted run, or NULL */
	size_t accepted_line;
	size_t bad_lines;	/* reported and skipped */
	/* indexes, so 100k benchmarks cost no quadratic walk */
	json_t *run_ids;	/* run -> position in runs[] */
	json_t *seen;		/* "run\x1fbenchmark" -> position in r[] */
	json_t *bench_first;	/* benchmark -> its first record in r[] */
};

/* --- history.c: reading and appending the file ------------------------- */

/*
 * Loads path; a missing file is an empty history.  Each corrupt,
 * truncated or incomplete line is reported on err as "path:LINE: why;
 * line skipped" and the rest is read.  Returns 0, or -1 if the file
 * cannot be read at all: not a regular file, over NSB_HISTORY_MAX, not a
 * history (lines, but none a record), or out of memory.
 */
int nsb_history_load(struct nsb_history *h, const char *path, FILE *err);
void nsb_history_free(struct nsb_history *h);

bool nsb_history_has_run(const struct nsb_history *h, const char *run);
/* The record of bench in run, or NULL. */
const struct nsb_hrec *nsb_history_find(const struct nsb_history *h,
					const char *run, const char *bench);
/* Index of run in h->runs, or -1. */
long nsb_history_run_index(const struct nsb_history *h, const char *run);

/*
 * The usable points (status ok) of bench, oldest first, into a malloc'd
 * array of pointers; only those with the mode and unit of the newest one,
 * since native ns and guest instructions do not belong on one line.
 * Returns the count, or -1.
 */
long nsb_history_series(const struct nsb_history *h, const char *bench,
			const struct nsb_hrec ***out);

/*
 * The records (a JSON array of "result" objects) of one run made of the
 * given results files, pooled by benchmark name as `nsbench compare` pools
 * a side.  run_id NULL: the first file's name without ".json".
 */
json_t *nsb_history_records(char **files, size_t nfiles, const char *run_id);
/*
 * Fills r from a "result" object (pointers into o); returns NULL, or the
 * name of the member that is missing or wrong.
 */
const char *nsb_hrec_parse(json_t *o, struct nsb_hrec *r);
/* The accept marker line for run. */
json_t *nsb_history_accept_record(const char *run, const char *note);

/*
 * Appends the objects of arr as lines in one write (see history.c); a
 * symlink at path is followed only if it is the caller's own.
 */
int nsb_history_append(const char *path, json_t *arr);
/* What `history append` adds to a run's records, and whether it may. */
struct nsb_run_add {
	const char *run_id;	/* NULL: the first file's name */
	const char *commit;	/* kernel_commit where a record has none */
	bool incomplete;	/* an interrupted run too */
};
/*
 * The records of one run of files onto all, unless h has the run already
 * or it ended early (each said on stderr, 0 all the same); -1: no memory
 * or bad files.
 */
int nsb_history_run_records(const struct nsb_history *h, char **files,
			    size_t n, const struct nsb_run_add *add,
			    json_t *all);

/*
 * The CI coverage of the points' intervals: an order-statistic CI of the
 * median of 3 rounds covers 75 %, not 95 %.  *lo and *hi: the least and
 * the most (each capped at 95 %); true when they are one level.
 */
bool nsb_history_ci_levels(const struct nsb_hrec *const *pts, size_t n,
			   double *lo, double *hi);

/* Run id of a results file: its name without directories and ".json". */
char *nsb_history_run_id(const char *file);
/* "YYYY-mm-ddTHH:MM:SSZ" of a context date, or of now if NULL/bad. */
void nsb_history_utc(const char *date, char *buf, size_t len);

#endif /* NSB_HISTORY_H */
