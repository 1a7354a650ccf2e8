#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/guest/probe-kvm.sh KERNEL INITRD [FALLBACK]
#
# Prints "kvm" when /dev/kvm boots the given kernel to the guest's /init
# within NSB_KVM_PROBE_TIMEOUT seconds (default 20), else FALLBACK
# (default icount).  Nested KVM on these machines hangs at boot: the probe
# gives up and never waits longer than the timeout.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
kernel=${1:?usage: probe-kvm.sh KERNEL INITRD [FALLBACK]}
initrd=${2:?usage: probe-kvm.sh KERNEL INITRD [FALLBACK]}
fallback=${3:-icount}
limit=${NSB_KVM_PROBE_TIMEOUT:-20}

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
	echo "probe-kvm: KVM did not boot a guest within ${limit}s ($(tail -n 1 "$dir/err")); using $fallback" >&2
	echo "$fallback"
fi
