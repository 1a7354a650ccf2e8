// SPDX-License-Identifier: GPL-2.0
/*
 * registry.c — builds nsb_benchmarks[] from the per-group list files.
 */
#include <stddef.h>
#include <stdio.h>

#include "bench/registry.h"

#define NSB_BENCH(n, s) { GROUP, #n, s, nsb_register_##n },

const struct nsb_bench nsb_benchmarks[] = {
#define GROUP "models"
#include "bench/models/list.h"
#undef GROUP
#define GROUP "sys"
#include "bench/sys/list.h"
#undef GROUP
	{ NULL, NULL, NULL, NULL },
};

static const int64_t depths_quick[] = { 0, 1, 8, 32 };
static const int64_t depths_full[] = { 0, 1, 2, 4, 8, 16, 32 };

struct nsb_sweep nsb_depths(enum nsb_tier tier)
{
	return tier == NSB_TIER_FULL ? NSB_SWEEP(depths_full) :
				       NSB_SWEEP(depths_quick);
}

struct gb_bench *nsb_register_model(const char *family, const char *form,
				    gb_fn fn, const void *data)
{
	char name[80];

	snprintf(name, sizeof(name), "models/%s/%s", family, form);
	return gb_register_data(name, fn, data);
}
