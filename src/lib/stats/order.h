/* SPDX-License-Identifier: GPL-2.0 */
/*
 * order.h — sorting doubles and the median of a sorted array, with no
 * other dependency: the guest's nsbench-bench links them without GSL
 * (stats.c, which needs it, would bring 2.5 MB of libraries into every
 * guest image).
 */
#ifndef NSB_ORDER_H
#define NSB_ORDER_H

#include <stddef.h>

/* qsort's comparator for doubles, ascending. */
int nsb_cmp_double(const void *a, const void *b);

/* The median of sorted[0..n), n > 0: gsl_stats_median_from_sorted_data's. */
double nsb_sorted_median(const double *sorted, size_t n);

#endif /* NSB_ORDER_H */
