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

#define FORMS(lsm, op, L, O)						\
static void bm_##lsm##_##op##_stock(struct gb_state *s)		\
{ static const struct variant v = { L, O, FORM_STOCK }; run(s, &v); }	\
static void bm_##lsm##_##op##_2015(struct gb_state *s)			\
{ static const struct variant v = { L, O, FORM_2015 }; run(s, &v); }	\
static void bm_##lsm##_##op##_now(struct gb_state *s)			\
{ static const struct variant v = { L, O, FORM_NOW }; run(s, &v); }

FORMS(selinux, instantiate, LSM_SELINUX, OP_INSTANTIATE)
FORMS(smack, instantiate, LSM_SMACK, OP_INSTANTIATE)
FORMS(smack, permission, LSM_SMACK, OP_PERMISSION)
FORMS(any, setxattr, LSM_SELINUX, OP_SETXATTR)

void nsb_register_secattr(enum nsb_tier tier)
{
	static const struct { const char *name; gb_fn fn; } v[] = {
		{ "selinux/instantiate/stock", bm_selinux_instantiate_stock },
		{ "selinux/instantiate/2015", bm_selinux_instantiate_2015 },
		{ "selinux/instantiate/now", bm_selinux_instantiate_now },
		{ "smack/instantiate/stock", bm_smack_instantiate_stock },
		{ "smack/instantiate/2015", bm_smack_instantiate_2015 },
		{ "smack/instantiate/now", bm_smack_instantiate_now },
		{ "smack/permission/stock", bm_smack_permission_stock },
		{ "smack/permission/2015", bm_smack_permission_2015 },
		{ "smack/permission/now", bm_smack_permission_now },
		{ "any/setxattr/stock", bm_any_setxattr_stock },
		{ "any/setxattr/2015", bm_any_setxattr_2015 },
		{ "any/setxattr/now", bm_any_setxattr_now },
	};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		char name[80];
		struct gb_bench *b;

		snprintf(name, sizeof(name), "models/secattr/%s", v[i].name);
		b = gb_register(name, v[i].fn);
		gb_arg_names(b, "owner", NULL);
		gb_arg(b, 0);
		gb_arg(b, 1);
	}
}
