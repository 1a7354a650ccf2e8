#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of "where the instructions go", without a
# guest: nsbench-bench --perf-control speaks perf record's control-FIFO
# protocol (a stand-in peer counts the commands; then real perf record
# where it works: cpu-clock is a software event, no PMU needed), and
# run-qemu.sh's binary frames (@@NSB BIN name bytes sha256, base64, EOF)
# give back the exact bytes, or fail the boot naming the file when a
# frame is truncated or its checksum differs.
set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
build=${NSB_BUILD:-$top/build}
case "$build" in /*) ;; *) build=$top/$build ;; esac
bench=$build/bench/nsbench-bench
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$tmp"' EXIT
[ -x "$bench" ] || { echo "1..0 # SKIP $bench not built"; exit 0; }
command -v jq >/dev/null || { echo "1..0 # SKIP jq not installed"; exit 0; }
one='^models/shim/c/keep_running$'

# --- the control protocol, against a stand-in for perf ---------------------
d=$tmp/pc
mkdir -p "$d"
mkfifo "$d/ctl" "$d/ack"
# The peer holds both FIFOs read-write, as perf does; each command line
# is logged and acked with perf's "ack\n" and its NUL.
(
	exec 3<>"$d/ctl" 4<>"$d/ack"
	while read -r cmd <&3; do
		echo "$cmd" >>"$d/log"
		printf 'ack\n\0' >&4
	done
) &
peer=$!
"$bench" --perf-control="$d" --benchmark_filter="$one" \
	--benchmark_min_time=0.01 --out="$tmp/b.json" >/dev/null 2>"$tmp/err"
rc=$?
kill "$peer" 2>/dev/null
runs=$(jq '.benchmarks | length' "$tmp/b.json" 2>/dev/null)
en=$(grep -c '^enable$' "$d/log" 2>/dev/null)
dis=$(grep -c '^disable$' "$d/log" 2>/dev/null)
[ "$rc" = 0 ] && [ "${en:-0}" -ge 1 ] && [ "$en" = "$dis" ] &&
	[ "$(sed -n 1p "$d/log")" = enable ] && [ "$(tail -n 1 "$d/log")" = disable ]
ok $? "--perf-control: enable/disable in pairs, one per timed run ($en/$dis, exit $rc)"
final=$(jq '.benchmarks[0].iterations' "$tmp/b.json" 2>/dev/null)
ops=$(cat "$d/ops" 2>/dev/null)
[ -n "$ops" ] && [ -n "$final" ] && [ "$ops" -ge "$final" ] && [ "$en" -ge "$runs" ]
ok $? "--perf-control: DIR/ops counts every run's iterations ($ops >= final run's $final)"
[ "$(jq -r .context.nsbench_profiled "$tmp/b.json")" = yes ]
ok $? "--perf-control: the results say they were profiled (not a timed row)"

"$bench" --perf-control="$d" --benchmark_filter='^models/shim/' \
	--no-results >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" != 0 ] && grep -q 'profiles one benchmark; --benchmark_filter selects' "$tmp/err"
ok $? "--perf-control refuses a filter selecting more than one benchmark"
"$bench" --perf-control="$tmp/none" --benchmark_filter="$one" \
	--no-results >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" != 0 ] && grep -q "cannot open $tmp/none/ctl" "$tmp/err"
ok $? "--perf-control: missing FIFOs are an error naming them"

# A peer that answers something else: the profile would be wrong.
rm -f "$d/ops"
(
	exec 3<>"$d/ctl" 4<>"$d/ack"
	while read -r _ <&3; do printf 'nak\n' >&4; done
) &
"$bench" --perf-control="$d" --benchmark_filter="$one" \
	--benchmark_min_time=0.01 --no-results >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" != 0 ] && grep -q 'no ack from perf' "$tmp/err" && [ ! -e "$d/ops" ]
ok $? "--perf-control: no ack fails the run and writes no ops (exit $rc)"

# --- real perf record, where it runs ----------------------------------------
if command -v perf >/dev/null &&
   perf record -q -e cpu-clock -o "$tmp/probe.data" true >/dev/null 2>&1; then
	p=$tmp/real
	mkdir -p "$p"
	mkfifo "$p/ctl" "$p/ack"
	perf record -q -B -N -e cpu-clock -c 100000 -D -1 \
		--control="fifo:$p/ctl,$p/ack" -o "$p/perf.data" -- \
		"$bench" --perf-control="$p" --benchmark_filter="$one" \
		--benchmark_min_time=0.05 --no-results >/dev/null 2>"$tmp/err"
	rc=$?
	nsamp=$(perf report -i "$p/perf.data" --stdio -q -t "$(printf '\t')" \
		--sort dso -F sample,dso 2>/dev/null | awk -F'\t' '{ s += $1 } END { print s + 0 }')
	[ "$rc" = 0 ] && [ "$nsamp" -gt 0 ] && [ -s "$p/ops" ]
	ok $? "perf record -D -1 --control + --perf-control: $nsamp samples, ops $(cat "$p/ops" 2>/dev/null)"
else
	ok 0 "perf record cannot run here (# SKIP)"
fi

# --- binary frames through run-qemu.sh --replay ----------------------------
qemu_run=$top/guest/run-qemu.sh
touch "$tmp/kernel" "$tmp/initrd"
q=(--kernel "$tmp/kernel" --initrd "$tmp/initrd")
mkdir -p "$tmp/replay"
echo "@@NSB INIT" >"$tmp/replay/console.log"
# Every byte value, and bytes that look like the framing.
{ for i in $(seq 0 255); do printf "\\$(printf '%03o' "$i")"; done
  printf '\n@@NSB EOF x\n@@NSB DONE 0\n'; head -c 5000 /dev/urandom; } >"$tmp/blob"
frame() {	# NAME FILE [BYTES] [SHA] [LINES]: a frame as the guest sends it
	local bytes=${3:-$(wc -c <"$2")} sha=${4:-$(sha256sum <"$2" | cut -d' ' -f1)}
	echo "@@NSB BIN $1 $bytes $sha"
	base64 "$2" | head -n "${5:-1000000}"
	echo "@@NSB EOF $1"
}
{ echo "@@NSB INIT mode=icount"; frame p.perf.data "$tmp/blob"; echo "@@NSB DONE 0"; } \
	>"$tmp/replay/results.raw"
"$qemu_run" "${q[@]}" --out "$tmp/q1" --replay "$tmp/replay" >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" = 0 ] && cmp -s "$tmp/blob" "$tmp/q1/p.perf.data" &&
	[ ! -e "$tmp/q1/p.perf.data.b64" ] && [ ! -e "$tmp/q1/p.perf.data.frame" ]
ok $? "run-qemu.sh: a binary frame gives back the exact bytes (exit $rc)"

{ echo "@@NSB INIT mode=icount"; frame p.perf.data "$tmp/blob" "" "" 20; } \
	>"$tmp/replay/results.raw"
echo "@@NSB DONE 0" >>"$tmp/replay/results.raw"
"$qemu_run" "${q[@]}" --out "$tmp/q2" --replay "$tmp/replay" --boot 4 --side B \
	>/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" != 0 ] && grep -q 'binary file p.perf.data truncated' "$tmp/err" &&
	grep -q 'boot 4 side B' "$tmp/err" && [ ! -e "$tmp/q2/p.perf.data" ]
ok $? "run-qemu.sh: a truncated binary file fails the boot, naming file and boot"

{ echo "@@NSB INIT mode=icount"
  frame p.perf.data "$tmp/blob" "" "$(printf '%064d' 0)"; echo "@@NSB DONE 0"; } \
	>"$tmp/replay/results.raw"
"$qemu_run" "${q[@]}" --out "$tmp/q3" --replay "$tmp/replay" >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" != 0 ] && grep -q 'sha256 differs' "$tmp/err" && [ ! -e "$tmp/q3/p.perf.data" ]
ok $? "run-qemu.sh: a binary file whose checksum differs fails the boot"

{ echo "@@NSB INIT mode=icount"; echo '@@NSB BIN ../x 5 $(touch pwned)'
  echo "@@NSB EOF ../x"; echo "@@NSB DONE 0"; } >"$tmp/replay/results.raw"
(cd "$tmp" && "$qemu_run" "${q[@]}" --out "$tmp/q4" --replay "$tmp/replay" \
	>/dev/null 2>"$tmp/err")
rc=$?
[ "$rc" != 0 ] && [ ! -e "$tmp/x" ] && [ ! -e "$tmp/pwned" ] && [ ! -e "$tmp/q4/pwned" ]
ok $? "run-qemu.sh: a binary frame with a bad name or header is refused, runs nothing"

tap_done
