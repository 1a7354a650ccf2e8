// SPDX-License-Identifier: GPL-2.0
/*
 * secattr — per-superblock security-label policy (seeds 006-008).
 *
 *	models/secattr/<selinux|smack>/instantiate/<stock|2015|now>/owner:O
 *	models/secattr/smack/permission/<stock|2015|now>/owner:O
 *	models/secattr/any/setxattr/<stock|2015|now>/owner:O
 *
 * owner: 0 init-owned superblock, 1 userns-owned.  On a userns mount the
 * 2015 forms skip the label fetch with a compare per call; 6.1 decides at
 * mount time (SELinux mountpoint labelling, Smack SMK_SB_UNTRUSTED) and
 * Smack pays a flag test on every permission check instead.
 */
#include <stdio.h>
#include <string.h>

#include "bench/gbench.h"
#include "bench/registry.h"
#include "bench/models/secattr.h"

enum op { OP_INSTANTIATE, OP_PERMISSION, OP_SETXATTR };

struct variant {
	const char *name;	/* "<lsm>/<operation>" */
	enum secattr_lsm lsm;
	enum op op;
	enum secattr_form form;
};

static struct user_namespace container_ns = {
	.parent = &init_user_ns, .level = 1,
};

struct scene {
	struct super_block sb;
	struct sb_security sbsec;
	struct xattr x[4];
	char label[48];
	struct model_inode inode;
};

/* An inode with three other xattrs before its security label. */
static void scene_init(struct scene *sc, const struct variant *v, int owner)
{
	const char *sec = v->lsm == LSM_SELINUX ? "security.selinux" :
						  "security.SMACK64";

	memset(sc, 0, sizeof(*sc));
	sc->sb.s_user_ns = owner ? &container_ns : &init_user_ns;
	secattr_mount(&sc->sb, &sc->sbsec, v->lsm, v->form);
	snprintf(sc->label, sizeof(sc->label), "system_u:object_r:type%d_t:s0",
		 577);
	sc->x[0] = (struct xattr){ "system.posix_acl_access", "acl", &sc->x[1] };
	sc->x[1] = (struct xattr){ "trusted.overlay.opaque", "y", &sc->x[2] };
	sc->x[2] = (struct xattr){ "user.mime_type", "text/plain", &sc->x[3] };
	sc->x[3] = (struct xattr){ sec, sc->label, NULL };
	sc->inode.i_sb = &sc->sb;
	sc->inode.xattrs = &sc->x[0];
}

static int op_once(struct scene *sc, const struct variant *v)
{
	switch (v->op) {
	case OP_INSTANTIATE:
		return secattr_instantiate(&sc->inode, v->lsm, v->form);
	case OP_PERMISSION:
		return secattr_permission(&sc->inode, v->lsm, v->form);
	default:
		return secattr_setxattr(&sc->inode, v->form);
	}
}

static void run(struct gb_state *s, const struct variant *v)
{
	struct scene sc;
	int owner = gb_range(s, 0), label;

	scene_init(&sc, v, owner);
	label = secattr_instantiate(&sc.inode, v->lsm, v->form);
	/* Prove the policy: xattr label unless this form ignores it here. */
	if ((label == 577) != (!owner || v->form == FORM_STOCK ||
			       (v->lsm == LSM_SMACK && v->form == FORM_NOW))) {
		gb_error(s, "fixture: label %d not as the policy says", label);
		return;
	}
	gb_for_each_iteration(s) {
		gb_do_not_optimize(sc.inode.i_sb);
		gb_do_not_optimize(op_once(&sc, v));
	}
}

static void bm(struct gb_state *s)
{
	run(s, gb_data(s));
}

/* Every (LSM, operation) pair in its three forms. */
#define FORMS(name, lsm, op)						\
	{ name, lsm, op, FORM_STOCK },					\
	{ name, lsm, op, FORM_2015 },					\
	{ name, lsm, op, FORM_NOW }

static const struct variant variants[] = {
	FORMS("selinux/instantiate", LSM_SELINUX, OP_INSTANTIATE),
	FORMS("smack/instantiate", LSM_SMACK, OP_INSTANTIATE),
	FORMS("smack/permission", LSM_SMACK, OP_PERMISSION),
	FORMS("any/setxattr", LSM_SELINUX, OP_SETXATTR),
};

void nsb_register_secattr(enum nsb_tier tier)
{
	static const char *const form_names[] = {
		[FORM_STOCK] = "stock", [FORM_2015] = "2015", [FORM_NOW] = "now",
	};

	for (size_t i = 0; i < NSB_ARRAY_SIZE(variants); i++) {
		const struct variant *v = &variants[i];
		char name[80];
		struct gb_bench *b;

		snprintf(name, sizeof(name), "models/secattr/%s/%s", v->name,
			 form_names[v->form]);
		b = gb_register_data(name, bm, v);
		gb_arg_names(b, "owner", NULL);
		gb_arg(b, 0);
		gb_arg(b, 1);
	}
}
