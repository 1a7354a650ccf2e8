/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmodel.h — userspace models of the kernel structures the user-namespace
 * mount checks read, with the fields in the order and at about the
 * offsets Linux 6.1 has them (x86_64, no debug options), so the checks
 * touch the same number of cache lines and follow the same pointer chains.
 *
 * Each check exists in up to three forms:
 *	stock	before the 2015 series (the check absent)
 *	2015	the seed series (v4.2 posting)
 *	now	upstream as of 6.1
 * The forms are out of line (noinline), as the kernel's are.
 */
#ifndef NSB_KMODEL_H
#define NSB_KMODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <urcu/hlist.h>

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

/* include/linux/user_namespace.h */
struct uid_gid_extent {
	uint32_t first, lower_first, count;
};

struct uid_gid_map {			/* 64 bytes -- 1 cache line */
	uint32_t nr_extents;
	struct uid_gid_extent extent[5];
};

struct user_namespace {
	struct uid_gid_map uid_map;
	struct uid_gid_map gid_map;
	struct uid_gid_map projid_map;
	struct user_namespace *parent;	/* offset 192: the walk's line */
	int level;
	uint32_t owner, group;
	char ns_common[24];
	unsigned long flags;
	bool parent_could_setfcap;
	char rest[96];			/* keyrings, work, sysctls, ucounts */
};

/* include/linux/fs.h: the superblock fields the checks read. */
#define SB_I_NODEV		0x00000004
#define FS_USERNS_MOUNT		8
#define FS_USERNS_DEV_MOUNT	16	/* 2015 only; gone upstream */

struct file_system_type {
	const char *name;
	int fs_flags;
};

struct super_block {
	struct super_block *s_list_next, *s_list_prev;
	uint32_t s_dev;
	unsigned char s_blocksize_bits;
	unsigned long s_blocksize;
	long long s_maxbytes;
	struct file_system_type *s_type;
	const void *s_op, *dq_op, *s_qcop, *s_export_op;
	unsigned long s_flags;
	unsigned long s_iflags;		/* SB_I_NODEV */
	unsigned long s_magic;
	void *s_root;
	char s_umount[40];
	int s_count;
	int s_active;
	void *s_security;		/* LSM per-superblock blob */
	const void *s_xattr;
	struct cds_hlist_node s_instances; /* fs_type->fs_supers */
	void *s_fs_info;		/* the sget key (keyed types) */
	char s_id[32];
	struct user_namespace *s_user_ns;
};

/* include/linux/mount.h and fs/mount.h */
#define MNT_NOSUID	0x01
#define MNT_NODEV	0x02

struct vfsmount {
	void *mnt_root;
	struct super_block *mnt_sb;
	int mnt_flags;
	struct user_namespace *mnt_userns;
};

struct mnt_namespace;

struct mount {
	struct cds_hlist_node mnt_hash;
	struct mount *mnt_parent;
	void *mnt_mountpoint;
	struct vfsmount mnt;
	void *mnt_rcu[2];
	void *mnt_pcp;
	char lists[6 * 16];		/* mnt_mounts ... mnt_instance */
	const char *mnt_devname;
	char more_lists[2 * 16];
	struct mnt_namespace *mnt_ns;	/* check_mnt() */
};

static inline struct mount *real_mount(struct vfsmount *mnt)
{
	return container_of(mnt, struct mount, mnt);
}

struct path {
	struct vfsmount *mnt;
	void *dentry;
};

/* current->nsproxy->mnt_ns and current->cred->user_ns */
struct nsproxy {
	int count;
	void *uts_ns, *ipc_ns;
	struct mnt_namespace *mnt_ns;
};

struct cred {
	int usage;
	uint32_t uid, gid, suid, sgid, euid, egid, fsuid, fsgid;
	unsigned int securebits;
	uint64_t cap_inheritable, cap_permitted, cap_effective, cap_bset,
		 cap_ambient;
	unsigned char jit_keyring;
	void *keyrings[4];
	void *security;
	void *user;
	struct user_namespace *user_ns;
};

struct task_struct {
	const struct cred *cred;
	struct nsproxy *nsproxy;
};

/* The model's "current": set by the benchmark or test. */
extern __thread struct task_struct *current;
extern struct user_namespace init_user_ns;

static inline struct user_namespace *current_user_ns(void)
{
	return current->cred->user_ns;
}

/* --- in_userns (seed 004; upstream kernel/user_namespace.c) --------- */
/* 2015: is ns @ns or a descendant of @target_ns?  Walks to NULL. */
bool in_userns_2015(const struct user_namespace *ns,
		    const struct user_namespace *target_ns);
/* now: is @child @ancestor or below it?  Walks while deeper. */
bool in_userns_now(const struct user_namespace *ancestor,
		   const struct user_namespace *child);
bool current_in_userns_2015(const struct user_namespace *target_ns);
bool current_in_userns_now(const struct user_namespace *target_ns);

/* --- mnt_may_suid (seed 005; fs/namespace.c) ------------------------ */
bool mnt_may_suid_stock(struct vfsmount *mnt);	/* MNT_NOSUID only */
bool mnt_may_suid_2015(struct vfsmount *mnt);	/* + check_mnt */
bool mnt_may_suid_now(struct vfsmount *mnt);	/* + current_in_userns */

/* --- may_open_dev (seed 003; fs/namei.c) ---------------------------- */
bool may_open_dev_stock(const struct path *path);
bool may_open_dev_2015(const struct path *path);
bool may_open_dev_now(const struct path *path);

/* --- constructors for benchmarks and tests --------------------------- */
/*
 * A superblock owned by @owner of type @type, with SB_I_NODEV set for a
 * non-init owner as 6.1's alloc_super() does, mounted (@mnt_flags) in
 * mount namespace @ns.  Free with model_mount_free().
 */
struct vfsmount *model_mount_alloc(struct user_namespace *owner,
				   struct file_system_type *type,
				   struct mnt_namespace *ns, int mnt_flags);
void model_mount_free(struct vfsmount *mnt);

#endif /* NSB_KMODEL_H */
