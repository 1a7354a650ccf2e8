#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ksrc-tree.sh — --ksrc on a kernel git tree of one's own (slow tier:
# three kernel builds and eight boots; ccache makes the builds after the
# first short).  A git repository is made from Debian's source of
# NSB_KERNEL (default kernel-patches/default-version; KERNEL=6.12 for
# 6.12) with two commits: "base", the source as shipped, and "inject",
# the version's calibration series (calibration_spin() and a known
# number of instructions per exec, open and path component).  Both paths a developer with a tree of their own has:
#   1. the per-check headline: ab.sh --checks --ksrc TREE --ref base
#      takes the toggles series of the tree's version (read from its
#      Makefile) and every no-LSM family comes out;
#   2. the two-kernel A/B: ab.sh --ksrc TREE --base-ref base --ref inject
#      --series none: the exec row moves by the calibration's prediction
#      (kernel-patches/VERSION/calibration/predictions), within 0.5 %
#      (make validate's bound for plain means, at least 1 insn), and
#      open by its own; the central-* steps' exec (each run's mean of
#      its central chunks) within 0.2 %, make validate's central bound.
# Also: a tree whose version has no series is refused at once, naming
# the versions that have one.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/../lib-tap.sh"

rounds=${ROUNDS:-2}

need_kernel_tree
tap_plan 9

# The tree: the tarball's files, committed twice.
tree=$tmp/linux
( kernel_tree "$tree" "$ver" &&
	for p in $(sed 's/#.*//' "$cal/series"); do
		git -C "$tree" apply "$cal/$p" || exit 1
	done &&
	commit_all "$tree" "inject: the calibration series" inject ) \
	>"$tmp/git.log" 2>&1
rc=$?
ok $rc "a git tree of Linux $ver with a base and an inject commit"
[ $rc = 0 ] || tail -n 20 "$tmp/git.log" | sed 's/^/# /'

# ab OUT ARGS...: one ab.sh run, quietly.
ab() {
	local out=$1
	shift
	"$top/scripts/ab.sh" --mode icount --rounds "$rounds" --out "$out" \
		--ksrc "$tree" "$@" >"$out.log" 2>&1
}

ab "$tmp/checks" --checks --ref base
rc=$?
ok $rc "--checks --ksrc TREE: the tree's version picks its toggles series"
[ $rc = 0 ] || tail -n 20 "$tmp/checks.log" | sed 's/^/# /'
"$nsb" costs --json="$tmp/checks.json" "$tmp/checks/B" >"$tmp/checks.txt" 2>&1
fams=$(jq -r '[.rows[].seed] | unique | join(" ")' "$tmp/checks.json" 2>/dev/null)
[ "$fams" = "002 003 004 004/5 005 006" ]
ok $? "the headline's no-LSM families from the tree: ${fams:-none}"

ab "$tmp/ab" --base-ref base --ref inject --series none \
	--workloads '^sys/exec/vfork/bin/init/depth:0/ ^sys/open/file/init/depth:0/'
rc=$?
ok $rc "two-kernel A/B of the tree's commits, $rounds rounds"
[ $rc = 0 ] || tail -n 20 "$tmp/ab.log" | sed 's/^/# /'
# The bench steps' files (plain means), then the central-* steps' (each
# run's mean of its central chunks, as make validate's second table).
plain() { ls "$tmp/ab/$1"/*.json | grep -v -- '-central-'; }
central() { ls "$tmp/ab/$1"/*-central-*.json; }
# shellcheck disable=SC2046 # file names of ab.sh's making
"$nsb" compare --format=json $(plain A) -- $(plain B) >"$tmp/ab.json" 2>/dev/null
# shellcheck disable=SC2046
"$nsb" compare --format=json --metric=nsb_on $(central A) -- $(central B) \
	>"$tmp/central.json" 2>/dev/null
# within NAME JSON PERCENT: the row's shift within PERCENT (>= 1 insn)
# of its prediction.
within() {
	local want got
	want=$(awk -v n="$1" '$1 == n { print $2 }' "$cal/predictions")
	got=$(jq -r --arg n "$1" '.rows[] | select(.name == $n) | .shift.est' "$2")
	echo "# $1: predicted $want, measured ${got:-nothing}" \
		"$(jq -r --arg n "$1" '.rows[] | select(.name == $n) |
			"[\(.shift.lo), \(.shift.hi)]"' "$2")"
	[ -n "$want" ] && [ -n "$got" ] &&
		awk -v w="$want" -v g="$got" -v p="$3" 'BEGIN { d = g - w; if (d < 0) d = -d; t = p / 100 * w; if (t < 1) t = 1; exit !(d <= t) }'
}
within sys/exec/vfork/bin/init/depth:0/manual_time "$tmp/ab.json" 0.5
ok $? "exec: the injected commit's cost, within 0.5 %"
within sys/open/file/init/depth:0/manual_time "$tmp/ab.json" 0.5
ok $? "open: its own prediction, within 0.5 % (1 insn)"
within sys/exec/vfork/bin/init/depth:0/manual_time "$tmp/central.json" 0.2
ok $? "exec, central chunks: within 0.2 %, make validate's central bound"
grep -q 'central chunks' "$tmp/ab.log"
ok $? "ab.sh prints the central table after the plain one"

# A tree of a version without a series: refused before any build.
sed -i 's/^PATCHLEVEL = .*/PATCHLEVEL = 99/' "$tree/Makefile"
(cd "$tree" && git commit -qam "a version nsbench has no series for")
"$top/scripts/ab.sh" --checks --ksrc "$tree" --out "$tmp/none" \
	>/dev/null 2>"$tmp/err"
[ $? != 0 ] && grep -q "has no version for Linux [0-9]*\.99.*it exists for:" "$tmp/err"
ok $? "a tree of a version with no toggles series: refused, the versions named"
tap_done
