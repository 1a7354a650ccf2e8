// SPDX-License-Identifier: GPL-2.0
/*
 * sys/exec — vfork+exec+wait (and fork, posix_spawn) of nsb-true and its
 * setuid-root and file-caps copies, as uid 1000, per mount owner, nosuid
 * and userns depth: mnt_may_suid() (seed 005, 2-3 calls per exec) and the
 * file-caps in_userns walk in get_file_caps() (seed 004).  The fixture
 * checks first that the copy elevates exactly where the kernel says.
 *	sys/exec/<fork|vfork|spawn>/<bin|suid|fcaps>/<owner>[/nosuid]/depth:D
 */
#include <stdio.h>

#include "bench/sys/variant.h"

static const char *const methods[NSB_EXEC_COUNT] = {
	"fork", "vfork", "spawn",
};

static const enum nsb_file files[] = {
	NSB_FILE_BIN, NSB_FILE_SUID, NSB_FILE_FCAPS,
};

static void add(enum nsb_exec_method m, enum nsb_file f, enum nsb_owner o,
		bool nosuid, enum nsb_tier tier)
{
	struct nsb_variant v = {
		.scn = { .owner = o, .nosuid = nosuid, .unpriv = true },
		.op = nsb_op_exec, .arg = f | m << 8,
		.expect = nsb_expect_exec, .args = NSB_ARG_DEPTH,
	};
	char name[128];

	snprintf(name, sizeof(name), "sys/exec/%s/%s/%s%s", methods[m],
		 nsb_file_name(f), nsb_owner_name(o), nosuid ? "/nosuid" : "");
	nsb_depth_sweep(nsb_variant_register(name, &v), tier);
}

void nsb_register_exec(enum nsb_tier tier)
{
	static const enum nsb_owner quick_owners[] = {
		NSB_OWNER_INIT, NSB_OWNER_SELF, NSB_OWNER_FOREIGN_FD,
		NSB_OWNER_FOREIGN_TREE,
	};
	bool full = tier == NSB_TIER_FULL;
	size_t f, o, no = full ? NSB_OWNER_COUNT :
			 NSB_ARRAY_SIZE(quick_owners);
	int m, nosuid;

	/*
	 * The sweep uses vfork: fork copies the worker's page tables and
	 * tears them down again, which costs 3x the exec itself here and
	 * spreads far more under load, hiding the checks.
	 */
	for (f = 0; f < NSB_ARRAY_SIZE(files); f++) {
		for (o = 0; o < no; o++)
			add(NSB_EXEC_VFORK, files[f],
			    full ? (enum nsb_owner)o : quick_owners[o], false,
			    tier);
		/* nosuid: one owner in quick, all in full. */
		for (o = 0; o < (full ? no : 1); o++)
			add(NSB_EXEC_VFORK, files[f],
			    full ? (enum nsb_owner)o : NSB_OWNER_INIT, true,
			    tier);
	}
	/* The other ways to start a process (plain binary in quick). */
	for (m = 0; m < NSB_EXEC_COUNT; m++) {
		if (m == NSB_EXEC_VFORK)
			continue;
		for (f = 0; f < (full ? 3u : 1u); f++)
			for (nosuid = 0; nosuid <= full; nosuid++)
				add(m, files[f], NSB_OWNER_INIT, nosuid, tier);
	}
}
