#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# workloads/run-plan.sh — run a plan of nsbench-bench steps, natively or
# inside a busybox guest (plain POSIX sh: busybox ash is enough).
#
# usage: run-plan.sh [--bench=PATH] [--results=DIR] [--stream] PLAN [ARG...]
#   PLAN   a file of steps, one per line:   <label> <nsbench-bench args>
#          ('#' comments; no quoting: arguments are split on blanks and
#          never globbed, so a filter regex is written as is)
#   ARG    appended to every step (e.g. --mode=icount --side=A --seed=7)
#   --bench=PATH   nsbench-bench (default: ../bench/ next to this script,
#                  then $PATH)
#   --results=DIR  where results files go (default results)
#   --stream       also print each results file on stdout between
#                  "==> nsbench-results FILE <==" and "<== nsbench-results end ==>"
#                  lines, for a guest whose disk is thrown away
# Exit status: 0 all steps ran, 1 a step failed, 130 interrupted.

set -u
set -f

here=$(dirname "$0")
bench=
results=results
stream=0
while [ $# -gt 0 ]; do
	case $1 in
	--bench=*) bench=${1#*=} ;;
	--results=*) results=${1#*=} ;;
	--stream) stream=1 ;;
	-h|--help) sed -n '4,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) echo "run-plan.sh: unknown option '$1'" >&2; exit 2 ;;
	*) break ;;
	esac
	shift
done
if [ $# -lt 1 ]; then
	echo "usage: run-plan.sh [--bench=PATH] [--results=DIR] [--stream] PLAN [ARG...]" >&2
	exit 2
fi
plan=$1
shift
if [ ! -r "$plan" ]; then
	echo "run-plan.sh: cannot read plan '$plan'" >&2
	exit 2
fi
if [ -z "$bench" ]; then
	for b in "$here/../bench/nsbench-bench" "$here/nsbench-bench"; do
		[ -x "$b" ] && bench=$b && break
	done
	[ -n "$bench" ] || bench=$(command -v nsbench-bench) || {
		echo "run-plan.sh: nsbench-bench not found (--bench=PATH)" >&2
		exit 2
	}
fi
mkdir -p "$results"
host=$(hostname 2>/dev/null || cat /proc/sys/kernel/hostname)

# Interrupt: nsbench-bench ends its benchmark and writes a partial file;
# we stop after it instead of starting the next step.
stop=0
trap 'stop=1' INT TERM

status=0
steps=0
while read -r label args; do
	case $label in '' | '#'*) continue ;; esac
	[ $stop -eq 1 ] && break
	steps=$((steps + 1))
	out=$results/$(date -u +%Y%m%dT%H%M%SZ)-$host-$label.json
	echo "run-plan.sh: step $steps: $label -> $out" >&2
	# shellcheck disable=SC2086 # splitting the plan's arguments is the point
	"$bench" --label="$label" --out="$out" $args "$@" </dev/null
	rc=$?
	if [ $rc -eq 130 ] || [ $stop -eq 1 ]; then
		status=130
		stop=1
	elif [ $rc -ne 0 ]; then
		echo "run-plan.sh: step $label failed (exit $rc)" >&2
		[ $status -eq 0 ] && status=1
	fi
	if [ $stream -eq 1 ] && [ -r "$out" ]; then
		echo "==> nsbench-results $out <=="
		cat "$out"
		echo
		echo "<== nsbench-results end ==>"
	fi
done <"$plan"

echo "run-plan.sh: $steps step(s) of $plan, exit $status" >&2
exit $status
