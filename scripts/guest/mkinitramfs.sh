#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/guest/mkinitramfs.sh --plan FILE --out FILE [--bench BIN]
#                              [--guest BIN] [--perf] [--lsm]
#
# Builds the guest's initramfs (uncompressed newc cpio: nothing to
# decompress in a TCG guest): busybox-static with every applet linked,
# nsb-guest (static), nsbench-bench with the libraries ldd resolves and the
# dynamic loader, workloads/run-plan.sh with workloads/plans, /init and
# the plan; with --perf also perf (software events only here: no PMU),
# ~33 MB more; with --lsm the LSM scenarios' files under /lsm (see
# scripts/guest/lsm/README.md: SELinux policy, Smack rules, a 2 MiB ext4
# image made with mkfs.ext4 -d, nsb-lsm, setup.sh).  Reproducible: sorted entries,
# mtimes 0, root-owned, cpio --reproducible, so both sides of an A/B boot
# byte-identical images (sha256 printed on stderr).

set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
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
	--plan) plan=$2; shift ;;
	--out) out=$2; shift ;;
	--bench) bench=$2; shift ;;
	--guest) guest=$2; shift ;;
	--perf) perf=1 ;;
	--lsm) lsm=1 ;;
	-h|--help) sed -n '4,/^$/{/^#/p}' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
	*) die "unknown option '$1'" ;;
	esac
	shift
done
[ -n "$plan" ] && [ -r "$plan" ] || die "--plan FILE is required and readable"
[ -n "$out" ] || die "--out FILE is required"
busybox=$(command -v busybox || true)
[ -n "$busybox" ] || die "busybox not found (apt-get install busybox-static)"
file -L "$busybox" 2>/dev/null | grep -q 'statically linked' ||
	[ -x /bin/busybox ] || die "busybox must be static (busybox-static)"

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

# copy_bin BIN: BIN into /bin, its libraries under their own paths.
copy_bin() {
	local bin=$1 lib
	cp -L "$bin" "$stage/bin/"
	ldd "$bin" 2>/dev/null | awk '/=> \//{ print $3 } /^\t\//{ print $1 }' |
	while read -r lib; do
		mkdir -p "$stage$(dirname "$lib")"
		cp -L "$lib" "$stage$lib"
	done
}

mkdir -p "$stage"/{bin,dev,proc,sys,tmp,mnt,root,etc}
cp -L "$busybox" "$stage/bin/busybox"
for a in $("$busybox" --list); do
	[ "$a" = busybox ] || ln -s busybox "$stage/bin/$a"
done

if [ -z "$guest" ]; then
	guest=$NSB_CACHE/guest/nsb-guest
	mkdir -p "$(dirname "$guest")"
	if [ ! -x "$guest" ] || [ "$here/nsb-guest.c" -nt "$guest" ]; then
		# Concurrent runs (parallel test suites) each build their own
		# temporary and rename it: the last one wins, none sees half.
		gtmp=$(mktemp "$guest.XXXXXX")
		gcc -std=gnu11 -O2 -Wall -Wextra -static -o "$gtmp" \
			"$here/nsb-guest.c" || { rm -f "$gtmp"; die "cannot build nsb-guest"; }
		chmod 755 "$gtmp"
		mv "$gtmp" "$guest"
	fi
fi
cp "$guest" "$stage/bin/nsb-guest"

if [ -n "$bench" ]; then
	[ -x "$bench" ] || die "--bench '$bench' is not executable"
	copy_bin "$bench"
fi

if [ "$perf" = 1 ]; then
	p=$(command -v perf) || die "--perf: perf not found (apt-get install linux-perf)"
	# Debian's /usr/bin/perf may be a wrapper script naming perf_<ver>.
	if ! file -L "$p" | grep -q ELF; then
		p=$(ls /usr/bin/perf_[0-9]* 2>/dev/null | tail -n 1)
		[ -n "$p" ] || die "--perf: no perf ELF binary found"
	fi
	copy_bin "$p"
	[ "$(basename "$p")" = perf ] || ln -s "$(basename "$p")" "$stage/bin/perf"
fi

# The workloads' guest-side runner and its plans (workloads/), if present.
if [ -f "$top/workloads/run-plan.sh" ]; then
	mkdir -p "$stage/workloads/plans"
	cp "$top/workloads/run-plan.sh" "$stage/workloads/"
	cp "$top"/workloads/plans/*.plan "$stage/workloads/plans/" 2>/dev/null || true
fi

if [ "$lsm" = 1 ]; then
	mkdir -p "$stage/lsm/m" "$stage/lsm/ext4" "$stage/lsm/src"
	"$here/lsm/build-selinux-policy.sh" --out "$stage/lsm/selinux.policy"
	cp "$here/lsm/smack.rules" "$here/lsm/setup.sh" "$stage/lsm/"
	gcc -std=gnu11 -O2 -Wall -Wextra -static -I"$top" \
		-o "$stage/bin/nsb-lsm" "$here/lsm/nsb-lsm.c" \
		"$top/workloads/lsmfuse.c" || die "cannot build nsb-lsm"
	# The image's files (labels are set in the guest, where the LSM is).
	head -c 4096 /dev/zero >"$stage/lsm/src/file"
	mkdir -p "$stage/lsm/src/d"
	find "$stage/lsm/src" -exec touch -h -d @0 {} +
	E2FSPROGS_FAKE_TIME=1 mkfs.ext4 -q -F -b 1024 -N 64 -m 0 \
		-U 6e736200-0000-4000-8000-000000000007 \
		-E hash_seed=6e736200-0000-4000-8000-000000000007,root_owner=0:0 \
		-d "$stage/lsm/src" "$stage/lsm/ext4.img" 2048 ||
		die "mkfs.ext4 -d failed"
	rm -rf "$stage/lsm/src"
fi

cp "$here/init.sh" "$stage/init"
cp "$plan" "$stage/plan"
chmod 755 "$stage/init" "$stage/bin/nsb-guest"
echo 'root:x:0:0:root:/root:/bin/sh' >"$stage/etc/passwd"
echo 'root:x:0:' >"$stage/etc/group"
# The kernel opens /dev/console before /init runs.
mknod -m 600 "$stage/dev/console" c 5 1

find "$stage" -exec touch -h -d @0 {} +
mkdir -p "$(dirname "$out")"
(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort |
	cpio --quiet -o -H newc --reproducible -R 0:0) >"$out.tmp"
mv "$out.tmp" "$out"
echo "initramfs $out: $(du -k "$out" | cut -f1) KiB sha256:$(sha256sum "$out" | cut -c1-16)" >&2
