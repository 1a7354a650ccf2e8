#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lsm-heldout.sh — the held-out check of the mount-time method (slow
# tier: two kernels, twelve SELinux boots).  kernel-patches/VER/
# calibration/lsm adds, on top of the toggles series, 303 instructions
# per inode that SELinux labels from the mountpoint (only on a userns
# mount made with the selinux switch on) and 1003 per such mount.  Its
# reference is calibration/lsm-null: the same series with the same two
# sites at calibration_spin(1), 5 instructions each, so the two builds
# differ in two immediates and every function and object sits at the
# same address in both (a test point compares their System.map).
# Against the toggles kernel, whose layout the spins move, the off
# columns of 6.12's mount and open rows moved by +12 and +242 insn per
# op in single rounds; against the null, by < 0.07.  The SELinux rows of
# `make run`'s plan, run on both kernels with the same seeds, are
# compared column by column (costs.json's rows, src/lib/stats/costs.c
# cost_cols, and each round's results file, the rounds paired by seed),
# one test point per row, a failing row named with why.
# "Rounds" below: the difference held-out - null of every pair of rounds
# with the same seed; all of them must hold (with 6 rounds, [min, max]
# is the 96.9 % sign-test interval of their median, the level costs.json
# uses), and so must the difference of costs.json's pooled estimates.
#
#   shift  (on - off in one boot) held to its truth within 1 % (1 insn
#          where the truth is 0): +298 per lookup and per open on the
#          userns FUSE mount (one new inode each: 303 - 5), +1296 per
#          userns FUSE mount (1003 - 5 and its root inode's 298), 0 on
#          every other row (the init-owned controls d0, 006's setlabel,
#          005's exec).  Rounds further apart than twice the tolerance
#          cannot resolve 1 %: the row fails as "unresolved", whatever
#          its estimate; a truth inside a wide interval proves nothing.
#          (costs.json's own CIs are not differenced: one slow round,
#          the same in both runs, widens them both, and the pairing
#          cancels it.)
#   off    (the two off blocks' mean) must not move: < 1 insn.  The
#          construction runs nothing with the switch off (in the mount
#          row the off state's mount is made with the switch off), and
#          the two builds share every address (System.map, above), so
#          no off path runs a different instruction or reads a
#          different address.  What still moves an off level is the on
#          state's extra work earlier in the boot: time under icount is
#          instructions, so every later timer, RCU callback and kworker
#          lands elsewhere, and the kernel's state (slab freelists) when
#          the next row starts differs as it does between two seeds.
#   aa     (the A/A residual: off2 - off1, two off blocks of one boot)
#          must not move: < 1 insn.  Both blocks run the same build, so
#          layout cancels; a move is on-state work landing in an off
#          block.
#   pct, p, verdict, net_of_control: functions of shift, off and the
#          control row's shift, all held above; not compared again.
#
# OUT already holding both runs' costs.json compares them again without
# booting (cheap iteration on the comparison).
#
# Environment: ROUNDS (default 6), OUT (default a temporary directory).

# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/../lib-tap.sh"
need jq jq

rounds=${ROUNDS:-6}
out=${OUT:-$tmp}
mkdir -p "$out" || exit 1
if [ ! -s "$out/null/costs.json" ] || [ ! -s "$out/heldout/costs.json" ]
then
	need_guest
fi

ab() {
	# a run already in OUT (its costs.json) is compared again, not redone
	[ -s "$out/$1/costs.json" ] && return 0
	"$top/scripts/ab.sh" --checks --lsm-boots selinux --mode icount \
		--rounds "$rounds" --jobs "$(nproc)" --out "$out/$1" \
		--series "$2" >"$out/$1.log" 2>&1
}

ab null calibration/lsm-null
ok $? "the reference (calibration/lsm-null): $rounds rounds with SELinux boots"
ab heldout calibration/lsm
ok $? "the held-out kernel (calibration/lsm): the same rounds and seeds"

# the kernel each run booted (its manifest names the build's cache key)
system_map() {
	echo "${NSB_CACHE:-/var/cache/nsbench}/kernels/$(jq -r '.B.key' \
		"$out/$1/manifest.json")/System.map"
}
mn=$(system_map null) mh=$(system_map heldout)
same=1
if [ ! -r "$mn" ] || [ ! -r "$mh" ]; then
	same=0 why="a kernel is gone from the cache: $mn, $mh"
elif ! cmp -s "$mn" "$mh"; then
	same=0 why="they differ: diff $mn $mh"
else
	why="$(wc -l <"$mn") symbols"
fi
[ "$same" = 1 ]
ok $? "the two kernels put every symbol at the same address: $why"

# costs.json, every SELinux-boot row: "name label shift off aa"
cols() {
	jq -r '.rows[] | select(.lsm == "selinux" and .shift != null) |
		"\(.name) \(.switch)|\(.label) \(.shift.est) \(.off)" +
		" \(.aa.est // "none")"' "$1/costs.json" | sort
}
# each round's results, every benchmark with both off blocks and the on
# state: "seed|name shift off aa" in instructions (nsb_* are means over
# the round's chunks; off is the mean of the two off blocks, as costs.c
# pools it; 1 insn = 1 virtual ns under icount)
per_round() {
	for f in "$1"/B+selinux/r*.json; do
		jq -r '.context.nsbench_seed as $s | .benchmarks[] |
			select(.nsb_on != null and .nsb_off1 != null and
			       .nsb_off2 != null) |
			({"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[.time_unit])
			as $k | ((.nsb_off1 + .nsb_off2) / 2) as $off |
			"\($s)|\(.name) \((.nsb_on - $off) * $k) \($off * $k)" +
			" \((.nsb_off2 - .nsb_off1) * $k)"' "$f"
	done | sort
}
cols "$out/null" >"$out/n.txt"
cols "$out/heldout" >"$out/h.txt"
join -j1 "$out/n.txt" "$out/h.txt" >"$out/pairs.txt"
per_round "$out/null" >"$out/n-rounds.txt"
per_round "$out/heldout" >"$out/h-rounds.txt"
# "name n shift-min shift-max off-min off-max aa-min aa-max", the
# differences held-out - null of the rounds with the same seed
join -j1 "$out/n-rounds.txt" "$out/h-rounds.txt" | awk '{
	sub(/^[^|]*\|/, "", $1); k = $1; n[k]++
	v[1] = $5 - $2; v[2] = $6 - $3; v[3] = $7 - $4
	for (i = 1; i <= 3; i++) {
		if (n[k] == 1 || v[i] < lo[k, i]) lo[k, i] = v[i]
		if (n[k] == 1 || v[i] > hi[k, i]) hi[k, i] = v[i]
	} }
	END { for (k in n) printf "%s %d %s %s %s %s %s %s\n", k, n[k],
		lo[k, 1], hi[k, 1], lo[k, 2], hi[k, 2], lo[k, 3], hi[k, 3] }' |
	sort >"$out/rounds.txt"
join -j1 "$out/pairs.txt" "$out/rounds.txt" >"$out/rows.txt"

# the construction's truth for a row's shift (see the top)
truth() {
	case "$1" in
	selinux\|*fuse/self/d1) echo 298 ;;
	selinux\|*mount/fuse/d1) echo 1296 ;;
	*) echo 0 ;;
	esac
}

# the rows the construction moves and their controls must all be there,
# every row paired in all rounds
for r in stat/fuse/self/d0 stat/fuse/self/d1 open/fuse/self/d0 \
	open/fuse/self/d1 mount/fuse/d0 mount/fuse/d1; do
	grep -q " selinux|lsm/selinux/$r " "$out/rows.txt" ||
		echo "missing from a run: 007 lsm/selinux/$r"
done >"$out/missing.txt"
awk -v r="$rounds" '$10 != r { print "paired in " $10 " of " r \
	" rounds: " $2 }' "$out/rows.txt" >>"$out/missing.txt"
nrows=$(wc -l <"$out/rows.txt")
for f in n h; do
	have=$(wc -l <"$out/$f.txt")
	[ "$have" = "$nrows" ] ||
		echo "$f.txt has $have SELinux rows, $nrows compared"
done >>"$out/missing.txt"
[ "$nrows" -ge 10 ] && [ ! -s "$out/missing.txt" ]
ok $? "SELinux rows in both runs, every round paired by seed: $nrows"
diag "$out/missing.txt"

# name key t toff taa key h hoff haa n slo shi olo ohi alo ahi (t: the null)
while read -r _ key t toff taa _ h hoff haa _ slo shi olo ohi alo ahi; do
	p=$(truth "$key")
	v=$(awk -v t="$t" -v toff="$toff" -v taa="$taa" -v h="$h" \
		-v hoff="$hoff" -v haa="$haa" -v slo="$slo" -v shi="$shi" \
		-v olo="$olo" -v ohi="$ohi" -v alo="$alo" -v ahi="$ahi" \
		-v p="$p" 'function within(x, lo, hi) {
		return x >= lo && x <= hi }
	BEGIN {
		tol = p ? 0.01 * p : 1; why = ""
		if (shi - slo > 2 * tol)
			why = why sprintf("; shift unresolved: rounds %.2f apart" \
					  " > %.2f", shi - slo, 2 * tol)
		else if (!within(slo, p - tol, p + tol) ||
			 !within(shi, p - tol, p + tol) ||
			 !within(h - t, p - tol, p + tol))
			why = why sprintf("; shift outside %g +- %g", p, tol)
		if (!within(hoff - toff, -0.999, 0.999) ||
		    !within(olo, -0.999, 0.999) || !within(ohi, -0.999, 0.999))
			why = why sprintf("; off moved (rounds %+.2f .. %+.2f)",
					  olo, ohi)
		if (taa == "none" || haa == "none")
			why = why "; no A/A residual"
		else if (!within(haa - taa, -0.999, 0.999) ||
			 !within(alo, -0.999, 0.999) ||
			 !within(ahi, -0.999, 0.999))
			why = why sprintf("; A/A moved (rounds %+.2f .. %+.2f)",
					  alo, ahi)
		printf "%d shift %+.2f [rounds %+.2f, %+.2f], truth %+g +- %g;", \
			why == "", h - t, slo, shi, p, tol
		printf " off %+.2f [%+.2f, %+.2f]; A/A %+.2f [%+.2f, %+.2f]%s\n", \
			hoff - toff, olo, ohi, \
			(taa == "none" || haa == "none") ? 0 : haa - taa, alo, ahi, why
	}')
	echo "# $key: shift null $t, held-out $h; off $toff, $hoff;" \
		"A/A $taa, $haa"
	[ "${v%% *}" = 1 ]
	ok $? "${key#*|}: ${v#* }"
done <"$out/rows.txt"
tap_done
