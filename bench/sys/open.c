// SPDX-License-Identifier: GPL-2.0
/*
 * sys/open — open+close of a regular file and of a device node (on a dev
 * and a nodev mount) per mount owner and userns depth: may_open_dev()'s
 * MNT_NODEV / SB_I_NODEV test (seed 003) on the open path.  The worker is
 * uid 1000; a refused device open (EACCES) is measured as such.
 *	sys/open/<file|dev>/<owner>[/nodev]/depth:D
 */
#include <stdio.h>

#include "bench/sys/variant.h"

static const enum nsb_owner quick_owners[] = {
	NSB_OWNER_INIT, NSB_OWNER_SELF, NSB_OWNER_PARENT,
	NSB_OWNER_FOREIGN_PROC, NSB_OWNER_FOREIGN_FD, NSB_OWNER_FOREIGN_TREE,
	NSB_OWNER_UNRELATED,
};

struct kind {
	const char *name;
	enum nsb_file file;
	bool nodev;
};

static const struct kind kinds[] = {
	{ "file", NSB_FILE_REGULAR, false },
	{ "dev", NSB_FILE_DEV, false },
	{ "dev", NSB_FILE_DEV, true },
};

void nsb_register_open(enum nsb_tier tier)
{
	char name[128];
	size_t o, k;

	for (k = 0; k < NSB_ARRAY_SIZE(kinds); k++)
		for (o = 0; o < NSB_ARRAY_SIZE(quick_owners); o++) {
			struct nsb_variant v = {
				.scn = { .owner = quick_owners[o],
					 .nodev = kinds[k].nodev,
					 .unpriv = true },
				.op = nsb_op_open, .arg = kinds[k].file,
				.expect = nsb_expect_open,
				.args = NSB_ARG_DEPTH,
			};

			snprintf(name, sizeof(name), "sys/open/%s/%s%s",
				 kinds[k].name, nsb_owner_name(v.scn.owner),
				 v.scn.nodev ? "/nodev" : "");
			nsb_depth_sweep(nsb_variant_register(name, &v), tier);
		}
}
