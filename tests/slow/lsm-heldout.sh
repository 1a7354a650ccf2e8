#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lsm-heldout.sh — the held-out check of the mount-time method (slow
# tier: two kernels, twelve SELinux boots).  kernel-patches/6.1/calibration/
# lsm adds, on top of the toggles series, 303 instructions per inode that
# SELinux labels from the mountpoint (only on a userns mount made with
# the selinux switch on) and 1003 per such mount.  The SELinux rows of
# `make run`'s plan, run on that kernel and on the toggles kernel with the
# same seeds, must differ by exactly what the construction says: +303 per
# lookup and per open on the userns FUSE mount (one new inode each), +1003
# per userns FUSE mount, 0 on the init-owned controls, 0 on every row
# whose mounts are not relabelled (secattr, exec), within 1 %.
#
# Environment: ROUNDS (default 6), OUT (default a temporary directory).

. "$(dirname "$0")/../lib-tap.sh"
need_guest
need jq jq

rounds=${ROUNDS:-6}
out=${OUT:-$tmp}
tap_plan 5

ab() {
	"$top/scripts/ab.sh" --checks --lsm-boots selinux --mode icount \
		--rounds "$rounds" --jobs "$(nproc)" --out "$out/$1" \
		--series "$2" >"$out/$1.log" 2>&1
}

ab toggles userns-checks-toggles
ok $? "the toggles kernel: $rounds rounds with SELinux boots"
ab heldout calibration/lsm
ok $? "the held-out kernel (calibration/lsm): the same rounds and seeds"

# shift of every SELinux-boot row: "switch|label est lo hi" per line
shifts() {
	jq -r '.rows[] | select(.lsm == "selinux" and .shift != null) |
		"\(.switch)|\(.label) \(.shift.est) \(.shift.lo) \(.shift.hi)"' \
		"$1/costs.json" | sort
}
shifts "$out/toggles" >"$out/t.txt"
shifts "$out/heldout" >"$out/h.txt"
join -j1 "$out/t.txt" "$out/h.txt" >"$out/pairs.txt"

# predicted extra shift per row: 303 per inode labelled from the
# mountpoint (a userns FUSE lookup or open: one new inode each), and per
# userns FUSE mount 1003 (selinux_set_mnt_opts) + 303 (its root inode)
predict() {
	case "$1" in
	selinux\|*fuse/self/d1) echo 303 ;;
	selinux\|*mount/fuse/d1) echo 1306 ;;
	*) echo 0 ;;
	esac
}
# A row is checked at 1 % of its prediction (1 insn where that is 0).
# Where either run's CI is wider than that tolerance the row cannot be
# checked so finely: then the prediction must lie within the difference's
# CI (held-out lo - toggles hi .. held-out hi - toggles lo), and the row
# is counted apart.
bad=0 rows=0 fuse=0 coarse=0
while read -r key t tlo thi h hlo hhi; do
	p=$(predict "$key")
	v=$(awk -v t="$t" -v tlo="$tlo" -v thi="$thi" -v h="$h" -v hlo="$hlo" \
		-v hhi="$hhi" -v p="$p" 'BEGIN {
		tol = p ? 0.01 * p : 1; d = h - t
		if (thi - tlo <= 2 * tol && hhi - hlo <= 2 * tol)
			print d, (d - p <= tol && p - d <= tol), "fine"
		else
			print d, (hlo - thi <= p && p <= hhi - tlo), "coarse" }')
	set -- $v
	echo "# $key: toggles $t [$tlo, $thi], held-out $h [$hlo, $hhi]," \
		"difference $1, predicted $p ($3)"
	[ "$2" = 1 ] || bad=$((bad + 1))
	[ "$3" = coarse ] && coarse=$((coarse + 1))
	[ "$p" = 303 ] && [ "$3" = fine ] && fuse=$((fuse + 1))
	rows=$((rows + 1))
done <"$out/pairs.txt"
[ "$rows" -ge 4 ]
ok $? "rows to compare: $rows ($coarse too wide to check at 1 %)"
[ "$fuse" -ge 2 ]
ok $? "userns FUSE lookups and opens with a predicted +303, checked at 1 %: $fuse"
[ "$bad" = 0 ]
ok $? "every row's difference matches its prediction ($bad do not)"
tap_done
