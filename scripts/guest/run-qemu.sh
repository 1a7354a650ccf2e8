#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/guest/run-qemu.sh — boot one guest, run its plan, collect results.
#
#   run-qemu.sh --kernel DIR|bzImage --initrd FILE --out DIR
#               [--mode icount|tcg|kvm] [--round N] [--seed N]
#               [--side A|B] [--boot N] [--series NAME] [--config-hash H]
#               [--append "ARGS"] [--timeout S] [--boot-timeout S]
#               [--replay DIR]
#   run-qemu.sh --print-cmdline [--mode M] [--round N] [--seed N]
#               [--append "ARGS"]
#
# --replay DIR takes the guest's output (results.raw, console.log) of an
# earlier boot with the same inputs from DIR instead of booting (ab.sh's
# boot cache); everything after the boot is the same.  --print-cmdline
# prints the guest's kernel command line and exits.
#
# DIR gets console.log (ttyS0), results.raw (ttyS1), every results file the
# guest sent (placeholders @SIDE@ @BOOT@ @SERIES@ @CONFIG_HASH@ filled in),
# probes.txt and steps.txt.  Exits 0 only when the guest finished its plan
# ("@@NSB DONE 0"); otherwise 1 with the reason and the console's tail:
# panic, oops, no output within --boot-timeout, hang past --timeout, or a
# guest that stopped without finishing.  Timeouts are QEMU CPU seconds
# under tcg/icount (load-independent), wall seconds under kvm; a wall cap
# of 3x + 60 s backs them up.  QEMU never outlives this script.
#
# icount: -icount shift=0,sleep=off -smp 1 (virtual ns = guest
# instructions); every mode runs a fixed guest clock
# (-rtc base=2024-01-01T00:00:00,clock=vm) so the guest's randomness does
# not follow the host clock, and norandmaps nokaslr.

set -eu

# Parsed whole before it runs: editing this file cannot break a run.
{

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=scripts/kernel/lib.sh
. "$top/scripts/kernel/lib.sh"

kernel='' initrd='' out='' mode=icount round=0 seed=0 side=A boot=0
series=unknown cfg_hash=unknown append='' timeout=600 boot_timeout=60
replay='' print_cmdline=0
qemu=${QEMU:-qemu-system-x86_64}
mem=${NSB_GUEST_MEM:-512M}

while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=$2; shift ;;
	--initrd) initrd=$2; shift ;;
	--out) out=$2; shift ;;
	--mode) mode=$2; shift ;;
	--round) round=$2; shift ;;
	--seed) seed=$2; shift ;;
	--side) side=$2; shift ;;
	--boot) boot=$2; shift ;;
	--series) series=$2; shift ;;
	--config-hash) cfg_hash=$2; shift ;;
	--append) append=$2; shift ;;
	--timeout) timeout=$2; shift ;;
	--boot-timeout) boot_timeout=$2; shift ;;
	--replay) replay=$2; shift ;;
	--print-cmdline) print_cmdline=1 ;;
	-h|--help) sed -n '4,/^$/{/^#/p}' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
	*) die "unknown option '$1'" ;;
	esac
	shift
done
case "$mode" in icount|tcg|kvm) ;;
*) die "--mode must be icount, tcg or kvm, not '$mode' (auto: scripts/guest/probe-kvm.sh)" ;;
esac
for v in "$round" "$seed" "$timeout" "$boot_timeout"; do
	case "$v" in ''|*[!0-9]*) die "--round, --seed and the timeouts are whole numbers, not '$v'" ;; esac
done

# Fixed-width values keep the command line's length identical across
# rounds; it is byte-identical between the two sides of a round.
cmdline=$(printf 'console=ttyS0 panic=-1 oops=panic norandmaps nokaslr loglevel=4 rdinit=/init nsb.mode=%s nsb.round=%04d nsb.seed=%010d%s' \
	"$mode" "$((10#$round))" "$((10#$seed))" "${append:+ $append}")
if [ "$print_cmdline" = 1 ]; then
	echo "$cmdline"
	exit 0
fi

[ -d "$kernel" ] && kernel=$kernel/bzImage
[ -r "$kernel" ] || die "--kernel: '$kernel' not found"
[ -r "$initrd" ] || die "--initrd: '$initrd' not found"
[ -n "$out" ] || die "--out DIR is required"
[ -z "$replay" ] || [ -r "$replay/results.raw" ] ||
	die "--replay: $replay/results.raw not found"
mkdir -p "$out"
echo "$cmdline" >"$out/cmdline"

# mode_args MODE: the accelerator part of the QEMU command line.
mode_args() {
	case "$1" in
	icount) echo "-accel tcg -icount shift=0,sleep=off -smp 1" ;;
	tcg) echo "-accel tcg -smp 1" ;;
	kvm) echo "-accel kvm -cpu host -smp 1" ;;
	esac
}

console=$out/console.log
raw=$out/results.raw
: >"$console"
: >"$raw"
t0=$(date +%s)
status=
el=0
if [ -n "$replay" ]; then
	cp "$replay/results.raw" "$raw"
	cp "$replay/console.log" "$console"
else
# shellcheck disable=SC2046
"$qemu" -nodefaults -no-user-config -nographic -display none -no-reboot \
	-M pc -m "$mem" $(mode_args "$mode") \
	-rtc base=2024-01-01T00:00:00,clock=vm \
	-kernel "$kernel" -initrd "$initrd" -append "$cmdline" \
	-serial "file:$console" -serial "file:$raw" \
	</dev/null >"$out/qemu.log" 2>&1 &
qpid=$!
trap 'kill "$qpid" 2>/dev/null || true' EXIT INT TERM

# fail REASON: stop QEMU, say why, show the console's tail.
fail() {
	kill "$qpid" 2>/dev/null || true
	wait "$qpid" 2>/dev/null || true
	echo "--- console (ttyS0) tail: $console ---" >&2
	tail -n 25 "$console" | tr -d '\r' >&2
	[ -s "$out/qemu.log" ] && { echo "--- qemu ---" >&2; tail -n 5 "$out/qemu.log" >&2; }
	echo "---" >&2
	echo "fail: $1" >"$out/status"
	die "boot $boot side $side ($series, $mode): $1"
}

# Timeouts count QEMU's CPU time in tcg/icount: a busy host (other
# guests, compiles) slows the guest without making it hang, and a hung
# TCG guest still burns CPU (icount sleep=off warps idle time).  A wall
# limit of 3x (+60 s) backs them up, and is the only limit under KVM.
tck=$(getconf CLK_TCK)
qemu_cpu() {
	awk -v t="$tck" '{ print int(($14 + $15) / t) }' "/proc/$qpid/stat" 2>/dev/null || echo 0
}
clock() {
	if [ "$mode" = kvm ]; then echo "$el"; else qemu_cpu; fi
}

while kill -0 "$qpid" 2>/dev/null; do
	sleep 1
	el=$(($(date +%s) - t0))
	c=$(clock)
	if grep -q 'Kernel panic' "$console"; then
		fail "kernel panic after ${el}s: $(grep -m1 'Kernel panic' "$console" | tr -d '\r')"
	fi
	if grep -qE 'Oops|BUG: |general protection fault' "$console"; then
		fail "kernel oops after ${el}s: $(grep -m1 -E 'Oops|BUG: |general protection fault' "$console" | tr -d '\r')"
	fi
	if { [ "$c" -ge "$boot_timeout" ] || [ "$el" -ge $((boot_timeout * 3 + 60)) ]; } &&
	   ! grep -q '@@NSB INIT\|@@NSB DONE' "$console"; then
		if [ -s "$console" ]; then
			fail "no guest init output within ${boot_timeout}s (boot hang; ${el}s wall, ${c}s QEMU CPU)"
		else
			fail "no console output at all within ${boot_timeout}s (${el}s wall)"
		fi
	fi
	if [ "$c" -ge "$timeout" ] || [ "$el" -ge $((timeout * 3 + 60)) ]; then
		fail "guest hang: plan not finished within ${timeout}s (${el}s wall, ${c}s QEMU CPU; last step: $(grep '@@NSB' "$console" | tail -n 1 | tr -d '\r'))"
	fi
done
wait "$qpid" || status=$?
trap - EXIT INT TERM
fi
el=$(($(date +%s) - t0))

# Panic with panic=-1 reboots at once; -no-reboot makes QEMU exit.
if grep -q 'Kernel panic' "$console"; then
	fail "kernel panic after ${el}s: $(grep -m1 'Kernel panic' "$console" | tr -d '\r')"
fi
[ -z "$status" ] || [ "$status" = 0 ] || fail "QEMU exited with status $status"
done_line=$(tr -d '\r' <"$raw" | grep '^@@NSB DONE' | tail -n 1)
[ -n "$done_line" ] || fail "guest stopped after ${el}s without finishing its plan"

# split_results: results.raw -> one file per "@@NSB FILE", probes, steps.
split_results() {
	tr -d '\r' <"$raw" | awk -v dir="$out" '
		/^@@NSB FILE / { f = dir "/" $3; printf "" > f; next }
		/^@@NSB EOF / { close(f); f = ""; next }
		/^@@NSB PROBE / { sub(/^@@NSB PROBE /, ""); print > (dir "/probes.txt"); next }
		/^@@NSB STEP / { sub(/^@@NSB STEP /, ""); print > (dir "/steps.txt"); next }
		f != "" && NF { print >> f }
	'
	local j aslr add
	aslr=$(tr -d '\r' <"$raw" | sed -n 's/^@@NSB INIT .*aslr=\([0-9]*\).*/\1/p' | head -n 1)
	for j in "$out"/*.json; do
		[ -f "$j" ] || continue
		sed -i -e "s|@SIDE@|$side|g" -e "s|@BOOT@|$boot|g" \
			-e "s|@SERIES@|$series|g" -e "s|@CONFIG_HASH@|$cfg_hash|g" "$j"
		# Host-side provenance the guest cannot know.
		add="    \"nsbench_guest_cmdline\": \"$cmdline\",\n    \"nsbench_qemu\": \"$("$qemu" --version | head -n 1) $(mode_args "$mode")\","
		grep -q '"nsbench_aslr"' "$j" ||
			add="$add\n    \"nsbench_aslr\": \"${aslr:-unknown}\","
		sed -i "0,/\"context\": *{/s||&\n$add|" "$j"
	done
}
split_results
echo "ok ${el}s" >"$out/status"
echo "$el" >"$out/wall_seconds"
progress "boot" "side $side boot $boot ($series, $mode, seed $seed): ${el}s, ${done_line#@@NSB }"
exit
}
