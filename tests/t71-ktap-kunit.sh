#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t71-ktap-kunit.sh — `nsbench gate --format=ktap` as the kernel's own
# KTAP parser reads it (tools/testing/kunit of the default kernel's
# linux-source: kunit.py parse and kunit_parser), prove too, and the
# JUnit XML as xmllint reads it.  The point of the plan on the line after "KTAP version 1": a gate
# log cut short must parse as a failure, never as success.  An error row
# (the benchmark did not run) carries the ERROR directive and counts as
# an error in JUnit.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
FIX=$(dirname "$0")/fixtures/history
H="--history=$tmp/history.jsonl"

"$NSB" history append "$H" "$FIX/icount-base.json" >/dev/null &&
	"$NSB" history accept "$H" icount-base >/dev/null
ok $? "a history with an accepted base run"
for run in slower faster error; do
	"$NSB" gate "$H" --format=ktap "$FIX/icount-$run.json" \
		>"$tmp/$run.ktap" 2>"$tmp/err"
	echo $? >"$tmp/$run.rc"
	"$NSB" gate "$H" --format=junit "$FIX/icount-$run.json" \
		>"$tmp/$run.xml" 2>>"$tmp/err"
done
[ "$(cat "$tmp/slower.rc")$(cat "$tmp/faster.rc")$(cat "$tmp/error.rc")" = 101 ]
ok $? "gate exits 1 (regression), 0 (improvement), 1 (error)"

# --- KTAP as the spec has it ----------------------------------------------
for run in slower faster error; do
	[ "$(sed -n 1p "$tmp/$run.ktap")" = "KTAP version 1" ] &&
		[ "$(sed -n 2p "$tmp/$run.ktap")" = "1..3" ]
	ok $? "$run: the plan 1..3 directly follows 'KTAP version 1'"
done
grep -qx 'not ok 2 fix/open/dev # ERROR patched: open: ENXIO' "$tmp/error.ktap"
ok $? "an error row is 'not ok N name # ERROR why' (ktap.rst directive)"
grep -q '^ok 3 fix/mount/mqueue # SKIP ' "$tmp/error.ktap"
ok $? "a skipped benchmark is 'ok N name # SKIP why'"
grep -qx '# Totals: pass:1 fail:0 xfail:0 xpass:0 skip:1 error:1' \
	"$tmp/error.ktap"
ok $? "the Totals line counts the error row as error:1"

# Cut-off logs: after the header, after test 1, before the plan.
sed -n '1,/^ok 1 /p' "$tmp/faster.ktap" >"$tmp/cut1.ktap"
head -n 1 "$tmp/faster.ktap" >"$tmp/cut0.ktap"
grep -q '^ok 1 ' "$tmp/cut1.ktap" && ! grep -q '^ok 2 ' "$tmp/cut1.ktap"
ok $? "a gate log cut off after test 1 (which passed)"

# --- prove ----------------------------------------------------------------
prove --exec cat "$tmp/faster.ktap" >"$tmp/prove" 2>&1
ok $? "prove passes the improvement's KTAP"
! prove --exec cat "$tmp/cut1.ktap" >"$tmp/prove" 2>&1 &&
	grep -q 'planned 3 tests but ran 1' "$tmp/prove"
ok $? "prove fails the cut-off log: planned 3 tests but ran 1"
! prove --exec cat "$tmp/error.ktap" >"$tmp/prove" 2>&1
ok $? "prove fails the error run"

# --- the kernel's parser --------------------------------------------------
find_kunit

# kparse FILE: kunit.py parse's exit status (0: SUCCESS).
kparse() {
	(cd "$kunit" && python3 kunit.py parse "$1") >"$tmp/kunit" 2>&1
}

if [ -f "$kunit/kunit_parser.py" ] && command -v python3 >/dev/null; then
	kparse "$tmp/faster.ktap"
	ok $? "kunit.py parse: the improvement is a success"
	kparse "$tmp/slower.ktap"
	[ $? = 1 ] && grep -q 'FAILED.* fix/exec/plain' "$tmp/kunit"
	ok $? "kunit.py parse: the regression fails, fix/exec/plain FAILED"
	grep -q 'FAILED.* fix/exec/plain regression +3\.00 % (+4501\.0 insn, 95% CI' \
		"$tmp/kunit"
	ok $? "kunit.py parse: the verdict and its shift in its output"
	kparse "$tmp/cut1.ktap"
	[ $? = 1 ] && grep -q 'missing expected subtest' "$tmp/kunit"
	ok $? "kunit.py parse: the log cut off after test 1 is NOT a success"
	kparse "$tmp/cut0.ktap"
	ok $((!$?)) "kunit.py parse: a log of the version line alone fails"
	(cd "$kunit" && python3 -c '
import sys, kunit_parser
t = kunit_parser.parse_run_tests(open(sys.argv[1]).read().splitlines())
c = t.counts
sys.exit(not (c.passed == 1 and c.failed == 1 and c.skipped == 1 and
	      c.errors == 0 and t.expected_count == 3 and
	      [s.name.split()[0] for s in t.subtests] ==
	      ["fix/exec/plain", "fix/open/dev", "fix/mount/mqueue"]))
' "$tmp/error.ktap") >"$tmp/kunit" 2>&1
	ok $? "kunit_parser: error run is 1 passed, 1 failed, 1 skipped, plan 3, names intact"
else
	skip 6 "linux-source-$(kernel_version) absent: no tools/testing/kunit (neither $kunit nor $tarball)"
fi

# --- JUnit ----------------------------------------------------------------
# attr FILE XPATH: the value of an XPath expression, via xmllint.
attr() {
	xmllint --xpath "$2" "$1" 2>/dev/null
}

if command -v xmllint >/dev/null; then
	for run in slower faster error; do
		xmllint --noout "$tmp/$run.xml" 2>"$tmp/err"
		ok $? "$run: JUnit is well-formed XML (xmllint)"
	done
	s='/testsuites/testsuite'
	counts="concat($s/@tests,'-',$s/@failures,'-',$s/@errors,'-',$s/@skipped)"
	[ "$(attr "$tmp/error.xml" "$counts")" = 3-0-1-1 ]
	ok $? "error run: tests=3 failures=0 errors=1 skipped=1"
	[ "$(attr "$tmp/error.xml" "string(/testsuites/@errors)")" = 1 ]
	ok $? "error run: <testsuites errors=1>"
	msg="string($s/testcase[@name='fix/open/dev']/error/@message)"
	[ "$(attr "$tmp/error.xml" "$msg")" = "patched: open: ENXIO" ]
	ok $? "the error row is an <error> with its reason"
	[ "$(attr "$tmp/slower.xml" "$counts")" = 3-1-0-1 ] &&
		[ "$(attr "$tmp/slower.xml" \
			"count($s/testcase/failure[@type='regression'])")" = 1 ]
	ok $? "regression run: one <failure type=regression>, errors=0"
	# icount rows measure instructions, not time: no time= to report
	[ "$(attr "$tmp/slower.xml" "count(//*[@time])")" = 0 ]
	ok $? "icount rows carry no time= (instructions are not seconds)"
	# wall-clock rows: time= is the new run's median in seconds
	for run in base slower; do
		jq '.context.nsbench_mode = "native"
		    | .context.nsbench_time_unit_meaning = "wall-clock ns"' \
			"$FIX/icount-$run.json" >"$tmp/wall-$run.json"
	done
	"$NSB" history append --history="$tmp/wall.jsonl" \
		"$tmp/wall-base.json" >/dev/null &&
		"$NSB" history accept --history="$tmp/wall.jsonl" \
			wall-base >/dev/null
	"$NSB" gate --history="$tmp/wall.jsonl" --format=junit \
		"$tmp/wall-slower.json" >"$tmp/wall.xml" 2>>"$tmp/err"
	want=$(jq '[.benchmarks[] | select(.name == "fix/exec/plain")
		    | .real_time] | sort | length as $n
		    | (.[($n - 1) / 2 | floor] + .[$n / 2 | floor]) / 2e9' \
		"$tmp/wall-slower.json")
	got=$(attr "$tmp/wall.xml" \
		"string($s/testcase[@name='fix/exec/plain']/@time)")
	awk -v g="$got" -v w="$want" 'BEGIN { exit !(g > 0 &&
		g / w > 0.999 && g / w < 1.001) }'
	ok $? "wall-clock rows: time= the new median in seconds ($got s)"
else
	skip 9 "xmllint not installed (Debian libxml2-utils)"
fi

tap_done
