#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run-main.sh — `make run`, the main job, in three stages:
#
#   1. native   the quick tier of every microbenchmark and native workload
#               on the running kernel: results/<UTC>-<host>-native-quick.json
#               and a summary table on screen;
#   2. ab       the default kernel A/B in QEMU (scripts/ab.sh): stock 6.1
#               against the userns-checks-toggles series, each check also
#               switched off inside the same boot, interleaved rounds with
#               shared seeds: results/ab-<UTC>/;
#   3. report   the A/B as a posting-ready text report on screen, Markdown
#               and plots beside the results, plots also under plots/.
#
# Environment: O (build dir, default build), NSB_RESULTS (default
# results), NSB_BENCH_ARGS (extra nsbench-bench flags for stage 1),
# NSB_STAGES (default "native ab"), NSB_MODE (auto|icount|tcg|kvm,
# default auto), NSB_ROUNDS (default 6: the fewest paired rounds whose
# sign-test interval reaches 95 %; 3 is quicker and says "noisy"), NSB_SERIES (default
# userns-checks-toggles).

set -eu

O=${O:-build}
RESULTS=${NSB_RESULTS:-results}
STAGES=${NSB_STAGES:-native ab}
stamp=$(date -u +%Y%m%dT%H%M%SZ)
host=$(hostname 2>/dev/null || echo host)
t0=$(date +%s)

say() {
	printf '\n== nsbench [%s] %s ==\n' "$(elapsed)" "$*"
}

elapsed() {
	s=$(( $(date +%s) - t0 ))
	printf '%02d:%02d' $((s / 60)) $((s % 60))
}

stage_native() {
	out="$RESULTS/$stamp-$host-native-quick.json"
	log="$RESULTS/$stamp-$host-native-quick.console.txt"

	say "1/3 native: microbenchmarks and workloads on $(uname -r)"
	echo "   results -> $out"
	# display_aggregates_only: the console shows aggregates, the file
	# keeps every repetition (the samples the statistics need).
	# shellcheck disable=SC2086 # NSB_BENCH_ARGS is a word list on purpose
	"$O/bench/nsbench-bench" --tier=quick --label=native-quick \
		--out="$out" --benchmark_repetitions=3 \
		--benchmark_display_aggregates_only=true \
		${NSB_BENCH_ARGS:-} >"$log" 2>&1 || {
		rc=$?
		echo "nsbench: the benchmark run failed (exit $rc); the end of $log:" >&2
		tail -n 20 "$log" >&2
		exit "$rc"
	}
	echo
	"$O/nsbench" summary "$out"
}

# nsbench report/plot exit 1 when a row is slower: that is the answer
# here, not a failure.  Only 2 (bad input) stops make run.
tolerate_verdict() {
	"$@" || { rc=$?; [ "$rc" -eq 1 ] || exit "$rc"; }
}

stage_ab() {
	dir="$RESULTS/ab-$stamp"
	series=${NSB_SERIES:-userns-checks-toggles}

	say "2/3 kernel A/B: stock 6.1 vs $series (${NSB_MODE:-auto} mode)"
	scripts/ab.sh --base none --series "$series" \
		--mode "${NSB_MODE:-auto}" --rounds "${NSB_ROUNDS:-6}" \
		--bench "$O/bench/nsbench-bench" --out "$dir"

	say "3/3 report: $dir"
	tolerate_verdict "$O/nsbench" report --out="$dir/report.txt" \
		"$dir"/A/*.json -- "$dir"/B/*.json
	tolerate_verdict "$O/nsbench" report --markdown --out="$dir/report.md" \
		"$dir"/A/*.json -- "$dir"/B/*.json
	tolerate_verdict "$O/nsbench" plot --out-dir="$dir" --stem=ab \
		"$dir"/A/*.json -- "$dir"/B/*.json >/dev/null
	mkdir -p plots
	for f in "$dir"/ab-*.svg "$dir"/ab-*.png; do
		[ -e "$f" ] && cp "$f" "plots/$stamp-$(basename "$f")"
	done
	cat "$dir/report.txt"
	echo
	echo "   Markdown: $dir/report.md"
	echo "   plots:    $(ls "$dir"/ab-*.png 2>/dev/null | tr '\n' ' ')"
}

mkdir -p "$RESULTS"
for s in $STAGES; do
	case "$s" in
	native) stage_native ;;
	ab) stage_ab ;;
	*) echo "nsbench: unknown stage '$s' in NSB_STAGES" >&2; exit 2 ;;
	esac
done
say "done"
