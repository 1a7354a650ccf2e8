#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/kernel/objdiff.sh — prove from two built kernels what a
# calibration series changed: function by function over the whole vmlinux.
#
#   objdiff.sh [--expect "K..."] [--new FUNC]... BASE PATCHED
#   objdiff.sh --aa BASE OTHER
#
# BASE, PATCHED: kernel cache directories (scripts/kernel/build.sh prints
# them) or vmlinux files.  Every function of both vmlinux files is
# disassembled (objdump -d --no-show-raw-insn) and normalised: addresses
# dropped, calls and data references kept by symbol name, a jump inside a
# function kept as the index of its target instruction.  Then:
#
#   - a function changed by the series must equal its base form once the
#     inserted calibration_spin() blocks are taken out, jump targets
#     included; each block must be exactly
#         push %rcx; mov $K,%ecx; 1: dec %ecx; jne 1b; pop %rcx
#     which retires 2K + 3 instructions per pass;
#   - every other function must be identical (so no object file changed
#     anywhere else: no inlining, register or layout decision moved);
#   - --expect "1999 49 24 499": the K values that must be found (each at
#     least once; a block whose K is not listed is an error).
#   --aa: two builds of the same source must not differ in any function.
#   --new FUNC: FUNC may exist in PATCHED only (a layout-only series adds
#   a function nothing calls; everything else must still be identical).
#
# Output: one line per changed function (K, 2K+3, insertions) and a
# verdict; exit 0 when the proof holds, 1 when not, 2 on usage errors.
# Needs objdump (binutils) and python3.

set -eu

# Parsed whole before it runs: editing this file cannot break a run.
{

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/kernel/lib.sh
. "$here/lib.sh"

aa=0 expect='' args=()
while [ $# -gt 0 ]; do
	case "$1" in
	--aa) aa=1 ;;
	--expect) expect=$2; shift ;;
	--expect=*) expect=${1#*=} ;;
	--new) args+=(--new "$2"); shift ;;
	-h|--help) sed -n '4,31p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
	-*) echo "objdiff.sh: unknown option '$1'" >&2; exit 2 ;;
	*) break ;;
	esac
	shift
done
[ $# = 2 ] || { echo "usage: objdiff.sh [--aa] [--expect \"K...\"] BASE PATCHED" >&2; exit 2; }

vmlinux() {
	if [ -d "$1" ]; then echo "$1/vmlinux"; else echo "$1"; fi
}
a=$(vmlinux "$1")
b=$(vmlinux "$2")
for f in "$a" "$b"; do
	[ -r "$f" ] || { echo "objdiff.sh: no vmlinux at '$f'" >&2; exit 2; }
done
command -v objdump >/dev/null || { echo "objdiff.sh: objdump not found (binutils)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "objdiff.sh: python3 not found" >&2; exit 2; }

sa=$(sha256sum "$a" | cut -d' ' -f1)
sb=$(sha256sum "$b" | cut -d' ' -f1)
if [ "$sa" = "$sb" ]; then
	# Byte-identical files (a reproducible A/A build): nothing to
	# disassemble.
	echo "objdiff: base    $a (${sa:0:16})"
	echo "objdiff: patched $b (${sb:0:16})"
	echo "objdiff: the two vmlinux files are byte-identical"
	if [ "$aa" = 1 ] || [ -z "$expect" ]; then
		echo "objdiff: PASS (the two builds are the same code)"
		exit 0
	fi
	echo "objdiff: FAIL no calibration block (expected K = $expect)"
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Both disassemblies at once: two cores, ~15 s each.
objdump -d --no-show-raw-insn "$a" >"$tmp/a.dis" &
pa=$!
objdump -d --no-show-raw-insn "$b" >"$tmp/b.dis"
wait "$pa"

echo "objdiff: base    $a (${sa:0:16})"
echo "objdiff: patched $b (${sb:0:16})"
[ "$aa" = 0 ] || args+=(--aa)
python3 "$here/objdiff.py" "${args[@]}" --expect "$expect" \
	"$tmp/a.dis" "$tmp/b.dis"
exit
}
