#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/chunkdiff.sh on chunk dumps made by hand (TAP), every number
# known: two runs, three states, kept and dropped chunks, #caller lines:
#   - each state's mean over its kept chunks, per op, and B - A;
#   - the functions sorted by how far they moved, |B - A| >= --min,
#     --top rows; a caller row as '<NAME';
#   - --state picks one state; one file given twice compares its runs;
#   - a run not in its file, an empty file, a FIFO, a bad option: exit 2,
#     one line saying so, and a path with '=' is a path.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"

{
tap_plan 9
cd=$top/scripts/chunkdiff.sh
t=$(printf '\t')

# Run 7 (A): state 1 has chunks 0 and 1 (both kept), 2 ops each; chunk 2
# (state 1) is dropped by #keep.  Run 9 (B): state 1 chunks 0, 1.
cat >"$tmp/a.tsv" <<TSV
# nsb-cachesim api 1 model skylake-i7-6700
run${t}state${t}chunks${t}ops
#chunk${t}7${t}0${t}1${t}2${t}200
#cfn${t}7${t}0${t}f_same${t}100
#cfn${t}7${t}0${t}f_grow${t}100
#chunk${t}7${t}1${t}1${t}2${t}220
#cfn${t}7${t}1${t}f_same${t}100
#cfn${t}7${t}1${t}f_grow${t}120
#chunk${t}7${t}2${t}1${t}2${t}9000
#cfn${t}7${t}2${t}f_grow${t}9000
#chunk${t}7${t}3${t}0${t}2${t}400
#cfn${t}7${t}3${t}f_same${t}400
#keep${t}7${t}1101
#chunk${t}8${t}0${t}1${t}2${t}5000
TSV
cat >"$tmp/b=x.tsv" <<TSV
#chunk${t}9${t}0${t}1${t}2${t}260
#cfn${t}9${t}0${t}f_same${t}100
#cfn${t}9${t}0${t}f_grow${t}150
#caller${t}9${t}0${t}fuse_copy_one${t}10
#chunk${t}9${t}1${t}1${t}2${t}260
#cfn${t}9${t}1${t}f_same${t}101
#cfn${t}9${t}1${t}f_grow${t}150
#caller${t}9${t}1${t}fuse_copy_one${t}10
TSV

# state 1: A (100 + 110) / 2 = 105 per op, B 130; f_grow 55 -> 75 (+20),
# f_same 50 -> 50.25 (+0.25, under --min 0.3), <fuse_copy_one 0 -> +5
out=$(cd "$tmp" && "$cd" --state 1 a.tsv 7 'b=x.tsv' 9 2>&1)
is "$(sed -n 1p <<<"$out")" "state 1: A 105.0 (2 kept)  B 130.0 (2 kept)  B-A +25.0" \
	"state 1: each side's kept chunks' mean per op, the dropped chunk out"
is "$(sed -n '2,$p' <<<"$out" | awk '{ print $1, $2 }')" "+20.00 f_grow
+5.00 <fuse_copy_one" "the functions by how far they moved, a caller row as <NAME, under --min left out"
is "$(sed -n 2p <<<"$out")" "      +20.00  f_grow  (A 55.0)" "a row: B - A per op, and A's own"

out=$(cd "$tmp" && "$cd" --state 1 --min 0 --top 3 a.tsv 7 'b=x.tsv' 9 | tail -n 1)
is "$out" "       +0.25  f_same  (A 50.0)" "--min 0 --top 3: the small one too, last"

out=$("$cd" "$tmp/a.tsv" 7 "$tmp/b=x.tsv" 9 | grep -c '^state ')
is "$out" 3 "without --state: all three states"

out=$("$cd" --state 0 "$tmp/a.tsv" 7 "$tmp/a.tsv" 7)
is "$out" "state 0: A 200.0 (1 kept)  B 200.0 (1 kept)  B-A +0.0" \
	"one file twice, one run against itself: nothing moved"

"$cd" "$tmp/a.tsv" 7 "$tmp/a.tsv" 5 >"$tmp/out" 2>"$tmp/err"
[ $? = 2 ] && [ ! -s "$tmp/out" ] && grep -q "run 5 not in $tmp/a.tsv" "$tmp/err"
ok $? "a run not in its file: exit 2, saying which"

: >"$tmp/empty.tsv"
mkfifo "$tmp/fifo"
bad=
for args in "$tmp/empty.tsv 7 $tmp/a.tsv 7" "$tmp/fifo 7 $tmp/a.tsv 7" \
	    "--state 3 $tmp/a.tsv 7 $tmp/a.tsv 7" "--min x $tmp/a.tsv 7 $tmp/a.tsv 7" \
	    "$tmp/a.tsv 7x $tmp/a.tsv 7" "--bogus $tmp/a.tsv 7 $tmp/a.tsv 7"; do
	# shellcheck disable=SC2086
	timeout 10 "$cd" $args >/dev/null 2>"$tmp/err"
	[ $? = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] || bad="$bad [$args]"
done
is "$bad" "" "an empty file, a FIFO, a bad state, --min or run id, an unknown option: exit 2, one line"

"$cd" --help | grep -q 'chunkdiff.sh \[--state S\]'
ok $? "--help says the usage"

tap_done
}
