#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest/lsm/build-selinux-policy.sh --out FILE [--src DIR]
#
# Builds the guest's minimal SELinux policy: the kernel's own
# scripts/selinux/mdp (every class of this kernel, one type, everything
# allowed, so enforcing mode denies nothing) plus what nsbench needs:
#   - a second type, lab_t, the label the suite writes into xattrs, so a
#     file that kept its xattr label is told apart from one that got the
#     mount's default or mountpoint label (base_t);
#   - fs_use_xattr for ext4 and sysfs: labels come from security.selinux;
#     sysfs is the userns-mountable filesystem (netns owned by the userns)
#     that upstream does not whitelist, so on a userns-owned sysfs
#     selinux_set_mnt_opts() switches xattr labelling to mountpoint
#     labelling (tmpfs, ramfs, devpts and overlay are whitelisted and keep
#     their labels in a userns);
#   - fs_use_trans for tmpfs / devtmpfs / devpts, genfscon for the rest.
# Compiled with Debian's checkpolicy (the highest policy version it and
# the kernel know: 33 for 6.1 and 6.12).  Source: --src DIR, else
# $NSB_SELINUX_SRC (ab.sh: the tree the kernel was built from), else the
# default tarball's tree (scripts/kernel/build.sh extracts it under
# $NSB_CACHE/src).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=scripts/kernel/lib.sh
. "$top/scripts/kernel/lib.sh"

out=
src=${NSB_SELINUX_SRC:-$NSB_CACHE/src/$(basename "$(default_tarball)" .tar.xz)}
while [ $# -gt 0 ]; do
	case "$1" in
	--out) out=$2; shift ;;
	--src) src=$2; shift ;;
	-h|--help) sed -n '4,/^$/{/^#/p}' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
	*) die "unknown option '$1'" ;;
	esac
	shift
done
[ -n "$out" ] || die "--out FILE is required"
[ -f "$src/scripts/selinux/mdp/mdp.c" ] ||
	die "no kernel source at '$src' (run scripts/kernel/build.sh once, or --src DIR)"
command -v checkpolicy >/dev/null || die "checkpolicy not found (apt-get install checkpolicy)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# mdp includes <linux/kconfig.h>, which wants a generated autoconf.h; no
# option of it matters to mdp.
mkdir -p "$work/gen/generated"
: >"$work/gen/generated/autoconf.h"
gcc -O1 -I"$work/gen" -I"$src/include/uapi" -I"$src/include" \
	-I"$src/security/selinux/include" -o "$work/mdp" \
	"$src/scripts/selinux/mdp/mdp.c"
(cd "$work" && ./mdp policy.conf file_contexts)

# lab_t: declared next to base_t, every allow rule given for each pair.
sed -i -e 's/^type base_t;$/type base_t;\ntype lab_t;/' \
	-e 's/^allow base_t base_t:\(.*\)$/allow base_t base_t:\1\nallow base_t lab_t:\1\nallow lab_t base_t:\1\nallow lab_t lab_t:\1/' \
	"$work/policy.conf"
# fs_use statements go before genfscon: in front of mdp's first fs_use.
fsuse='fs_use_xattr ext4 user_u:object_r:base_t;
fs_use_xattr fuse user_u:object_r:base_t;
fs_use_trans tmpfs user_u:object_r:base_t;
fs_use_trans devtmpfs user_u:object_r:base_t;
fs_use_trans devpts user_u:object_r:base_t;
fs_use_trans mqueue user_u:object_r:base_t;'
awk -v ins="$fsuse" '/^fs_use_task pipefs/ && !done { print ins; done = 1 } { print }' \
	"$work/policy.conf" >"$work/p2" && mv "$work/p2" "$work/policy.conf"
grep -q '^fs_use_xattr ext4' "$work/policy.conf" || die "mdp output changed: no fs_use_task pipefs"
cat >>"$work/policy.conf" <<'POL'
genfscon proc / user_u:object_r:base_t
genfscon selinuxfs / user_u:object_r:base_t
genfscon securityfs / user_u:object_r:base_t
genfscon rootfs / user_u:object_r:base_t
genfscon ramfs / user_u:object_r:base_t
POL
# A newer kernel's mdp names policy capabilities Debian's checkpolicy
# does not know yet (6.12: userspace_initial_context): each one it
# refuses is left out (the kernel then keeps that capability's default)
# and the policy compiled again.
dropped=''
while ! checkpolicy -U allow -o "$work/policy.bin" "$work/policy.conf" \
	>"$work/cp.log" 2>&1; do
	cap=$(sed -n "s/.*invalid policy capability name '\{0,1\}\([a-z_0-9]*\).*/\1/p" \
		"$work/cp.log" | head -n 1)
	if [ -z "$cap" ] || ! grep -q "^policycap $cap;\$" "$work/policy.conf"; then
		cat "$work/cp.log" >&2
		die "checkpolicy failed"
	fi
	sed -i "/^policycap $cap;\$/d" "$work/policy.conf"
	dropped="$dropped $cap"
done
[ -z "$dropped" ] || echo "selinux policy: capabilities checkpolicy does not know, left out:$dropped" >&2
mkdir -p "$(dirname "$out")"
cp "$work/policy.bin" "$out.tmp"
mv "$out.tmp" "$out"
echo "selinux policy $out: $(stat -c %s "$out") bytes, $(grep -c '^allow' "$work/policy.conf") allow rules" >&2
