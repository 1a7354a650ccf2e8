#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Quick tier of the guest profiles (TAP): an A/A of stock 6.1
# with high-resolution timers (configs/profile.config; side B a separate
# build), 2 rounds, a timed and a profiled step of path lookup.  Checks
# that perf ran in each guest with sampling switched by the benchmark's
# timer, that its perf.data came back whole and was symbolised against
# the side's own vmlinux (the lookup path's kernel functions named),
# imported with its operation count, kept out of the timed rows, and that
# the report and the per-symbol table come out.  About 1-2 minutes once
# the kernels are cached.  NSB_SKIP_KERNEL=1 skips it.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"

# Parsed whole before it runs: editing this file cannot break a run.
{


need_guest
need perf linux-perf
build=${NSB_BUILD:-$top/build}
case "$build" in /*) ;; *) build=$top/$build ;; esac
[ -x "$build/nsbench" ] || skip_all "$build/nsbench not built"
# The guest runs an unsanitized nsbench-bench (make check's is ASan).
bench=${NSB_GUEST_BENCH:-$top/build/bench/nsbench-bench}
[ -x "$bench" ] || skip_all "$bench not built"

cat >"$tmp/plan" <<'PLAN'
bench lookup '^sys/stat/init/depth:0/path:8/'
PROFILE_ARGS="--benchmark_min_time=0.02"
profile prof-lookup '^sys/stat/init/depth:0/path:8/'
PLAN
out=$tmp/aa
NSB_BUILD=$build "$top/scripts/ab.sh" --aa --rounds 2 --jobs 2 --mode icount \
	--no-cache --plan "$tmp/plan" --bench "$bench" --out "$out" \
	>"$tmp/ab.log" 2>&1
rc=$?
ok $rc "ab.sh --aa with a profile step, 2 rounds (exit $rc)"
[ "$rc" = 0 ] || tail -n 30 "$tmp/ab.log" | sed 's/^/# /'

profiles=("$out"/A/profile/*.profile.json "$out"/B/profile/*.profile.json)
[ "${#profiles[@]}" = 4 ] && [ -f "${profiles[0]}" ] && [ -f "${profiles[3]}" ]
ok $? "one profile per boot: ${#profiles[@]} of 4"

p=$out/A/profile/r01-prof-lookup.profile.json
[ "$(jq -r .benchmark "$p" 2>/dev/null)" = "sys/stat/init/depth:0/path:8/manual_time" ] &&
	[ "$(jq '.period > 5000 and .period <= 11015' "$p")" = true ] &&
	[ "$(jq '.ops > 0' "$p")" = true ]
ok $? "the profile names its benchmark, the effective period ($(jq .period "$p" 2>/dev/null) of 10007-11015) and the operations run"

jq -e '[.symbols[] | select(.kernel and (.symbol | startswith("link_path_walk")))
	| .samples] | add > 0' "$p" >/dev/null 2>&1
ok $? "kernel samples symbolised against vmlinux: link_path_walk has samples"
jq -e '([.symbols[] | select(.kernel) | .samples] | add) * 2 > .samples' "$p" >/dev/null 2>&1
ok $? "most samples are the kernel's (the syscall, not the loop)"

# Instructions per op from the profile against the timed row of the same
# boot: perf's interrupt adds instructions, nothing removes them.
timed=$(jq '[.benchmarks[] | select(.run_type == "iteration") | .real_time *
	({"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[.time_unit // "ns"])] | min' \
	"$out/A/r01-lookup.json" 2>/dev/null)
prof=$(jq '.samples * .period / .ops' "$p" 2>/dev/null)
awk -v t="${timed:-0}" -v p="${prof:-0}" 'BEGIN { exit !(t > 0 && p >= 0.9 * t && p <= 4 * t) }'
ok $? "samples x period / ops ($prof) agrees with the timed row ($timed insn/op)"

! ls "$out"/A/*bench.json "$out"/B/*bench.json >/dev/null 2>&1 &&
	[ -f "$out/A/r01-lookup.json" ]
ok $? "the profiled run's own results stay out of the timed rows"

grep -q 'profile steps: [0-9.]* of [0-9.]* guest seconds' "$tmp/ab.log"
ok $? "ab.sh reports the profile steps' share of the boots"
[ -s "$out/report.txt" ] && grep -q 'sys/stat/init/depth:0/path:8' "$out/profile.txt"
ok $? "report.txt and the per-symbol table (profile.txt)"
grep -q 'no symbol with a significant change' "$out/profile.txt"
ok $? "A/A: no symbol with a significant change"

tap_done
}
