#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bisect.sh — nsbench bisect finds the commit that made exec slower
# (slow tier: a kernel build per step, ccache makes all but the first
# short).  A git tree made from Debian's source of the default version
# (NSB_KERNEL) gets eight commits; the fifth carries the version's
# calibration series (a known number of instructions per exec), the
# others touch nothing exec runs (documentation, a comment, a driver
# the config does not build).  `nsbench bisect --good base --bad c8`
# must name the fifth, with a shift within 5 % of the prediction; a
# good..bad range without a slowdown is refused (exit 1).  The note
# prints the steps and the time.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/../lib-tap.sh"


need_kernel_tree
tap_plan 4

tree=$tmp/linux
# commit N: what it changes; the fifth is the regression
change() {
	case "$1" in
	1) echo "nsbench bisect test" >>"$tree/Documentation/admin-guide/README.rst" ;;
	2) sed -i '1a /* nsbench bisect test: a comment */' "$tree/fs/exec.c" ;;
	3) echo "# nsbench bisect test" >>"$tree/drivers/gpu/drm/Kconfig" ;;
	4) echo "nsbench" >"$tree/tools/nsbench-bisect.txt" ;;
	5) for p in $(sed 's/#.*//' "$cal/series"); do
		(cd "$tree" && git apply "$cal/$p") || return 1
	   done ;;
	6) echo "more" >>"$tree/Documentation/admin-guide/README.rst" ;;
	7) echo "# again" >>"$tree/drivers/gpu/drm/Kconfig" ;;
	8) echo "end" >>"$tree/tools/nsbench-bisect.txt" ;;
	esac
}
(
	kernel_tree "$tree" "$ver" || exit 1
	for i in 1 2 3 4 5 6 7 8; do
		change "$i" && commit_all "$tree" "commit $i" "c$i" || exit 1
	done
) >"$tmp/git.log" 2>&1
rc=$?
ok $rc "a git tree of Linux $ver: base and eight commits, the fifth slower"
[ $rc = 0 ] || { tail -n 20 "$tmp/git.log" | sed 's/^/# /'; tap_done; }

filter='^sys/exec/vfork/bin/init/depth:0/'
t0=$(date +%s)
"$nsb" bisect --ksrc "$tree" --good base --bad c8 --workloads "$filter" \
	--out "$tmp/bisect" >"$tmp/out" 2>"$tmp/err"
rc=$?
secs=$(( $(date +%s) - t0 ))
sed 's/^/# /' "$tmp/err" "$tmp/out"
[ $rc = 0 ] && [ "$(jq -r .first_bad "$tmp/bisect/bisect.json")" = "$(git -C "$tree" rev-parse c5)" ]
ok $? "nsbench bisect names the fifth commit ($secs s, $(jq -r .steps "$tmp/bisect/bisect.json" 2>/dev/null) steps after bad)"
want=$(awk '$1 == "sys/exec/vfork/bin/init/depth:0/manual_time" { print $2 }' "$cal/predictions")
got=$(jq -r .shift.est "$tmp/bisect/bisect.json" 2>/dev/null)
echo "# predicted $want insn per exec, measured ${got:-nothing}"
[ -n "$want" ] && [ -n "$got" ] &&
	awk -v w="$want" -v g="$got" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= 0.05 * w) }'
ok $? "its shift is the calibration's, within 5 %"

"$nsb" bisect --ksrc "$tree" --good c5 --bad c8 --workloads "$filter" \
	--out "$tmp/none" >/dev/null 2>"$tmp/err"
[ $? = 1 ] && grep -q "nothing to bisect" "$tmp/err"
ok $? "a range without a slowdown: nothing to bisect, exit 1"
tap_done
