#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# contrib/lava/nsbench-lava.sh — nsbench results as LAVA test cases: one
# `lava-test-case NAME --result pass|fail|skip [--measurement N --units U]`
# per benchmark (the test definition beside this file runs it).
#
#   nsbench-lava.sh [--bench PATH] [--filter RE] [--repetitions N]
#                   [--baseline FILE.json] [--nsbench PATH] [--out DIR]
#   nsbench-lava.sh [--gate FILE.ktap] --results FILE.json...
#
#   --bench       nsbench-bench to run (default: on PATH)
#   --filter      its --benchmark_filter (default ^models/)
#   --repetitions its --benchmark_repetitions (default 5)
#   --baseline    a results file of an earlier run: `nsbench gate` then
#                 turns a regression against it into a fail
#   --nsbench     the nsbench CLI (default: on PATH)
#   --out         where results.json and gate.ktap go (default .)
#   --gate        verdicts of `nsbench gate --format=ktap` for --results
#   --results     report these results files (one run; several files pool
#                 by benchmark) instead of running the benchmarks; the
#                 last option
#
# A benchmark is "pass" with the median of its samples as the measurement
# (units ns, or insn in icount mode, where virtual ns are guest
# instructions), "skip" when every sample was skipped (error_message
# "skipped: ..."), "fail" when it failed — or when the gate says "not ok".
# Names keep [A-Za-z0-9._-] (LAVA splits on blanks and reads <, > and
# control characters as markup); the rest become '_', and a name that
# then repeats gets -2, -3, ... (LAVA refuses a duplicate test case).
# Every value is passed as an argument, never evaluated.  Without
# lava-test-case on PATH (a developer's machine) the same lines are
# printed.  Needs nsbench (--nsbench).

set -eu

die() {
	echo "nsbench-lava: $*" >&2
	exit 2
}

usage() {
	sed -n '4,/^$/{/^#/p}' "$0" | sed 's/^# \{0,1\}//'
	exit "$1"
}

bench=nsbench-bench filter='^models/' reps=5 baseline='' nsbench=nsbench
out=. results='' gate=''

need() {
	[ $# -ge 2 ] || die "option $1 needs a value (see --help)"
}

while [ $# -gt 0 ]; do
	case "$1" in
	--bench) need "$@"; bench=$2; shift ;;
	--filter) need "$@"; filter=$2; shift ;;
	--repetitions) need "$@"; reps=$2; shift ;;
	--baseline) need "$@"; baseline=$2; shift ;;
	--nsbench) need "$@"; nsbench=$2; shift ;;
	--out) need "$@"; out=$2; shift ;;
	--gate) need "$@"; gate=$2; shift ;;
	--results) results=1; shift; break ;;
	-h|--help) usage 0 ;;
	*) die "unknown option '$1' (see --help)" ;;
	esac
	shift
done

# rows FILE...: "lava-name<TAB>result<TAB>measurement<TAB>units<TAB>name"
# per benchmark: `nsbench summary --format=tsv` does the statistics (the
# median, pass/skip/fail); here the name only becomes LAVA-safe
# ([A-Za-z0-9._-]) and unique (a clash after that gets -2, -3, ...).
rows() {
	"$nsbench" summary --format=tsv "$@" | awk -F '\t' -v OFS='\t' '{
		s = $1
		gsub(/[^A-Za-z0-9._-]/, "_", s)
		k = seen[s]++
		print (k ? s "-" (k + 1) : s), $2, $3, $4, $1
	}'
}

# The gate's "not ok" lines: the benchmark names it failed, one a line.
gate_failures() {
	[ -n "$gate" ] || return 0
	sed -n 's/^not ok [0-9][0-9]* \([^ #]*\).*/\1/p' "$gate"
}

report() {
	tab=$(printf '\t')
	failed=$(gate_failures)
	rows "$@" | while IFS=$tab read -r name result value units orig; do
		if [ "$result" = pass ] &&
		   printf '%s\n' "$failed" | grep -qxF -- "$orig"; then
			result=fail
		fi
		set -- "$name" --result "$result"
		[ "$value" = - ] || set -- "$@" --measurement "$value" \
			--units "$units"
		if command -v lava-test-case >/dev/null; then
			lava-test-case "$@"
		else
			echo "$*"
		fi
	done
}

if [ -n "$results" ]; then
	[ $# -gt 0 ] || die "--results needs results files"
	report "$@"
	exit 0
fi

mkdir -p "$out"
"$bench" --benchmark_filter="$filter" --benchmark_repetitions="$reps" \
	--label=lava --out="$out/results.json" ||
	die "$bench failed (exit $?)"
if [ -n "$baseline" ]; then
	gate=$out/gate.ktap
	# exit 1 is a regression: reported per benchmark, not fatal here
	"$nsbench" gate --history="$out/history.jsonl" \
		--baseline="$baseline" --format=ktap "$out/results.json" \
		>"$gate" || [ $? = 1 ] || die "nsbench gate failed"
	cat "$gate"
fi
report "$out/results.json"
