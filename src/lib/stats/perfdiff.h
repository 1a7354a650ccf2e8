/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfdiff.h — `perf diff` of two perf.data files for the report.
 * $NSB_PERF overrides the perf binary (the tests use a stand-in).
 */
#ifndef NSB_PERFDIFF_H
#define NSB_PERFDIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct nsb_perf_row {
	char *sym;		/* "[k] in_userns" */
	double base, delta;	/* % of all samples */
	bool check;		/* one of the checks' functions */
};

struct nsb_perf {
	const char *base, *patched;
	struct nsb_perf_row *rows;	/* perf's order */
	size_t n;
};

/* Runs perf diff; on failure prints why and returns -1. */
int nsb_perf_diff(struct nsb_perf *p, const char *base, const char *patched);
void nsb_perf_free(struct nsb_perf *p);
/* The check functions' shares and the largest changes, text or Markdown. */
void nsb_perf_print(FILE *f, bool md, const struct nsb_perf *p);

#endif /* NSB_PERFDIFF_H */
