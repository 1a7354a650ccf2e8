#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t58-ab-plan-checks.sh — ab.sh reads a plan's checks from its effective
# steps and kernel-patches/checks.def: a step naming no check is refused
# before anything runs; the guest image carries the LSM files (/lsm)
# when a step, through an include, names a check of an LSM, and not for
# a comment that names one; perf when an included plan has profile steps;
# a plan --workloads makes includes steady.plan first (with
# STEADY_INBOOT=1 in-boot).  A stand-in QEMU and a stand-in kernel: no
# boot, no build (the SELinux policy is made from the cached source).

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"

need_guest
need checkpolicy checkpolicy
need mkfs.ext4 e2fsprogs
need jq jq
tap_plan 10

# The stand-in QEMU: a guest that starts and ends, on both serial ports
# (run-qemu.sh's -serial file:PATH arguments).
cat >"$tmp/qemu" <<'EOF'
#!/bin/bash
case "$*" in *--version*) echo "QEMU emulator version 0.0 (stand-in)"; exit 0 ;; esac
printf '%s\n' "$@" | sed -n 's/^file://p' | while read -r f; do
	printf '@@NSB INIT mode=icount round=1 seed=1 aslr=0 kernel=6.1.192\n@@NSB DONE 0\n' >"$f"
done
EOF
chmod +x "$tmp/qemu"
for s in A B; do
	mkdir -p "$tmp/k$s"
	echo "not a kernel" >"$tmp/k$s/bzImage"
	echo "{\"key\": \"t84$s\", \"series\": \"x\", \"config_hash\": \"sha256:0$s\", \"release\": \"6.1.192\"}" \
		>"$tmp/k$s/meta.json"
done

# ab PLAN OUT: a two-kernel run of one round, stand-ins all the way.
ab() {
	QEMU=$tmp/qemu "$top/scripts/ab.sh" --plan "$1" --out "$2" \
		--kernel "$tmp/kB" --base-kernel "$tmp/kA" --mode icount \
		--rounds 1 --jobs 1 --no-cache
}

printf 'bench a x\ncheck mnt_may_suid 0\ncheck no_such_check 1\n' >"$tmp/bad.plan"
t0=$(date +%s)
ab "$tmp/bad.plan" "$tmp/r0" >"$tmp/r0.log" 2>&1
rc=$?
[ "$rc" = 2 ] && [ ! -e "$tmp/r0" ] && [ $(($(date +%s) - t0)) -lt 30 ] &&
	grep -q "bad.plan': 'check no_such_check': no check 'no_such_check' in kernel-patches/checks.def" "$tmp/r0.log"
ok $? "a step naming no check: refused at once, naming plan and check (exit $rc)"
diag "$tmp/r0.log"

printf 'include lsm-switch\n' >"$tmp/lsm.plan"
ab "$tmp/lsm.plan" "$tmp/r1" >"$tmp/r1.log" 2>&1
ok $? "a plan including lsm-switch (check selinux 0, ...) runs"
tail -n 5 "$tmp/r1.log" | diag
cpio -t <"$tmp/r1/initramfs.cpio" 2>/dev/null | grep -q '^lsm/setup.sh$' &&
	cpio -t <"$tmp/r1/initramfs.cpio" 2>/dev/null | grep -q '^bin/nsb-lsm$'
ok $? "... its image has the LSM files (an included step named a check of an LSM)"

printf '# check selinux 0: a comment, not a step\ncheck mnt_may_suid 0\ninclude checks-quick\n' \
	>"$tmp/none.plan"
ab "$tmp/none.plan" "$tmp/r2" >"$tmp/r2.log" 2>&1
ok $? "a plan whose comment names an LSM's check runs"
tail -n 5 "$tmp/r2.log" | diag
cpio -t <"$tmp/r2/initramfs.cpio" >"$tmp/r2.list" 2>/dev/null &&
	grep -q '^plan$' "$tmp/r2.list" && ! grep -q '^lsm' "$tmp/r2.list"
ok $? "... its image has no LSM files"
# nsbench-bench sorts with order.c: calling GSL, it took libgsl and
# libgslcblas (2.5 MB) into every image.  (Its symbols, not the image's
# list: a sanitizer build's link keeps every library it was given.)
bench=${NSB_BUILD:-$top/build}/bench/nsbench-bench
[ -x "$bench" ] && ! nm -D --undefined-only "$bench" | grep -q ' gsl_'
ok $? "nsbench-bench calls no GSL function: the guest image needs none"

if command -v perf >/dev/null; then
	QEMU=$tmp/qemu "$top/scripts/ab.sh" --workloads calibration-profile \
		--out "$tmp/r3" --kernel "$tmp/kB" --base-kernel "$tmp/kA" \
		--mode icount --rounds 1 --jobs 1 --no-cache >"$tmp/r3.log" 2>&1 &&
		cpio -t <"$tmp/r3/initramfs.cpio" 2>/dev/null | grep -q '^bin/perf$'
	ok $? "--workloads calibration-profile: its included profile steps put perf in the image"
else
	skip "perf not installed"
fi

# genplan OUT [ARGS...]: the plan --workloads made (the image's /plan)
genplan() {
	local out=$1
	shift
	QEMU=$tmp/qemu "$top/scripts/ab.sh" --out "$tmp/$out" \
		--kernel "$tmp/kB" --base-kernel "$tmp/kA" --mode icount \
		--rounds 1 --jobs 1 --no-cache "$@" >"$tmp/$out.log" 2>&1 &&
		(cd "$tmp/$out" && cpio -i --quiet plan <initramfs.cpio) &&
		grep -v '^#' "$tmp/$out/plan"
}
# The boot state that moves exec's cost goes first, as in every plan of
# guest/plans that times exec (t41): a generated plan ran without it.
# Two kernels: each filter also in chunks of a fixed count (2 execs, 16
# of anything else), read as make validate's central table, after the
# bench steps; a quote in a filter cannot end the plan's quoting.
genplan r4 --workloads "^sys/exec/vfork/bin/init/depth:0/ ^sys/open/file/init/depth:0/'x" \
	>"$tmp/r4.plan"
printf '%s\n' 'include steady' 'BENCH_ARGS=$STEADY_ARGS' \
	"bench _sys_exec_vfork_bin_init_depth_0_ '^sys/exec/vfork/bin/init/depth:0/'" \
	"bench _sys_open_file_init_depth_0__x '^sys/open/file/init/depth:0/x'" \
	'COST_ARGS="--benchmark_min_time=0.03 $STEADY_ARGS"' \
	"cost mnt_may_suid central-_sys_exec_vfork_bin_init_depth_0_ --interleave-chunk=2 '^sys/exec/vfork/bin/init/depth:0/'" \
	"cost mnt_may_suid central-_sys_open_file_init_depth_0__x --interleave-chunk=16 '^sys/open/file/init/depth:0/x'" |
	cmp -s - "$tmp/r4.plan"
ok $? "--workloads FILTER...: steady, STEADY_ARGS, the bench steps, then a central cost step per filter"
diag "$tmp/r4.plan"
genplan r5 --one-kernel --workloads checks-quick >"$tmp/r5.plan"
printf '%s\n' 'STEADY_INBOOT=1' 'include steady' 'BENCH_ARGS=$STEADY_ARGS' \
	'include checks-quick' | cmp -s - "$tmp/r5.plan"
ok $? "--one-kernel --workloads PLAN: in-boot, as checks.plan (STEADY_INBOOT=1 first)"
diag "$tmp/r5.plan"

printf 'include cycle-a\n' >"$tmp/cyc.plan"
mkdir -p "$tmp/plans"
printf 'include cycle-b\n' >"$tmp/plans/cycle-a.plan"
printf 'include cycle-a\n' >"$tmp/plans/cycle-b.plan"
! (. "$top/scripts/kernel/lib.sh" && plan_steps "$tmp/plans" "$tmp/cyc.plan") \
	>"$tmp/cyc.log" 2>&1 && grep -q 'include cycle through' "$tmp/cyc.log"
ok $? "an include cycle is an error, not a hang"

tap_done
