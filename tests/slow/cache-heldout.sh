#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# cache-heldout.sh — the cache model against a cost known by construction
# (slow tier: two kernels, 2 x ROUNDS icount boots with the plugin).
# kernel-patches/6.1/calibration/cache adds, on top of the toggles series,
# a read of 64 distinct cache lines of a static array on the nodev
# check's on-path (may_open_dev(), only with the switch on): 262
# instructions, 66 loads (64 lines and 2 pops), 2 stores.  make run's 003
# rows and an exec row, run with the cache model on that kernel and on
# the toggles kernel with the same seeds, must differ by exactly that:
#   open of a device node on a mount without MNT_NODEV: +262 insn, +66
#     loads, +64 L1d and +64 LL misses cold, L1d and LL warm unmoved;
#   the same on a nodev mount (not taken) and exec (no device): every
#     column unmoved;
# each within 1 % of its prediction, an unmoved column within 1 of 0,
# and every row's off state unmoved in loads and cold misses (the
# construction runs nothing with the switch off).
#
# Environment: ROUNDS (default 6), OUT (default a temporary directory).

. "$(dirname "$0")/../lib-tap.sh"
need_guest
need jq jq
[ "$(kernel_version)" = 6.1 ] || skip_all "the cache calibration is a 6.1 series"

rounds=${ROUNDS:-6}
out=${OUT:-$tmp}
plugin=$NSB_BUILD/guest/plugin/nsb-cachesim.so
tap_plan 5

cat >"$out/plan" <<'PLAN'
COST_ARGS=--benchmark_min_time=0.03
cost nodev open-dev '^sys/open/dev/(init|self)(/nodev)?/depth:0/'
cost mnt_may_suid exec '^sys/exec/vfork/bin/init/depth:8/'
PLAN

ab() {
	"$top/scripts/ab.sh" --checks --mode icount --rounds "$rounds" \
		--jobs "$(nproc)" --plan "$out/plan" --cachesim "$plugin" \
		--out "$out/$1" --series "$2" >"$out/$1.log" 2>&1
}
ab toggles userns-checks-toggles
ok $? "the toggles kernel: $rounds rounds with the cache model"
ab heldout calibration/cache
ok $? "the calibration kernel (calibration/cache): the same rounds and seeds"

# "label metric est lo hi off" per row and metric (insn: the headline's)
cols() {
	jq -r '.rows[] | select(.shift != null and .cache != null) |
		. as $r | ("insn \(.shift.est) \(.shift.lo) \(.shift.hi) \(.off)",
		(.cache | to_entries[] | select(.key != "insn") |
		 "\(.key) \(.value.est) \(.value.lo) \(.value.hi) \(.value.off)")) |
		"\($r.label)|\(.)"' "$1/costs.json" | sed 's/ /|/' | sort
}
cols "$out/toggles" >"$out/t.txt"
cols "$out/heldout" >"$out/h.txt"
join -j1 "$out/t.txt" "$out/h.txt" >"$out/pairs.txt"

# predict LABEL|METRIC: the held-out kernel's extra shift
predict() {
	case "$1" in
	open/dev/init/d0\|*|open/dev/self/d0\|*)
		case "${1#*|}" in
		insn) echo 262 ;;
		loads) echo 66 ;;
		l1d_miss_cold|ll_miss_cold) echo 64 ;;
		*) echo 0 ;;
		esac ;;
	*) echo 0 ;;
	esac
}

# Every pair: the difference of the shifts within 1 % of the prediction
# (1 where it is 0); the off state's loads and cold misses unmoved.
bad=0 rows=0 taken=0
while read -r key t _ _ toff h _ _ hoff; do
	p=$(predict "$key")
	v=$(awk -v t="$t" -v h="$h" -v p="$p" -v to="$toff" -v ho="$hoff" \
		-v m="${key#*|}" 'BEGIN {
		tol = p ? 0.01 * p : 1; d = h - t
		good = d - p <= tol && p - d <= tol
		if (m == "loads" || m ~ /_cold$/)
			good = good && ho - to <= 1 && to - ho <= 1
		printf "%.3f %d\n", d, good }')
	set -- $v
	echo "# $key: toggles $t (off $toff), held-out $h (off $hoff): difference $1, predicted $p"
	[ "$2" = 1 ] || { bad=$((bad + 1)); echo "# ^ does not match"; }
	[ "$p" != 0 ] && taken=$((taken + 1))
	rows=$((rows + 1))
done <"$out/pairs.txt"
[ "$rows" -ge 40 ]
ok $? "columns compared: $rows (5 rows x 9 quantities)"
[ "$taken" = 8 ]
ok $? "predicted moves (insn, loads, L1d and LL cold on two rows): $taken of 8"
[ "$bad" = 0 ]
ok $? "every column's difference matches its prediction ($bad do not)"
tap_done
