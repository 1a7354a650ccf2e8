// SPDX-License-Identifier: GPL-2.0
/*
 * mnt_may_suid — the per-exec "may this mount grant setuid/file caps?"
 * check, called 2-3 times per exec (bprm_fill_uid, commoncap, SELinux).
 *
 *	models/mnt_may_suid/<stock|2015|now>/owner:O/depth:N
 *
 * stock: MNT_NOSUID only; 2015: + check_mnt (seed 005); now: + the
 * current_in_userns(sb->s_user_ns) walk (upstream since v4.8).
 * owner: 0 init-owned mount, 1 mount owned by the caller's own userns,
 * 2 mount of a foreign mount namespace, 3 nosuid mount.  The caller sits
 * at userns depth N.
 */
#include <stdio.h>

#include "bench/gbench.h"
#include "bench/registry.h"
#include "bench/models/nstree.h"

enum owner { OWNER_INIT, OWNER_OWN, OWNER_FOREIGN, OWNER_NOSUID, NR_OWNERS };

typedef bool (*suid_check)(struct vfsmount *mnt);

/* Two mount namespaces: the caller's and a foreign one (only compared). */
static char caller_mnt_ns, foreign_mnt_ns;
static struct file_system_type tmpfs_type = { "tmpfs", FS_USERNS_MOUNT };

static struct vfsmount *scenario_mount(enum owner owner,
				       struct user_namespace *caller_ns)
{
	struct mnt_namespace *mine = (void *)&caller_mnt_ns;

	switch (owner) {
	case OWNER_OWN:
		return model_mount_alloc(caller_ns, &tmpfs_type, mine, 0);
	case OWNER_FOREIGN:
		return model_mount_alloc(&init_user_ns, &tmpfs_type,
					 (void *)&foreign_mnt_ns, 0);
	case OWNER_NOSUID:
		return model_mount_alloc(&init_user_ns, &tmpfs_type, mine,
					 MNT_NOSUID);
	default:
		return model_mount_alloc(&init_user_ns, &tmpfs_type, mine, 0);
	}
}

/* What the current kernel answers, to prove the scenario before timing. */
static bool expected_now(enum owner owner)
{
	return owner == OWNER_INIT || owner == OWNER_OWN;
}

static void run(struct gb_state *s, suid_check check)
{
	enum owner owner = gb_range(s, 0);
	struct ns_chain chain;
	struct cred cred = { 0 };
	struct nsproxy nsproxy = { .mnt_ns = (void *)&caller_mnt_ns };
	struct task_struct task = { &cred, &nsproxy };
	struct vfsmount *mnt;

	if (ns_chain_build(&chain, &init_user_ns, gb_range(s, 1), false, 1)) {
		gb_error(s, "out of memory");
		return;
	}
	cred.user_ns = ns_chain_leaf(&chain);
	current = &task;
	mnt = scenario_mount(owner, cred.user_ns);
	if (!mnt) {
		gb_error(s, "out of memory");
		goto out;
	}
	if (mnt_may_suid_now(mnt) != expected_now(owner)) {
		gb_error(s, "fixture: mount owner %d not as intended", owner);
		goto out;
	}
	gb_for_each_iteration(s) {
		gb_do_not_optimize(mnt);
		gb_do_not_optimize(check(mnt));
	}
out:
	model_mount_free(mnt);
	ns_chain_free(&chain);
	current = NULL;
}

NSB_MODEL_FORMS(suid_check, mnt_may_suid);

static void bm(struct gb_state *s)
{
	const struct variant *v = gb_data(s);

	run(s, v->check);
}

void nsb_register_mnt_may_suid(enum nsb_tier tier)
{
	/* Models cost nanoseconds: every power of two even in quick. */
	struct nsb_sweep depths = nsb_depths(NSB_TIER_FULL);

	for (size_t f = 0; f < NSB_ARRAY_SIZE(variants); f++) {
		struct gb_bench *b = nsb_register_model("mnt_may_suid",
							variants[f].form, bm,
							&variants[f]);

		gb_arg_names(b, "owner", "depth", NULL);
		for (int o = 0; o < NR_OWNERS; o++)
			for (size_t d = 0; d < depths.n; d++) {
				int64_t args[2] = { o, depths.v[d] };

				/* quick: the depth sweep on init-owned only */
				if (tier == NSB_TIER_QUICK && o != OWNER_INIT &&
				    args[1] != 0 && args[1] != 8)
					continue;
				gb_args(b, 2, args);
			}
	}
}
