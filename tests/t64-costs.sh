#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The in-boot check-cost engine (nsbench costs; nsbench report without
# "--" is its old spelling): synthetic
# interleaved results with known shifts must come out as given, an off/off
# pair must be "same", a residual beyond the limit marks a row unreliable,
# stock files give the provenance line, and bad input is refused naming
# file and field.  No guest: the files are made here.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
nsb=${NSB_BUILD:-$top/build}/nsbench

# mk DIR APPLIED SWITCH ROUNDS NAME:OFF:SHIFT:AA... — one results file per
# round; per benchmark: off1 = OFF + r-dependent jitter, off2 = off1 + AA,
# on = (off1 + off2) / 2 + SHIFT (all in us: instructions / 1000); SHIFT
# may be a comma list, round r's shift its r-th.  A NAME ending in '!' is
# an op the check decides (nsb_decides).
mk() {
	python3 - "$@" <<'EOF'
import json, os, sys
d, applied, sw, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
os.makedirs(d, exist_ok=True)
for r in range(1, rounds + 1):
    jitter = [0, 3, -2, 5, -4, 1, 2, -3][r % 8]   # per-round level change
    # MK_NOISE: the shift itself varies over rounds by up to +-MK_NOISE
    # (insn), in a pattern of its own per kernel release
    rel = os.environ.get("MK_RELEASE", "6.1.192")
    k = (sum(map(ord, rel)) * 7 + r * 13) % 9 - 4
    noise = float(os.environ.get("MK_NOISE", "0")) * k / 4
    benches = []
    for spec in sys.argv[5:]:
        name, off, shift, aa = spec.rsplit(':', 3)
        off1 = float(off) + jitter
        off2 = off1 + float(aa)
        shift = shift.split(",")[(r - 1) % len(shift.split(","))]
        on = (off1 + off2) / 2 + float(shift) + noise
        b = {"name": name.rstrip("!"), "run_type": "iteration",
            "iterations": 100, "real_time": on / 1000, "cpu_time": 1,
            "time_unit": "us", "nsb_on": on / 1000,
            "nsb_off1": off1 / 1000, "nsb_off2": off2 / 1000}
        if name.endswith("!"):
            b["nsb_decides"] = 1
        if "=" in name:     # NAME=OFF/ON: a fixture per state's results
            name, states = name.split("=")
            b["name"] = name
            b["nsb_result_off"], b["nsb_result_on"] = map(int, states.split("/"))
        benches.append(b)
    ctx = {"nsbench_mode": "icount", "nsbench_round": str(r),
           "nsbench_seed": str(1000 + r), "nsbench_check": sw,
           "nsbench_check_applied": applied,
           "kernel_release": os.environ.get("MK_RELEASE", "6.1.192"),
           "patch_series": "userns-checks-toggles" if applied == "yes" else "none",
           "nsbench_time_unit_meaning": "virtual ns = guest instructions"}
    if os.environ.get("MK_LSM"):
        ctx["nsbench_lsm"] = os.environ["MK_LSM"]
    with open(os.path.join(d, "r%02d-%s.json" % (r, sw)), "w") as f:
        json.dump({"context": ctx, "benchmarks": benches}, f)
EOF
}

field() {	# field JSON SWITCH NAME JQ-PATH
	jq -r --arg s "$2" --arg n "$3" \
		".rows[] | select(.switch == \$s and .name == \$n) | $4" "$1"
}

mk "$tmp/t" yes mnt_may_suid 6 \
	sys/exec/vfork/suid/init/depth:0/manual_time:70000:25:0 \
	sys/exec/vfork/suid/init/depth:32/manual_time:71000:216:0 \
	sys/exec/vfork/suid/foreign-fd/depth:0/manual_time:69000:0:0
mk "$tmp/t" yes nodev 6 sys/open/dev/init/depth:0/manual_time:3000:4:0 \
	sys/open/dev/self/depth:0/manual_time:3000:4:7 \
	'sys/open/dev/self/depth:8/manual_time!:3330:-813:0'
"$nsb" costs --json="$tmp/c.json" --out="$tmp/r.txt" "$tmp/t" 2>"$tmp/err"
ok $? "report reads a directory of interleaved results"
j=$tmp/c.json
is "$(field "$j" mnt_may_suid sys/exec/vfork/suid/init/depth:0/manual_time .shift.est)" 25 \
	"a known +25 insn shift is recovered exactly"
is "$(field "$j" mnt_may_suid sys/exec/vfork/suid/init/depth:32/manual_time .shift.est)" 216 \
	"a known +216 insn shift is recovered exactly"
is "$(field "$j" mnt_may_suid sys/exec/vfork/suid/init/depth:0/manual_time .verdict)" slower \
	"a real cost is 'slower'"
is "$(field "$j" mnt_may_suid sys/exec/vfork/suid/foreign-fd/depth:0/manual_time .verdict)" same \
	"no shift with off = off is 'same'"
is "$(field "$j" nodev sys/open/dev/self/depth:0/manual_time .unreliable)" true \
	"a 7-insn A/A residual marks the row unreliable"
is "$(field "$j" nodev sys/open/dev/init/depth:0/manual_time .aa.est)" 0 \
	"the off/off residual of an exact row is 0"
[ "$(field "$j" nodev sys/open/dev/self/depth:8/manual_time .verdict)" = decides ] &&
	[ "$(field "$j" nodev sys/open/dev/self/depth:8/manual_time .decides)" = true ] &&
	grep -q 'open/dev/self/d8 .* decides$' "$tmp/r.txt" &&
	grep -q '^    decides: the check changes' "$tmp/r.txt"
ok $? "an op the check decides is 'decides', not a cost (-813 insn is no saving)"
grep -q '^005 current_in_userns in mnt_may_suid (exec)' "$tmp/r.txt"
ok $? "the text report names the seed patch and check"
awk 'length > 72 { exit 1 }' "$tmp/r.txt"
ok $? "the text report fits in 72 columns"
grep -q 'Not here: 002 sget' "$tmp/r.txt" && grep -q 'unless NSB_LSM=0' "$tmp/r.txt"
ok $? "switches not measured are named, with the command that adds them"
grep -q "not measured in this run; NSB_STOCK=1" "$tmp/r.txt"
ok $? "without stock files the toggles' own cost says how to get it"

# LSM boots: a check's rows under each LSM are a family of their own
# (the same benchmark names), mounts made in each state are proven apart.
MK_LSM=selinux mk "$tmp/ls" yes mnt_may_suid 6 \
	sys/exec/vfork/suid/init/depth:0/manual_time:71000:36:0
MK_LSM=selinux mk "$tmp/ls" yes selinux 6 \
	sys/lsm/selinux/stat/fuse/self/depth:1/manual_time=1/2:27000:-8360:0 \
	sys/lsm/selinux/stat/fuse/self/depth:0/manual_time=1/1:35000:0:0
"$nsb" costs --json="$tmp/l.json" --out="$tmp/l.txt" "$tmp/t" "$tmp/ls" \
	2>"$tmp/err"
ok $? "report reads no-LSM and SELinux boots together"
[ "$(jq -c '[.rows[] | select(.switch == "mnt_may_suid" and
	.name == "sys/exec/vfork/suid/init/depth:0/manual_time") |
	[.lsm, .shift.est]]' "$tmp/l.json")" = '[["none",25],["selinux",36]]' ]
ok $? "one check under two LSMs: two rows, each its own shift"
grep -q '^005 current_in_userns in mnt_may_suid (exec), under SELinux' \
	"$tmp/l.txt" && grep -q '^007 SELinux labels' "$tmp/l.txt"
ok $? "the families under an LSM say which"
[ "$(field "$tmp/l.json" selinux sys/lsm/selinux/stat/fuse/self/depth:1/manual_time .states_differ)" = true ] &&
	[ "$(field "$tmp/l.json" selinux sys/lsm/selinux/stat/fuse/self/depth:0/manual_time .states_differ)" = false ] &&
	tr -s '\n ' '  ' <"$tmp/l.txt" | grep -q 'behaved apart in 1 of 2 row(s); alike (control): .*fuse/self/d0'
ok $? "the mounts' proof: apart where the check acts, the control alike"
[ "$(jq -c .provenance.lsm_boots "$tmp/l.json")" = '["none","selinux"]' ] &&
	[ "$(jq -r .provenance.kernel_release "$tmp/l.json")" = 6.1.192 ]
ok $? "costs.json carries its provenance: kernel, LSM boots"
! grep -q 'Not here:.*007' "$tmp/l.txt"
ok $? "a check measured under an LSM is not 'not here'"

# A control (mounts made in each state alike) whose rounds all lean one
# way, by 1 insn in four and by 10 and 25 in two: README's
# lsm/selinux/open/fuse/self/d0, -1 [-25, -1] faster.  Within half its
# CI: noisy.  The same rounds where the check acts stay faster; a
# control beyond its noise (-4361 every round) stays faster too.
lean=-1.3,-1.3,-1.4,-1.2,-10,-25
MK_LSM=selinux mk "$tmp/cn" yes selinux 6 \
	"sys/lsm/selinux/open/fuse/self/depth:0/manual_time=1/1:61366:$lean:0" \
	"sys/lsm/selinux/open/fuse/self/depth:1/manual_time=1/2:61412:$lean:0" \
	"sys/lsm/selinux/stat/fuse/self/depth:0/manual_time=1/1:56924:-4361:0"
"$nsb" costs --json="$tmp/cn.json" --out="$tmp/cn.txt" "$tmp/cn" 2>"$tmp/err"
ok $? "costs reads a family with controls"
cn() { field "$tmp/cn.json" selinux "sys/lsm/selinux/$1/manual_time" "$2"; }
[ "$(cn open/fuse/self/depth:0 .verdict)" = noisy ] &&
	[ "$(cn open/fuse/self/depth:0 .control)" = true ] &&
	[ "$(cn open/fuse/self/depth:0 '.shift.hi < 0')" = true ] &&
	tr -s '\n ' '  ' <"$tmp/cn.txt" | grep -q 'control within its noise: lsm/selinux/open/fuse/self/d0 -1 \[-25, -1\] insn, |shift| <= 11.9'
ok $? "a control's one-sided CI within its noise: noisy, and the report says why"
[ "$(cn open/fuse/self/depth:1 .verdict)" = faster ] &&
	[ "$(cn open/fuse/self/depth:1 .control)" = false ]
ok $? "the same rounds where the check acts: faster (the rule is the controls')"
[ "$(cn stat/fuse/self/depth:0 .verdict)" = faster ] &&
	[ "$(cn stat/fuse/self/depth:0 .control)" = true ]
ok $? "a control beyond its noise (-4361 every round) stays faster"

# The off/off pair: two off states with no difference is 'same'.
mk "$tmp/aa" yes sget 6 sys/mount/fscreate/mqueue/depth:0/ipcns:1/manual_time:4800:0:0
"$nsb" costs --json="$tmp/aa.json" "$tmp/aa" >/dev/null 2>&1
[ "$(jq -r '.rows[0].verdict' "$tmp/aa.json")" = same ] &&
	[ "$(jq -r '.rows[0].aa.est' "$tmp/aa.json")" = 0 ]
ok $? "an off/off series is 'same' with a zero residual"

# Stock files of the same plan: the toggles' own cost.
mk "$tmp/s" no mnt_may_suid 6 sys/exec/vfork/suid/init/depth:0/manual_time:69990:0:0
"$nsb" costs --json="$tmp/p.json" --out="$tmp/p.txt" "$tmp/t" "$tmp/s" 2>/dev/null
is "$(field "$tmp/p.json" mnt_may_suid sys/exec/vfork/suid/init/depth:0/manual_time .toggles.est)" 35 \
	"stock against toggles (on) pairs by round: +35 insn"
grep -q "Toggles' own cost (unpatched Linux" "$tmp/p.txt"
ok $? "the report gives the toggles' own cost as provenance"

# Two kernel releases: each one's tables, then the change with its CI.
xs=sys/exec/vfork/suid/init/depth:0/manual_time
xb=sys/exec/vfork/bin/init/depth:0/manual_time
MK_NOISE=0.4 mk "$tmp/x61" yes mnt_may_suid 6 "$xs:83000:24:0" "$xb:83000:24:0"
MK_NOISE=0.4 MK_RELEASE=6.12.118 mk "$tmp/x612" yes mnt_may_suid 6 \
	"$xs:90000:30:0" "$xb:90000:24:0"
"$nsb" costs --json="$tmp/x.json" --out="$tmp/x.txt" "$tmp/x612" "$tmp/x61"
ok $? "runs of two kernel releases: one report"
xrow() {	# xrow NAME JQ-PATH: a row of the change table
	jq -r --arg n "$1" ".cross_version[0][] | select(.name == \$n) | $2" "$tmp/x.json"
}
[ "$(xrow "$xs" .verdict)" = slower ] &&
	awk -v e="$(xrow "$xs" .change.est)" -v l="$(xrow "$xs" .change.lo)" \
	    -v h="$(xrow "$xs" .change.hi)" 'BEGIN { exit !(e > 5 && e < 7 && l <= 6 && h >= 6 && l > 1) }'
ok $? "+6 insn more per exec on 6.12: the change +6 within its CI, slower"
is "$(xrow "$xb" .verdict)" same \
	"the same cost on both releases: same (an A/A of the method)"
grep -q "What each check costs on Linux 6.1.192 and on Linux 6.12.118" "$tmp/x.txt" &&
	[ "$(grep -n '^== Linux' "$tmp/x.txt" | cut -d: -f2 | tr '\n' ' ')" = "== Linux 6.1.192 == == Linux 6.12.118 == " ]
ok $? "the change table first, then each release's report, the older first"
[ "$(jq -r '.versions | keys | join(" ")' "$tmp/x.json")" = "6.1.192 6.12.118" ]
ok $? "costs.json: each release's rows under versions"

# Bad input: named file and field, exit 2.
mk "$tmp/bad" yes nosuchswitch 1 x:1:0:0
"$nsb" costs "$tmp/bad" >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q 'r01-nosuchswitch.json: context.nsbench_check' "$tmp/err"
ok $? "an unknown switch is refused, naming file and field"
python3 -c 'import json; json.dump({"context": {"nsbench_mode": "icount"}, "benchmarks": []}, open("'"$tmp"'/plain.json", "w"))'
"$nsb" costs "$tmp/plain.json" >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q 'plain.json: context.nsbench_check: missing' "$tmp/err"
ok $? "a file that is no check run is refused with a pointer to BASE -- PATCHED"

# The headline plot reads the JSON; names are data, not gnuplot code.
mk "$tmp/evil" yes mnt_may_suid 6 'x" 0); system("touch '"$tmp"'/pwned"); set xtics ("z:70000:25:0'
"$nsb" costs --json="$tmp/evil.json" "$tmp/evil" >/dev/null 2>&1
if command -v gnuplot >/dev/null; then
	"$nsb" plot costs "$tmp/evil.json" --out-dir="$tmp/plots" \
		--templates="$top/plots" >/dev/null 2>&1
	[ -s "$tmp/plots/nsbench-costs.png" ] && [ ! -e "$tmp/pwned" ]
	ok $? "plot costs draws, and a hostile name runs nothing"
fi
# A refused op is behaviour, not cost: the headline plot draws it in a
# panel of its own, on its own scale, marked as the table marks it.
mk "$tmp/dec" yes nodev 6 'sys/open/dev/self/depth:8/manual_time!:3330:-813:0'
"$nsb" costs --json="$tmp/dec.json" "$tmp/dec" >/dev/null 2>&1
if command -v gnuplot >/dev/null; then
	"$nsb" plot costs "$tmp/dec.json" --out-dir="$tmp/dplots" \
		--templates="$top/plots" >/dev/null 2>"$tmp/err" &&
		grep -q 'decided operations: behaviour, not cost' \
		"$tmp/dplots/nsbench-costs.svg" &&
		grep -q '  decides<' "$tmp/dplots/nsbench-costs.svg"
	ok $? "plot costs draws the rows the check decides apart, marked"
else
	skip 1 "no gnuplot"
fi

# --- the named command: nsbench costs; report without "--" its old name --
"$nsb" costs --json="$tmp/t-new.json" "$tmp/t" >"$tmp/t-new.txt" 2>"$tmp/t-new.err" &&
	# the old spelling on purpose: the alias still runs costs
	"$nsb" report --json="$tmp/t-old.json" "$tmp/t" >"$tmp/t-old.txt" 2>"$tmp/t-old.err" &&
	cmp -s "$tmp/t-new.txt" "$tmp/t-old.txt" &&
	cmp -s "$tmp/t-new.json" "$tmp/t-old.json" &&
	grep -q 'what each userns mount check costs' "$tmp/t-new.txt"
ok $? "nsbench costs DIR: what nsbench report DIR wrote, byte for byte"
[ "$(head -n 1 "$tmp/t-old.err")" = 'nsbench report: FILE|DIR... without "--" is deprecated; use nsbench costs' ] &&
	tail -n +2 "$tmp/t-old.err" | cmp -s - "$tmp/t-new.err"
ok $? "... the old spelling says so in one line on stderr, then what costs says"
"$nsb" costs --help >"$tmp/h" && grep -q '^usage: nsbench costs ' "$tmp/h" &&
	grep -q -- '--command=CMD' "$tmp/h" && ! grep -q -- '--gate' "$tmp/h"
ok $? "nsbench costs --help: its own usage and options"
"$nsb" help 2>&1 | grep -q '^  costs '
ok $? "nsbench help lists costs"
# One call writes every format (ab.sh's report.txt, report.md, costs.json),
# each what the call for that format alone writes; one release or several.
for d in "t" "x612 x61"; do
	set --
	for s in $d; do set -- "$@" "$tmp/$s"; done
	"$nsb" costs --out="$tmp/1.txt" --markdown="$tmp/1.md" \
		--json="$tmp/1.json" --command="make run" "$@" &&
		"$nsb" costs --out="$tmp/2.txt" --command="make run" "$@" &&
		"$nsb" costs --markdown --out="$tmp/2.md" --command="make run" "$@" &&
		"$nsb" costs --json="$tmp/2.json" "$@" >/dev/null &&
		cmp -s "$tmp/1.txt" "$tmp/2.txt" && cmp -s "$tmp/1.md" "$tmp/2.md" &&
		cmp -s "$tmp/1.json" "$tmp/2.json" && grep -q '^## ' "$tmp/1.md"
	ok $? "costs --out --markdown=FILE --json ($d): each as alone"
done
"$nsb" report --help >"$tmp/h" && grep -q 'BASE... -- PATCHED' "$tmp/h" &&
	grep -q 'no "--": nsbench costs' "$tmp/h"
ok $? "nsbench report --help: report's own, naming the old spelling"
"$nsb" costs >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q '^nsbench costs: no results files' "$tmp/err"
ok $? "nsbench costs without files: exit 2, named"
if command -v gnuplot >/dev/null; then
	"$nsb" plot costs "$tmp/t-new.json" --out-dir="$tmp/pnew" \
		--templates="$top/plots" >"$tmp/pnew.out" 2>&1 &&
		# the old spelling on purpose: the alias draws the same chart
		"$nsb" plot --costs="$tmp/t-new.json" --out-dir="$tmp/pold" \
		--templates="$top/plots" >/dev/null 2>"$tmp/pold.err" &&
		cmp -s "$tmp/pnew/nsbench-costs.svg" "$tmp/pold/nsbench-costs.svg"
	ok $? "plot costs FILE: the chart of plot --costs=FILE"
	grep -qx 'nsbench plot: --costs=FILE is deprecated; use nsbench plot costs FILE' \
		"$tmp/pold.err"
	ok $? "... and plot --costs=FILE says it is deprecated"
else
	skip 2 "no gnuplot"
fi
"$nsb" plot costs >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q 'no FILE' "$tmp/err"
ok $? "plot costs without FILE: exit 2"
# the old spelling on purpose: with the operand too, refused
"$nsb" plot costs --costs="$tmp/t-new.json" "$tmp/t-new.json" \
	>/dev/null 2>"$tmp/err"
[ $? = 2 ]
ok $? "plot costs: FILE and --costs=FILE both: exit 2"
tap_done
