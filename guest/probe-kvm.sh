#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest/probe-kvm.sh KERNEL INITRD [FALLBACK]
#
# Prints "kvm" when /dev/kvm boots the given kernel to the guest's /init
# within NSB_KVM_PROBE_TIMEOUT seconds (default 20), else FALLBACK
# (default icount).  Nested KVM on these machines hangs at boot: the probe
# gives up and never waits longer than the timeout.

set -eu -o pipefail
shopt -s inherit_errexit

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/kernel/lib.sh
. "$here/../scripts/kernel/lib.sh"

{ [ $# -ge 2 ] && [ $# -le 3 ]; } || die "usage: probe-kvm.sh KERNEL INITRD [FALLBACK]"
kernel=$1
initrd=$2
fallback=${3:-icount}
limit=${NSB_KVM_PROBE_TIMEOUT:-20}
case "$fallback" in icount|tcg) ;;
*) die "FALLBACK must be icount or tcg, not '$fallback'" ;;
esac
need_uint NSB_KVM_PROBE_TIMEOUT "$limit" 1
# A missing file is the caller's error, not "KVM does not boot".
[ -d "$kernel" ] || [ -r "$kernel" ] || die "kernel '$kernel' not found"
[ -r "$initrd" ] || die "initrd '$initrd' not found"

if [ ! -w /dev/kvm ]; then
	echo "probe-kvm: /dev/kvm not usable; using $fallback" >&2
	echo "$fallback"
	exit 0
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
if "$here/run-qemu.sh" --kernel "$kernel" --initrd "$initrd" --mode kvm \
	--out "$dir" --append nsb.probe=1 --boot-timeout "$limit" \
	--timeout "$limit" >/dev/null 2>"$dir/err"; then
	echo "probe-kvm: KVM boots a guest" >&2
	echo kvm
else
	echo "probe-kvm: KVM did not boot a guest within ${limit}s ($(tail -n 1 "$dir/err" || true)); using $fallback" >&2
	echo "$fallback"
fi
