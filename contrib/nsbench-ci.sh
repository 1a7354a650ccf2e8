#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# contrib/nsbench-ci.sh — one CI job of nsbench on a kernel tree, the same
# for GitHub Actions and GitLab CI (their files only find the commits):
#
#   nsbench-ci.sh --ksrc DIR --head SHA [--base SHA] [--series NAME]
#                 [--mode MODE] [--boots N] [--threshold PCT]
#                 [--workloads "W..."] [--history FILE] [--run-id ID]
#                 [--results DIR] [--out DIR] [--accept] [--note TEXT]
#
#   --ksrc      the kernel tree (git; may be a shallow clone: a commit
#               missing from it is fetched from its origin, depth 1)
#   --head      the commit to measure (side B, the run of the history)
#   --base      the commit to compare it with (side A).  Empty or all
#               zeros — GitHub's workflow_dispatch and schedule, GitLab's
#               scheduled, web and API pipelines, a new branch — means
#               none: the head kernel alone is built and booted and the
#               drift gate against the last accepted run is the verdict
#               (nightly tracking)
#   --series    kernel-patches/<name> applied to the head side (default
#               none: the tree as it is)
#   --mode      icount (default), tcg, kvm or auto
#   --boots     rounds; each boots every side once (default 6)
#   --threshold regression threshold in % (default 1)
#   --workloads nsbench-bench filters or workload plans (default: the
#               A/B plan, guest/plans/ab.plan)
#   --history   the history file (default history/<series>-<mode>.jsonl)
#   --run-id    this run's id in the history (default ci-<UTC time>)
#   --results   where the boots' results go (default results/ab-<run id>;
#               one directory per run: the history records the paths)
#   --out       report, plots, KTAP, JUnit, summary.md (default out)
#   --accept    if every gate passed, accept the run as the next baseline
#               (default branch jobs only: a request never moves it)
#   --note      the accept line's note
#
# The results carry the commits (context nsbench_ci_base, nsbench_ci_head,
# nsbench_ci_run_id) beside each kernel's own source_commit and
# `git describe`, so the report names what was compared.
#
# Runs from the nsbench checkout, after `make deps && make`.  Exit 0: the
# gates passed; 1: a regression (or a benchmark that failed); 2: an
# error.  NSB_BUILD names the binaries (default build), NSB_AB the A/B
# driver (default scripts/ab.sh; tests put a stand-in there).

set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=${NSB_BUILD:-$top/build}
ab_sh=${NSB_AB:-$top/scripts/ab.sh}
nsb=$build/nsbench

die() {
	echo "nsbench-ci: $*" >&2
	exit 2
}

usage() {
	sed -n '4,/^$/{/^#/p}' "$0" | sed 's/^# \{0,1\}//'
	exit "${1:-2}"
}

ksrc='' head='' base='' series=none mode=icount boots=6 threshold=1
workloads='' history='' run_id='' results='' out=out accept=0 note=''

need() {
	[ $# -ge 2 ] || die "option $1 needs a value (see --help)"
}

while [ $# -gt 0 ]; do
	case "$1" in
	--ksrc) need "$@"; ksrc=$2; shift ;;
	--head) need "$@"; head=$2; shift ;;
	--base) need "$@"; base=$2; shift ;;
	--series) need "$@"; series=$2; shift ;;
	--mode) need "$@"; mode=$2; shift ;;
	--boots) need "$@"; boots=$2; shift ;;
	--threshold) need "$@"; threshold=$2; shift ;;
	--workloads) need "$@"; workloads=$2; shift ;;
	--history) need "$@"; history=$2; shift ;;
	--run-id) need "$@"; run_id=$2; shift ;;
	--results) need "$@"; results=$2; shift ;;
	--out) need "$@"; out=$2; shift ;;
	--note) need "$@"; note=$2; shift ;;
	--accept) accept=1 ;;
	-h|--help) usage 0 ;;
	*) die "unknown option '$1' (see --help)" ;;
	esac
	shift
done

[ -n "$ksrc" ] || die "--ksrc DIR is needed"
[ -n "$head" ] || die "--head SHA is needed"
[ -x "$nsb" ] || die "$nsb not built (make)"
# All zeros is how both systems say "no previous commit".
case "$base" in *[!0]*) ;; *) base='' ;; esac
history=${history:-history/$series-$mode.jsonl}
run_id=${run_id:-ci-$(date -u +%Y%m%dT%H%M%SZ)}
results=${results:-results/ab-$run_id}

# have COMMIT: in the tree, or fetched from its origin at depth 1 (no
# clone of the whole history per job); servers that refuse a commit
# by id get a full fetch instead.
have() {
	git -C "$ksrc" cat-file -e "$1^{commit}" 2>/dev/null && return 0
	echo "nsbench-ci: fetching $1 (depth 1)"
	git -C "$ksrc" fetch -q --depth=1 origin "$1" 2>/dev/null ||
		git -C "$ksrc" fetch -q --unshallow origin ||
		git -C "$ksrc" fetch -q origin
	git -C "$ksrc" cat-file -e "$1^{commit}" ||
		die "commit $1 is not in $ksrc nor its origin"
}

plan_args=(--plan "$top/guest/plans/ab.plan")
[ -z "$workloads" ] || plan_args=(--workloads "$workloads")
common=(--mode "$mode" --rounds "$boots" --ksrc "$ksrc" --ref "$head"
	--out "$results" --bench "$build/bench/nsbench-bench" "${plan_args[@]}"
	--context "nsbench_ci_head=$head" --context "nsbench_ci_run_id=$run_id")
[ -z "$base" ] || common+=(--context "nsbench_ci_base=$base")

have "$head"
mkdir -p "$out/plots" "$(dirname "$history")"
if [ -n "$base" ]; then
	have "$base"
	echo "nsbench-ci: A/B of $base (A) and $head (B), series $series"
	"$ab_sh" --base none --series "$series" --base-ref "$base" \
		"${common[@]}" || die "the A/B failed (exit $?)"
else
	# One kernel, no comparison: --checks is ab.sh's one-kernel mode
	# (side B only) and a single shard of one stops it before its
	# check-cost report, which a plan without cost steps has no use for.
	echo "nsbench-ci: no base commit: $head alone, series $series"
	"$ab_sh" --checks --shard 1/1 --series "$series" "${common[@]}" ||
		die "the run failed (exit $?)"
fi
ls "$results"/B/*.json >/dev/null 2>&1 || die "no results in $results/B"

# Report and plots of the A/B: artifacts, not verdicts.
if [ -n "$base" ]; then
	A=("$results"/A/*.json) B=("$results"/B/*.json)
	# exit 1 is a slower row: the report is written all the same
	"$nsb" report --markdown --threshold="$threshold" \
		--out="$out/report.md" "${A[@]}" -- "${B[@]}" || [ $? = 1 ] ||
		echo "nsbench-ci: warning: no report" >&2
	"$nsb" compare --format=json --threshold="$threshold" \
		"${A[@]}" -- "${B[@]}" >"$out/compare.json" || true
	"$nsb" plot --out-dir="$out/plots" --stem=ab \
		"${A[@]}" -- "${B[@]}" >/dev/null ||
		echo "nsbench-ci: warning: no A/B plots" >&2
fi

# The head's rounds are one run of the history.
"$nsb" history append --history="$history" --run-id="$run_id" \
	--kernel-commit="$head" "$results"/B/*.json

# gate NAME ARGS...: KTAP on stdout and in out/gate-NAME.ktap, JUnit in
# out/gate-NAME.xml; its exit status in $rc.
gate() {
	local name=$1
	shift
	rc=0
	"$nsb" gate --history="$history" --threshold="$threshold" \
		--format=ktap --junit="$out/gate-$name.xml" "$@" \
		>"$out/gate-$name.ktap" || rc=$?
	cat "$out/gate-$name.ktap"
}

rc_ab=0
if [ -n "$base" ]; then
	# this change: head against base, paired by round
	bases=()
	for f in "$results"/A/*.json; do bases+=(--baseline="$f"); done
	gate ab "${bases[@]}" --run-id="$run_id" "$results"/B/*.json
	rc_ab=$rc
fi
# drift: this run against the last accepted one
gate history
rc_history=$rc

"$nsb" history show --history="$history" >"$out/history.txt" || true
"$nsb" history plot --history="$history" --out-dir="$out/plots" \
	--stem=trend >/dev/null 2>&1 || true

{
	[ ! -f "$out/report.md" ] || cat "$out/report.md"
	echo
	echo "nsbench gates: ${base:+A/B exit $rc_ab, }drift exit $rc_history"
	echo
	echo '```'
	[ -z "$base" ] || cat "$out/gate-ab.ktap"
	cat "$out/gate-history.ktap"
	echo '```'
} >"$out/summary.md"

worst=$rc_ab
[ "$rc_history" -le "$worst" ] || worst=$rc_history
if [ "$worst" = 0 ] && [ "$accept" = 1 ]; then
	"$nsb" history accept --history="$history" \
		--note="${note:-$head}" "$run_id"
fi
# 1: a regression; 2: an error — both fail the job
exit "$worst"
