#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# scripts/perf-profile.sh on a short exec workload: perf.data, the full
# report and the summary land under results/perf/<run>/exec/, the event is
# cycles or (no PMU) cpu-clock, and the summary table names the exec
# path's check functions.  Skips where perf cannot sample at all.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
build=${NSB_BUILD:-build}

if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP workloads need root"; exit 0
fi
if ! command -v perf >/dev/null || ! perf record -e cpu-clock -o /dev/null true >/dev/null 2>&1; then
	echo "1..0 # SKIP perf cannot sample here"; exit 0
fi


ASAN_OPTIONS=detect_leaks=0 scripts/perf-profile.sh --build="$build" \
	--results="$tmp" --name=t --count=400 exec >"$tmp/out" 2>"$tmp/log"
rc=$?
ok $rc "perf-profile.sh exec exits 0"
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/log" | tail -20
d=$tmp/perf/t/exec
for f in perf.data report.txt summary.txt; do
	ok $([ -s "$d/$f" ]; echo $?) "results/perf/<run>/exec/$f written"
done
grep -qE '^event: (cycles|cpu-clock) ' "$d/summary.txt"
ok $? "the summary names the event (cycles, or cpu-clock without a PMU)"
grep -qE '^ *[0-9.]+% +[0-9.]+% +bprm_execve$' "$d/summary.txt"
ok $? "the summary gives the exec path's share (bprm_execve)"
grep -q 'incl\. *self *function' "$d/summary.txt"
ok $? "the summary has the self/inclusive table"

tap_done
