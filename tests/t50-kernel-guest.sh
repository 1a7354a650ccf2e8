#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Quick tier of the kernel pipeline (TAP): build the small 6.1 kernel with
# the toggles series (cached in $NSB_CACHE; a cold build takes minutes,
# ccache makes later ones short), boot it under icount, run the guest's
# fork+exec workload, prove the mnt_may_suid and file_caps switches flip
# behaviour, and check that a broken patch, a panic, a hang and an exiting
# init are reported as errors within their timeouts.
#
# NSB_SKIP_KERNEL=1 skips it (machines without the kernel source or QEMU).

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"

# Parsed whole before it runs: editing this file cannot break a run.
{


need_guest
tap_plan 18

# 1: a patch that does not apply names the patch and the hunk.
mkdir -p "$tmp/bad"
cat >"$tmp/bad/0001-broken.patch" <<'EOF'
From: nsbench test <test@localhost>
Subject: [PATCH] broken on purpose

---
diff --git a/fs/namei.c b/fs/namei.c
--- a/fs/namei.c
+++ b/fs/namei.c
@@ -1,2 +1,2 @@
-this line is not in fs/namei.c
+nor is this one
 neither is this
EOF
echo 0001-broken.patch >"$tmp/bad/series"
"$top/scripts/kernel/build.sh" --series "$tmp/bad" >"$tmp/bad.out" 2>&1
rc=$?
[ "$rc" != 0 ] && grep -q "0001-broken.patch" "$tmp/bad.out" &&
	grep -q "Hunk #1 FAILED" "$tmp/bad.out" && grep -q "fs/namei.c" "$tmp/bad.out"
ok $? "a patch that does not apply: error names patch, file and hunk"
[ "$rc" = 0 ] || diag "$tmp/bad.out"

# 2: the toggles kernel builds (or is cached).
t0=$(date +%s)
kdir=$("$top/scripts/kernel/build.sh" --series userns-checks-toggles 2>"$tmp/build.err")
rc=$?
[ "$rc" = 0 ] && [ -f "$kdir/bzImage" ]
ok $? "toggles kernel built or cached in $(($(date +%s) - t0)) s"
if [ "$rc" != 0 ]; then
	tail -n 30 "$tmp/build.err" | diag
	for _ in $(seq 3 16); do
		ok 1 "skipped: no kernel"
	done
	exit 1
fi

# 3: the initramfs is byte-identical when built twice.
plan=$top/guest/plans/selftest.plan
mk() {
	"$top/guest/mkinitramfs.sh" --plan "$1" --out "$2" 2>/dev/null
}
mk "$plan" "$tmp/i1.cpio" && mk "$plan" "$tmp/i2.cpio" &&
	cmp -s "$tmp/i1.cpio" "$tmp/i2.cpio"
ok $? "initramfs is reproducible"

# 4: boot under icount, run the plan to the end.
t0=$(date +%s)
"$top/guest/run-qemu.sh" --kernel "$kdir" --initrd "$tmp/i1.cpio" \
	--out "$tmp/boot" --mode icount --round 1 --seed 4242 --side A \
	--boot 1 --series userns-checks-toggles --timeout 300 2>"$tmp/boot.err"
rc=$?
ok $rc "icount boot ran the self-test plan ($(($(date +%s) - t0)) s wall)"
[ "$rc" = 0 ] || diag "$tmp/boot.err"

# 5: one workload's results, with the provenance filled in.
j=$tmp/boot/forkexec.json
[ -f "$j" ] && grep -q '"name": "guest/forkexec"' "$j" &&
	grep -q '"nsbench_side": "A"' "$j" && grep -q '"nsbench_mode": "icount"' "$j" &&
	grep -q '"nsbench_seed": "4242"' "$j" && grep -q '"nsbench_aslr": "0"' "$j" &&
	! grep -q '@[A-Z_]*@' "$j"
ok $? "fork+exec results JSON with side, mode, seed, ASLR off"
[ -f "$j" ] && grep real_time "$j" | head -n 3 | diag

# 6-8: mnt_may_suid really switches the check.
probe() {
	sed -n "s/^$1 //p" "$tmp/boot/probes.txt" 2>/dev/null | tr -d ' '
}
[ "$(probe suid_foreign.default)" = 2000 ]
ok $? "mnt_may_suid on (default): setuid on a foreign userns mount does not elevate (euid $(probe suid_foreign.default))"
[ "$(probe check.mnt_may_suid)" != unavailable ] && [ "$(probe suid_foreign.off)" = 0 ]
ok $? "mnt_may_suid off: the same exec elevates (euid $(probe suid_foreign.off))"
[ "$(probe suid_foreign.on)" = 2000 ]
ok $? "mnt_may_suid back on: not elevated again (euid $(probe suid_foreign.on))"

# 9-11: file_caps really switches its check (mnt_may_suid off for these).
nocaps=0000000000000000
[ "$(probe fcap_foreign.file_caps-on)" = $nocaps ]
ok $? "file_caps on: file caps on a foreign userns mount ignored (CapPrm $(probe fcap_foreign.file_caps-on))"
[ "$(probe fcap_foreign.file_caps-off)" = 0000000000000002 ]
ok $? "file_caps off: the same file caps apply (CapPrm $(probe fcap_foreign.file_caps-off))"
[ "$(probe fcap_foreign.file_caps-on-again)" = $nocaps ] &&
	[ "$(probe fcap_foreign.default)" = $nocaps ]
ok $? "file_caps back on, and all defaults: ignored again"

# 12: the boot parameter sets the switches before init runs.
# And for 13: nsb-guest pidpin (in blocks of 256, then of the leaf),
# then how many blocks of N pids (from 300, where the allocator wraps,
# to pid_max) no live process holds.
cat >"$tmp/bp.plan" <<'EOF'
probe sysctl.mnt_may_suid cat /proc/sys/kernel/userns_checks/mnt_may_suid
probe sysctl.walk_2015 cat /proc/sys/kernel/userns_checks/walk_2015
probe suid suid_foreign
unheld() {
	ls /proc | awk -v leaf="$1" -v max="$(cat /proc/sys/kernel/pid_max)" '
		/^[0-9]+$/ { held[int($1 / leaf)] = 1 }
		END { n = 0
		      for (b = int(300 / leaf); b * leaf < max; b++) n += !(b in held)
		      print n }'
}
probe pidpin256 nsb-guest pidpin 256
probe unheld256.256 unheld 256
probe unheld256.16 unheld 16
probe pidpin nsb-guest pidpin
probe unheld.16 unheld 16
probe unheld.64 unheld 64
EOF
mk "$tmp/bp.plan" "$tmp/bp.cpio"
"$top/guest/run-qemu.sh" --kernel "$kdir" --initrd "$tmp/bp.cpio" \
	--out "$tmp/bp" --mode icount --timeout 300 \
	--append "userns_checks=-mnt_may_suid,+walk_2015" 2>"$tmp/bp.err"
bp() {
	sed -n "s/^$1 //p" "$tmp/bp/probes.txt" 2>/dev/null | tr -d ' '
}
[ "$(bp sysctl.mnt_may_suid)" = 0 ] && [ "$(bp sysctl.walk_2015)" = 1 ] &&
	[ "$(bp suid)" = 0 ]
ok $? "userns_checks=-mnt_may_suid,+walk_2015 on the command line: switches set at boot, setuid elevates"
if [ -f "$tmp/bp/probes.txt" ]; then diag "$tmp/bp/probes.txt"; else diag "$tmp/bp.err"; fi

# 13: the pid leaves pinned as the kernel sizes them: a radix tree node
# has 16 slots under CONFIG_BASE_SMALL, 64 without (XA_CHUNK_SHIFT), and
# afterwards a live process holds every such block of pids.
leaf=64
grep -Eq '^CONFIG_BASE_SMALL=(1|y)$' "$kdir/config" && leaf=16
pin=$(bp pidpin)
[ "${pin#leaf="$leaf",blocks=}" != "$pin" ] && [ "$(bp "unheld.$leaf")" = 0 ]
ok $? "nsb-guest pidpin holds every $leaf-pid leaf ($pin; unheld $(bp "unheld.$leaf"))"

# 13a: in blocks of 256 first (make run's in-boot steps on 6.1): every
# block held, and leaves left empty for the forks to pay.
pin=$(bp pidpin256)
[ "${pin#leaf=256,blocks=}" != "$pin" ] && [ "$(bp unheld256.256)" = 0 ] &&
	[ "$(bp unheld256.16)" -gt 0 ] 2>/dev/null
ok $? "nsb-guest pidpin 256 holds every 256-pid block and not every leaf ($pin; unheld $(bp unheld256.256), 16-pid leaves $(bp unheld256.16))"

# 14: a second boot with the same seed gives the same icount numbers.
"$top/guest/run-qemu.sh" --kernel "$kdir" --initrd "$tmp/i1.cpio" \
	--out "$tmp/boot2" --mode icount --round 1 --seed 4242 --side A \
	--boot 2 --series userns-checks-toggles --timeout 300 2>"$tmp/boot2.err"
a=$(grep -o '"real_time": [0-9.]*' "$tmp/boot/forkexec.json" 2>/dev/null | tr '\n' ' ')
b=$(grep -o '"real_time": [0-9.]*' "$tmp/boot2/forkexec.json" 2>/dev/null | tr '\n' ' ')
[ -n "$a" ] && [ "$a" = "$b" ]
ok $? "icount: same image, same seed, same numbers"
[ -n "$a" ] && [ "$a" = "$b" ] || { echo "# boot 1: $a"; echo "# boot 2: $b"; }

# 15-17: a plan that breaks the guest: boot_plan NAME TIMEOUT LINE boots
# one whose plan is LINE; rc its exit status, el its seconds of wall
# time, its stderr in $tmp/NAME.err.
boot_plan() {
	printf '%s\n' "$3" >"$tmp/$1.plan"
	mk "$tmp/$1.plan" "$tmp/$1.cpio"
	t0=$(date +%s)
	"$top/guest/run-qemu.sh" --kernel "$kdir" --initrd "$tmp/$1.cpio" \
		--out "$tmp/$1" --mode icount --timeout "$2" 2>"$tmp/$1.err"
	rc=$?
	el=$(($(date +%s) - t0))
}

# 15: a forced panic is an error, reported quickly with the console tail.
boot_plan panic 120 'echo c >/proc/sysrq-trigger'
[ "$rc" != 0 ] && grep -q 'kernel panic' "$tmp/panic.err" && [ "$el" -le 120 ]
ok $? "forced panic reported as an error in ${el} s"
tail -n 3 "$tmp/panic.err" | diag

# 16: a forced hang is an error once the timeout expires.
boot_plan hang 30 'sleep 1000000'
# 30 s of QEMU CPU time; the wall cap (3x + 60 s) bounds a loaded host.
[ "$rc" != 0 ] && grep -q 'guest hang' "$tmp/hang.err" && [ "$el" -le 150 ]
ok $? "forced hang reported as an error in ${el} s wall (timeout 30 s)"
tail -n 1 "$tmp/hang.err" | diag

# 17: init exiting (a plan that exits) is reported, not waited for.
boot_plan exit 120 'exit 3'
[ "$rc" != 0 ] && grep -q 'kernel panic' "$tmp/exit.err"
ok $? "init exiting reported as an error in ${el} s"
tail -n 1 "$tmp/exit.err" | diag

tap_done
}
