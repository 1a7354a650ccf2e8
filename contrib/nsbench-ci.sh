#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# contrib/nsbench-ci.sh — one CI job of nsbench on a kernel tree, the same
# for GitHub Actions and GitLab CI (their files only find the commits and
# move files between jobs; what to measure is decided here, once):
#
#   nsbench-ci.sh --ksrc DIR --head SHA [--base SHA] [--series NAME]
#                 [--mode MODE] [--boots N] [--threshold PCT]
#                 [--workloads "W..."] [--history FILE] [--run-id ID]
#                 [--results DIR] [--out DIR] [--accept] [--note TEXT]
#   nsbench-ci.sh kernels --ksrc DIR --head SHA [--base SHA] --kernels DIR
#   nsbench-ci.sh shard --kernels DIR --shard K/N [--boots N] [--mode MODE]
#                 --out DIR
#   nsbench-ci.sh report --out DIR SHARD-DIR...
#
# Without a command: the A/B and its gates (the options below).  The
# other three are the check-cost pipeline, sharded, its kernels built
# once:
#   kernels  decides what the tree at --head can measure and builds it,
#            one kernel per side, into DIR/A and DIR/B (bzImage and
#            meta.json, what ab.sh --kernel takes: the jobs hand DIR on as
#            an artifact), the decision in DIR/ci.json:
#            - kernel-patches/VERSION/userns-checks-toggles exists for the
#              tree's version (its top Makefile at --head): what each
#              check costs (ab.sh --checks), the tree with the toggles;
#            - else, with a base: the two-kernel A/B of --base (A)
#              against --head (B), both as they are (series none);
#            - else (a nightly of a version without the toggles):
#              nothing; the shards and the report say so and pass
#   shard    boots K, K+N, ... of that campaign with those kernels
#            (ab.sh --kernel, --base-kernel, --shard K/N): no build
#   report   merges the shards (ab.sh --merge), writes DIR/report.md,
#            the plots and DIR/summary.md
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
#   --kernels   kernels: where the kernels go; shard: where they are
#   --shard     shard: K/N, as ab.sh --shard
#
# The results carry the commits (context nsbench_ci_base, nsbench_ci_head,
# nsbench_ci_run_id) beside each kernel's own source_commit and
# `git describe`, so the report names what was compared.
#
# Runs from the nsbench checkout, after `make deps && make`.  Exit 0: the
# gates passed (or nothing to measure); 1: a regression (or a benchmark
# that failed); 2: an error.  NSB_BUILD names the binaries (default
# build), NSB_AB the A/B driver (default scripts/ab.sh), NSB_KBUILD the
# kernel build (default scripts/kernel/build.sh); tests put stand-ins
# there.

set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# source_version (a tree's VERSION.PATCHLEVEL at a commit), NSB_CACHE;
# sourced first: this script's own die() below replaces lib.sh's
# shellcheck source=scripts/kernel/lib.sh
. "$top/scripts/kernel/lib.sh"
build=${NSB_BUILD:-$top/build}
case "$build" in /*) ;; *) build=$PWD/$build ;; esac
ab_sh=${NSB_AB:-$top/scripts/ab.sh}
kbuild=${NSB_KBUILD:-$top/scripts/kernel/build.sh}
nsb=$build/nsbench
# The series that makes a kernel's checks switchable (ab.sh --checks).
toggles=userns-checks-toggles

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
cmd=gate kernels='' shard='' shards=()
case "${1:-}" in kernels|shard|report) cmd=$1; shift ;; esac

while [ $# -gt 0 ]; do
	case "$1" in
	--ksrc) need_value "$1" $#; ksrc=$2; shift ;;
	--head) need_value "$1" $#; head=$2; shift ;;
	--base) need_value "$1" $#; base=$2; shift ;;
	--series) need_value "$1" $#; series=$2; shift ;;
	--mode) need_value "$1" $#; mode=$2; shift ;;
	--boots) need_value "$1" $#; boots=$2; shift ;;
	--threshold) need_value "$1" $#; threshold=$2; shift ;;
	--workloads) need_value "$1" $#; workloads=$2; shift ;;
	--history) need_value "$1" $#; history=$2; shift ;;
	--run-id) need_value "$1" $#; run_id=$2; shift ;;
	--results) need_value "$1" $#; results=$2; shift ;;
	--out) need_value "$1" $#; out=$2; shift ;;
	--note) need_value "$1" $#; note=$2; shift ;;
	--kernels) need_value "$1" $#; kernels=$2; shift ;;
	--shard) need_value "$1" $#; shard=$2; shift ;;
	--accept) accept=1 ;;
	-h|--help) usage 0 ;;
	-*) die "unknown option '$1' (see --help)" ;;
	*) [ "$cmd" = report ] || die "unexpected argument '$1' (see --help)"
	   shards+=("$1") ;;
	esac
	shift
done

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

# --- the check-cost pipeline: kernels once, shards, report --------------

# decide: what the tree at $head can measure, in kind (checks, ab or
# none), ver (its VERSION.PATCHLEVEL) and why (one line for the log and
# the summary).
decide() {
	ver=$(source_version "$ksrc" "$head") ||
		die "$ksrc at $head: no kernel version (is it a kernel tree?)"
	if [ -f "$top/kernel-patches/$ver/$toggles/series" ]; then
		kind=checks
		why="Linux $ver has the $toggles series: what each check costs"
	elif [ -n "$base" ]; then
		kind=ab
		why="Linux $ver has no $toggles series: the A/B of $base against $head (series none)"
	else
		kind=none
		why="Linux $ver has no $toggles series and this run has no base commit: nothing to measure (kernel-patches/ has: $(series_versions "$top"))"
	fi
}

# keep_kernel SIDE SERIES REF: build (cached) the kernel of REF with
# SERIES and keep what ab.sh --kernel needs in $kernels/SIDE.
keep_kernel() {
	local d f
	echo "nsbench-ci: side $1: $3, series $2"
	d=$("$kbuild" --series "$2" --ksrc "$ksrc" --ref "$3") ||
		die "the kernel build of $3 (series $2) failed"
	mkdir -p "$kernels/$1"
	for f in bzImage meta.json .config release; do
		[ ! -f "$d/$f" ] || cp "$d/$f" "$kernels/$1/"
	done
	if [ ! -f "$kernels/$1/bzImage" ] || [ ! -f "$kernels/$1/meta.json" ]; then
		die "the kernel build left no bzImage and meta.json in $d"
	fi
}

# ci_kernels: the decision and its kernels, one build per side.
ci_kernels() {
	[ -n "$ksrc" ] || die "kernels: --ksrc DIR is needed"
	[ -n "$head" ] || die "kernels: --head SHA is needed"
	[ -n "$kernels" ] || die "kernels: --kernels DIR is needed"
	have "$head"
	decide
	echo "nsbench-ci: $why"
	# an earlier run's kernels are replaced; any other directory is not
	if [ -d "$kernels" ] && [ ! -f "$kernels/ci.json" ] &&
	   [ -n "$(ls -A "$kernels")" ]; then
		die "kernels: $kernels is not empty and not an earlier kernels directory"
	fi
	rm -rf "$kernels"
	mkdir -p "$kernels"
	case "$kind" in
	checks) keep_kernel B "$toggles" "$head" ;;
	ab) have "$base"; keep_kernel A none "$base"; keep_kernel B none "$head" ;;
	esac
	jq -n --arg kind "$kind" --arg version "$ver" --arg why "$why" \
		--arg head "$head" --arg base "$base" \
		'{kind: $kind, version: $version, why: $why, head: $head,
		  base: $base}' >"$kernels/ci.json"
}

# ci_field DIR KEY: KEY of DIR/ci.json (written by ci_kernels).
ci_field() {
	jq -r --arg k "$2" '.[$k] // ""' "$1/ci.json" ||
		die "$1/ci.json: not written by 'nsbench-ci.sh kernels'"
}

# ci_shard: this shard's boots with the kernels built once.
ci_shard() {
	local k args
	[ -n "$kernels" ] || die "shard: --kernels DIR is needed"
	[ -n "$shard" ] || die "shard: --shard K/N is needed"
	[ "$out" != out ] || die "shard: --out DIR is needed"
	[ -f "$kernels/ci.json" ] || die "shard: no $kernels/ci.json (the kernels job's artifact)"
	k=$(ci_field "$kernels" kind)
	mkdir -p "$out"
	cp "$kernels/ci.json" "$out/ci.json"
	args=(--kernel "$kernels/B" --mode "$mode" --rounds "$boots"
		--shard "$shard" --out "$out" --bench "$build/bench/nsbench-bench"
		--context "nsbench_ci_head=$(ci_field "$kernels" head)")
	case "$k" in
	none) echo "nsbench-ci: $(ci_field "$kernels" why)"; return 0 ;;
	checks) "$ab_sh" --checks "${args[@]}" ;;
	ab) "$ab_sh" --base none --series none --base-kernel "$kernels/A" \
		--plan "$top/guest/plans/ab.plan" \
		--context "nsbench_ci_base=$(ci_field "$kernels" base)" "${args[@]}" ;;
	*) die "$kernels/ci.json: unknown kind '$k'" ;;
	esac || die "shard $shard failed (exit $?)"
}

# ci_report: the shards merged, the report and plots, summary.md.
ci_report() {
	local k
	[ "$out" != out ] || die "report: --out DIR is needed"
	[ ${#shards[@]} -gt 0 ] || die "report: the shards' directories are needed"
	[ -f "${shards[0]}/ci.json" ] || die "report: no ${shards[0]}/ci.json"
	k=$(ci_field "${shards[0]}" kind)
	mkdir -p "$out"
	if [ "$k" = none ]; then
		echo "nsbench-ci: $(ci_field "${shards[0]}" why)"
		echo "nsbench: $(ci_field "${shards[0]}" why)" >"$out/summary.md"
		return 0
	fi
	[ -x "$nsb" ] || die "$nsb not built (make)"
	"$ab_sh" --merge "$out" "${shards[@]}" || die "merging the shards failed"
	case "$k" in
	checks)
		"$nsb" costs --markdown --out="$out/report.md" "$out/B" "$out/A" ||
			die "nsbench costs failed"
		"$nsb" plot costs "$out/costs.json" --out-dir="$out" \
			--stem=checks >/dev/null ||
			echo "nsbench-ci: warning: no check-cost plots" >&2 ;;
	ab)
		"$nsb" report --markdown --out="$out/report.md" \
			"$out"/A/*.json -- "$out"/B/*.json || [ $? = 1 ] ||
			die "nsbench report failed"
		"$nsb" plot --out-dir="$out" --stem=ab \
			"$out"/A/*.json -- "$out"/B/*.json >/dev/null ||
			echo "nsbench-ci: warning: no A/B plots" >&2 ;;
	esac
	{
		echo "nsbench: $(ci_field "${shards[0]}" why)"
		echo
		cat "$out/report.md"
	} >"$out/summary.md"
}

case "$cmd" in
kernels) ci_kernels; exit 0 ;;
shard) ci_shard; exit 0 ;;
report) ci_report; exit 0 ;;
esac

# --- without a command: the A/B and its gates -----------------------------

[ -n "$ksrc" ] || die "--ksrc DIR is needed"
[ -n "$head" ] || die "--head SHA is needed"
[ -x "$nsb" ] || die "$nsb not built (make)"

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
	# One kernel, no comparison: ab.sh --one-kernel boots side B only
	# and stops before the check-cost report, which a plan without
	# cost steps has no use for.
	echo "nsbench-ci: no base commit: $head alone, series $series"
	"$ab_sh" --one-kernel --series "$series" "${common[@]}" ||
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
