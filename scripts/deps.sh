#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh check|install — make sure the Debian 12 packages nsbench needs are
# present.  `check` only reports; `install` runs apt-get for what is missing
# (root needed).  Idempotent and quiet when everything is there.

set -eu

# The kernel source to install: KERNEL=6.12 (NSB_KERNEL) or the default.
patches=$(dirname "$0")/../kernel-patches
kernel=${NSB_KERNEL:-$(sed -n 's/^\([0-9][0-9.]*\)$/\1/p' "$patches/default-version")}
if [ ! -d "$patches/$kernel" ]; then
	echo "nsbench: KERNEL=$kernel: kernel-patches/ has no series for Linux $kernel, only:" \
		$(cd "$patches" && ls -d [0-9]*.[0-9]*) >&2
	exit 2
fi

# One line per package, grouped by what needs it.
PACKAGES="
build-essential g++ make pkg-config perl git python3
libbenchmark-dev liburcu-dev libjansson-dev libgsl-dev libcap-dev
gnuplot-nox hyperfine linux-perf jq
attr libcap2-bin e2fsprogs util-linux
qemu-system-x86 busybox-static cpio xz-utils kmod ccache
linux-source-$kernel flex bison bc libelf-dev libssl-dev
checkpolicy
help2man man-db libxml2-utils yamllint cmark-gfm python3-markdown
libbenchmark-tools python3-scipy
"

missing_packages() {
	for p in $PACKAGES; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q '^install ok installed$' || echo "$p"
	done
}

missing=$(missing_packages)
[ -z "$missing" ] && exit 0

case "${1:-check}" in
check)
	echo "nsbench: missing Debian packages:" $missing >&2
	echo "nsbench: run 'make deps' as root (or: apt-get install" $missing")" >&2
	exit 1
	;;
install)
	if [ "$(id -u)" != 0 ]; then
		echo "nsbench: these packages are missing and installing them needs root:" >&2
		echo "  apt-get install" $missing >&2
		exit 1
	fi
	echo "  DEPS    apt-get install" $missing
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
	still=$(missing_packages)
	if [ -n "$still" ]; then
		echo "nsbench: apt-get did not install:" $still >&2
		exit 1
	fi
	;;
*)
	echo "usage: $0 check|install" >&2
	exit 2
	;;
esac
