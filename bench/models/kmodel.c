// SPDX-License-Identifier: GPL-2.0
/*
 * kmodel.c — the checks, each form as the kernel writes it (see
 * kmodel.h).  noinline: in the kernel these are calls into other
 * compilation units, and a benchmark must not see them folded away.
 */
#include <stdlib.h>

#include "bench/models/kmodel.h"

__thread struct task_struct *current;
struct user_namespace init_user_ns = { .level = 0 };

__attribute__((noinline))
bool in_userns_2015(const struct user_namespace *ns,
		    const struct user_namespace *target_ns)
{
	for (; ns; ns = ns->parent) {
		if (ns == target_ns)
			return true;
	}
	return false;
}

__attribute__((noinline))
bool in_userns_now(const struct user_namespace *ancestor,
		   const struct user_namespace *child)
{
	const struct user_namespace *ns;

	for (ns = child; ns->level > ancestor->level; ns = ns->parent)
		;
	return ns == ancestor;
}

__attribute__((noinline))
bool current_in_userns_2015(const struct user_namespace *target_ns)
{
	return in_userns_2015(current_user_ns(), target_ns);
}

__attribute__((noinline))
bool current_in_userns_now(const struct user_namespace *target_ns)
{
	return in_userns_now(target_ns, current_user_ns());
}

static inline bool check_mnt(struct mount *mnt)
{
	return mnt->mnt_ns == current->nsproxy->mnt_ns;
}

/* Before the series: bprm_fill_uid() tested MNT_NOSUID alone. */
__attribute__((noinline))
bool mnt_may_suid_stock(struct vfsmount *mnt)
{
	return !(mnt->mnt_flags & MNT_NOSUID);
}

__attribute__((noinline))
bool mnt_may_suid_2015(struct vfsmount *mnt)
{
	return real_mount(mnt)->mnt_ns == current->nsproxy->mnt_ns &&
	       !(mnt->mnt_flags & MNT_NOSUID);
}

__attribute__((noinline))
bool mnt_may_suid_now(struct vfsmount *mnt)
{
	return !(mnt->mnt_flags & MNT_NOSUID) && check_mnt(real_mount(mnt)) &&
	       current_in_userns_now(mnt->mnt_sb->s_user_ns);
}

__attribute__((noinline))
bool may_open_dev_stock(const struct path *path)
{
	return !(path->mnt->mnt_flags & MNT_NODEV);
}

__attribute__((noinline))
bool may_open_dev_2015(const struct path *path)
{
	return !(path->mnt->mnt_flags & MNT_NODEV) &&
	       (path->mnt->mnt_sb->s_user_ns == &init_user_ns ||
		(path->mnt->mnt_sb->s_type->fs_flags & FS_USERNS_DEV_MOUNT));
}

__attribute__((noinline))
bool may_open_dev_now(const struct path *path)
{
	return !(path->mnt->mnt_flags & MNT_NODEV) &&
	       !(path->mnt->mnt_sb->s_iflags & SB_I_NODEV);
}

struct vfsmount *model_mount_alloc(struct user_namespace *owner,
				   struct file_system_type *type,
				   struct mnt_namespace *ns, int mnt_flags)
{
	struct super_block *sb = calloc(1, sizeof(*sb));
	struct mount *m = calloc(1, sizeof(*m));

	if (!sb || !m) {
		free(sb);
		free(m);
		return NULL;
	}
	sb->s_type = type;
	sb->s_user_ns = owner;
	if (owner != &init_user_ns)
		sb->s_iflags |= SB_I_NODEV;
	m->mnt.mnt_sb = sb;
	m->mnt.mnt_flags = mnt_flags;
	m->mnt_ns = ns;
	return &m->mnt;
}

void model_mount_free(struct vfsmount *mnt)
{
	if (!mnt)
		return;
	free(mnt->mnt_sb);
	free(real_mount(mnt));
}
