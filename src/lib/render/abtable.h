/* SPDX-License-Identifier: GPL-2.0 */
/*
 * abtable.h — a two-kernel comparison in the check-cost table's shape
 * (abtable.c), for `nsbench report BASE... -- PATCHED...`.
 */
#ifndef NSB_ABTABLE_H
#define NSB_ABTABLE_H

#include <stdbool.h>
#include <stdio.h>

struct nsb_comparison;
struct nsb_prof_sides;

/*
 * Per benchmark family, base and patched per op, the shift with its CI,
 * % of the op, verdict, and the A/A residual where an A/A side was given;
 * with the "where it goes" blocks of p (profile.h), if any.
 */
void nsb_ab_table_where(FILE *f, const struct nsb_comparison *c,
			bool markdown, const struct nsb_prof_sides *p);

#endif /* NSB_ABTABLE_H */
