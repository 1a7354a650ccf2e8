#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lsm-heldout.sh — the held-out check of the mount-time method (slow
# tier: two kernels, twelve SELinux boots).  kernel-patches/calibration/
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

# shift of every SELinux-boot row: "switch label est" per line
shifts() {
	jq -r '.rows[] | select(.lsm == "selinux" and .shift != null) |
		"\(.switch) \(.label) \(.shift.est)"' "$1/costs.json" | sort
}
shifts "$out/toggles" >"$out/t.txt"
shifts "$out/heldout" >"$out/h.txt"
join -j1 <(awk '{ print $1 "|" $2, $3 }' "$out/t.txt") \
	<(awk '{ print $1 "|" $2, $3 }' "$out/h.txt") >"$out/pairs.txt"
diag <"$out/pairs.txt"

# predicted extra shift per row: 303 on the userns FUSE lookup and open
# of 007 (one new inode each), 1003 on its userns FUSE mount
predict() {
	case "$1" in
	selinux\|*fuse/self/d1) echo 303 ;;
	selinux\|*mount/fuse/d1) echo 1003 ;;
	*) echo 0 ;;
	esac
}
bad=0 rows=0 fuse=0
while read -r key t h; do
	p=$(predict "$key")
	d=$(awk -v t="$t" -v h="$h" 'BEGIN { print h - t }')
	# within 1 % of the prediction, or of 1 instruction where it is 0
	within=$(awk -v d="$d" -v p="$p" 'BEGIN {
		tol = p ? 0.01 * p : 1; print (d - p <= tol && p - d <= tol) }')
	echo "# $key: toggles $t, held-out $h, difference $d, predicted $p"
	[ "$within" = 1 ] || bad=$((bad + 1))
	[ "$p" = 303 ] && fuse=$((fuse + 1))
	rows=$((rows + 1))
done <"$out/pairs.txt"
[ "$rows" -ge 4 ]
ok $? "rows to compare: $rows"
[ "$fuse" -ge 2 ]
ok $? "userns FUSE rows with a predicted +303: $fuse"
[ "$bad" = 0 ]
ok $? "every row's difference within 1 % of its prediction ($bad outside)"
tap_done
