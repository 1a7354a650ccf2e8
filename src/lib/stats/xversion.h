/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xversion.h — what each check costs on two kernel versions, and the
 * change: the in-boot cost tables (costs.h) of runs on two kernels, row
 * by row.
 */
#ifndef NSB_XVERSION_H
#define NSB_XVERSION_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "src/lib/stats/costs.h"

/* The results of one kernel release: its cost tables and its name. */
struct nsb_xv_side {
	char version[64];	/* "6.12.118": kernel_release, as the runs say */
	char release[64];	/* the same, for the headings */
	struct nsb_costs costs;
};

/*
 * The kernel release a results file names (its context's
 * kernel_release), or "unknown"; -1 if the file cannot be read (after
 * saying why).  Runs group by it: two releases are two columns.
 */
int nsb_xv_file_version(const char *path, char *buf, size_t len);

/* The table of b against a (a the older), text or Markdown. */
int nsb_xv_print(FILE *f, const struct nsb_xv_side *a,
		 const struct nsb_xv_side *b, bool markdown);
/* The same rows as JSON: an array, NULL out of memory. */
json_t *nsb_xv_json(const struct nsb_xv_side *a, const struct nsb_xv_side *b);

#endif /* NSB_XVERSION_H */
