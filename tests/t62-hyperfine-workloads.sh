#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# scripts/hyperfine-workloads.sh end to end on a smoke sweep: hyperfine
# runs nsb-wl, the exports become nsbench results files whose entries are
# one per run, in ns, named by their parameters; the scenario the kernel
# refuses (owner parent at depth 0) is a skip, not a sample.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
build=${NSB_BUILD:-build}

if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP workloads need root"; exit 0
fi
if ! command -v hyperfine >/dev/null; then
	echo "1..0 # SKIP hyperfine not installed"; exit 0
fi


# ASan's leak check at exit would slow every nsb-wl run; it runs in the C tests.
ASAN_OPTIONS=detect_leaks=0 scripts/hyperfine-workloads.sh --build="$build" \
	--tier=smoke --name=smoke --results="$tmp" >"$tmp/files" 2>"$tmp/log"
rc=$?
ok $rc "hyperfine-workloads.sh --tier=smoke exits 0"
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/log" | tail -20
for w in exec mount fscreate open; do
	f=$(grep -- "-hf-$w-smoke.json" "$tmp/files")
	ok $([ -s "$tmp/hyperfine/smoke/$w.json" ]; echo $?) "$w: raw hyperfine export kept"
	ok $([ -s "$f" ]; echo $?) "$w: nsbench results file written"
done
exec_json=$(grep -- '-hf-exec-smoke.json' "$tmp/files")
# exec: depth 0,1 x owner init,parent x file bin, 2 runs each; parent at
# depth 0 is refused: 3 x 2 samples + 1 skip entry.
samples=$(grep -c '"run_type": "iteration"' "$exec_json")
ok $([ "$samples" -eq 7 ]; echo $?) "exec: 6 samples + 1 skip entry (got $samples)"
grep -q '"name": "wl/exec/file:bin/owner:init/depth:1"' "$exec_json"
ok $? "exec: entries are named by their parameters"
grep -q '"error_message": "skipped: the workload exited 3' "$exec_json"
ok $? "exec: the refused scenario is a skip"
grep -q '"time_unit": "ns"' "$exec_json"
ok $? "exec: times in ns"
"$build/nsbench" summary "$exec_json" >"$tmp/summary" 2>&1
ok $? "nsbench summary reads the imported file"

tap_done
