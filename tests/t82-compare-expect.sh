#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t82-compare-expect.sh — nsbench compare --expect=FILE, the verdicts
# scripts/validate.sh prints: synthetic paired icount results with known
# shifts (an exact one is ok with ratio 1.000; 0.4 % off is ok and 0.6 %
# is OFF; below 200 instructions 1 instruction off is ok and 2 are OFF;
# an A/A residual of 2 is flagged; a row that
# is not gated never fails; a benchmark that failed has no result),
# wall-clock results (MDE, detected / not detected), the exit statuses,
# malformed predictions files (exit 2 naming file:line), a name full of
# shell and JSON metacharacters, printed as data, and scripts/validate.sh
# --from printing the table and failing on it.  No guest.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
need jq jq
need python3 python3

# A name with every kind of quoting trouble, but no blank (the
# predictions file separates columns by blanks).
# shellcheck disable=SC2016
evil='sys/"q"$(touch${IFS}pwned)`id`;a|b&c<d>*\x\n{}'"'"'s/manual_time'

# mk DIR SIDE UNIT NAME:BASE:SHIFT... — one results file per round (6
# rounds, seeds 100 + r), the per-round level jitter shared by all sides
# and rounds: side B adds SHIFT, side C (the A/A side) adds SHIFT too,
# side A nothing.  UNIT icount or wall.  SHIFT "error" makes the
# benchmark an error entry on that side.
mk() {
	python3 - "$@" <<'EOF'
import json, os, sys
d, side, unit = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(d, exist_ok=True)
for r in range(1, 7):
    jitter = [0, 700, -300, 1400, 200, -900][r - 1]
    benches = []
    for spec in sys.argv[4:]:
        name, base, shift = spec.rsplit(':', 2)
        if shift == "error":
            benches.append({"name": name, "run_type": "iteration",
                            "error_occurred": True,
                            "error_message": "the workload failed",
                            "real_time": 0, "time_unit": "ns"})
            continue
        v = float(base) + jitter + (0 if side == "A" else float(shift))
        if unit == "wall":
            v += [0, 50, -50, 25, -25, 10][r - 1] * (1 if side == "A" else -1)
        for k in (0, 2):
            benches.append({"name": name, "run_type": "iteration",
                            "real_time": v + k, "time_unit": "ns"})
    ctx = {"nsbench_round": str(r), "nsbench_seed": str(100 + r),
           "nsbench_side": side}
    if unit == "icount":
        ctx["nsbench_mode"] = "icount"
        ctx["nsbench_time_unit_meaning"] = "virtual ns = guest instructions"
    with open(os.path.join(d, "r%d-%s.json" % (r, side)), "w") as f:
        json.dump({"context": ctx, "benchmarks": benches}, f)
EOF
}

# icount: A base, B shifted, C an A/A run (residual 0 but aa2's 2)
mk "$tmp/A" A icount exact:150000:0 off7:90000:0 small:30000:0 \
	aa2:40000:0 notgated:20000:0 failed:10000:error "$evil:60000:0"
mk "$tmp/B" B icount exact:150000:459 off7:90000:1070 small:30000:107 \
	aa2:40000:500 notgated:20000:400 failed:10000:error \
	"$evil:60000:1001"
mk "$tmp/C" C icount exact:150000:0 off7:90000:0 small:30000:0 \
	aa2:40000:2 notgated:20000:0 failed:10000:0 "$evil:60000:0"
aa=()
for f in "$tmp"/C/*.json; do
	aa+=(--aa="$f")
done

# pred FILE LINE...: a predictions file
pred() {
	local f=$1

	shift
	printf '%s\n' "# SPDX-License-Identifier: GPL-2.0" "# name pred gate sum" "$@" \
		>"$tmp/$f"
}

# compare_run WANT DESC ARGS...: nsbench compare ARGS A -- B; out, err in $tmp
compare_run() {
	local want=$1 desc=$2 rc

	shift 2
	"$NSB" compare "$@" "$tmp"/A/*.json -- "$tmp"/B/*.json \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" = "$want" ]
	ok $? "$desc (exit $rc, want $want)"
	[ "$rc" = "$want" ] || diag "$tmp/err" "$tmp/out"
}

# after NAME: the line after NAME's in the text table (its numbers)
after() {
	n=$1 awk 'p { print; exit } $0 == ENVIRON["n"] && seen { p = 1 }
		/^Expected shifts/ { seen = 1 }' "$tmp/out"
}

# verdict NAME: NAME's numbers and verdict (on the next line when too
# long for 72 columns), blanks squeezed
verdict() {
	n=$1 awk 'p && /^[^ ]/ { exit } p { printf "%s ", $0 }
		$0 == ENVIRON["n"] && seen { p = 1 }
		/^Expected shifts/ { seen = 1 }' "$tmp/out" | tr -s ' ' |
		sed 's/^ //; s/ $//'
}

# --- icount: ratios, tolerances, A/A ----------------------------------

pred exact.p "exact 459 yes 9*lookup"
compare_run 0 "an exact shift: exit 0" --expect="$tmp/exact.p" --filter='^exact$' \
	"${aa[@]}"
after exact | grep -Eq '^ +459 +459\.0 \[ 459\.0,  459\.0\]   1\.000   \+0\.0  ok \(tol 0.5%\)$'
ok $? "exact: measured 459.0 [459.0, 459.0], ratio 1.000, A/A +0.0, ok (tol 0.5%)"
grep -q '^1 of 1 predictions measured: 1 within tolerance, 0 off' "$tmp/out"
ok $? "the summary counts it"

compare_run 0 "JSON" --format=json --expect="$tmp/exact.p" --filter='^exact$' \
	"${aa[@]}"
jq -e '.expect.rows[0] | .name == "exact" and .ratio == 1 and
	.tolerance_pct == 0.5 and .within and .aa_residual == 0 and .aa_ok and
	.verdict == "ok (tol 0.5%)" and (.fail | not) and .line == 3 and
	.gated and .sum == "9*lookup" and .measured.est == 459' \
	"$tmp/out" >/dev/null
ok $? "JSON: expect.rows[] has ratio, tolerance, A/A and the verdict"
jq -e '.rows[0].expect.verdict == "ok (tol 0.5%)" and .expect.icount and
	.expect.pass and .expect.summary.measured == 1' "$tmp/out" >/dev/null
ok $? "JSON: the compare row carries its expectation; summary and pass"

# one_row FILE LINE WANT DESC RE WHAT: LINE the only prediction, in FILE;
# compare_run WANT DESC on LINE's row (its first word) with the A/A; then
# the row's verdict matches the extended regex RE: WHAT.
one_row() {
	local row=${2%% *}

	pred "$1" "$2"
	compare_run "$3" "$4" --expect="$tmp/$1" --filter="^$row\$" "${aa[@]}"
	verdict "$row" | grep -Eq "$5"
	ok $? "$6"
}

one_row off7.p "off7 1000 yes sget" 1 "7 % off: exit 1" \
	' 1\.070 .* OFF \(tol 0\.5%\) FAIL$' "off7: ratio 1.070, OFF (tol 0.5%) FAIL"
one_row near.p "off7 1066 yes sget" 0 "0.38 % off: within 0.5 %, exit 0" \
	' 1\.004 .* ok \(tol 0\.5%\)$' "near: ratio 1.004, ok (tol 0.5%)"
one_row far.p "off7 1064 yes sget" 1 "0.56 % off: exit 1" \
	' 1\.006 .* OFF \(tol 0\.5%\) FAIL$' "far: ratio 1.006, OFF (tol 0.5%) FAIL"

pred near.p "off7 1066 yes sget"
compare_run 1 "--expect-tolerance=0.2: 0.38 % off fails" --expect="$tmp/near.p" \
	--expect-tolerance=0.2 --filter='^off7$' "${aa[@]}"
verdict off7 | grep -Eq ' 1\.004 .* OFF \(tol 0\.2%\) FAIL$' &&
	grep -q 'tolerance 0\.2%, at' "$tmp/out"
ok $? "near at 0.2 %: OFF (tol 0.2%) FAIL, and the notes say 0.2 %"
pred small107.p "small 107 yes open"
compare_run 0 "--expect-tolerance=0.2 keeps the 1-insn floor" \
	--expect="$tmp/small107.p" --expect-tolerance=0.2 --filter='^small$' \
	"${aa[@]}"
for v in 0 -1 100.5 abc; do
	"$NSB" compare --expect="$tmp/near.p" --expect-tolerance="$v" \
		"$tmp"/A/*.json -- "$tmp"/B/*.json >/dev/null 2>"$tmp/err"
	rc=$?
	[ "$rc" = 2 ] && [ "$(wc -l <"$tmp/err")" -le 3 ] &&
		grep -q 'expect-tolerance' "$tmp/err"
	ok $? "--expect-tolerance=$v: exit 2, said (exit $rc)"
done

one_row small.p "small 106 yes open" 0 \
	"1 insn off with predicted < 200: within 1 insn, exit 0" \
	' 1\.009 .* ok \(tol 1 insn\)$' "small: ratio 1.009, ok (tol 1 insn)"
one_row small105.p "small 105 yes open" 1 "2 insn off with predicted < 200: exit 1" \
	' 1\.019 .* OFF \(tol 1 insn\) FAIL$' "small against 105: OFF (tol 1 insn) FAIL"

one_row aa2.p "aa2 500 yes sget" 1 "an A/A residual of 2: exit 1" \
	' 1\.000 \+2\.0 ok \(tol 0.5%\) A/A>1ns FAIL$' \
	"aa2: ratio 1.000 but A/A +2.0: ok (tol 0.5%) A/A>1ns FAIL"
compare_run 0 "without --aa the A/A is not checked" --expect="$tmp/aa2.p" \
	--filter='^aa2$'
after aa2 | grep -Eq ' 1\.000 +-  ok \(tol 0.5%\)$' &&
	grep -q 'A/A not checked: no --aa' "$tmp/out"
ok $? "no --aa: no A/A column, said in the notes"

pred notgated.p "notgated 350 no 'exec+open'" "off7 1000 no sget"
compare_run 0 "rows that are not gated never fail" --expect="$tmp/notgated.p" \
	--filter='^(notgated|off7)$' "${aa[@]}"
verdict notgated | grep -Eq ' 1\.143 .* OFF \(tol 0.5%\) \[not gated\]$'
ok $? "notgated: OFF (tol 0.5%) [not gated]"

# --- no result, not in the results, nothing measured ------------------

pred failed.p "exact 459 yes a" "failed 100 yes b" "elsewhere 100 yes c"
compare_run 1 "a predicted benchmark that failed: exit 1" \
	--expect="$tmp/failed.p" --filter='^(exact|failed)$' "${aa[@]}"
after failed | grep -Eq '^ +100 +- +- +-  FAIL \(no result\)$'
ok $? "failed: FAIL (no result)"
awk 'length($0) > 72 { bad = 1 } END { exit bad }' "$tmp/out"
ok $? "text output fits 72 columns"
! grep -q elsewhere "$tmp/out" &&
	grep -q '^1 prediction not in these results' "$tmp/out"
ok $? "a prediction in neither side is counted, not listed"
compare_run 1 "JSON: the same" --format=json --expect="$tmp/failed.p" \
	--filter='^(exact|failed)$' "${aa[@]}"
jq -e '[.expect.rows[] | .status] == ["measured", "missing", "absent"] and
	(.expect.rows[1] | .fail and .verdict == "FAIL (no result)") and
	(.rows[] | select(.name == "failed") | .expect.status == "missing") and
	.expect.summary.missing == 1 and (.expect.pass | not)' \
	"$tmp/out" >/dev/null
ok $? "JSON: status measured / missing / absent, fail, pass false"
compare_run 1 "Markdown: the same" --format=markdown --expect="$tmp/failed.p" \
	--filter='^(exact|failed)$' "${aa[@]}"
sed -n '/^Expected shifts/,$p' "$tmp/out" | grep '^|' |
	awk -F'|' 'NF != 9 { bad = 1 } END { exit bad || NR != 4 }'
ok $? "Markdown: header, rule and both rows have 7 cells"
# shellcheck disable=SC2016
grep -q '^| `failed` | 100 | | | | | \*\*FAIL (no result)\*\* |$' "$tmp/out"
ok $? "Markdown: the row without a result"
pred failed-ng.p "exact 459 yes a" "failed 100 no b"
compare_run 0 "a benchmark without a result that is not gated: exit 0" \
	--expect="$tmp/failed-ng.p" --filter='^(exact|failed)$' "${aa[@]}"
verdict failed | grep -q 'no result \[not gated\]$'
ok $? "failed, not gated: no result [not gated]"

pred nothing.p "elsewhere 100 yes c"
compare_run 2 "no predicted benchmark measured: exit 2" --expect="$tmp/nothing.p" \
	"${aa[@]}"
grep -q "nothing.p: no predicted benchmark was measured" "$tmp/err"
ok $? "said why, naming the file"

pred partial.p "exact 459 yes a"
compare_run 1 "a slower row without a prediction still fails the gate" --threshold=0.1 \
	--expect="$tmp/partial.p" --filter='^(exact|small)$' "${aa[@]}"

# --- a name that is data ----------------------------------------------

pred evil.p "$evil 1001 yes sget"
# evil_compare [ARGS...]: nsbench compare ARGS of evil.p, from $tmp
evil_compare() {
	(cd "$tmp" && "$NSB" compare "$@" --expect="$tmp/evil.p" \
		--filter='^sys/' "${aa[@]}" "$tmp"/A/*.json -- "$tmp"/B/*.json \
		>"$tmp/out" 2>"$tmp/err")
}
evil_compare
ok $? "a name with shell and JSON metacharacters matches its row"
grep -Fxq -- "$evil" "$tmp/out" && verdict "$evil" | grep -q 'ok (tol 0.5%)$'
ok $? "text: the name verbatim, then its verdict"
evil_compare --format=json
jq -e --arg n "$evil" '.expect.rows[0].name == $n and
	.expect.rows[0].verdict == "ok (tol 0.5%)" and .rows[0].name == $n' \
	"$tmp/out" >/dev/null
ok $? "JSON: the name round-trips"
evil_compare --format=markdown
# shellcheck disable=SC2016
grep -Fq -- '| `` sys/"q"$(touch${IFS}pwned)`id`;a\|b&c<d>' "$tmp/out" &&
	grep -q '| \*\*ok (tol 0.5%)\*\* |$' "$tmp/out"
ok $? "Markdown: a code span, '|' escaped, and the verdict"
[ ! -e "$tmp/pwned" ]
ok $? "nothing in the name was run"

# --- wall clock: MDE and detected, nothing gates ----------------------

mk "$tmp/wA" A wall big:500000:0 none:500000:0
mk "$tmp/wB" B wall big:500000:5000 none:500000:0
printf '%s\n' "big 4153 yes exec" "none 459 yes lookup" >"$tmp/wall.p"
"$NSB" compare --expect="$tmp/wall.p" "$tmp"/wA/*.json -- "$tmp"/wB/*.json \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" = 0 ] && grep -q 'pred insn *measured ns \[95% CI\] *MDE ns' "$tmp/out"
ok $? "wall clock: MDE table; predicted rows do not gate (exit $rc)"
after big | grep -Eq '^ +4153 +4990\.0 \[.*\] +[0-9.]+  detected$' &&
	after none | grep -Eq '^ +459 .*  not detected$'
ok $? "wall clock: detected / not detected, no ratio"
"$NSB" compare --format=json --expect="$tmp/wall.p" "$tmp"/wA/*.json -- \
	"$tmp"/wB/*.json >"$tmp/out" 2>"$tmp/err"
jq -e '(.expect.icount | not) and (.expect.rows[0] | .detected and
	.mde > 0 and .ratio == null and (.fail | not)) and
	(.expect.rows[1].detected | not) and .expect.pass' \
	"$tmp/out" >/dev/null
ok $? "wall clock JSON: mde, detected, no ratio, pass"
"$NSB" compare --expect="$tmp/wall.p" --filter='^none$' "$tmp"/wA/*.json -- \
	"$tmp"/wB/*.json >/dev/null 2>&1
ok $? "wall clock: a predicted row that is not detected does not gate"

# --- malformed predictions: exit 2, FILE:LINE -------------------------

# bad NAME LINE MESSAGE CONTENT...
bad() {
	local what=$1 line=$2 msg=$3

	shift 3
	printf '%s\n' "$@" >"$tmp/bad.p"
	"$NSB" compare --expect="$tmp/bad.p" "${aa[@]}" "$tmp"/A/*.json -- \
		"$tmp"/B/*.json >"$tmp/out" 2>"$tmp/err"
	local rc=$? good=1

	[ "$rc" = 2 ] && grep -Fq "bad.p:$line: $msg" "$tmp/err" &&
		[ ! -s "$tmp/out" ] && good=0
	ok "$good" "$what: exit 2, '$msg' at bad.p:$line"
	[ "$good" = 0 ] || diag "$tmp/err"
}
bad "bad number" 2 "PREDICTED '4x' is not a number > 0" \
	"exact 459 yes a" "small 4x yes b"
bad "not a finite number" 1 "PREDICTED 'nan' is not a number > 0" \
	"exact nan yes a"
bad "a prediction of 0" 1 "PREDICTED '0' is not a number > 0" \
	"exact 0 yes a"
bad "duplicate name" 4 "'exact' is already predicted on line 1" \
	"exact 459 yes a" "# again:" "" "exact 460 yes a"
bad "missing column" 2 "3 columns, want 4: NAME PREDICTED GATE SUM" \
	"exact 459 yes a" "small 100 yes"
bad "a fifth column" 1 "'x' after SUM" "exact 459 yes a x"
bad "bad gate" 1 "GATE 'maybe' is neither yes nor no" "exact 459 maybe a"
bad "carriage return" 1 "control character 0x0d" $'exact 459 yes a\r'
printf '# only comments\n\n' >"$tmp/bad.p"
"$NSB" compare --expect="$tmp/bad.p" "$tmp"/A/*.json -- "$tmp"/B/*.json \
	>/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q 'bad.p: no predictions' "$tmp/err"
ok $? "a file without predictions: exit 2"
"$NSB" compare --expect="$tmp/none.p" "$tmp"/A/*.json -- "$tmp"/B/*.json \
	>/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q 'none.p' "$tmp/err"
ok $? "a missing file: exit 2, named"
printf 'exact 459 yes a # a comment\n' >"$tmp/comment.p"
"$NSB" compare --expect="$tmp/comment.p" --filter='^exact$' "${aa[@]}" \
	"$tmp"/A/*.json -- "$tmp"/B/*.json >/dev/null 2>&1
ok $? "a '#' comment after SUM is allowed"

# --- scripts/validate.sh prints the table (--from a finished run) -----

# vrun DIR SHIFT [VERSION]: a finished icount run of validate-quick's
# workload, path:8 (459 predicted), the A/B shifted by SHIFT, the A/A by
# nothing; VERSION the measured kernel's (none: an older manifest)
vrun() {
	local w=sys/stat/init/depth:0/path:8/manual_time run

	mk "$1/ab/A" A icount "$w:25000:0"
	mk "$1/ab/B" B icount "$w:25000:$2"
	mk "$1/aa/A" A icount "$w:25000:0"
	mk "$1/aa/B" B icount "$w:25000:0"
	for run in ab aa; do
		jq -n --arg v "${3:-}" '{mode: "icount", rounds: 6,
			initramfs_sha256: "ab",
			boots: [range(1; 7) as $r | ("A", "B") as $s |
				{round: $r, seed: (100 + $r), side: $s}]} +
			if $v == "" then {} else {B: {version: $v}} end' \
			>"$1/$run/manifest.json"
	done
}
vrun "$tmp/v1" 459
NSB_BUILD=${NSB_BUILD:-$top/build} "$top/scripts/validate.sh" \
	--from "$tmp/v1" --bench /bin/true >"$tmp/out" 2>&1
rc=$?
[ "$rc" = 0 ] && grep -q '^validate: PASS' "$tmp/out" &&
	grep -Eq '^ +459 +459\.0 .* 1\.000 +\+0\.0  ok \(tol 0.5%\)$' \
		"$tmp/v1/report-again.txt"
ok $? "validate.sh --from: compare --expect's table, PASS (exit $rc)"
[ "$rc" = 0 ] || diag "$tmp/out"
vrun "$tmp/v2" 500
NSB_BUILD=${NSB_BUILD:-$top/build} "$top/scripts/validate.sh" \
	--from "$tmp/v2" --bench /bin/true >"$tmp/out" 2>&1
rc=$?
[ "$rc" = 1 ] && grep -q 'OFF (tol 0.5%) FAIL$' "$tmp/out" &&
	grep -q '^validate: FAIL (a calibrated shift' "$tmp/out"
ok $? "validate.sh --from: a shift 9 % off fails (exit $rc)"
rm -r "$tmp/v1/aa/B"
NSB_BUILD=${NSB_BUILD:-$top/build} "$top/scripts/validate.sh" \
	--from "$tmp/v1" --bench /bin/true >"$tmp/out" 2>&1
rc=$?
[ "$rc" = 1 ] && grep -q 'no A/A results' "$tmp/out"
ok $? "validate.sh --from: without the A/A run's results it fails (exit $rc)"

# from_version VERSION: validate.sh --from on a run that measured
# VERSION; its output in $tmp/out, its status in rc
from_version() {
	rm -rf "$tmp/v3"
	vrun "$tmp/v3" 459 "$1"
	NSB_BUILD=${NSB_BUILD:-$top/build} "$top/scripts/validate.sh" \
		--from "$tmp/v3" --bench /bin/true >"$tmp/out" 2>&1
	rc=$?
}
from_version 6.12
[ "$rc" = 0 ] &&
	grep -q '^Expected shifts (kernel-patches/6.12/calibration/predictions):' "$tmp/out"
ok $? "validate.sh --from a 6.12 run: 6.12's predictions, whatever KERNEL says (exit $rc)"
from_version '../../../etc'
[ "$rc" = 2 ] && grep -q "kernel version '../../../etc' is not a version" "$tmp/out"
ok $? "--from: a manifest's version that is a path is refused (exit $rc)"
from_version 9.9
[ "$rc" = 2 ] && grep -q 'measured Linux 9.9, which has no' "$tmp/out"
ok $? "--from: a version without predictions is said (exit $rc)"

# central DIR SHIFT [NAME]: beside vrun's plain results, a cost step's
# (label central-stat) of NAME (default the 8-component stat): nsb_on,
# the central mean, 1,000 below real_time and shifted by SHIFT on side
# B, real_time by 459 as the plain rows
central() {
	python3 - "$@" <<'EOF'
import json, os, sys
d, shift = sys.argv[1], float(sys.argv[2])
w = sys.argv[3] if len(sys.argv) > 3 else "sys/stat/init/depth:0/path:8/manual_time"
for run, side, s in (("ab", "A", 0), ("ab", "B", shift), ("aa", "A", 0),
                     ("aa", "B", 0)):
    for r in range(1, 7):
        v = 25000 + [0, 700, -300, 1400, 200, -900][r - 1]
        rt = v + (459 if run == "ab" and side == "B" else 0)
        e = {"name": w, "run_type": "iteration", "time_unit": "ns",
             "real_time": rt, "nsb_on": v - 1000 + s}
        ctx = {"nsbench_round": str(r), "nsbench_seed": str(100 + r),
               "nsbench_side": side, "nsbench_mode": "icount",
               "nsbench_time_unit_meaning": "virtual ns = guest instructions"}
        with open(os.path.join(d, run, side, "r%d-central-stat.json" % r),
                  "w") as f:
            json.dump({"context": ctx, "benchmarks": [e, dict(e)]}, f)
EOF
}
# from_central SHIFT [NAME]: validate.sh --from a run with central
# results shifted by SHIFT; its output in $tmp/out, its status in rc
from_central() {
	rm -rf "$tmp/v4"
	vrun "$tmp/v4" 459
	central "$tmp/v4" "$@"
	NSB_BUILD=${NSB_BUILD:-$top/build} "$top/scripts/validate.sh" \
		--from "$tmp/v4" --bench /bin/true >"$tmp/out" 2>&1
	rc=$?
}
from_central 459
[ "$rc" = 0 ] && grep -q '^The same rows as make run measures an operation' "$tmp/out" &&
	grep -q ' 459\.0 \[ 459\.0,  459\.0\]   1\.000   +0\.0  ok (tol 0\.5%)$' "$tmp/out" &&
	grep -q ' 459\.0 \[ 459\.0,  459\.0\]   1\.000   +0\.0  ok (tol 1 insn)$' "$tmp/out"
ok $? "validate.sh --from: the central means' table too (0.2 %: 1 insn for 459), both ok (exit $rc)"
jq -e '.rows[0].base.median | type == "number" and . < 24500' \
	"$tmp/v4/ab/compare-central.json" >/dev/null
ok $? "the central table reads nsb_on (its base ~24,000), not real_time (~25,000)"
from_central 461
[ "$rc" = 1 ] && grep -q 'OFF (tol 1 insn) FAIL$' "$tmp/out" &&
	grep -q '^validate: FAIL (a calibrated shift' "$tmp/out"
ok $? "a central mean 0.44 % off fails though the plain mean is exact (exit $rc)"
from_central 460
[ "$rc" = 0 ] && grep -q ' 460\.0 .* ok (tol 1 insn)$' "$tmp/out"
ok $? "and one 1 insn off passes: 0.2 %, at least 1 insn (exit $rc)"
# open's and the mqueue mount's central means are shown, not gated
# (some 5 insn of each boot's state); exec's are gated
from_central 155 sys/open/file/init/depth:0/manual_time
[ "$rc" = 0 ] && grep -q 'OFF (tol 1 insn) \[not gated\]$' "$tmp/out" &&
	grep -q '^validate: PASS' "$tmp/out"
ok $? "a central open 3 insn off: shown OFF, not gated (exit $rc)"
from_central 4163 sys/exec/vfork/bin/init/depth:0/manual_time
[ "$rc" = 1 ] && grep -q 'OFF (tol 0.2%) FAIL$' "$tmp/out"
ok $? "a central exec 10 insn off (0.24 %) fails (exit $rc)"
from_central 4160 sys/exec/vfork/bin/init/depth:0/manual_time
[ "$rc" = 0 ] && grep -q ' ok (tol 0\.2%)$' "$tmp/out"
ok $? "and one 7 insn off (0.17 %) passes (exit $rc)"
from_central 459
mv "$tmp/v4" "$tmp/v 4"
NSB_BUILD=${NSB_BUILD:-$top/build} "$top/scripts/validate.sh" \
	--from "$tmp/v 4" --bench /bin/true >"$tmp/out" 2>&1
rc=$?
[ "$rc" = 0 ] && [ "$(grep -c '^Expected shifts' "$tmp/out")" = 2 ]
ok $? "--from a directory with a blank in its name: both tables (exit $rc)"
rm -rf "$tmp/v 4"
rm -rf "$tmp/v4"
vrun "$tmp/v4" 459
NSB_BUILD=${NSB_BUILD:-$top/build} "$top/scripts/validate.sh" \
	--from "$tmp/v4" --bench /bin/true >"$tmp/out" 2>&1
rc=$?
[ "$rc" = 0 ] && grep -q '^(no central-mean results in ' "$tmp/out"
ok $? "a run from before the central means: said, not failed (exit $rc)"

# --- the real predictions file parses ---------------------------------

kv=$(kernel_version)
"$NSB" compare --format=json \
	--expect="$top/kernel-patches/$kv/calibration/predictions" \
	"$tmp"/A/*.json -- "$tmp"/B/*.json >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q 'no predicted benchmark was measured' "$tmp/err"
ok $? "kernel-patches/$kv/calibration/predictions parses (none of its rows here)"

tap_done
