#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest/mkinitramfs.sh --plan FILE --out FILE [--bench BIN]
#                              [--guest BIN] [--perf] [--lsm]
#
# Builds the guest's initramfs (uncompressed newc cpio: nothing to
# decompress in a TCG guest): busybox-static with every applet linked,
# nsb-guest (static; make builds it: --guest BIN, else $NSB_BUILD/guest)
# and the exec target nsb-true (workloads/progs, in the same build),
# nsbench-bench with the libraries ldd resolves and the dynamic loader,
# guest/plans as /plans, /init and the plan; with --perf also perf
# (software events only here: no PMU), ~33 MB more; with --lsm the LSM
# scenarios' files under /lsm (see guest/lsm/README.md: SELinux policy,
# Smack rules, a 2 MiB ext4 image made with mkfs.ext4 -d, nsb-lsm,
# setup.sh).  Reproducible: sorted entries, mtimes 0, root-owned, cpio
# --reproducible, so both sides of an A/B boot byte-identical images
# (sha256 printed on stderr).

# Every error ends the run: in pipelines, and in $(...) too.
set -eu -o pipefail
shopt -s inherit_errexit

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
# shellcheck source=scripts/kernel/lib.sh
. "$top/scripts/kernel/lib.sh"

plan=
out=
bench=
guest=
perf=0
lsm=0

while [ $# -gt 0 ]; do
	case "$1" in
	--plan) need_value "$1" $#; plan=$2; shift ;;
	--out) need_value "$1" $#; out=$2; shift ;;
	--bench) need_value "$1" $#; bench=$2; shift ;;
	--guest) need_value "$1" $#; guest=$2; shift ;;
	--perf) perf=1 ;;
	--lsm) lsm=1 ;;
	-h|--help) sed -n '4,/^$/{/^#/p}' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
	*) die "unknown option '$1' (see --help)" ;;
	esac
	shift
done
{ [ -n "$plan" ] && [ -f "$plan" ] && [ -r "$plan" ]; } ||
	die "--plan FILE is required and readable"
# Its cost and check steps name rows of kernel-patches/checks.def (the
# guest would only report an unknown switch "unavailable").
plan_checks "$top" "$plan" >/dev/null || exit 2
[ -n "$out" ] || die "--out FILE is required"
[ -z "$bench" ] || { [ -f "$bench" ] && [ -x "$bench" ]; } ||
	die "--bench '$bench' is not executable"
# The guest's static programs are make targets (guest/build.mk),
# in $NSB_BUILD/guest unless --guest names nsb-guest elsewhere; nsb-lsm
# sits beside it.
if [ -z "$guest" ]; then
	guest=$(build_dir "$top")/guest/nsb-guest
	[ -x "$guest" ] || die "no $guest (make builds it)"
fi
{ [ -f "$guest" ] && [ -x "$guest" ]; } ||
	die "--guest '$guest' is not executable"
lsm_bin=$(dirname "$guest")/nsb-lsm
# the exec target of every exec workload, built beside them
true_bin=$(dirname "$guest")/../workloads/progs/nsb-true
[ -x "$true_bin" ] || die "no $true_bin (make builds it)"
[ "$lsm" = 0 ] || [ -x "$lsm_bin" ] || die "--lsm: no $lsm_bin (make builds it)"
mkdir -p "$(dirname "$out")" || die "--out: cannot create $(dirname "$out")"

# static BIN: true if BIN has no dynamic loader (ldd says so).
static() {
	! ldd "$1" >/dev/null 2>&1
}

# is_elf FILE: an ELF file (not a wrapper script).
is_elf() {
	[ "$(head -c 4 "$1" | od -An -c | tr -d ' \n')" = '177ELF' ]
}

# busybox-static's /bin/busybox, or one on PATH, if it is static.
busybox=
for b in "$(command -v busybox || true)" /bin/busybox; do
	if [ -n "$b" ] && [ -x "$b" ] && is_elf "$b" && static "$b"; then
		busybox=$b
		break
	fi
done
[ -n "$busybox" ] || die "no static busybox found (apt-get install busybox-static)"
applets=$("$busybox" --list) || die "$busybox --list failed"
[ -n "$applets" ] || die "$busybox --list names no applet"
if [ "$perf" = 1 ]; then
	p=$(command -v perf) || die "--perf: perf not found (apt-get install linux-perf)"
	# Debian's /usr/bin/perf may be a wrapper script naming perf_<ver>.
	if ! is_elf "$p"; then
		cands=(/usr/bin/perf_[0-9]*)
		p=${cands[${#cands[@]} - 1]}
		[ -x "$p" ] || die "--perf: no perf ELF binary found"
	fi
fi

stage=$(mktemp -d)
trap 'rm -rf "$stage" "$out.tmp"' EXIT

# copy_bin BIN: BIN into /bin, its libraries under their own paths; a
# library ldd cannot find is an error, not an image that fails to boot.
copy_bin() {
	local bin=$1 lib libs
	cp -L "$bin" "$stage/bin/" || die "cannot copy $bin"
	static "$bin" && return 0
	libs=$(ldd "$bin") || die "ldd $bin failed"
	case "$libs" in
	*"not found"*) die "$bin: missing library: $(grep -m1 'not found' <<<"$libs")" ;;
	esac
	while read -r lib; do
		[ -n "$lib" ] || continue
		mkdir -p "$stage$(dirname "$lib")"
		cp -L "$lib" "$stage$lib" || die "cannot copy $lib"
	done <<<"$(awk '/=> \//{ print $3 } /^\t\//{ print $1 }' <<<"$libs")"
}

mkdir -p "$stage"/{bin,dev,proc,sys,tmp,mnt,root,etc}
cp -L "$busybox" "$stage/bin/busybox"
for a in $applets; do
	[ "$a" = busybox ] || ln -s busybox "$stage/bin/$a"
done

cp "$guest" "$stage/bin/nsb-guest"
cp "$true_bin" "$stage/bin/nsb-true"

[ -z "$bench" ] || copy_bin "$bench"

if [ "$perf" = 1 ]; then
	copy_bin "$p"
	[ "$(basename "$p")" = perf ] || ln -s "$(basename "$p")" "$stage/bin/perf"
fi

# Every plan, for the plan's `include` steps.
mkdir -p "$stage/plans"
cp "$here"/plans/*.plan "$stage/plans/" || die "cannot copy guest/plans"

if [ "$lsm" = 1 ]; then
	mkdir -p "$stage/lsm/m" "$stage/lsm/ext4" "$stage/lsm/src"
	"$here/lsm/build-selinux-policy.sh" --out "$stage/lsm/selinux.policy" ||
		die "--lsm: the SELinux policy did not build"
	cp "$here/lsm/smack.rules" "$here/lsm/setup.sh" "$stage/lsm/"
	cp "$lsm_bin" "$stage/bin/nsb-lsm"
	# The image's files (labels are set in the guest, where the LSM is).
	head -c 4096 /dev/zero >"$stage/lsm/src/file"
	mkdir -p "$stage/lsm/src/d"
	find "$stage/lsm/src" -exec touch -h -d @0 {} +
	E2FSPROGS_FAKE_TIME=1 mkfs.ext4 -q -F -b 1024 -N 64 -m 0 \
		-U 6e736200-0000-4000-8000-000000000007 \
		-E hash_seed=6e736200-0000-4000-8000-000000000007,root_owner=0:0 \
		-d "$stage/lsm/src" "$stage/lsm/ext4.img" 2048 ||
		die "mkfs.ext4 -d failed"
	# mkfs.ext4 -d stamps each inode's ctime (and crtime) with the
	# time of day, whatever E2FSPROGS_FAKE_TIME says: every build made
	# another image, so no guest image ever matched a cached boot.
	# Every inode's times to 0, with debugfs.
	{ echo / ; echo /lost+found
	  (cd "$stage/lsm/src" && find . -mindepth 1 | LC_ALL=C sort | cut -c2-)
	} | while read -r f; do
		for t in atime ctime mtime crtime; do
			echo "sif $f $t 0"
		done
	done >"$stage/lsm/times"
	E2FSPROGS_FAKE_TIME=1 debugfs -w -f "$stage/lsm/times" \
		"$stage/lsm/ext4.img" >/dev/null 2>&1 ||
		die "debugfs could not set the ext4 image's times"
	rm -rf "$stage/lsm/src" "$stage/lsm/times"
fi

cp "$here/init.sh" "$stage/init"
cp "$plan" "$stage/plan"
chmod 755 "$stage/init" "$stage/bin/nsb-guest" "$stage/bin/nsb-true"
echo 'root:x:0:0:root:/root:/bin/sh' >"$stage/etc/passwd"
echo 'root:x:0:' >"$stage/etc/group"
# The kernel opens /dev/console before /init runs.
mknod -m 600 "$stage/dev/console" c 5 1

find "$stage" -exec touch -h -d @0 {} +
(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort |
	cpio --quiet -o -H newc --reproducible -R 0:0) >"$out.tmp" ||
	die "cpio failed"
mv "$out.tmp" "$out"
echo "initramfs $out: $(du -k "$out" | cut -f1) KiB sha256:$(sha256sum "$out" | cut -c1-16)" >&2
