/* SPDX-License-Identifier: GPL-2.0 */
/*
 * secattr.h — model of the per-superblock security-label policies of
 * seeds 006-008: how an LSM labels an inode it instantiates, and whether
 * a security.* xattr update is allowed, on init- vs userns-owned mounts.
 */
#ifndef NSB_SECATTR_H
#define NSB_SECATTR_H

#include <stdbool.h>

#include "bench/models/kmodel.h"

enum secattr_lsm { LSM_SELINUX, LSM_SMACK };
enum secattr_form { FORM_STOCK, FORM_2015, FORM_NOW };

struct xattr {
	const char *name;
	const char *value;
	struct xattr *next;
};

/* The LSM's per-superblock blob, set at mount time (set_mnt_opts). */
struct sb_security {
	int behavior;		/* SELinux: USE_XATTR or USE_MNTPOINT */
	unsigned int flags;	/* Smack: SMK_SB_UNTRUSTED */
	int default_label;	/* mountpoint / smk_default label */
	int root_label;		/* Smack: smk_root */
};

struct model_inode {
	struct super_block *i_sb;
	struct xattr *xattrs;	/* simple_xattr list, as tmpfs keeps them */
	int label;
};

/* Mount time: fills sb->s_security for @lsm in @form. */
void secattr_mount(struct super_block *sb, struct sb_security *sbsec,
		   enum secattr_lsm lsm, enum secattr_form form);
/* d_instantiate: returns the inode's label (an index into the table). */
int secattr_instantiate(struct model_inode *inode, enum secattr_lsm lsm,
			enum secattr_form form);
/* inode_permission: Smack 6.1 refuses untrusted labels; 0 or -EACCES. */
int secattr_permission(struct model_inode *inode, enum secattr_lsm lsm,
		       enum secattr_form form);
/* security_inode_setxattr of a security.* name (seed 006). */
int secattr_setxattr(struct model_inode *inode, enum secattr_form form);
/* The label table (sidtab / smack_known): index of @ctx, -1 if unknown. */
int secattr_label_lookup(const char *ctx);
int secattr_label_count(void);

#endif /* NSB_SECATTR_H */
