// SPDX-License-Identifier: GPL-2.0
/*
 * sys/xattr — fsetxattr/fgetxattr of user.* and security.* names on a
 * tmpfs file, as root of the worker's userns, per mount owner and depth:
 * the security_inode_setxattr path and seed 006's skip of security
 * attribute updates on non-init superblocks.  A security.* set refused
 * below init (EPERM on an init-owned mount) is a skip with the reason.
 *	sys/xattr/<set|get>/<user|security>/<owner>/depth:D
 */
#include <stdio.h>

#include "bench/sys/variant.h"

void nsb_register_xattr(enum nsb_tier tier)
{
	static const enum nsb_owner owners[] = {
		NSB_OWNER_INIT, NSB_OWNER_SELF,
	};
	char name[128];
	size_t o;
	int kind;

	/* every combination of the two flags */
	for (kind = 0; kind <= (NSB_XATTR_SECURITY | NSB_XATTR_GET); kind++)
		for (o = 0; o < NSB_ARRAY_SIZE(owners); o++) {
			struct nsb_variant v = {
				.scn = { .owner = owners[o] },
				.op = nsb_op_xattr, .arg = kind,
				.args = NSB_ARG_DEPTH,
			};

			snprintf(name, sizeof(name), "sys/xattr/%s/%s/%s",
				 kind & NSB_XATTR_GET ? "get" : "set",
				 kind & NSB_XATTR_SECURITY ? "security" : "user",
				 nsb_owner_name(owners[o]));
			nsb_depth_sweep(nsb_variant_register(name, &v), tier);
		}
}
