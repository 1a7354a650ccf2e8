#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run-main.sh — `make run`, the main job: the quick tier of every
# microbenchmark and native workload on the running kernel, one results
# file under results/, and a summary on screen.  Stages that need more
# (the kernel A/B in QEMU) are added after it as they exist.
#
# Environment: O (build dir, default build), NSB_RESULTS (default results),
# NSB_BENCH_ARGS (extra nsbench-bench flags, e.g. --benchmark_filter=...).

set -eu

O=${O:-build}
RESULTS=${NSB_RESULTS:-results}
stamp=$(date -u +%Y%m%dT%H%M%SZ)
host=$(hostname 2>/dev/null || echo host)
out="$RESULTS/$stamp-$host-native-quick.json"

mkdir -p "$RESULTS"
echo "== nsbench: microbenchmarks and native workloads (quick tier) =="
echo "   kernel $(uname -r); results -> $out"
start=$(date +%s)
# display_aggregates_only: the console shows aggregates, the file keeps
# every repetition (the samples the statistics need).
# shellcheck disable=SC2086 # NSB_BENCH_ARGS is a word list on purpose
"$O/bench/nsbench-bench" --tier=quick --label=native-quick --out="$out" \
	--benchmark_repetitions=3 --benchmark_display_aggregates_only=true \
	${NSB_BENCH_ARGS:-} >"$RESULTS/.last-console.txt" 2>&1 || {
	rc=$?
	echo "nsbench: the benchmark run failed (exit $rc); its output:" >&2
	tail -n 20 "$RESULTS/.last-console.txt" >&2
	exit "$rc"
}
echo "   done in $(( $(date +%s) - start )) s"
echo
"$O/nsbench" summary "$out"
