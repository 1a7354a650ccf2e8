#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t57-compare.sh — nsbench compare/report on fixed results files
# (tests/fixtures/stats/*.json): verdicts, exit codes, formats, pairing by
# round, A/A, and bad input (exit 2 with a message naming the file).

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
FIX=$(dirname "$0")/fixtures/stats

has() {
	grep -q -- "$2" "$tmp/$1"
	ok $? "$3"
}

run 1 "a 10% regression fails the gate" \
	compare "$FIX/base.json" -- "$FIX/patched.json"
has out 'exec/slow' "row for exec/slow"
grep -A1 '^exec/slow' "$tmp/out" | grep -q 'slower'
ok $? "exec/slow is slower"
grep -A1 '^open/same' "$tmp/out" | grep -q 'same'
ok $? "open/same (us vs ns in the file) is same"
grep -A1 '^mount/skip' "$tmp/out" | grep -q 'skip (base: skipped: no user'
ok $? "skipped entries are a skip row with the reason"
awk 'length($0) > 72 { bad = 1 } END { exit bad }' "$tmp/out"
ok $? "text output fits 72 columns"

run 0 "within a 20% threshold: no regression" \
	compare --threshold=20 "$FIX/base.json" -- "$FIX/patched.json"
run 0 "B against B is the same" \
	compare "$FIX/patched.json" -- "$FIX/patched.json"
has out '0 slower, 0 faster, 7 same' "identical sides: all same"

run 1 "JSON output" \
	compare --format=json "$FIX/base.json" -- "$FIX/patched.json"
jq -e '.rows[] | select(.name == "fix/exec/slow") |
	.verdict == "slower" and .base.n == 8 and .test == "mann-whitney"' \
	"$tmp/out" >/dev/null
ok $? "JSON row has verdict, n and test"
jq -e '.rows | length == 8' "$tmp/out" >/dev/null
ok $? "JSON has one object per row (aggregates ignored)"
jq -e '.rows[] | select(.name == "fix/open/same") |
	(.base.median - 50.03) | fabs < 0.01' "$tmp/out" >/dev/null
ok $? "us converted to ns"

run 1 "Markdown output" \
	compare --format=markdown "$FIX/base.json" -- "$FIX/patched.json"
has out '^| `fix/exec/slow` | 8 / 8 |' "Markdown table row"

run 1 "hyperfine JSON is read directly" \
	compare "$FIX/hyperfine-base.json" -- "$FIX/hyperfine-patched.json"
has out '1.000 ms' "hyperfine seconds shown as ms"

run 1 "several files per side pool by name" \
	compare --format=json "$FIX/base.json" "$FIX/base.json" -- "$FIX/patched.json"
jq -e '.rows[0].base.n == 16 and .rows[0].patched.n == 8' "$tmp/out" \
	>/dev/null
ok $? "pooled: 16 base samples against 8"

# Two plan steps timing one benchmark (checks.plan's exec and exec-walk,
# under different switches, 9,000 insn apart) are two series, each of
# its own step's files; files of one step still pool.
step() {	# step LABEL LSM SCALE OUT: base.json as one step's file
	jq --arg l "$1" --arg m "$2" --argjson k "$3" '
		.context.nsbench_label = $l |
		if $m == "" then . else .context.nsbench_lsm = $m end |
		.benchmarks |= map(if .real_time then
			.real_time *= $k | .cpu_time *= $k else . end)' \
		"$FIX/base.json" >"$4"
}
step exec none 1 "$tmp/s1.json"
step exec-walk none 2 "$tmp/s2.json"
step exec none 1 "$tmp/s3.json"
step exec selinux 3 "$tmp/s4.json"
run 0 "two steps' files: a series per step" compare --format=json \
	"$tmp/s1.json" "$tmp/s2.json" "$tmp/s3.json" "$tmp/s4.json" -- \
	"$tmp/s1.json" "$tmp/s2.json" "$tmp/s3.json" "$tmp/s4.json"
jq -e '[.rows[] | select(.name | startswith("fix/exec/slow")) |
	[.name, .base.n, (.base.median / 100 | floor)]] | sort ==
	[["fix/exec/slow [exec, selinux]", 8, 3],
	 ["fix/exec/slow [exec-walk]", 8, 2], ["fix/exec/slow [exec]", 16, 1]]' \
	"$tmp/out" >/dev/null
ok $? "exec's two files pool (16 at 1x); exec-walk (2x), SELinux (3x) apart"
run 0 "--filter keeps matching rows" compare --format=json \
	--filter='open/' "$FIX/base.json" -- "$FIX/patched.json"
jq -e '[.rows[].name] == ["fix/open/same"]' "$tmp/out" >/dev/null
ok $? "only fix/open/same left"
run 2 "bad --filter regex" compare --filter='(' "$FIX/base.json" -- \
	"$FIX/patched.json"

run 0 "--help" compare --help
has out 'BASE... -- PATCHED' "help shows usage"
run 2 "no separator is a usage error" compare "$FIX/base.json"
run 2 "bad threshold" compare --threshold=x "$FIX/base.json" -- \
	"$FIX/patched.json"

# --- pairing by round -------------------------------------------------
for r in 1 2 3 4 5 6 7 8; do
	for s in A B; do
		lvl=$(( (r * 37) % 11 * 700 ))
		add=0
		[ $s = B ] && add=101
		v=$((150000 + lvl + add))
		cat >"$tmp/$s-$r.json" <<EOT
{"context": {"nsbench_mode": "icount",
 "nsbench_time_unit_meaning": "virtual ns = guest instructions",
 "nsbench_round": "$r", "nsbench_seed": "$((r * 7))", "nsbench_side": "$s"},
 "benchmarks": [
  {"name": "sys/exec/plain", "run_type": "iteration",
   "real_time": $v, "time_unit": "ns"},
  {"name": "sys/exec/plain", "run_type": "iteration",
   "real_time": $((v + 2)), "time_unit": "ns"}]}
EOT
	done
done
run 1 "paired icount rounds: +101 insn is slower" compare "$tmp"/A-*.json \
	-- "$tmp"/B-*.json
has out 'paired, 8 rounds' "rounds are paired"
has out 'shift +101.0 insn \[+101.0, +101.0\]' \
	"paired shift recovers +101 instructions despite level noise"
run 1 "--rounds" compare --rounds "$tmp"/A-*.json -- "$tmp"/B-*.json
[ "$(grep -c '^ *round [1-8]/' "$tmp/out")" = 8 ]
ok $? "--rounds: a line per round under the paired row"
# round 3: level (3 * 37) % 11 * 700 = 700; B adds 101; medians of v, v+2
has out '^ *round 3/21 *150701 insn *150802 insn  +101\.0 insn$' \
	"--rounds: the round's key, both medians and the difference"
run 0 "unpaired when asked" \
	compare --unpaired "$tmp"/A-*.json -- "$tmp"/B-*.json
grep -q 'paired, ' "$tmp/out"
ok $((! $?)) "--unpaired does not pair"
run 0 "A/A pair" compare --aa="$tmp/A-1.json" "$tmp"/A-*.json -- \
	"$tmp"/B-*.json
has out 'A/A residual' "A/A residual reported"

# --- report -----------------------------------------------------------
run 0 "report of a slower row exits 0 (a report, not a gate)" report \
	"$FIX/base.json" -- "$FIX/patched.json"
awk 'length($0) > 72 { bad = 1 } END { exit bad }' "$tmp/out"
ok $? "report fits 72 columns"
has out 'series stock' "provenance: base series"
has out 'series userns-v4.2' "provenance: patched series"
has out 'config sha256:abababababababab' "provenance: config hash"
has out '^Reproduce' "reproduce section"
tr -d '\\\n' <"$tmp/out" |
	grep -q 'nsbench report [^ ]*base.json -- *[^ ]*patched.json'
ok $? "exact command (joined over its continuation lines)"
run 0 "icount report explains the unit" report "$tmp"/A-*.json -- \
	"$tmp"/B-*.json
has out 'guest instructions' "icount unit explained"
run 1 "report --gate --markdown --out: exit 1 on the slower row" \
	report --gate --markdown --out="$tmp/r.md" \
	"$FIX/base.json" -- "$FIX/patched.json"
grep -q '^### Provenance' "$tmp/r.md"
ok $? "Markdown report written to --out"
[ ! -s "$tmp/out" ]
ok $? "nothing on stdout with --out"

# perf diff through a stand-in perf that prints a recorded output
NSB_PERF=$FIX/perf/fake-perf "$NSB" report --perf-base=a.data \
	--perf-patched=b.data "$FIX/base.json" -- "$FIX/patched.json" \
	>"$tmp/out" 2>"$tmp/err"
ok $? "report with perf diff"
has out '\[k\] in_userns  *0.40%   1.61%   +1.21%' \
	"check function share before/after"
has out '\[k\] iowrite16  *0.77%   0.00%   -0.77%' \
	"a symbol gone in patched reads 0%"
awk 'length($0) > 72 { bad = 1 } END { exit bad }' "$tmp/out"
ok $? "report with perf diff fits 72 columns"
run 2 "--perf-base alone is an error" report --perf-base=a.data \
	"$FIX/base.json" -- "$FIX/patched.json"

# --- bad input: exit 2, message names file and field --------------------
bad() {
	run 2 "$1" compare "$FIX/base.json" -- "$FIX/$2"
	grep -q "$2" "$tmp/err"
	ok $? "$1: message names $2"
	[ -z "$3" ] || has err "$3" "$1: message says '$3'"
}
bad "truncated JSON" bad-truncated.json "premature end"
bad "empty file" bad-empty.json "empty file"
bad "missing field" bad-missing-field.json "missing field 'real_time'"
bad "bad type" bad-type.json "real_time .*expected a number"
bad "unknown unit" bad-unit.json "time_unit .*fortnights"
bad "icount mixed with wall-clock" icount.json "refusing"
bad "no benchmark in common" one-sided.json "no benchmark in common"
bad "no benchmarks field" bad-no-benchmarks.json "neither"
run 2 "missing file" compare "$FIX/base.json" -- "$tmp/nonexistent.json"
has err 'nonexistent.json' "missing file named"

run 1 "one-sided benchmark: warning, row skipped" \
	compare "$FIX/base.json" -- "$FIX/patched.json" "$FIX/one-sided.json"
has err "one-sided.json: benchmark 'fix/other/only-here' only on the" \
	"warning names file and benchmark"
run 2 "one-sided benchmark with --strict: error" \
	compare --strict "$FIX/base.json" -- "$FIX/patched.json" \
	"$FIX/one-sided.json"

tap_done
