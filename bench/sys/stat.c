// SPDX-License-Identifier: GPL-2.0
/*
 * sys/stat — fstatat of a path 1..64 components deep, per mount owner and
 * userns depth: the lookup path, where per-component permission and LSM
 * checks run (seed 007's label policy is per superblock).
 *	sys/stat/<owner>/depth:D/path:K
 */
#include <stdio.h>

#include "bench/sys/variant.h"

static const enum nsb_owner owners[] = { NSB_OWNER_INIT, NSB_OWNER_SELF };

void nsb_register_stat(enum nsb_tier tier)
{
	static const int64_t paths_quick[] = { 1, 8, 64 };
	static const int64_t paths_full[] = { 1, 2, 4, 8, 16, 32, 64 };
	static const int64_t depths_quick[] = { 0, 8 };
	bool full = tier == NSB_TIER_FULL;
	struct nsb_sweep paths = full ? NSB_SWEEP(paths_full) :
					NSB_SWEEP(paths_quick);
	struct nsb_sweep depths = full ? nsb_depths(tier) :
					 NSB_SWEEP(depths_quick);
	char name[128];
	size_t o, p, d;

	for (o = 0; o < NSB_ARRAY_SIZE(owners); o++) {
		struct nsb_variant v = {
			.scn = { .owner = owners[o], .unpriv = true },
			.op = nsb_op_stat,
			.args = NSB_ARG_DEPTH | NSB_ARG_OP,
		};
		struct gb_bench *b;

		snprintf(name, sizeof(name), "sys/stat/%s",
			 nsb_owner_name(owners[o]));
		b = nsb_variant_register(name, &v);
		gb_arg_names(b, "depth", "path", NULL);
		for (d = 0; d < depths.n; d++)
			for (p = 0; p < paths.n; p++) {
				int64_t a[2] = { depths.v[d], paths.v[p] };

				gb_args(b, 2, a);
			}
	}
}
