// SPDX-License-Identifier: GPL-2.0
/*
 * order.c — see order.h.
 */
#include "src/lib/stats/order.h"

int nsb_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double nsb_sorted_median(const double *sorted, size_t n)
{
	return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}
