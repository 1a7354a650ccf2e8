/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lsm.h — LSM label scenarios: which LSM is active in the guest,
 * its label xattr and the suite's label, and the operations of the
 * sys/lsm benchmarks.  Labels are classified, not compared per iteration:
 * an operation checks the label once per worker (its first call, which
 * the variant runner makes before the clock) and returns that class on
 * every later call, so a precondition that fails is never timed.
 */
#ifndef NSB_WORKLOADS_LSM_H
#define NSB_WORKLOADS_LSM_H

#include <stdint.h>

#include "workloads/fixture.h"

enum nsb_lsm { NSB_LSM_NONE, NSB_LSM_SELINUX, NSB_LSM_SMACK };

/* The active LSM (/sys/kernel/security/lsm, else /proc/self/attr). */
enum nsb_lsm nsb_lsm_active(void);
const char *nsb_lsm_name(enum nsb_lsm l);
/* "security.selinux" / "security.SMACK64" (none: security.selinux). */
const char *nsb_lsm_xattr(enum nsb_lsm l);
/* The label the suite writes: user_u:object_r:lab_t / nsblab. */
const char *nsb_lsm_label(enum nsb_lsm l);

/* Where the guest mounts its labelled ext4 image (init-owned). */
#define NSB_LSM_EXT4_DIR	"/lsm/ext4"

/* Label classes an operation returns (positive, so -errno stays apart). */
#define NSB_LABEL_XATTR		1	/* the suite's label, from the xattr */
#define NSB_LABEL_OTHER		2	/* a default / mountpoint / task label */
/*
 * Or'ed into a FUSE row's class: a file carrying the suite's label is
 * refused there (Smack's untrusted superblock, seed 008).
 */
#define NSB_LABEL_UNTRUSTED	4

/*
 * Operations: arg = kind | target << 8 [| NSB_LSM_STATE_ON].  The FUSE
 * target keeps one mount per state of the in-boot A/B (the LSMs decide
 * a superblock's labelling when it is mounted): arg with
 * NSB_LSM_STATE_ON uses the mount made while the switch was on, without
 * it the one made while it was off (or as found, outside an A/B).
 */
#define NSB_LSM_STATE_ON	(1 << 16)
enum nsb_lsm_kind {
	NSB_LSM_GETLABEL,	/* fgetxattr of the LSM's label */
	NSB_LSM_SETLABEL,	/* fsetxattr of the suite's label */
	NSB_LSM_CREATE,		/* openat O_CREAT + close + unlinkat */
	NSB_LSM_STAT,		/* fstatat "file" */
	NSB_LSM_OPEN,		/* openat "file" O_RDONLY + close */
	NSB_LSM_KIND_COUNT,
};
enum nsb_lsm_target {
	NSB_LSM_TMPFS,		/* the scenario's tmpfs (owner of the scn) */
	NSB_LSM_EXT4,		/* the guest's labelled ext4 (init-owned) */
	/* lsmfuse.c mounted by the worker: owned by its userns */
	NSB_LSM_FUSE,
	NSB_LSM_TARGET_COUNT,
};
const char *nsb_lsm_kind_name(enum nsb_lsm_kind k);
const char *nsb_lsm_target_name(enum nsb_lsm_target t);
int nsb_op_lsm(struct nsb_env *env, int64_t arg, int64_t n);

#define NSB_LSM_MOUNT_FUSE	2

/*
 * arg: 0 sysfs in a new network namespace owned by the worker's userns,
 * 1 devpts (newinstance), 2 the labelling FUSE server's filesystem (a
 * thread of the worker serves it: seeds 007, 008 decide its labelling
 * at mount): mount + umount, a new superblock each time, so
 * the LSM's per-superblock label decision (selinux_set_mnt_opts,
 * smack_set_mnt_opts) runs every iteration.  Returns 0 or -errno.
 * (6.1 sysfs superblocks are init-owned: fc->global.)
 */
int nsb_op_lsm_mount(struct nsb_env *env, int64_t arg, int64_t n);
/* The filesystem of nsb_op_lsm_mount's arg: "sysfs", "devpts", "fuse". */
const char *nsb_lsm_mount_name(int64_t m);

#endif /* NSB_WORKLOADS_LSM_H */
