#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the nsbench guest (busybox sh).  Runs /plan, streams results to
# the host on /dev/ttyS1 and ends with `reboot -f` (QEMU runs -no-reboot).
#
# Kernel command line (identical for both sides of a round):
#   nsb.mode=icount|tcg|kvm  nsb.round=N  nsb.seed=N  [nsb.probe=1]
# Side, boot index, series and config hash are not known here (the image
# and command line are byte-identical between sides); the results carry
# the placeholders @SIDE@ @BOOT@ @SERIES@ @CONFIG_HASH@ and the host fills
# them in.
#
# Framing on ttyS1 (see guest/run-qemu.sh):
#   @@NSB FILE name / ...json... / @@NSB EOF name
#   @@NSB BIN name bytes sha256 / ...base64... / @@NSB EOF name
#   @@NSB PROBE name value
#   @@NSB STEP name status
#   @@NSB DONE status

# busybox ash has `local`.
# shellcheck disable=SC3043

set -u
export PATH=/bin
umask 022

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs -o mode=1777 tmpfs /tmp
hostname nsbench-guest

NSB_MODE=unknown NSB_ROUND=0 NSB_SEED=0 NSB_PROBE=0 NSB_SCHED=normal
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	nsb.mode=*) NSB_MODE=${arg#*=} ;;
	nsb.sched=*) NSB_SCHED=${arg#*=} ;;
	nsb.round=*) NSB_ROUND=${arg#*=} ;;
	nsb.seed=*) NSB_SEED=${arg#*=} ;;
	nsb.probe=*) NSB_PROBE=${arg#*=} ;;
	esac
done
# Strip the zero padding that keeps the command line's length fixed.
NSB_SEED=$(echo "$NSB_SEED" | sed 's/^0*\(.\)/\1/')
NSB_ROUND=$(echo "$NSB_ROUND" | sed 's/^0*\(.\)/\1/')

RES=/dev/ttyS1
stty -F "$RES" raw -echo 2>/dev/null

msg() {
	echo "@@NSB $*" >"$RES"
	echo "@@NSB $*"
}

finish() {
	sync
	msg "PROBE uptime $(cut -d' ' -f1 /proc/uptime)"
	msg "DONE $1"
	reboot -f
	sleep 10
}

if [ "$NSB_PROBE" = 1 ]; then
	finish 0
fi

# Measure without address-space randomisation (also norandmaps on the
# command line); the context records it.
echo 0 >/proc/sys/kernel/randomize_va_space
NSB_ASLR=$(cat /proc/sys/kernel/randomize_va_space)

# perturb SEED: seed-dependent guest state, shared by both sides of a
# round: sleeping processes, tmpfs files, and an environment pad that
# moves the benchmark's stack.  A deterministic guest can lock onto one of
# several levels (fork+exec: levels 650-790 instructions apart, picked by
# things as small as the command line's length, the same in every boot of
# an image); varying this per round and pairing per round averages the
# levels out.  The sleepers hold no timer (nsb-guest hold: pause()):
# `sleep` armed one hrtimer each in the monotonic base, which every
# timer an operation arms and every next-event search then walked, and
# each exec cost what the round's count of them said: a round with no
# sleeper 20-58 insn below the others in every exec row (seed 7's
# round 4), and a round with 1 sleeper some 20 below one with 11 (chunk
# dumps: __hrtimer_next_event_base -13, timerqueue_add -9 per exec).
perturb() {
	local s=$1 i n
	n=$((s % 13))
	i=0
	while [ "$i" -lt "$n" ]; do
		nsb-guest hold &
		i=$((i + 1))
	done
	mkdir -p /tmp/perturb
	n=$(((s / 13) % 29))
	i=0
	while [ "$i" -lt "$n" ]; do
		echo "$s $i" >/tmp/perturb/f$i
		i=$((i + 1))
	done
	NSB_PAD=$(printf '%*s' $(((s / 377) % 64)) '' | tr ' ' x)
	export NSB_PAD
	msg "PROBE perturb sleepers=$((s % 13)) files=$(((s / 13) % 29)) pad=$(((s / 377) % 64))"
}

# send NAME FILE: stream a results file to the host.
send() {
	msg "FILE $1"
	cat "$2" >"$RES"
	echo >"$RES"
	msg "EOF $1"
}

# send_bin NAME FILE: a binary file (perf.data), base64 between its size
# and checksum and the end mark: the host decodes it, checks both and
# names the boot if anything is missing.
send_bin() {
	msg "BIN $1 $(wc -c <"$2") $(sha256sum "$2" | cut -d' ' -f1)"
	base64 "$2" >"$RES"
	msg "EOF $1"
}

ctx_flags() {
	echo "--mode=$NSB_MODE --round=$NSB_ROUND --seed=$NSB_SEED" \
		"--boot=@BOOT@ --side=@SIDE@ --series=@SERIES@" \
		"--config-hash=@CONFIG_HASH@"
}

# --- plan vocabulary -----------------------------------------------------

# bench LABEL FILTER...: one nsbench-bench run over the filters (joined
# with '|'), one results JSON.  Words starting with -- are nsbench-bench
# flags (e.g. --tier=full); more flags: BENCH_ARGS.
bench() {
	local label=$1 filter='' flags='' w out rc
	shift
	for w in "$@"; do
		case "$w" in
		--*) flags="$flags $w" ;;
		*) filter="$filter${filter:+|}$w" ;;
		esac
	done
	out=/tmp/$label.json
	if [ ! -x /bin/nsbench-bench ]; then
		msg "STEP $label skipped:no-nsbench-bench"
		return 0
	fi
	# shellcheck disable=SC2046
	/bin/nsbench-bench $(ctx_flags) --label="$label" --out="$out" \
		--benchmark_filter="$filter" $flags ${BENCH_ARGS:-} \
		>/tmp/$label.log 2>&1
	rc=$?
	tail -n 5 /tmp/$label.log
	[ -f "$out" ] && send "$label.json" "$out"
	msg "STEP $label $rc"
}

# include PLAN: the steps of guest/plans/PLAN.plan (in the image as
# /plans), here, as if written in this plan.
include() {
	local p=/plans/${1%.plan}.plan
	if [ ! -r "$p" ]; then
		msg "STEP include:$1 skipped:missing-plan"
		return 0
	fi
	# shellcheck disable=SC1090
	. "$p"
}

# forkexec LABEL REPS ITERS: the pipeline's own fork+exec workload.
forkexec() {
	local rc
	NSB_CTX_nsbench_mode=$NSB_MODE NSB_CTX_nsbench_round=$NSB_ROUND \
	NSB_CTX_nsbench_seed=$NSB_SEED NSB_CTX_nsbench_boot=@BOOT@ \
	NSB_CTX_nsbench_side=@SIDE@ NSB_CTX_patch_series=@SERIES@ \
	NSB_CTX_nsbench_label=$1 NSB_CTX_nsbench_aslr=$NSB_ASLR \
	NSB_CTX_kernel_config_hash=@CONFIG_HASH@ \
	NSB_CTX_kernel_release="$(uname -r)" NSB_CTX_kernel_version="$(uname -v)" \
	NSB_CTX_nsbench_tier=guest NSB_CTX_nsbench_end_reason=finished \
	NSB_UNIT=$([ "$NSB_MODE" = icount ] && echo 'virtual ns = guest instructions' || echo 'wall-clock ns') \
		nsb-guest forkexec "$2" "$3" "guest/$1" >/tmp/$1.json
	rc=$?
	[ "$rc" = 0 ] && send "$1.json" "/tmp/$1.json"
	msg "STEP $1 $rc"
}

# check NAME 0|1: set a userns_checks switch; on a kernel without the
# toggles series the step is reported and the plan goes on.
check() {
	if sysctl -w "kernel.userns_checks.$1=$2" >/dev/null 2>&1; then
		msg "PROBE check.$1 $2"
	else
		msg "PROBE check.$1 unavailable"
	fi
}

# profile LABEL FILTER [FLAGS...]: where the instructions go.  The one
# benchmark FILTER selects runs under perf record, system-wide, with the
# cpu-clock event every PROFILE_PERIOD virtual ns (default 10007 to 11015
# by the round's seed; the kernel's floor for an hrtimer event is
# 10000): under -icount shift=0
# that is a sample every PROFILE_PERIOD guest instructions, kernel
# included.  System-wide, not per task: a per-task clock starts at each
# fork, so every exec'd child would be sampled at the same instructions.
# nsbench-bench switches sampling on only while its timer runs
# (--perf-control) and counts the operations meanwhile.  Sends
# LABEL.bench.json (its results: not a timed row, perf's overhead is in
# them), LABEL.ops and LABEL.perf.data; the host symbolises against the
# kernel's own vmlinux.  A step of its own, never inside a timed one.
profile() {
	local label=$1 d=/tmp/profile.$1 rc t0 t1 p
	# A fixed period samples a regular operation on a fixed lattice of
	# its instructions, and a patch that lengthens it moves the lattice:
	# samples shift between neighbouring functions the same way every
	# round.  The period drawn from the round's seed (both sides share
	# it) turns that into noise the rounds' statistics see.
	p=${PROFILE_PERIOD:-$((10007 + NSB_SEED % 1009))}
	shift
	if [ ! -x /bin/perf ] || [ ! -x /bin/nsbench-bench ]; then
		msg "STEP $label skipped:no-perf"
		return 0
	fi
	# kernel addresses for perf, as root: no restriction
	echo 0 >/proc/sys/kernel/kptr_restrict 2>/dev/null
	[ -n "${NSB_SPIN:-}" ] || sampling_stretch "$p"
	rm -rf "$d"
	mkdir -p "$d"
	mkfifo "$d/ctl" "$d/ack"
	t0=$(cut -d' ' -f1 /proc/uptime)
	# shellcheck disable=SC2046,SC2086
	perf record -q -B -N -a -e cpu-clock -c "$p" -D -1 \
		--control="fifo:$d/ctl,$d/ack" -o "$d/perf.data" -- \
		/bin/nsbench-bench $(ctx_flags) --label="$label" \
		--out="$d/bench.json" --perf-control="$d" \
		--benchmark_filter="$1" ${PROFILE_ARGS:-} \
		>/tmp/$label.log 2>&1
	rc=$?
	t1=$(cut -d' ' -f1 /proc/uptime)
	tail -n 5 /tmp/$label.log
	if [ "$rc" = 0 ] && [ -s "$d/perf.data" ] && [ -s "$d/ops" ]; then
		send "$label.bench.json" "$d/bench.json"
		send "$label.ops" "$d/ops"
		send_bin "$label.perf.data" "$d/perf.data"
	fi
	msg "PROBE profile.$label period=$p $NSB_SPIN seconds=$(echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }')"
	rm -rf "$d"
	msg "STEP $label $rc"
}

# sampling_stretch PERIOD: NSB_SPIN="spin_insn=N spin_ns=T", a loop of N
# instructions timed while perf samples as profile() does.  Each sample's
# interrupt takes part of the next period, so a sample stands for
# PERIOD x N / T instructions of the workload, not PERIOD: the host
# divides by this (measured once per boot, the same kernel and perf).
sampling_stretch() {
	local out
	out=$(perf record -q -B -N -a -e cpu-clock -c "$1" -o /tmp/spin.data -- \
		nsb-guest spin 10000000 2>/dev/null)
	rm -f /tmp/spin.data
	NSB_SPIN=$(echo "$out" | awk '$1 == "insn" && $3 == "ns" { print "spin_insn=" $2 " spin_ns=" $4 }')
	NSB_SPIN=${NSB_SPIN:-spin=failed}
}

# cost SWITCH LABEL FILTER...: the in-boot A/B of one userns_checks
# switch (a row of kernel-patches/checks.def; ab.sh refuses other
# names): one nsbench-bench run whose benchmarks alternate the switch in
# short chunks, in quads of on, on, off, off (the second off kept apart:
# the A/A residual) each in an order drawn from the round's seed (each
# state held --interleave-block chunks in a row where the plan asks), and
# report per state the central mean of its chunks' cost per operation
# (nsbench-bench --interleave, bench/sys/interleave.c).  On a kernel
# without the switch (stock) the same chunks run unswitched; the results
# say which (nsbench_check_applied).  COST_ARGS: flags for every cost
# step.
cost() {
	local sw=$1 label=$2
	shift 2
	# shellcheck disable=SC2086 # COST_ARGS: flags set by the plan
	bench "$label" --interleave="$sw" ${COST_ARGS:-} "$@"
	msg "PROBE cost.$sw $label"
}

# probe NAME CMD...: run CMD, report its output (one line) as NAME.
probe() {
	local name=$1 out
	shift
	out=$("$@" 2>&1 | tr '\n' ' ')
	msg "PROBE $name ${out:-<none>}"
}

# foreign_exec suid|fcap: exec, as uid 2000, a copy of nsb-guest on a tmpfs
# owned by another user namespace (entered through its mount namespace,
# so the mount is not foreign by mount namespace, only by owner).
#   suid: the copy is setuid root; prints the euid: 2000 = not elevated
#         (mnt_may_suid on), 0 = elevated (off).
#   fcap: the copy has cap_dac_override+ep; prints CapPrm: 0...0 = caps
#         ignored (mnt_may_suid or file_caps on), 0...02 = applied.
foreign_exec() {
	local pid i prep what
	case "$1" in
	suid) prep="chmod 4755 /mnt/u/x"; what=euid ;;
	fcap) prep="nsb-guest setcap /mnt/u/x"; what=caps ;;
	*) echo "foreign_exec: suid or fcap"; return 1 ;;
	esac
	rm -f /tmp/userns-ready
	unshare -U -m -r --propagation private sh -c "
		mkdir -p /mnt/u && mount -t tmpfs u /mnt/u &&
		cp /bin/nsb-guest /mnt/u/x && $prep &&
		touch /tmp/userns-ready && exec sleep 1000000" &
	pid=$!
	i=0
	while [ ! -f /tmp/userns-ready ] && [ "$i" -lt 100 ]; do
		usleep 50000
		i=$((i + 1))
	done
	nsenter -t "$pid" -m nsb-guest runas 2000 /mnt/u/x "$what"
	kill "$pid"
}

suid_foreign() {
	foreign_exec suid
}

# --- run the plan --------------------------------------------------------

msg "INIT mode=$NSB_MODE round=$NSB_ROUND seed=$NSB_SEED aslr=$NSB_ASLR kernel=$(uname -r)"
# LSM scenarios (mkinitramfs.sh --lsm): load the active LSM's policy or
# rules and the labelled ext4 image; plans may then run lsm_check.
if [ -r /lsm/setup.sh ]; then
	# shellcheck disable=SC1091
	. /lsm/setup.sh
	lsm_setup || msg "PROBE lsm.setup failed"
fi
perturb "$NSB_SEED"
# nsb.sched=batch (ab.sh's two-kernel A/B): everything the plan starts
# runs under SCHED_BATCH, inherited from here: no wakeup preemption.
# Under EEVDF (6.6 and later) whether a woken task preempts the running
# one depends on deadlines that move with every instruction an operation
# takes: a kernel adding 4,000 instructions per exec switched 6.5 times
# per fork+exec on 6.12 where the stock kernel switched 6.3 (+280
# instructions beyond the 4,153 added, 3 of 4 seeds); under SCHED_BATCH
# both switch 3.1 times.  Not for the whole of the in-boot check costs
# (make run): there the FUSE server's replies then wait for a tick, and
# the LSM rows' A/A went from 0.3 to 139 instructions; checks.plan asks
# for it per step (nsbench-bench --sched).  The results' context says
# nsbench_sched.
if [ "$NSB_SCHED" = batch ]; then
	nsb-guest batch $$ >/dev/null || NSB_SCHED=normal
fi
msg "PROBE sched $NSB_SCHED"
# shellcheck disable=SC1091
. /plan
finish 0
