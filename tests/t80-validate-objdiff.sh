#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Quick tier of the self-validation (TAP): scripts/kernel/objdiff.sh, the
# objdump proof of the calibration series.  First on small objects built
# here (a function gains a calibration block, jumps across it included:
# pass; another function changes, a block has an unexpected K, an
# expected K is missing: fail), then on the real kernels when the stock
# and the current calibration kernel are already in $NSB_CACHE (skipped
# with the reason otherwise: building them is the slow tier's job).
# The boot form is tests/slow/validate.sh (`make check-slow`).

set -u

# Parsed whole before it runs: editing this file cannot break a run.
{

# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
od=$top/scripts/kernel/objdiff.sh
NSB_CACHE=${NSB_CACHE:-/var/cache/nsbench}

need objdump binutils
need python3 python3
need gcc gcc
tap_plan 7

# obj NAME EXTRA-IN-F EXTRA-IN-H: a small static program; f has a branch
# to the insertion point and a loop after it, so jump targets move.
# Kernel-like flags (no loop or jump alignment), linked like vmlinux.
obj() {
	cat >"$tmp/$1.c" <<EOF
#define spin(k) asm volatile("pushq %%rcx\n\tmovl %0, %%ecx\n1:\tdecl %%ecx\n\tjnz 1b\n\tpopq %%rcx" : : "i" (k) : "cc")
int g;
__attribute__((noinline)) int h(int x) { return x + g $3; }
int f(int x)
{
	int s = 0;

	if (x > 3)
		s = h(x);
	$2
	s += h(s);
	while (s > 100)
		s = h(s >> 1);
	return s;
}
EOF
	gcc -O2 -falign-jumps=1 -falign-loops=1 -fno-pie -no-pie -static \
		-nostdlib -Wl,-e,f -Wl,--build-id=none -o "$tmp/$1.o" "$tmp/$1.c"
}
obj base "" ""
obj calib "spin(24);" ""
obj other "spin(24);" "+ 1"
obj k7 "spin(7);" ""

"$od" --expect 24 "$tmp/base.o" "$tmp/calib.o" >"$tmp/out" 2>&1
ok $? "a function gaining spin(24) passes, jumps across the block included"
grep -q 'K=24 -> 2K+3 = 51 instructions per pass' "$tmp/out"
ok $? "the block is reported as 51 instructions per pass"
sed 's/^/# /' "$tmp/out"

! "$od" --expect 24 "$tmp/base.o" "$tmp/other.o" >"$tmp/out" 2>&1 &&
	grep -q 'FAIL h: changed without a calibration block' "$tmp/out"
ok $? "another function that changed fails the proof"

! "$od" --expect 24 "$tmp/base.o" "$tmp/k7.o" >"$tmp/out" 2>&1 &&
	grep -q 'K=7 in' "$tmp/out" && grep -q 'K=24 .*no such block' "$tmp/out"
ok $? "an unexpected K and a missing K fail the proof"

"$od" --aa "$tmp/base.o" "$tmp/base.o" >"$tmp/out" 2>&1
ok $? "--aa: an object against itself is the same code"

# The real kernels: the cache key as scripts/kernel/build.sh computes it
# (source, series patches, config, builder version, salt), so only the
# kernel of the current series counts; nothing is built here.
key() {
	local series=$1 src p
	src=$(sed -n 2p "$NSB_CACHE/src/linux-source-6.1/.nsb-complete" 2>/dev/null)
	[ -n "$src" ] || return 1
	{
		echo "source $src"
		echo "series $series"
		if [ "$series" != none ]; then
			for p in $(sed -e 's/#.*//' "$top/kernel-patches/6.1/$series/series"); do
				echo "patch $p"
				cat "$top/kernel-patches/6.1/$series/$p"
			done
		fi
		echo "config base.config"
		cat "$top/kernel-patches/configs/base.config"
		echo "builder $(sed -n 's/^BUILDER_VERSION=//p' "$top/scripts/kernel/build.sh")"
		echo "salt "
	} | sha256sum | cut -c1-16
}
kA=$NSB_CACHE/kernels/$(key none)
kB=$NSB_CACHE/kernels/$(key calibration)
if [ -f "$kA/vmlinux" ] && [ -f "$kB/vmlinux" ]; then
	expect=$(sed -n 's/.*calibration_spin(\([0-9]*\)).*/\1/p' \
		"$top"/kernel-patches/6.1/calibration/0*.patch | sort -u | tr '\n' ' ')
	"$od" --expect "$expect" "$kA" "$kB" >"$tmp/out" 2>&1
	ok $? "vmlinux: the calibration kernel differs from stock only by its blocks (K = $expect)"
	sed 's/^/# /' "$tmp/out"
	grep -c 'instructions per pass' "$tmp/out" | grep -qx 4
	ok $? "vmlinux: four calibrated functions"
else
	skip "vmlinux: calibration vs stock: no cached stock + calibration kernel for the current series (make validate builds them)"
	skip "vmlinux: four calibrated functions: no cached kernels"
fi
tap_done
}
