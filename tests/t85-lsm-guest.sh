#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Quick tier of the LSM scenarios (TAP): boot the toggles kernel
# under icount once with SELinux (policy from the kernel's mdp +
# checkpolicy, enforcing) and once with Smack (both boots in parallel),
# and check the label-policy preconditions the guest reports
# (guest/lsm/setup.sh lsm_check):
#   - init-owned ext4: files keep their xattr labels across a remount;
#   - userns-owned FUSE: SELinux gives the mountpoint label (selinux
#     switch on) and the xattr label when the switch is flipped off; Smack
#     refuses a file whose label is not the untrusted root's, and allows
#     it with the smack switch off;
#   - a label set from inside a userns: SELinux takes it unless secattr
#     (seed 006) is on; Smack refuses it (CAP_MAC_ADMIN);
# and that the sys/lsm rows' own precondition checks pass in the guest.
# About 1-3 minutes (two icount boots).  NSB_SKIP_KERNEL=1 skips it.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"

# Parsed whole before it runs: editing this file cannot break a run.
{


need_guest
need checkpolicy checkpolicy
need mkfs.ext4 e2fsprogs
tap_plan 16

cfg=$top/kernel-patches/configs
kdir=$("$top/scripts/kernel/build.sh" --series userns-checks-toggles \
	--config "$cfg/base.config" --config "$cfg/lsm.config" 2>"$tmp/build.err")
ok $? "toggles kernel with SELinux and Smack built or cached"

"$top/guest/lsm/build-selinux-policy.sh" --out "$tmp/policy" 2>"$tmp/pol.err" &&
	[ -s "$tmp/policy" ]
ok $? "SELinux policy from mdp + checkpolicy"

# The guest runs an unsanitized nsbench-bench (make check's is ASan).
bench=${NSB_GUEST_BENCH:-$top/build/bench/nsbench-bench}
# A bench built before sys/lsm existed has no rows to check: skip those.
{ [ -x "$bench" ] && grep -aq 'sys/lsm/%s' "$bench"; } || bench=
"$top/guest/mkinitramfs.sh" --lsm --plan "$top/guest/plans/lsm-check.plan" \
	${bench:+--bench "$bench"} --out "$tmp/initrd" 2>"$tmp/mkinit.err"
ok $? "initramfs with /lsm (policy, rules, ext4 image made by mkfs.ext4 -d)"

for l in selinux smack; do
	"$top/guest/run-qemu.sh" --kernel "$kdir" --initrd "$tmp/initrd" \
		--out "$tmp/$l" --mode icount --append "lsm=$l" \
		--timeout 600 >"$tmp/$l.log" 2>&1 &
done
wait

# pre LSM NAME: the precondition line NAME says ok.
pre() {
	tr -d '\r' <"$tmp/$1/console.log" |
		grep -q "^@@NSB PROBE lsm.pre.$2 .* ok\( \|$\)"
}

for l in selinux smack; do
	grep -q '@@NSB DONE 0' "$tmp/$l/console.log" 2>/dev/null
	ok $? "$l: guest finished its plan"
	grep -a '@@NSB PROBE lsm' "$tmp/$l/console.log" 2>/dev/null | sed 's/^/# /'
done
grep -q '@@NSB PROBE lsm selinux enforce=1 policyvers=' "$tmp/selinux/console.log"
ok $? "selinux: policy loaded, enforcing"
pre selinux ext4.init.label && pre selinux fuse.init.label
ok $? "selinux: init-owned ext4 and FUSE keep the xattr label"
pre selinux fuse.userns.label && pre selinux fuse.userns.label.flipped
ok $? "selinux: userns-owned FUSE gets the mountpoint label (switch on), the xattr label (off)"
pre selinux tmpfs.userns.setlabel && pre selinux tmpfs.userns.setlabel.flipped
ok $? "selinux: a label set in a userns takes effect unless secattr is on"
pre smack ext4.init.label && pre smack fuse.init.label
ok $? "smack: init-owned ext4 and FUSE keep the xattr label"
pre smack fuse.userns.untrusted && pre smack fuse.userns.untrusted.flipped
ok $? "smack: untrusted userns FUSE refuses a foreign label (switch on), allows it (off)"
pre smack tmpfs.userns.setlabel
ok $? "smack: SMACK64 set in a userns is refused"

# The rows' own checks (the bench step; skipped without a bench).
for l in selinux smack; do
	if [ -z "$bench" ]; then
		echo "ok $((n += 1)) - $l: sys/lsm rows # SKIP no nsbench-bench with sys/lsm (make)"
		continue
	fi
	f=$tmp/$l/lsm.json
	[ -s "$f" ] && python3 - "$f" "$l" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = [b for b in d["benchmarks"] if b["name"].startswith("sys/lsm/" + sys.argv[2] + "/")]
bad = [b["name"] + ": " + b.get("error_message", "") for b in rows if b.get("error_occurred")]
for b in bad:
    print("# " + b)
sys.exit(1 if bad or not rows else 0)
PY
	ok $? "$l: sys/lsm rows pass their label preconditions in the guest"
done

# The in-boot A/B of the mount-time switch: each row's two mounts (made
# with the switch off, on) proved before the clock.  Userns-owned
# (depth 1): SELinux labels from the xattr (1) off, from the mountpoint
# (2) on; Smack takes the xattr label in both, and refuses a file with
# it on the untrusted superblock (1 | 4) on.  Init-owned (depth 0): both
# mounts alike.
states() {	# states LSM DEPTH: "OFF/ON" of the stat/fuse row
	jq -r --arg n "sys/lsm/$1/stat/fuse/self/depth:$2/manual_time" \
		'.benchmarks[] | select(.name == $n) |
		"\(.nsb_result_off)/\(.nsb_result_on)"' "$tmp/$1/lsm-cost.json" \
		2>/dev/null
}
for l in selinux smack; do
	if [ -z "$bench" ]; then
		echo "ok $((n += 1)) - $l: mounts per state # SKIP no nsbench-bench with sys/lsm (make)"
		continue
	fi
	want=2
	[ "$l" = smack ] && want=5
	[ "$(states "$l" 1)" = "1/$want" ] && [ "$(states "$l" 0)" = 1/1 ]
	ok $? "$l: the switch's two mounts label apart on a userns mount ($(states "$l" 1)), alike on init's ($(states "$l" 0))"
done
tap_done
}
