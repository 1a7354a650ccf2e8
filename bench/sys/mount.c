// SPDX-License-Identifier: GPL-2.0
/*
 * sys/mount — mount+umount of tmpfs, proc and mqueue by the worker, root
 * in its userns at depth D, with N IPC namespaces (N mqueue superblocks)
 * or N more pid namespaces with a proc superblock each made after the
 * worker's own: sget_fc()'s walk of the type's superblock list under
 * sb_lock, with seed 002's s_user_ns compare per superblock.  mqueue is
 * keyed per IPC namespace, proc per pid namespace (the worker is pid 1 of
 * its own, so proc can be mounted below init); tmpfs is not keyed (no
 * walk) and is the control.  umount waits for an RCU grace period, which
 * dwarfs the walk, so sys/mount/fscreate/ does only fsopen +
 * FSCONFIG_CMD_CREATE + close: the superblock lookup without a mount.
 *	sys/mount/[fscreate/]<fs>/depth:D/<ipcns|pidns>:N
 */
#include <stdio.h>

#include "bench/sys/variant.h"

void nsb_register_mount(enum nsb_tier tier)
{
	/* tmpfs: 1 IPC ns; proc: +N pid namespaces; mqueue: N IPC ns. */
	static const int64_t nsb_quick[] = { 1, 256 };
	static const int64_t nsb_full[] = { 1, 16, 256, 1024 };
	bool full = tier == NSB_TIER_FULL;
	struct nsb_sweep depths = nsb_depths(tier);
	struct nsb_sweep nsbs = full ? NSB_SWEEP(nsb_full) : NSB_SWEEP(nsb_quick);
	char name[128];
	size_t d, i;
	int k;

	for (k = 0; k < 2 * NSB_FS_COUNT; k++) {
		int t = k % NSB_FS_COUNT;
		bool create = k >= NSB_FS_COUNT;
		struct nsb_variant v = {
			.scn = { .owner = NSB_OWNER_SELF,
				 .newpid = t == NSB_FS_PROC },
			.op = create ? nsb_op_fscreate : nsb_op_mount, .arg = t,
			.args = NSB_ARG_DEPTH | (t == NSB_FS_PROC ?
						 NSB_ARG_NPROC : NSB_ARG_NIPC),
		};
		/* The superblock count matters for the keyed types only. */
		size_t ni = t != NSB_FS_TMPFS ? nsbs.n : 1;
		struct gb_bench *b;

		snprintf(name, sizeof(name), "sys/mount/%s%s",
			 create ? "fscreate/" : "", nsb_fs_name(t));
		b = nsb_variant_register(name, &v);
		gb_arg_names(b, "depth", t == NSB_FS_PROC ? "pidns" : "ipcns",
			     NULL);
		for (d = 0; d < depths.n; d++)
			for (i = 0; i < ni; i++) {
				int64_t a[2] = { depths.v[d], nsbs.v[i] };

				gb_args(b, 2, a);
			}
	}
}
