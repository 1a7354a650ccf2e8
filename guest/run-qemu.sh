#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest/run-qemu.sh — boot one guest, run its plan, collect results.
#
#   run-qemu.sh --kernel DIR|bzImage --initrd FILE --out DIR
#               [--mode icount|tcg|kvm] [--round N] [--seed N]
#               [--side A|B[+LSM]] [--boot N] [--series NAME] [--config-hash H]
#               [--append "ARGS"] [--timeout S] [--boot-timeout S]
#               [--replay DIR] [--kernel-meta FILE] [--context KEY=VALUE]...
#               [--date UTC] [--apic-timer] [--cachesim PLUGIN.so]
#   run-qemu.sh --print-cmdline [--mode M] [--round N] [--seed N]
#               [--append "ARGS"] [--apic-timer]
#   run-qemu.sh --print-firmware
#
# --cachesim PLUGIN.so loads the cache-model plugin (icount only):
# DIR/cachesim.tsv gets its records, which `nsbench stamp --cachesim`
# puts into the results files (nsb_STATE_cs_* counters).  A plugin QEMU
# refuses (API version, arguments) fails the boot with the plugin's line.
# --replay DIR takes the guest's output (results.raw, console.log) of an
# earlier boot with the same inputs from DIR instead of booting (ab.sh's
# boot cache); everything after the boot is the same.  --print-cmdline
# prints the guest's kernel command line and exits, --print-firmware the
# firmware (both are part of what a boot's results depend on).
#
# Firmware: Debian's qboot (/usr/share/qemu/qboot.rom) where present: it
# does in one step what SeaBIOS does in many (3 of 35 s of QEMU CPU time
# per boot of checks.plan here); NSB_FIRMWARE=seabios keeps QEMU's own.
#
# DIR gets console.log (ttyS0), results.raw (ttyS1), every results file the
# guest sent (placeholders @SIDE@ @BOOT@ @SERIES@ @CONFIG_HASH@ filled in),
# probes.txt and steps.txt.  The results' context also gets the kernel's
# identity from --kernel-meta (build.sh's meta.json: kernel_source,
# kernel_source_commit, kernel_source_describe, patch_series_sha256,
# kernel_build_key) and each --context KEY=VALUE (KEY: a-z, 0-9, _), as
# data: neither changes what the guest runs, nor the boot cache's key.
# The results' date is the host's (--date, the run's start as ab.sh
# gives it; else when this script started), a boot replayed from the
# cache included: the guest's own clock is fixed (below), so its date,
# the same in every boot, is kept as guest_date.  No date enters the
# command line, the image or the cache's key.
# Exits 0 only when the guest finished its plan ("@@NSB DONE 0"); otherwise
# 1 with the reason and the console's tail: panic, oops, no output within
# --boot-timeout, hang past --timeout, or a guest that stopped without
# finishing.  Timeouts are QEMU CPU seconds under tcg/icount
# (load-independent), wall seconds under kvm; a wall cap of 3x + 60 s
# backs them up.  QEMU never outlives this script.
#
# icount: -icount shift=0,sleep=off -smp 1 (virtual ns = guest
# instructions); every mode runs a fixed guest clock
# (-rtc base=2024-01-01T00:00:00,clock=vm) so the guest's randomness does
# not follow the host clock, and norandmaps nokaslr (icount: noapictimer
# no_timer_check too, see below).

# Every error ends the run: in pipelines, and in $(...) too.
set -eu -o pipefail
shopt -s inherit_errexit

# Parsed whole before it runs: editing this file cannot break a run.
{

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
# shellcheck source=scripts/kernel/lib.sh
. "$top/scripts/kernel/lib.sh"

kernel='' initrd='' out='' mode=icount round=0 seed=0 side=A boot=0
series=unknown cfg_hash=unknown append='' timeout=600 boot_timeout=60
replay='' print_cmdline=0 kmeta='' extra=() apic_timer=0 cachesim=
run_date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
qemu=${QEMU:-qemu-system-x86_64}
firmware=seabios
if [ "${NSB_FIRMWARE:-qboot}" = qboot ] && [ -r /usr/share/qemu/qboot.rom ]; then
	firmware=/usr/share/qemu/qboot.rom
fi
mem=${NSB_GUEST_MEM:-512M}

while [ $# -gt 0 ]; do
	case "$1" in
	--print-cmdline) print_cmdline=1; shift; continue ;;
	--apic-timer) apic_timer=1; shift; continue ;;
	--print-firmware) echo "$firmware"; exit 0 ;;
	-h|--help) sed -n '4,/^$/{/^#/p}' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
	--*=*) set -- "${1%%=*}" "${1#*=}" "${@:2}" ;;
	--kernel|--initrd|--out|--mode|--round|--seed|--side|--boot|\
	--series|--config-hash|--append|--timeout|--boot-timeout|--replay|\
	--kernel-meta|--context|--cachesim|--date) need_value "$1" $# ;;
	*) die "unknown option '$1' (see --help)" ;;
	esac
	case "$1" in
	--kernel) kernel=$2 ;;
	--initrd) initrd=$2 ;;
	--out) out=$2 ;;
	--mode) mode=$2 ;;
	--round) round=$2 ;;
	--seed) seed=$2 ;;
	--side) side=$2 ;;
	--boot) boot=$2 ;;
	--series) series=$2 ;;
	--config-hash) cfg_hash=$2 ;;
	--append) append=$2 ;;
	--timeout) timeout=$2 ;;
	--boot-timeout) boot_timeout=$2 ;;
	--replay) replay=$2 ;;
	--kernel-meta) kmeta=$2 ;;
	--context) extra+=("$2") ;;
	--cachesim) cachesim=$2 ;;
	--date) run_date=$2 ;;
	*) die "unknown option '$1' (see --help)" ;;
	esac
	shift 2
done
case "$mode" in icount|tcg|kvm) ;;
*) die "--mode must be icount, tcg or kvm, not '$mode' (auto: guest/probe-kvm.sh)" ;;
esac
case "$side" in A|B|[AB]+selinux|[AB]+smack) ;;
*) die "--side must be A or B (or A+LSM, B+LSM: a boot with lsm=LSM), not '$side'" ;; esac
# The command line's width is fixed: round 4 digits, seed 10.
need_uint --round "$round"
[ ${#round} -le 4 ] || [ $((10#$round)) -le 9999 ] || die "--round must be at most 9999"
need_uint --seed "$seed"
need_uint --boot "$boot"
need_uint --timeout "$timeout" 1
need_uint --boot-timeout "$boot_timeout" 1
# read once, as decimal: "09" is nine, not a bad octal number later
round=$((10#$round)) seed=$((10#$seed)) boot=$((10#$boot))
timeout=$((10#$timeout)) boot_timeout=$((10#$boot_timeout))
case "$append" in *[![:print:]]*) die "--append: printable characters only" ;; esac
# checked before the boot; nsbench stamp checks it again, with the date
d2='[0-9][0-9]'
[[ $run_date =~ ^$d2$d2-$d2-${d2}T$d2:$d2:$d2(Z|[+-]$d2:$d2)$ ]] ||
	die "--date: YYYY-MM-DDTHH:MM:SS and Z or +-HH:MM, not '$run_date'"

# Under icount the kernel's LAPIC timer calibration busy-waits 100 ms of
# virtual time, 1 ns an instruction: 220 M instructions, 8 of a boot's
# 10 s of QEMU CPU to /init.  noapictimer skips it and ticks from the PIT
# (1.4 s to /init); the measured ops count instructions, not time, and
# both sides of every comparison boot the same command line.
# A guest that samples with perf keeps the LAPIC timer (--apic-timer):
# cpu-clock sampling needs its one-shot hrtimers; on the PIT's tick the
# samples no longer add up to the timed row (t88).
# no_timer_check: the IO-APIC timer check busy-waits on the TSC for ticks,
# 20 M instructions (20 of the 81 ms of virtual time to /init).
# tsc_early_khz=1000000: under icount the TSC ticks once per virtual ns,
# one per instruction, but the kernel's own calibration against the PIT
# made it 7.2 ppm slower, so CLOCK_MONOTONIC read 1.0000072 ns per
# instruction (exec at depth 32: 83,627.7 for the plugin's 83,627.1
# instructions).  Told the TSC's true rate, the clock counts exactly the
# instructions the cache-model plugin counts (within 1e-6 per op).
# The dentry, inode and mount hash tables 32 times their size for 512 MiB
# (dhash 64 Ki buckets by default): a lookup walks its bucket's chain up
# to the dentry it wants, and which other dentries share the bucket
# depends on addresses the boot hands out.  The two mounts of a
# mount-time row are two different parents: in one round of six the
# on-state mount's dentry sat behind another in its chain and every
# open there cost 13 insn more (__d_lookup_rcu +6, __d_lookup +5, the
# init-owned control lsm/selinux/open/fuse/self/d0 +12.8 in that round
# and 0 +-0.3 in the others); with these tables, 0 +-0.3 in all six.
hashes=' dhash_entries=2097152 ihash_entries=262144 mhash_entries=65536 mphash_entries=65536'
timer=
[ "$mode" != icount ] || timer=' tsc_early_khz=1000000'
[ "$mode" != icount ] || [ "$apic_timer" = 1 ] ||
	timer="$timer noapictimer no_timer_check"
# Fixed-width values keep the command line's length identical across
# rounds; it is byte-identical between the two sides of a round.
cmdline=$(printf 'console=ttyS0 panic=-1 oops=panic norandmaps nokaslr%s%s loglevel=4 rdinit=/init nsb.mode=%s nsb.round=%04d nsb.seed=%010d%s' \
	"$hashes" "$timer" "$mode" "$((10#$round))" "$((10#$seed))" "${append:+ $append}")
if [ "$print_cmdline" = 1 ]; then
	echo "$cmdline"
	exit 0
fi

[ -n "$kernel" ] || die "--kernel DIR|bzImage is required"
[ -d "$kernel" ] && kernel=$kernel/bzImage
{ [ -f "$kernel" ] && [ -r "$kernel" ]; } || die "--kernel: '$kernel' not found"
{ [ -f "$initrd" ] && [ -r "$initrd" ]; } || die "--initrd: '$initrd' not found"
[ -n "$out" ] || die "--out DIR is required"
[ -z "$replay" ] || { [ -r "$replay/results.raw" ] && [ -r "$replay/console.log" ]; } ||
	die "--replay: $replay/results.raw or console.log not found"
plugin_args=()
if [ -n "$cachesim" ]; then
	[ "$mode" = icount ] ||
		die "--cachesim: the cache model counts instructions: icount mode only, not $mode"
	[ -f "$cachesim" ] || die "--cachesim: '$cachesim' not found (make builds it)"
	[ -z "$replay" ] || [ -r "$replay/cachesim.tsv" ] ||
		die "--replay: $replay/cachesim.tsv not found (a boot without the cache model)"
	# QEMU splits -plugin's argument at commas
	case "$cachesim$out" in *,*) die "--cachesim, --out: no commas in the paths QEMU is given" ;; esac
	# NSB_CACHESIM_ARGS: the plugin's own arguments (i1=, d1=,
	# ll=SIZE:ASSOC:LINE; api=N; chunks=1, caller=F:G), comma-separated
	case "${NSB_CACHESIM_ARGS:-}" in *[!a-z0-9_=,:]*)
		die "NSB_CACHESIM_ARGS: key=value pairs of a-z, 0-9, _ and : only, comma-separated" ;;
	esac
	# the kernel's System.map beside bzImage: per-function attribution
	symbols=$(dirname "$kernel")/System.map
	case "$symbols" in *,*) symbols= ;; esac
	[ -r "$symbols" ] || symbols=
	plugin_args=(-plugin "$cachesim,out=$out/cachesim.tsv${symbols:+,symbols=$symbols}${NSB_CACHESIM_ARGS:+,$NSB_CACHESIM_ARGS}")
fi
[ -n "$replay" ] || command -v "$qemu" >/dev/null ||
	die "$qemu not found (apt-get install qemu-system-x86)"
command -v jq >/dev/null || die "jq not found (apt-get install jq)"

# The context the host adds: read and checked before the boot, written
# into the results after it by `nsbench stamp` (C, jansson: values stay data).
nsbench=$(build_dir "$top")/nsbench
[ -x "$nsbench" ] || die "no $nsbench (make builds it; NSB_BUILD names the build)"
context_args=()
if [ -n "$kmeta" ]; then
	jq -e 'type == "object"' "$kmeta" >/dev/null 2>&1 ||
		die "--kernel-meta: '$kmeta' is not a JSON object (meta.json)"
	context_args+=(--kernel-meta "$kmeta")
fi
for kv in "${extra[@]}"; do
	case "${kv%%=*}" in "$kv"|''|[!a-z]*|*[!a-z0-9_]*)
		die "--context: KEY=VALUE, KEY of a-z, 0-9, _: not '$kv'" ;;
	esac
	context_args+=(--set "$kv")
done
mkdir -p "$out" || die "--out: cannot create $out"
echo "$cmdline" >"$out/cmdline"

# mode_args MODE: the accelerator part of the QEMU command line.
mode_args() {
	case "$1" in
	icount) echo "-accel tcg -icount shift=0,sleep=off -smp 1" ;;
	tcg) echo "-accel tcg -smp 1" ;;
	kvm) echo "-accel kvm -cpu host -smp 1" ;;
	esac
}

# firmware_args: -bios FILE unless QEMU's own SeaBIOS.
firmware_args() {
	if [ "$firmware" != seabios ]; then echo "-bios $firmware"; fi
}

console=$out/console.log
raw=$out/results.raw
qpid=

# fail REASON: stop QEMU, say why, show the console's tail.
fail() {
	if [ -n "$qpid" ]; then
		kill "$qpid" 2>/dev/null || true
		wait "$qpid" 2>/dev/null || true
	fi
	echo "--- console (ttyS0) tail: $console ---" >&2
	tail -n 25 "$console" | tr -d '\r' >&2 || true
	if [ -s "$out/qemu.log" ]; then
		echo "--- qemu ---" >&2
		tail -n 5 "$out/qemu.log" >&2 || true
	fi
	echo "---" >&2
	echo "fail: $1" >"$out/status"
	die "boot $boot side $side ($series, $mode): $1"
}

: >"$console"
rm -f "$out/wall.txt"
: >"$raw"
t0=$(date +%s)
status=
el=0
if [ -n "$replay" ]; then
	{ cp "$replay/results.raw" "$raw" &&
	  cp "$replay/console.log" "$console" &&
	  { [ -z "$cachesim" ] || cp "$replay/cachesim.tsv" "$out/"; }; } ||
		die "--replay: cannot copy from $replay"
else
# shellcheck disable=SC2046
"$qemu" -nodefaults -no-user-config -nographic -display none -no-reboot \
	-M pc -m "$mem" $(mode_args "$mode") $(firmware_args) \
	-rtc base=2024-01-01T00:00:00,clock=vm \
	-kernel "$kernel" -initrd "$initrd" -append "$cmdline" \
	-serial "file:$console" -serial "file:$raw" "${plugin_args[@]}" \
	</dev/null >"$out/qemu.log" 2>&1 &
qpid=$!
trap 'kill "$qpid" 2>/dev/null || true' EXIT INT TERM

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

# wall.txt: when (wall seconds after QEMU started, to the second) the
# guest reached INIT and each STEP: where a boot's wall time goes.
seen=0
note_wall() {
	local lines n
	lines=$(grep -a '^@@NSB \(INIT\|STEP\)' "$console" | tr -d '\r') || return 0
	n=$(printf '%s\n' "$lines" | grep -c .)
	[ "$n" -gt "$seen" ] || return 0
	printf '%s\n' "$lines" | sed -n "$((seen + 1)),\$p" |
		sed "s/^@@NSB /$el /" >>"$out/wall.txt"
	seen=$n
}

# Each second (or at once when QEMU ends: a plain sleep 1 lost half a
# second a boot), the console's news and the limits.
while kill -0 "$qpid" 2>/dev/null; do
	timeout 1 tail --pid="$qpid" -s 0.1 -f /dev/null || true
	el=$(($(date +%s) - t0))
	c=$(clock)
	note_wall
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
el=$(($(date +%s) - t0))
note_wall
echo "$el END" >>"$out/wall.txt"
fi
el=$(($(date +%s) - t0))

# Panic with panic=-1 reboots at once; -no-reboot makes QEMU exit.
if grep -q 'Kernel panic' "$console"; then
	fail "kernel panic after ${el}s: $(grep -m1 'Kernel panic' "$console" | tr -d '\r')"
fi
if [ -z "$replay" ] && grep -q '^nsb-cachesim: ' "$out/qemu.log"; then
	fail "$(grep -m1 '^nsb-cachesim: ' "$out/qemu.log")"
fi
[ -z "$status" ] || [ "$status" = 0 ] || fail "QEMU exited with status $status"
done_line=$(tr -d '\r' <"$raw" | sed -n 's/^@@NSB DONE/&/p' | tail -n 1)
[ -n "$done_line" ] || fail "guest stopped after ${el}s without finishing its plan"

qemu_version=$("$qemu" --version 2>/dev/null | sed -n 1p) || qemu_version=unknown

# decode_binaries: each "@@NSB BIN name bytes sha256" frame's base64 ->
# name, written only whole: its size and checksum as the guest sent them,
# else the boot fails naming the file (a guest that died mid-file, a
# lost line).
decode_binaries() {
	local b64 name bytes sha got
	for b64 in "$out"/*.b64; do
		[ -f "$b64" ] || continue
		name=${b64%.b64}
		read -r bytes sha <"$name.frame" ||
			fail "binary file $(basename "$name"): no frame header"
		base64 -d <"$b64" >"$name.tmp" 2>/dev/null ||
			fail "binary file $(basename "$name") from the guest is not base64 (truncated?)"
		got=$(wc -c <"$name.tmp")
		[ "$got" = "$bytes" ] ||
			fail "binary file $(basename "$name") truncated: $got of $bytes bytes"
		[ "$(sha256sum <"$name.tmp" | cut -d' ' -f1)" = "$sha" ] ||
			fail "binary file $(basename "$name"): sha256 differs from the guest's"
		mv "$name.tmp" "$name"
		rm -f "$b64" "$name.frame"
	done
}

# split_results: results.raw -> one file per "@@NSB FILE", probes, steps;
# the results files get the host's values (nsbench stamp).
split_results() {
	local aslr
	tr -d '\r' <"$raw" | awk -v dir="$out" '
		function name_ok(n) {
			if (n ~ /^[A-Za-z0-9._-]+$/ && n !~ /^\./)
				return 1
			print "bad results file name: " n > "/dev/stderr"
			exit 1
		}
		/^@@NSB FILE / { name_ok($3); f = dir "/" $3; printf "" > f; next }
		/^@@NSB BIN / {
			name_ok($3)
			if ($4 !~ /^[0-9]+$/ || $5 !~ /^[0-9a-f]+$/ ||
			    length($5) != 64) {
				print "bad binary frame: " $0 > "/dev/stderr"
				exit 1
			}
			print $4, $5 > (dir "/" $3 ".frame")
			close(dir "/" $3 ".frame")
			f = dir "/" $3 ".b64"; printf "" > f; next }
		/^@@NSB EOF / { close(f); f = ""; next }
		/^@@NSB PROBE / { sub(/^@@NSB PROBE /, ""); print > (dir "/probes.txt"); next }
		/^@@NSB STEP / { sub(/^@@NSB STEP /, ""); print > (dir "/steps.txt"); next }
		f != "" && NF { print >> f }
	' || fail "cannot split the guest's output (results.raw)"
	decode_binaries
	aslr=$(tr -d '\r' <"$raw" |
		sed -n 's/^@@NSB INIT .*aslr=\([0-9]*\).*/\1/p' | sed -n 1p)
	set -- "$out"/*.json
	[ -f "$1" ] || return 0
	[ -z "$cachesim" ] || set -- --cachesim "$out/cachesim.tsv" "$@"
	"$nsbench" stamp --fill SIDE="$side" --fill BOOT="$boot" \
		--fill SERIES="$series" --fill CONFIG_HASH="$cfg_hash" \
		--default nsbench_aslr="${aslr:-unknown}" \
		--date "$run_date" --set nsbench_guest_cmdline="$cmdline" \
		--set nsbench_qemu="$qemu_version $(mode_args "$mode") $(firmware_args)" \
		"${context_args[@]}" "$@" ||
		fail "a results file from the guest is not JSON, or could not be stamped (above)"
}
split_results
echo "ok ${el}s" >"$out/status"
echo "$el" >"$out/wall_seconds"
progress "boot" "side $side boot $boot ($series, $mode, seed $seed): ${el}s, ${done_line#@@NSB }"
exit
}
