/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jsonio.h — JSON and text files through jansson; errors name the file
 * (jsonio.c).
 */
#ifndef NSB_JSONIO_H
#define NSB_JSONIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include <jansson.h>

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
 * Every string of a JSON value, keys included, through nsb_text_clean
 * (escape.h): what the readers hand on can no longer break a line.  -1:
 * no memory.
 */
int nsb_json_clean(json_t *j);

#endif /* NSB_JSONIO_H */
