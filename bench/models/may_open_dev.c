// SPDX-License-Identifier: GPL-2.0
/*
 * may_open_dev — the per-open check of a device node's mount.
 *
 *	models/may_open_dev/<stock|2015|now>/mount:M/working_set:W
 *
 * stock: MNT_NODEV only; 2015 (seed 003): + s_user_ns == &init_user_ns ||
 * FS_USERNS_DEV_MOUNT, two more dependent loads; now: + SB_I_NODEV, one
 * more load.  mount: 0 dev, 1 nodev, 2 userns-owned.  working_set: how
 * many distinct mounts the opens cycle through (1: everything in L1;
 * 4096: each open's mount and superblock lines mostly miss L1/L2).
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench/gbench.h"
#include "bench/registry.h"
#include "bench/models/kmodel.h"

enum mount_kind { MOUNT_DEV, MOUNT_NODEV, MOUNT_USERNS, NR_MOUNT_KINDS };

typedef bool (*dev_check)(const struct path *path);

static struct file_system_type ext4_type = { "ext4", 0 };
static struct user_namespace container_ns = {
	.parent = &init_user_ns, .level = 1,
};

static struct vfsmount *kind_mount(enum mount_kind kind)
{
	return model_mount_alloc(kind == MOUNT_USERNS ? &container_ns :
				 &init_user_ns, &ext4_type, NULL,
				 kind == MOUNT_NODEV ? MNT_NODEV : 0);
}

static void free_paths(struct path *paths, int n)
{
	for (int i = 0; i < n; i++)
		model_mount_free(paths[i].mnt);
	free(paths);
}

static void run(struct gb_state *s, dev_check check)
{
	enum mount_kind kind = gb_range(s, 0);
	int n = gb_range(s, 1), i = 0;
	struct path *paths = calloc(n, sizeof(*paths));

	for (int k = 0; paths && k < n; k++)
		if (!(paths[k].mnt = kind_mount(kind)))
			break;
	if (!paths || !paths[n - 1].mnt) {
		gb_error(s, "out of memory");
		if (paths)
			free_paths(paths, n);
		return;
	}
	if (may_open_dev_now(&paths[0]) != (kind == MOUNT_DEV) ||
	    may_open_dev_2015(&paths[0]) != (kind == MOUNT_DEV)) {
		gb_error(s, "fixture: mount kind %d not as intended", kind);
		free_paths(paths, n);
		return;
	}
	gb_for_each_iteration(s) {
		gb_do_not_optimize(check(&paths[i]));
		if (++i == n)
			i = 0;
	}
	free_paths(paths, n);
}

NSB_MODEL_FORMS(dev_check, may_open_dev);

static void bm(struct gb_state *s)
{
	const struct variant *v = gb_data(s);

	run(s, v->check);
}

void nsb_register_may_open_dev(enum nsb_tier tier)
{
	for (size_t f = 0; f < NSB_ARRAY_SIZE(variants); f++) {
		struct gb_bench *b = nsb_register_model("may_open_dev",
							variants[f].form, bm,
							&variants[f]);

		gb_arg_names(b, "mount", "working_set", NULL);
		for (int k = 0; k < NR_MOUNT_KINDS; k++) {
			int64_t hot[2] = { k, 1 }, cold[2] = { k, 4096 };

			gb_args(b, 2, hot);
			if (tier == NSB_TIER_FULL || k == MOUNT_USERNS)
				gb_args(b, 2, cold);
		}
	}
}
