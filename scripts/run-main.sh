#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run-main.sh — `make run`, the main job, in three stages:
#
#   1. native   the models of every check and the hot paths they sit on
#               (exec, open, stat, sget) on the running kernel, in wall-
#               clock time, before any guest loads the CPUs (about a
#               minute): results/<UTC>-<host>-native-quick.json and a
#               summary table on screen;
#   2. checks   what each userns mount check costs: the toggles kernel in
#               QEMU icount guests, every check on and off in the same
#               boot, 6 rounds of three boots (no LSM, SELinux, Smack),
#               boots in parallel (scripts/ab.sh --checks): results/
#               run-<UTC>/;
#   3. report   ab.sh's report (report.txt, report.md, costs.json: one
#               nsbench costs call) on screen, then the headline plot
#               beside the results and under plots/.
#
# Environment: O (build dir, default build), NSB_RESULTS (default
# results), NSB_STAGES (default "native checks"), NSB_MODE (auto|icount|
# tcg|kvm, default icount: KVM does not boot here), NSB_ROUNDS (default
# 6: the fewest paired rounds whose sign-test interval reaches 95 %),
# NSB_JOBS (boots at once, default the CPUs), NSB_BOOT_CACHE=0 (boot
# everything, take no boot result from the cache), NSB_KERNEL (make run
# KERNEL=6.12: Debian's linux-source-6.12 and the 6.12 series; default
# kernel-patches/default-version), NSB_STOCK=1 (also boot
# the unpatched kernel with the same plan: the toggles' own cost), NSB_LSM=0 (no
# SELinux and Smack boots: seeds 007 and 008 and the checks under an LSM
# left out; by default every round boots the image with no LSM, with
# SELinux and with Smack), NSB_NATIVE_FILTER
# (stage 1's benchmarks; "." for the whole quick tier), NSB_BENCH_ARGS
# (extra nsbench-bench flags for stage 1), NSB_CACHESIM=1 (the boots
# load the cache-model plugin: the report adds each check's shift in
# loads, L1d and LL misses warm and cold and estimated cycles; the boots
# take about 2.6 times as long, see README).

# The models (nanoseconds: the checks' own code) and one scenario per hot
# path natively; the whole quick tier takes 2-3 minutes.
NATIVE_FILTER='^models/|^sys/(exec/vfork/(bin|suid|fcaps)/(init|self)/depth:(0|32)/|open/(file|dev)/init/depth:0/|stat/init/depth:0/path:(1|8)/|mount/fscreate/mqueue/depth:0/)'

set -eu

O=${O:-build}
RESULTS=${NSB_RESULTS:-results}
STAGES=${NSB_STAGES:-native checks}
stamp=$(date -u +%Y%m%dT%H%M%SZ)
host=$(hostname 2>/dev/null || echo host)
t0=$(date +%s)
times=''

say() {
	printf '\n== nsbench [%s] %s ==\n' "$(elapsed)" "$*"
}

elapsed() {
	s=$(( $(date +%s) - t0 ))
	printf '%02d:%02d' $((s / 60)) $((s % 60))
}

# timed NAME CMD...: runs CMD, notes how long the stage took.
timed() {
	name=$1
	shift
	ts=$(date +%s)
	"$@"
	times="$times $name=$(( $(date +%s) - ts ))s"
}

stage_native() {
	out="$RESULTS/$stamp-$host-native-quick.json"
	log="$RESULTS/$stamp-$host-native-quick.console.txt"

	say "1/3 native: microbenchmarks and workloads on $(uname -r)"
	echo "   results -> $out"
	filter=${NSB_NATIVE_FILTER:-$NATIVE_FILTER}
	families=$("$O/bench/nsbench-bench" --tier=quick --benchmark_list_tests \
		--benchmark_filter="$filter" 2>/dev/null | cut -d/ -f1-2 | uniq)
	# shellcheck disable=SC2086 # NSB_BENCH_ARGS is a word list on purpose
	# 10 ms a repetition: the models' ns-scale ops run millions of
	# times in it.  20 ms gave the same spread (CV over 3 repetitions:
	# median 1 % and 0 %, 90th percentile 7 % both, over 201 rows) and
	# took 25 s instead of 12.
	"$O/bench/nsbench-bench" --tier=quick --label=native-quick \
		--out="$out" --benchmark_repetitions=3 \
		--benchmark_min_time=0.01 \
		--benchmark_filter="$filter" \
		--benchmark_display_aggregates_only=true \
		${NSB_BENCH_ARGS:-} >"$log" 2>&1 &
	bench_pid=$!
	native_progress "$log" "$bench_pid" "$families"
	wait "$bench_pid" || {
		rc=$?
		echo "nsbench: the benchmark run failed (exit $rc); the end of $log:" >&2
		tail -n 20 "$log" >&2
		exit "$rc"
	}
	echo
	"$O/nsbench" summary "$out"
}

# native_progress LOG PID FAMILIES: every 5 s while PID runs, which
# benchmark family of how many it is in (the family of the last result
# line in LOG; benchmarks run in the order they are listed).  Returns
# within 0.1 s of PID's end (a plain sleep 5 lost 2.5 s on average).
native_progress() {
	n=$(printf '%s\n' "$3" | grep -c .)
	while kill -0 "$2" 2>/dev/null; do
		timeout 5 tail --pid="$2" -s 0.1 -f /dev/null || true
		kill -0 "$2" 2>/dev/null || break
		fam=$(grep -Eo '^(models|sys)/[A-Za-z0-9_]+' "$1" | tail -n 1)
		[ -n "$fam" ] || continue
		k=$(printf '%s\n' "$3" | grep -nxF "$fam" | cut -d: -f1)
		printf '   [%s] family %s/%s: %s\n' "$(elapsed)" "${k:-?}" "$n" "$fam"
	done
}

stage_checks() {
	dir="$RESULTS/run-$stamp"
	cmd="make run"
	lsms="selinux smack"
	[ "${NSB_STOCK:-0}" = 1 ] && cmd="NSB_STOCK=1 $cmd"
	[ "${NSB_LSM:-1}" = 0 ] && { lsms=''; cmd="NSB_LSM=0 $cmd"; }
	[ -z "${NSB_KERNEL:-}" ] || cmd="$cmd KERNEL=$NSB_KERNEL"
	cachesim=''
	if [ "${NSB_CACHESIM:-0}" = 1 ]; then
		cachesim=$O/guest/plugin/nsb-cachesim.so
		cmd="NSB_CACHESIM=1 $cmd"
	fi

	say "2/3 what each check costs: toggles kernel (Linux $kernel), ${NSB_MODE:-icount} guests, LSM: none${lsms:+ $lsms}"
	# ab.sh writes the report (report.txt, report.md, costs.json) in one
	# nsbench costs call, naming $cmd as what reproduces the run; this
	# stage adds the plot, drawn from that costs.json.
	# shellcheck disable=SC2046
	scripts/ab.sh --checks $([ "${NSB_STOCK:-0}" = 1 ] && echo --stock) \
		$([ "${NSB_BOOT_CACHE:-1}" = 0 ] && echo --no-cache) \
		${lsms:+--lsm-boots "$lsms"} ${cachesim:+--cachesim "$cachesim"} \
		--mode "${NSB_MODE:-icount}" --rounds "${NSB_ROUNDS:-6}" \
		--jobs "${NSB_JOBS:-$(nproc)}" --bench "$O/bench/nsbench-bench" \
		--report-command "$cmd" --out "$dir"

	say "3/3 report: $dir"
	"$O/nsbench" plot costs "$dir/costs.json" --out-dir="$dir" --stem=costs >/dev/null
	# the cache model's two headline quantities on the same panels
	if [ -n "$cachesim" ]; then
		for q in l1d_miss_cold cycles_cold; do
			"$O/nsbench" plot costs --quantity="$q" "$dir/costs.json" \
				--out-dir="$dir" --stem="costs-$q" >/dev/null
		done
	fi
	mkdir -p plots
	for f in "$dir"/costs-*.svg "$dir"/costs-*.png; do
		[ -e "$f" ] && cp "$f" "plots/$stamp-$(basename "$f")"
	done
	cat "$dir/report.txt"
	echo
	echo "   Markdown: $dir/report.md"
	echo "   plot:     $(ls "$dir"/costs-*.png 2>/dev/null | tr '\n' ' ')"
	boot_times "$dir/manifest.json"
	boot_phases "$dir"
}

# boot_phases DIR: where the booted guests' wall time went, summed over
# the boots that were booted (not taken from the cache): QEMU start and
# the kernel's boot up to /init, each kind of step (LSM-named labels
# folded), and the end (sync, reboot, QEMU's exit); from each boot's
# wall.txt (guest/run-qemu.sh: the second each STEP line arrived).
boot_phases() {
	cat "$1"/boots/r*-[AB]*/wall.txt 2>/dev/null | awk '
		$2 == "INIT" { k += $1; t = $1; n++; next }
		$2 == "STEP" { l = $3; sub(/-(selinux|smack)$/, "", l)
			st[l] += $1 - t; t = $1; next }
		$2 == "END" { e += $1 - t; w += $1 }
		END { if (!n) exit
			printf "   phases:   wall s over %d booted boot(s): %.0f in all; to /init %.0f;", n, w, k
			for (l in st) printf " %s %.0f,", l, st[l]
			printf " end %.0f\n", e }'
}

# boot_times MANIFEST: where the checks stage's time went.
boot_times() {
	jq -r '"   boots:    \(.boots | length) (\([.boots[] | select(.source == "fresh")] | length) booted, \([.boots[] | select(.source == "cache")] | length) from the cache; \(.cache_audit)); wall per booted boot: \([.boots[] | select(.source == "fresh") | .wall_seconds] | sort | if length > 0 then "\(.[0])-\(.[-1]) s" else "-" end); kernel built in \(.B.build_seconds) s (\(.B.built))"' \
		"$1" 2>/dev/null || true
}

# The kernel version (make run KERNEL=6.12): its toggles series must
# exist before the first stage.
kernel=${NSB_KERNEL:-$(scripts/kernel/default-version.sh .)}
if [ ! -f "kernel-patches/$kernel/userns-checks-toggles/series" ]; then
	echo "nsbench: KERNEL=$kernel: no userns-checks-toggles series for Linux $kernel; kernel-patches/ has:" \
		$(cd kernel-patches && ls -d [0-9]*.[0-9]*) >&2
	exit 2
fi

# Every stage name before the first stage: a typo must not cost a run.
for s in $STAGES; do
	case "$s" in
	native|checks|ab) ;;
	*) echo "nsbench: unknown stage '$s' in NSB_STAGES (native, checks)" >&2
	   exit 2 ;;
	esac
done

# Every other variable too: NSB_ROUNDS=0 or NSB_MODE=bogus were found by
# ab.sh only after the minute-long native stage, and NSB_BOOT_CACHE=no
# or NSB_STOCK=yes were silently read as the default.
bad_env() {
	echo "nsbench: $*" >&2
	exit 2
}
# count NAME VALUE: a whole number >= 1 (decimal; leading zeros are
# fine, ab.sh reads them as decimal too)
count() {
	case "$2" in
	''|*[!0-9]*) bad_env "$1 must be a whole number >= 1, not '$2'" ;;
	esac
	n=${2#"${2%%[!0]*}"}
	[ -n "$n" ] && [ ${#n} -le 6 ] ||
		bad_env "$1 must be between 1 and 999999, not '$2'"
}
[ -z "${NSB_ROUNDS:-}" ] || count NSB_ROUNDS "$NSB_ROUNDS"
[ -z "${NSB_JOBS:-}" ] || count NSB_JOBS "$NSB_JOBS"
case "${NSB_MODE:-icount}" in
auto|icount|tcg|kvm) ;;
*) bad_env "NSB_MODE must be auto, icount, tcg or kvm, not '$NSB_MODE'" ;;
esac
for v in NSB_BOOT_CACHE NSB_STOCK NSB_LSM; do
	eval "val=\${$v:-}"
	case "$val" in
	''|0|1) ;;
	*) bad_env "$v must be 0 or 1, not '$val'" ;;
	esac
done
case " $STAGES " in
*" native "*)
	filter=${NSB_NATIVE_FILTER:-$NATIVE_FILTER}
	[ -z "$("$O/bench/nsbench-bench" --tier=quick --benchmark_list_tests \
		--benchmark_filter="$filter" 2>/dev/null | head -n 1)" ] &&
		bad_env "NSB_NATIVE_FILTER='$filter' matches no benchmark" \
			"($O/bench/nsbench-bench --tier=quick" \
			"--benchmark_list_tests lists them)"
	;;
esac

mkdir -p "$RESULTS"
for s in $STAGES; do
	case "$s" in
	native) timed native stage_native ;;
	checks|ab) timed checks stage_checks ;;
	esac
done
say "done (stages:$times)"
