#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t70-gate-ktap.sh — nsbench history and gate end to end on fixed icount
# results (tests/fixtures/history/): the gate's exit codes, its KTAP output
# as prove and the kernel's KTAP conventions read it, JUnit XML, corrupt
# history lines reported by number, the step fixture's change point, and
# the trend plot (when gnuplot is installed).

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
FIX=$(dirname "$0")/fixtures/history
H="--history=$tmp/history.jsonl"

has() {
	grep -q -- "$2" "$tmp/$1"
	ok $? "$3"
}

# --- the gate's exit codes -------------------------------------------------
run 0 "append the base run" history append "$H" "$FIX/icount-base.json"
run 0 "accept it" history accept "$H" icount-base
run 0 "append a run 3 % slower" history append "$H" "$FIX/icount-slower.json"
run 1 "gate: regression" gate "$H" --format=ktap
cp "$tmp/out" "$tmp/regression.ktap"
run 0 "gate: improvement" gate "$H" --format=ktap "$FIX/icount-faster.json"
cp "$tmp/out" "$tmp/improvement.ktap"
run 1 "gate: +16 insn is a regression under icount" gate "$H" \
	"$FIX/icount-same.json"
run 0 "gate: ... under a --threshold=1 the user gives" gate "$H" \
	--threshold=1 "$FIX/icount-same.json"
run 2 "gate: bad --format" gate "$H" --format=xml

# --- KTAP ------------------------------------------------------------------
k="$tmp/regression.ktap"
[ "$(head -n 1 "$k")" = "KTAP version 1" ]
ok $? "KTAP: first line is 'KTAP version 1'"
grep -q '^1\.\.3$' "$k"
ok $? "KTAP: plan 1..3 before the results"
# the verdict is in the description, not after " # ": kunit.py parse
# shows a result line's description and drops the rest
grep -q '^not ok 1 fix/exec/plain regression +3\.00 %' "$k"
ok $? "KTAP: 'not ok 1 fix/exec/plain regression +3.00 %'"
grep -q '^ok 3 fix/mount/mqueue # SKIP ' "$k"
ok $? "KTAP: skipped benchmark is '# SKIP reason'"
# ktap.rst: "<result> <number> [<description>][ # [<directive>] [<diag>]]",
# numbers from 1 in order, other lines diagnostics ("# ...")
awk 'NR == 1 { next }
     /^1\.\.[0-9]+$/ { plan = 1; next }
     /^# / { next }
     /^(not )?ok [0-9]+ [^#]+( # .*)?$/ {
	if (!plan) bad = 1
	num = $1 == "not" ? $3 : $2
	if (num != ++want) bad = 1
	next }
     { bad = 1 }
     END { exit bad || !want }' "$k"
ok $? "KTAP: every line is a plan, a result in order, or a diagnostic"
prove --exec cat "$k" >"$tmp/prove" 2>&1
grep -q 'Failed: 1' "$tmp/prove" && ! grep -q 'Parse errors' "$tmp/prove"
ok $? "prove reads the regression's KTAP: 1 failed, no parse error"
prove --exec cat "$tmp/improvement.ktap" >"$tmp/prove" 2>&1
ok $? "prove passes the improvement's KTAP"

# The kernel's own KTAP parser (tools/testing/kunit/kunit_parser.py), from
# the kernel source nsbench's builds unpack, when it is there.
kunit=${NSB_CACHE:-/var/cache/nsbench}/src/linux-source-$(kernel_version)/tools/testing/kunit
if [ -f "$kunit/kunit_parser.py" ] && command -v python3 >/dev/null 2>&1; then
	(cd "$kunit" && python3 -c '
import sys, kunit_parser
t = kunit_parser.parse_run_tests(open(sys.argv[1]).read().splitlines())
c = t.counts
sys.exit(not (c.passed == 1 and c.failed == 1 and c.skipped == 1 and
	      c.errors == 0 and
	      t.subtests[0].name.split()[0] == "fix/exec/plain" and
	      "regression +3.00 %" in t.subtests[0].name))
' "$k") >"$tmp/kunit" 2>&1
	ok $? "kunit_parser.py: 1 passed, 1 failed, 1 skipped, no errors"
else
	skip "no kernel source with tools/testing/kunit/kunit_parser.py"
fi

# --- JUnit -----------------------------------------------------------------
run 1 "gate --format=junit" gate "$H" --format=junit --ktap="$tmp/also.ktap"
has out 'failures="1" skipped="1"' "JUnit: one failure, one skip"
has out '<failure message="regression +3.00 %' "JUnit: the failure says why"
cmp -s "$tmp/also.ktap" "$k"
ok $? "--ktap=FILE writes the same KTAP"
if command -v xmllint >/dev/null 2>&1; then
	xmllint --noout "$tmp/out"
	ok $? "JUnit: well-formed XML (xmllint)"
else
	skip "xmllint not installed"
fi

# --- history ---------------------------------------------------------------
run 0 "history show on a corrupt history" \
	history show --history="$FIX/corrupt.jsonl"
has err 'corrupt.jsonl:3: ' "corrupt line 3 reported with its number"
has err 'corrupt.jsonl:8: ' "truncated last line 8 reported"
has out 'run04' "records after the bad lines are shown"
run 0 "history append of a run already there" \
	history append "$H" "$FIX/icount-base.json"
has err 'already in' "... is refused with a message"
run 0 "history append of an interrupted run" \
	history append "$H" "$FIX/icount-interrupted.json"
has err 'ended early (interrupted); not appended' "... is refused with why"
run 0 "... appended with --allow-incomplete" \
	history append "$H" --allow-incomplete "$FIX/icount-interrupted.json"
has out '3 record' "... all its records"
run 0 "history changes --format=json" \
	history changes --history="$FIX/step.jsonl" --format=json
has out '"index": 10' "the step fixture's change point is at run 10"
has out '"commit_before": "c000009"' "... between commits c000009 and"
has out '"commit_after": "c000010"' "... c000010"
run 0 "history show" history show --history="$FIX/step.jsonl"
has out '---- change +4.0' "show marks the change in the series"
run 0 "history --help" history --help
has out 'false-alarm rate' "--help states the false-alarm rate"

if command -v gnuplot >/dev/null 2>&1; then
	run 0 "history plot" history plot --history="$FIX/step.jsonl" \
		--out-dir="$tmp/plots" --templates="$(dirname "$0")/../plots"
	[ -s "$tmp/plots/trend-fix_exec_step.svg" ] &&
		[ -s "$tmp/plots/trend-fix_exec_step.png" ]
	ok $? "trend plot: svg and png"
	grep -q 'change +4.0' "$tmp/plots/trend-fix_exec_step.svg"
	ok $? "trend plot: the change point is marked"
else
	skip 3 "gnuplot not installed"
fi

tap_done
