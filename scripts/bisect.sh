#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/bisect.sh — the commit that made an operation slower: git
# bisect, each step an icount A/B of the candidate against the good
# commit (`nsbench bisect` runs this).
#
#   bisect.sh --ksrc TREE --good REV --bad REV --workloads FILTER
#             [--threshold INSN] [--rounds N] [--max-rounds N]
#             [--series NAME] [--out DIR] [--bench BIN]
#
#   --ksrc        the kernel git tree (not modified: the bisection runs
#                 in a clone that shares its objects, without checkout)
#   --good/--bad  the commits the regression lies between
#   --workloads   nsbench-bench filter of the operations to watch (e.g.
#                 '^sys/exec/vfork/bin/init/depth:0/')
#   --threshold   a candidate is bad when some row's shift against good
#                 exceeds it with its whole CI (default 1 insn: the icount
#                 band), good when every row's CI stays below it
#   --rounds      paired rounds per step (default 2: icount is
#                 deterministic, two rounds agree on every row a change
#                 does not touch); a step whose CI straddles the
#                 threshold gets one more round, up to --max-rounds
#                 (default 4), then is skipped (git bisect skip)
#   --series      applied to every commit (default none)
#
# Why icount: a native run's noise makes a bisection step's verdict a
# coin toss near the threshold; under -icount a kernel's instruction
# count per operation is a property of its image, and the same boot
# gives the same numbers.  Kernels and boots are cached (ab.sh), so the
# good side is built once and a repeated step costs nothing.
#
# Out: DIR (default results/bisect-<UTC>)/step-NN/ (each A/B), steps.txt,
# bisect.txt (the answer) and bisect.json.  Exits 0 with the first bad
# commit, 1 if bad is not slower than good (nothing to bisect), 2 on bad
# input or a failed step.

set -euo pipefail
shopt -s inherit_errexit

# Parsed whole before it runs: editing this file cannot break a run.
{

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
# shellcheck source=scripts/kernel/lib.sh
. "$here/kernel/lib.sh"

# Bad input exits 2, as the header says (lib.sh's die): 1 is bisect's
# "nothing to bisect", and a typo must not read as an answer.

# --help: the header above, on stdout (help2man makes the man page of it)
usage() {
	sed -n '4,/^$/{/^#/p}' "$0" | sed 's/^# \{0,1\}//'
	exit 0
}

ksrc='' good='' bad='' filter='' thr=1 rounds=2 max_rounds=4 series=none
out='' bench='' step=''
while [ $# -gt 0 ]; do
	case "$1" in
	--ksrc|--good|--bad|--workloads|--threshold|--rounds|--max-rounds|--series|--out|--bench|--step)
		need_value "$1" $# ;;
	esac
	case "$1" in
	--ksrc) ksrc=$2; shift ;;
	--good) good=$2; shift ;;
	--bad) bad=$2; shift ;;
	--workloads) filter=$2; shift ;;
	--threshold) thr=$2; shift ;;
	--rounds) rounds=$2; shift ;;
	--max-rounds) max_rounds=$2; shift ;;
	--series) series=$2; shift ;;
	--out) out=$2; shift ;;
	--bench) bench=$2; shift ;;
	--step) step=$2; shift ;;	# internal: one step, run by git bisect
	-h|--help) usage ;;
	*) die "unknown option '$1' (see --help)" ;;
	esac
	shift
done

# --- checked before anything long starts -----------------------------------

[ -n "$ksrc" ] || die "--ksrc TREE is required"
git -C "$ksrc" rev-parse --git-dir >/dev/null 2>&1 || die "--ksrc '$ksrc' is not a git tree"
ksrc=$(cd "$ksrc" && pwd)
[ -n "$good" ] && [ -n "$bad" ] || die "--good REV and --bad REV are required"
good=$(git -C "$ksrc" rev-parse --verify --quiet "$good^{commit}") ||
	die "--good: not a commit in $ksrc"
bad=$(git -C "$ksrc" rev-parse --verify --quiet "$bad^{commit}") ||
	die "--bad: not a commit in $ksrc"
git -C "$ksrc" merge-base --is-ancestor "$good" "$bad" ||
	die "--good must be an ancestor of --bad"
[ "$good" != "$bad" ] || die "--good and --bad are the same commit"
[ -n "$filter" ] || die "--workloads FILTER is required (the operations to watch)"
case "$filter" in *[![:print:]]*) die "--workloads: printable characters only" ;; esac
need_uint --rounds "$rounds" 2
need_uint --max-rounds "$max_rounds" "$rounds"
case "$thr" in
''|*[!0-9.]*|*.*.*|.*|*.) die "--threshold must be a number of instructions, not '$thr'" ;;
esac
# Read once, as decimal: "08" in $((n + 1)) is a bad octal number, and in
# jq's --argjson not JSON at all.
rounds=$((10#$rounds)) max_rounds=$((10#$max_rounds))
thr=$(printf '%s\n' "$thr" | sed 's/^0*\([0-9]\)/\1/')
nsb=$(build_dir "$top")/nsbench
[ -x "$nsb" ] || die "no $nsb (make)"
bench=${bench:-$(build_dir "$top")/bench/nsbench-bench}
[ -x "$bench" ] || die "no $bench (make)"
command -v jq >/dev/null || die "jq not found (make deps)"

progress() {
	printf '[bisect %s] %-8s %s\n' "$(date -u +%H:%M:%S)" "$1" "$2" >&2
}

# --- one step: the candidate against good ------------------------------------

# ab DIR REF ROUNDS: the icount A/B of REF against good, into DIR.
ab() {
	"$top/scripts/ab.sh" --mode icount --ksrc "$ksrc" --base "$series" \
		--series "$series" --base-ref "$good" --ref "$2" \
		--rounds "$3" --workloads "$filter" --bench "$bench" \
		--out "$1" >"$1.log" 2>&1
}

# verdict DIR: "bad", "good" or "unclear" of the A/B in DIR, and the row
# that decided, its shift and CI: "bad NAME EST LO HI".
verdict() {
	"$nsb" compare --format=json "$1"/A/*.json -- "$1"/B/*.json \
		2>/dev/null | jq -r --argjson t "$thr" '
		[.rows[] | select(.shift != null)] as $r
		| if ($r | length) == 0 then "unclear none 0 0 0"
		  else ($r | max_by(.shift.lo)) as $hi
		  | if $hi.shift.lo > $t then "bad \($hi.name) \($hi.shift.est) \($hi.shift.lo) \($hi.shift.hi)"
		    elif ($r | all(.shift.hi <= $t)) then
		      ($r | max_by(.shift.est)) as $m
		      | "good \($m.name) \($m.shift.est) \($m.shift.lo) \($m.shift.hi)"
		    else ($r | max_by(.shift.hi)) as $u
		      | "unclear \($u.name) \($u.shift.est) \($u.shift.lo) \($u.shift.hi)"
		    end
		  end'
}

# one_step REF DIR: the verdict line of REF, with more rounds while
# unclear; prints it, returns 0 (good), 1 (bad), 125 (still unclear).
one_step() {
	local ref=$1 dir=$2 n=$rounds v
	while :; do
		ab "$dir" "$ref" "$n" || {
			tail -n 15 "$dir.log" >&2
			return 125
		}
		v=$(verdict "$dir")
		case "$v" in
		good*) echo "$v"; return 0 ;;
		bad*) echo "$v"; return 1 ;;
		esac
		[ "$n" -lt "$max_rounds" ] || { echo "$v"; return 125; }
		n=$((n + 1))
		progress "unclear" "${v#unclear }: $n rounds"
	done
}

if [ -n "$step" ]; then
	# run by git bisect in the clone: BISECT_HEAD is the candidate
	cand=$(git -C "$ksrc" rev-parse BISECT_HEAD)
	k=$(($(wc -l <"$step/steps.txt") + 1))
	d=$(printf '%s/step-%02d' "$step" "$k")
	t0=$(date +%s)
	progress "step $k" "$(git -C "$ksrc" log -1 --format='%h %s' "$cand")"
	rc=0
	v=$(one_step "$cand" "$d") || rc=$?
	printf '%s %s %s %s\n' "$k" "$cand" "$(( $(date +%s) - t0 ))" "$v" >>"$step/steps.txt"
	progress "step $k" "${v%% *} (${v#* }) in $(( $(date +%s) - t0 )) s"
	exit "$rc"
fi

# --- the bisection -----------------------------------------------------------

out=${out:-$top/results/bisect-$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
: >"$out/steps.txt"
t0=$(date +%s)
n=$(git -C "$ksrc" rev-list --count "$good..$bad")
progress "start" "$n commit(s) after good $(git -C "$ksrc" log -1 --format=%h "$good"), bad $(git -C "$ksrc" log -1 --format=%h "$bad"); watching '$filter', threshold $thr insn"

# bad must be slower than good, or there is nothing to bisect
rc=0
v=$(one_step "$bad" "$out/bad") || rc=$?
progress "bad" "$v"
if [ "$rc" != 1 ]; then
	echo "bisect: bad is not slower than good beyond $thr insn ($v): nothing to bisect" |
		tee "$out/bisect.txt" >&2
	exit 1
fi

# the clone: the user's tree keeps its HEAD, index and bisect state
clone=$out/tree
rm -rf "$clone"
git clone -q --shared --no-checkout "$ksrc" "$clone"
cd "$clone"
git bisect start --no-checkout "$bad" "$good" >/dev/null
# git's own lines go to the log; each step's progress to the terminal
git bisect run "$here/bisect.sh" --step "$out" --ksrc "$clone" \
	--good "$good" --bad "$bad" --workloads "$filter" --threshold "$thr" \
	--rounds "$rounds" --max-rounds "$max_rounds" --series "$series" \
	--bench "$bench" 2>&1 | tee "$out/git-bisect.log" |
	grep --line-buffered '^\[bisect' >&2 || {
	tail -n 20 "$out/git-bisect.log" >&2
	die "git bisect run failed (steps so far: $out/steps.txt)"
}
git rev-parse --verify --quiet refs/bisect/bad >/dev/null &&
	grep -q 'is the first bad commit' "$out/git-bisect.log" || {
	tail -n 20 "$out/git-bisect.log" >&2
	die "git bisect found no first bad commit (skipped steps? $out/steps.txt)"
}
first=$(git rev-parse refs/bisect/bad)
git bisect reset >/dev/null 2>&1 || true
cd "$top"

# the answer: the first bad commit, its step (or bad's own A/B)
line=$(awk -v c="$first" '$2 == c' "$out/steps.txt" | tail -n 1)
[ -n "$line" ] || line="0 $bad 0 $v"
read -r _ _ _ _ name est lo hi <<<"$line"
dir=$(awk -v c="$first" '$2 == c { printf "%s/step-%02d", o, $1 }' o="$out" "$out/steps.txt" | tail -n 1)
dir=${dir:-$out/bad}
steps=$(wc -l <"$out/steps.txt")
secs=$(( $(date +%s) - t0 ))
{
	echo "first bad commit: $(git -C "$ksrc" log -1 --format='%H%n  %s' "$first")"
	printf '  %s: %+.1f insn [%+.1f, %+.1f] against good %s (threshold %s)\n' \
		"$name" "$est" "$lo" "$hi" "$(git -C "$ksrc" log -1 --format=%h "$good")" "$thr"
	echo "  $steps step(s) after checking bad, $secs s in all; each step's A/B: $out/step-NN"
	echo
	"$nsb" report "$dir"/A/*.json -- "$dir"/B/*.json 2>/dev/null |
		sed -n '/^Provenance/,$p'
} | tee "$out/bisect.txt"
jq -n --arg c "$first" --arg g "$good" --arg b "$bad" --arg name "$name" \
	--argjson est "$est" --argjson lo "$lo" --argjson hi "$hi" \
	--argjson steps "$steps" --argjson secs "$secs" --arg dir "$dir" \
	'{first_bad: $c, good: $g, bad: $b, row: $name,
	  shift: {est: $est, lo: $lo, hi: $hi}, steps: $steps,
	  seconds: $secs, ab: $dir}' >"$out/bisect.json"
exit 0
}
