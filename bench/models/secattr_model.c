// SPDX-License-Identifier: GPL-2.0
/*
 * secattr_model.c — the label policies (see secattr.h).
 *
 * Fetching a label is modelled at its real shape: a walk of the inode's
 * xattr list comparing names, a copy into a fresh buffer (SELinux and
 * Smack both kmalloc one), then the context-to-label lookup: a string
 * hash and a bucket walk in a table of SECATTR_LABELS labels, as
 * sidtab/smk_find_entry do.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/models/secattr.h"

#define SECURITY_FS_USE_XATTR		1
#define SECURITY_FS_USE_MNTPOINT	6
#define SMK_SB_UNTRUSTED		0x08
#define SECATTR_LABELS			1024
#define SECATTR_BUCKETS			256
#define LABEL_MAX			256

struct label {
	char ctx[48];
	struct label *next;
};

static struct label labels[SECATTR_LABELS];
static struct label *buckets[SECATTR_BUCKETS];
static bool labels_ready;

/* The kernel's full_name_hash is a word-at-a-time hash; FNV-1a stands in. */
static unsigned int hash_str(const char *s)
{
	unsigned int h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static void labels_init(void)
{
	if (labels_ready)
		return;
	for (int i = 0; i < SECATTR_LABELS; i++) {
		struct label *l = &labels[i];
		unsigned int b;

		snprintf(l->ctx, sizeof(l->ctx), "system_u:object_r:type%d_t:s0",
			 i);
		b = hash_str(l->ctx) % SECATTR_BUCKETS;
		l->next = buckets[b];
		buckets[b] = l;
	}
	labels_ready = true;
}

int secattr_label_lookup(const char *ctx)
{
	struct label *l;

	labels_init();
	for (l = buckets[hash_str(ctx) % SECATTR_BUCKETS]; l; l = l->next)
		if (!strcmp(l->ctx, ctx))
			return (int)(l - labels);
	return -1;
}

int secattr_label_count(void)
{
	return SECATTR_LABELS;
}

static const char *lsm_xattr(enum secattr_lsm lsm)
{
	return lsm == LSM_SELINUX ? "security.selinux" : "security.SMACK64";
}

/* __vfs_getxattr() on a simple_xattr list into a new buffer, + lookup. */
__attribute__((noinline))
static int fetch_label(struct model_inode *inode, const char *name)
{
	struct xattr *x;
	char *buf;
	int label = -1;

	for (x = inode->xattrs; x; x = x->next)
		if (!strcmp(x->name, name))
			break;
	if (!x)
		return -1;
	buf = calloc(1, LABEL_MAX);
	if (!buf)
		return -1;
	strncpy(buf, x->value, LABEL_MAX - 1);
	label = secattr_label_lookup(buf);
	free(buf);
	return label;
}

void secattr_mount(struct super_block *sb, struct sb_security *sbsec,
		   enum secattr_lsm lsm, enum secattr_form form)
{
	bool userns = sb->s_user_ns != &init_user_ns;

	labels_init();
	memset(sbsec, 0, sizeof(*sbsec));
	sbsec->behavior = SECURITY_FS_USE_XATTR;
	sbsec->default_label = 0;
	sbsec->root_label = 0;
	/* 6.1 decides once per superblock, at mount. */
	if (form == FORM_NOW && userns) {
		if (lsm == LSM_SELINUX)
			sbsec->behavior = SECURITY_FS_USE_MNTPOINT;
		else
			sbsec->flags |= SMK_SB_UNTRUSTED;
	}
	sb->s_security = sbsec;
}

int secattr_instantiate(struct model_inode *inode, enum secattr_lsm lsm,
			enum secattr_form form)
{
	struct super_block *sb = inode->i_sb;
	struct sb_security *sbsec = sb->s_security;
	int label;

	/* 2015 (seeds 007, 008): a compare per instantiation/fetch. */
	if (form == FORM_2015 && sb->s_user_ns != &init_user_ns)
		return inode->label = sbsec->default_label;
	if (lsm == LSM_SELINUX && sbsec->behavior == SECURITY_FS_USE_MNTPOINT)
		return inode->label = sbsec->default_label;
	label = fetch_label(inode, lsm_xattr(lsm));
	return inode->label = label < 0 ? sbsec->default_label : label;
}

int secattr_permission(struct model_inode *inode, enum secattr_lsm lsm,
		       enum secattr_form form)
{
	struct sb_security *sbsec = inode->i_sb->s_security;

	/* 6.1 smack_inode_permission(): untrusted sb, foreign label. */
	if (lsm == LSM_SMACK && (sbsec->flags & SMK_SB_UNTRUSTED) &&
	    inode->label != sbsec->root_label)
		return -EACCES;
	return 0;
}

int secattr_setxattr(struct model_inode *inode, enum secattr_form form)
{
	/* seed 006: no security.* updates on userns mounts */
	if (form == FORM_2015 && inode->i_sb->s_user_ns != &init_user_ns)
		return -EOPNOTSUPP;
	return 0;
}
