// SPDX-License-Identifier: GPL-2.0
/*
 * sys/lsm — the per-superblock label policy of the active LSM (seeds 006,
 * 007, 008): label reads and writes, file creation (inode_init_security),
 * stat, open and exec on an init-owned labelled ext4 image, on tmpfs
 * mounts of each owner and on a labelling FUSE server's mount of each
 * owner (workloads/lsmfuse.c: every lookup labels a new inode), and mount + umount of a superblock whose label
 * behaviour the LSM decides per owner (sysfs in a userns-owned netns for
 * SELinux, devpts for Smack), across the userns depth sweep.
 *	sys/lsm/<none|selinux|smack>/<op>/<tmpfs|ext4|fuse>/<owner>/depth:D
 *	sys/lsm/<lsm>/mount/<sysfs|devpts>/depth:D
 * The rows carry the LSM that is active (only that one is registered).
 * Each row's first call proves its label claim before the clock (see
 * workloads/lsm.h); the expected class follows the toggles series'
 * switches when the kernel has them (kernel.userns_checks.*), else the
 * upstream behaviour, or NSB_LSM_CHECKS=off for a kernel without checks.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/sys/variant.h"
#include "workloads/lsm.h"

/* The switches of kernel-patches/checks.def, by name, with defaults. */
enum check {
#define NSB_CHECK(NAME, SEED, ON, LSM, FORM, OP, FUNCS, WHAT) CHECK_##NAME,
#include "kernel-patches/checks.def"
#undef NSB_CHECK
};

static const struct {
	const char *name;
	bool on;
} checks[] = {
#define NSB_CHECK(NAME, SEED, ON, LSM, FORM, OP, FUNCS, WHAT) { #NAME, ON },
#include "kernel-patches/checks.def"
#undef NSB_CHECK
};

/* A switch: its sysctl, else its default (0 if NSB_LSM_CHECKS=off). */
static int sw(enum check c)
{
	const char *env = getenv("NSB_LSM_CHECKS");
	int dflt = checks[c].on;
	char path[128];
	FILE *f;
	int v;

	snprintf(path, sizeof(path), "/proc/sys/kernel/userns_checks/%s",
		 checks[c].name);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = dflt;
		fclose(f);
		return v;
	}
	if (env && !strcmp(env, "off"))
		return 0;
	return dflt;
}

static bool userns_owned(const struct nsb_scn *scn)
{
	return scn->owner != NSB_OWNER_INIT && scn->depth > 0;
}

static int expect_lsm(const struct nsb_scn *scn, int64_t arg)
{
	enum nsb_lsm_kind k = arg & 0xff;
	enum nsb_lsm_target t = (arg >> 8) & 0xff;
	enum nsb_lsm l = nsb_lsm_active();
	/* The worker mounts the fuse server itself: its own userns owns it. */
	bool uns = t == NSB_LSM_FUSE ? scn->depth > 0 :
		   t == NSB_LSM_TMPFS && userns_owned(scn);

	if (t == NSB_LSM_FUSE) {
		/* Smack: the untrusted superblock refuses our label (008). */
		bool untrusted = l == NSB_LSM_SMACK && uns && sw(CHECK_smack);

		if (k == NSB_LSM_OPEN && untrusted)
			return -EACCES;
		/* SELinux on a userns mount: the mountpoint label (007). */
		return (l == NSB_LSM_SELINUX && uns && sw(CHECK_selinux) ?
			NSB_LABEL_OTHER : NSB_LABEL_XATTR) |
		       (untrusted ? NSB_LABEL_UNTRUSTED : 0);
	}

	switch (k) {
	case NSB_LSM_GETLABEL:
		if (l == NSB_LSM_NONE)
			return -ENODATA;
		/* ext4: the guest's xattr label; tmpfs: the default one. */
		return t == NSB_LSM_EXT4 ? NSB_LABEL_XATTR : NSB_LABEL_OTHER;
	case NSB_LSM_SETLABEL:
		/* Smack: SMACK64 needs CAP_MAC_ADMIN in the init ns. */
		if (l == NSB_LSM_SMACK && uns)
			return -EPERM;
		/* secattr (seed 006): the LSM never sees the new label. */
		if (l != NSB_LSM_NONE && uns && sw(CHECK_secattr))
			return NSB_LABEL_OTHER;
		return NSB_LABEL_XATTR;
	case NSB_LSM_CREATE:
		if (l == NSB_LSM_NONE)
			return -ENODATA;
		/* SELinux: the parent's type (ext4 dir: lab_t); Smack: task. */
		return l == NSB_LSM_SELINUX && t == NSB_LSM_EXT4 ?
		       NSB_LABEL_XATTR : NSB_LABEL_OTHER;
	default:
		return 0;
	}
}

static void reg(const char *name, const struct nsb_variant *v, bool sweep,
		enum nsb_tier tier)
{
	struct gb_bench *b = nsb_variant_register(name, v);
	int64_t zero = 0;

	if (sweep) {
		nsb_depth_sweep(b, tier);
		return;
	}
	gb_arg_names(b, "depth", NULL);
	gb_args(b, 1, &zero);
}

void nsb_register_lsm(enum nsb_tier tier)
{
	static const enum nsb_owner owners[] = {
		NSB_OWNER_INIT, NSB_OWNER_SELF,
	};
	enum nsb_lsm l = nsb_lsm_active();
	const char *ln = nsb_lsm_name(l);
	/* The ext4 rows exist where the guest mounted its labelled image. */
	bool ext4 = !access(NSB_LSM_EXT4_DIR "/file", F_OK);
	char name[128];
	size_t o;
	int k, t, m;

	for (t = 0; t < NSB_LSM_TARGET_COUNT; t++)
		for (k = 0; k < NSB_LSM_KIND_COUNT; k++)
			for (o = 0; o < 2; o++) {
				struct nsb_variant v = {
					.scn = { .owner = owners[o] },
					.op = nsb_op_lsm,
					.arg = k | t << 8,
					.expect = expect_lsm,
					.args = NSB_ARG_DEPTH,
					/* mount-time label policy */
					.on_arg = t == NSB_LSM_FUSE ?
						  NSB_LSM_STATE_ON : 0,
				};

				/* ext4 is init's: depth 0, no relabel */
				if (t == NSB_LSM_EXT4 &&
				    (!ext4 || o || k == NSB_LSM_SETLABEL))
					continue;
				/* fuse: stat and open, owner self */
				if (t == NSB_LSM_FUSE &&
				    ((k != NSB_LSM_STAT && k != NSB_LSM_OPEN) ||
				     !o))
					continue;
				snprintf(name, sizeof(name),
					 "sys/lsm/%s/%s/%s/%s", ln,
					 nsb_lsm_kind_name(k),
					 nsb_lsm_target_name(t),
					 nsb_owner_name(owners[o]));
				reg(name, &v, t != NSB_LSM_EXT4, tier);
			}
	/* exec of a plain binary on tmpfs of each owner. */
	for (o = 0; o < 2; o++) {
		struct nsb_variant v = {
			.scn = { .owner = owners[o] },
			.op = nsb_op_exec,
			.arg = NSB_FILE_BIN | NSB_EXEC_VFORK << 8,
			.expect = nsb_expect_exec, .args = NSB_ARG_DEPTH,
		};

		snprintf(name, sizeof(name), "sys/lsm/%s/exec/tmpfs/%s", ln,
			 nsb_owner_name(owners[o]));
		reg(name, &v, true, tier);
	}
	/* New superblocks: the LSM's per-superblock decision per mount. */
	for (m = 0; m <= NSB_LSM_MOUNT_FUSE; m++) {
		struct nsb_variant v = {
			.scn = { .owner = NSB_OWNER_SELF },
			.op = nsb_op_lsm_mount, .arg = m,
			.args = NSB_ARG_DEPTH,
		};

		snprintf(name, sizeof(name), "sys/lsm/%s/mount/%s", ln,
			 nsb_lsm_mount_name(m));
		reg(name, &v, true, tier);
	}
}
