#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Slow tier of the self-validation (TAP): scripts/validate.sh in icount
# mode, the quick form by default (path lookup, 2 rounds: ~10 min with
# the kernels cached, +2 kernel builds cold); NSB_VALIDATE_FULL=1 runs the
# full form (exec, open, lookup, sget; 6 rounds: ~15-30 min warm).
# NSB_VALIDATE_BENCH=BIN uses another nsbench-bench.  Checks that it
# passes, that the objdump proof passed, that the table has a row per
# workload with a verdict, and that the determinism items hold.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/../lib-tap.sh"

# Parsed whole before it runs: editing this file cannot break a run.
{


need_guest
need jq jq
build=${NSB_BUILD:-$top/build}
bench=${NSB_VALIDATE_BENCH:-$build/bench/nsbench-bench}
[ -x "$bench" ] || skip_all "no $bench (make)"
tap_plan 6

form=--quick rows=1
[ "${NSB_VALIDATE_FULL:-0}" = 1 ] && form='' rows=6
"$top/scripts/validate.sh" $form --bench "$bench" --out "$tmp/v" \
	>"$tmp/log" 2>&1
ok $? "scripts/validate.sh ${form:-(full)} passes"
sed 's/^/# /' "$tmp/v/report.txt" 2>/dev/null || tail -n 30 "$tmp/log" | sed 's/^/# /'

grep -q '^objdiff: PASS (every other function' "$tmp/v/report.txt"
ok $? "objdump proof: only the calibration blocks changed"
grep -q '^objdiff: PASS (the two builds are the same code)' "$tmp/v/report.txt"
ok $? "objdump proof: the A/A builds are the same code"
[ "$(grep -c ' ok (tol ' "$tmp/v/report.txt")" -ge "$rows" ]
ok $? "at least $rows gated workload rows within tolerance"
grep -q 'guest ASLR.*: 0 *$' "$tmp/v/report.txt" &&
	grep -q 'byte-identical between the sides of each round: yes' "$tmp/v/report.txt"
ok $? "ASLR off in every results file; command lines identical per round"
grep -q 'initramfs: one image for all .*: yes' "$tmp/v/report.txt" &&
	grep -q 'shared by both sides and by the A/B and A/A runs: yes' "$tmp/v/report.txt"
ok $? "one initramfs for every boot; one seed per round on both sides"
tap_done
}
