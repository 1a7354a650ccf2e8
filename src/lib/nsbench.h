/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nsbench.h — shared declarations of libnsb and the nsbench CLI.
 */
#ifndef NSB_NSBENCH_H
#define NSB_NSBENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include <jansson.h>

#define NSB_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* version.c */
const char *nsb_version(void);

/* jsonio.c — JSON files through jansson; errors name the file. */
/*
 * The largest input file (results, hyperfine output) read: a full-tier
 * results file is a few MiB; anything near this is not a results file.
 */
#define NSB_INPUT_MAX	((size_t)256 << 20)
/*
 * Opens path for reading if it is a regular file of at most max bytes
 * (never blocks on a FIFO); else prints "nsbench: path: why", returns -1.
 */
int nsb_open_input(const char *path, size_t max, off_t *size);
/* The whole of such a file, NUL-terminated, malloc'd; NULL after why. */
char *nsb_read_input(const char *path, size_t max, size_t *len);
/*
 * "nsbench: path:line: why" (no line when 0) on stderr; returns -1, so a
 * reader can `return nsb_bad(path, "...")`.
 */
int nsb_bad_at(const char *path, size_t line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define nsb_bad(path, ...) nsb_bad_at(path, 0, __VA_ARGS__)
/* Loads a JSON file; on error returns NULL and prints "file:line:col: why". */
json_t *nsb_json_load(const char *path);
/* Writes atomically: a mkstemp file in the same directory, fsync, rename. */
int nsb_json_write_atomic(const char *path, json_t *root);
/* Text file, atomically (reports, KTAP, ...). */
int nsb_write_file_atomic(const char *path, const char *data, size_t len);
/* The string at obj[key], or NULL (not a string / absent). */
const char *nsb_json_str(json_t *obj, const char *key);
/* A finite number, or null: JSON has no NaN or infinity. */
json_t *nsb_json_num(double v);
/*
 * Flushes stdout; on a write error (a full disk, /dev/full) says
 * "nsbench: standard output: why" once and returns -1.
 */
int nsb_flush_stdout(void);
/*
 * The first line of a small file (/sys, a marker), at most 255 bytes,
 * newline stripped, malloc'd; NULL if it cannot be opened or has none.
 */
char *nsb_first_line(const char *path);

/*
 * escape.c — data from elsewhere on a line-based output.  A control
 * character is any a consumer may read as a line break or that no text
 * line should hold: C0 (tab included), DEL, C1 (U+0085 among them),
 * U+2028, U+2029.
 */
/* The length in bytes of the control character at s, or 0. */
size_t nsb_ctl_len(const char *s);
bool nsb_has_ctl(const char *s);
/* s with each control character as "\x0b" or "\u2028"; malloc'd. */
char *nsb_text_clean(const char *s);
/*
 * Every string of a JSON value, keys included, through nsb_text_clean:
 * what the readers hand on can no longer break a line.  -1: no memory.
 */
int nsb_json_clean(json_t *j);
/* A Markdown code span for a table cell: fences, '|', one line. */
void nsb_md_put_code(FILE *f, const char *s);
/* The same into buf[len] (a span too long for it is not cut in half). */
void nsb_md_code(char *buf, size_t len, const char *s);
/* Markdown inline text: no markup, no HTML, one line. */
void nsb_md_put_text(FILE *f, const char *s);

/* context.c — provenance of a run (see results/README.md). */
struct nsb_run_info {
	const char *label;	/* "native-quick" */
	const char *mode;	/* native | kvm | tcg | icount */
	const char *tier;	/* quick | full */
	const char *series;	/* patch series, "none" natively */
	const char *config_hash;/* NULL: computed from /proc/config.gz or /boot */
	const char *round, *seed, *boot, *side;	/* A/B only, else NULL */
};
/* Calls add(key, value) for each nsbench context key. */
void nsb_context_collect(const struct nsb_run_info *info,
			 void (*add)(const char *key, const char *value));
/* results/<UTC>-<host>-<label>.json under dir; returns malloc'd path. */
char *nsb_results_path(const char *dir, const char *label);

#endif /* NSB_NSBENCH_H */
