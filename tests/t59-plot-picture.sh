#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t59-plot-picture.sh — the pictures, not the code that drew them: the
# check-cost chart of a page like make run's second (a long label, a
# family on a +-35,000 axis, a +3 row beside a -30,435 one, every
# verdict) and a history site's trend of long commits and a late change
# are rendered to SVG and read back (tests/svg_layout.py): every text
# inside the canvas, no two texts over each other (boxes from font size
# and length), each row with a CI (one the table prints as more than a
# point) a whisker of a few pixels.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
need python3 python3
need gnuplot gnuplot-nox
unset NSB_PLOTS
LAYOUT=$top/tests/svg_layout.py
LONG=mount/fuse/foreign-tree/depth:32/allow_other/with-a-long-tail/d1
cd "$tmp" || exit 1

# costs.json rows as `nsbench costs --json` writes them; whiskers.txt:
# the labels drawn of the rows whose CI the table prints as more than a
# point
python3 - <<'EOF'
import json
rows, wh = [], []
def row(seed, sw, check, lsm, label, est, lo, hi, verdict, shown=None,
        decides=False):
    rows.append({"switch": sw, "seed": seed, "check": check, "form": True,
                 "name": label, "label": label, "verdict": verdict,
                 "unreliable": verdict.endswith("*"), "decides": decides,
                 "lsm": lsm, "off": 85000.0,
                 "shift": {"est": est, "lo": lo, "hi": hi, "level": 0.95},
                 "pct": est / 850.0, "pct_lo": lo / 850.0,
                 "pct_hi": hi / 850.0, "rounds": 6, "p": 0.03})
    # the table prints tenths under 10, whole instructions from 10 up:
    # a CI narrower than that is a point ("+24 [+24, +24]")
    if hi - lo >= (1 if max(abs(lo), abs(hi)) >= 10 else 0.1):
        wh.append(shown or label)
S = "SELinux label policy per superblock"
row("002", "sget", "sget_userns compare", "none", "sget/mqueue/n1",
    -30435, -34800, -26000, "faster")
row("002", "sget", "sget_userns compare", "none", "sget/mqueue/n64",
    +30012, +26500, +34900, "slower")
row("002", "sget", "sget_userns compare", "none", "sget/proc/n1",
    0, -0.4, 0.4, "same")
row("005", "mnt_may_suid", "mnt_may_suid", "selinux",
    "lsm/selinux/exec/suid/init/d0", 48, 47, 49, "slower",
    "exec/suid/init/d0")
row("006", "secattr", "secattr skip", "none", "setxattr/security/d0",
    3, 2, 4, "slower")
row("006", "secattr", "secattr skip", "none", "setxattr/user/d0",
    0.5, -2, 3, "noisy")
row("007", "selinux", S, "selinux", "lsm/selinux/mount/fuse/d1",
    -30435, -30440, -30430, "faster", "mount/fuse/d1")
row("007", "selinux", S, "selinux", "lsm/selinux/setlabel/tmpfs/self/d0",
    3, 2.5, 3.5, "slower*", "setlabel/tmpfs/self/d0")
row("007", "selinux", S, "selinux", "lsm/selinux/open/fuse/self/d1",
    0, 0, 0, "same")
row("007", "selinux", S, "selinux", "lsm/selinux/" +
    "mount/fuse/foreign-tree/depth:32/allow_other/with-a-long-tail/d1",
    -29000, -29100, -28950, "faster",
    "mount/fuse/foreign-tree/depth:32/allow_other/with-a-long-tail/d1")
row("003", "nodev", "may_open_dev", "none", "open/dev/self/d8",
    -813, -813, -813, "decides", decides=True)
# the cache model's quantities of three rows (NSB_CACHESIM=1 runs)
def cache(i, est, lo, hi, off):
    rows[i]["cache"] = {"l1d_miss_cold": {"est": est, "lo": lo, "hi": hi,
                        "off": off, "unit": "L1d misses, caches cold"}}
cache(0, 1.0, 1.0, 1.0, 190)
cache(3, 0.4, -0.1, 0.9, 2185)
cache(4, -64, -64.2, -63.9, 123)
json.dump({"icount": True, "rows": rows}, open("costs.json", "w"))
open("whiskers.txt", "w").write("\n".join(wh) + "\n")
EOF
ok $? "a page like make run's second written"

"$NSB" plot costs costs.json --out-dir=out --templates="$top/plots" \
	>list 2>err
ok $? "plot costs exits 0"
! grep -qi 'warning\|error' err
ok $? "gnuplot has nothing to warn about"
svg=out/nsbench-costs.svg
python3 "$LAYOUT" "$svg" 11 whiskers.txt >problems 2>/dev/null
ok $? "every text inside the canvas, none over another, each CI a whisker"
diag problems
grep -q ">$LONG<" "$svg"
ok $? "the longest label drawn whole"
! grep -q '>lsm/selinux/' "$svg" && grep -q '>mount/fuse/d1<' "$svg" &&
	grep -q 'under SELinux' "$svg"
ok $? "labels do not repeat the LSM their panel's title names"
grep -q '>-30k<' "$svg" && grep -q '>+30k<' "$svg"
ok $? "the +-35,000 axis in k units"
for w in slower faster same noisy decides; do
	grep -q ">$w<" "$svg" || echo "no legend entry: $w"
done >missing
[ ! -s missing ]
ok $? "a legend of the table's verdict words"
diag missing
grep -q '+3.0 \[+2.5, +3.5\]  +0.00%  slower\*' "$svg"
ok $? "beside each row the table's shift, CI, % and verdict"
# one marker shape per verdict: slower, faster, same, noisy, decides
for p in 8 10 6 11 4; do
	grep -q "href='#gpPt$p' transform='translate(" "$svg" ||
		echo "no marker gpPt$p"
done >missing
[ ! -s missing ]
ok $? "a marker shape per verdict"
diag missing

# A cache-model quantity on the same panels: its rows only, its unit.
"$NSB" plot costs --quantity=l1d_miss_cold costs.json --out-dir=cq \
	--templates="$top/plots" >list 2>err &&
	python3 "$LAYOUT" cq/nsbench-costs.svg 11 /dev/null >problems 2>/dev/null &&
	grep -q 'costs in L1d misses, caches cold, cache model' cq/nsbench-costs.svg &&
	grep -q '>sget/mqueue/n1<' cq/nsbench-costs.svg &&
	! grep -q '>sget/mqueue/n64<' cq/nsbench-costs.svg
ok $? "plot costs --quantity: the cache rows alone, laid out, their unit named"
diag problems err
"$NSB" plot costs --quantity='l1d_miss_cold;x' costs.json --out-dir=bad \
	>/dev/null 2>err
[ $? = 2 ] && [ ! -e bad ] && grep -q 'not a quantity of the cache model' err
ok $? "plot costs --quantity of no such quantity: exit 2, nothing written"

# The history site's trend: 12-character commits, medians in millions,
# a change three runs before the end, every run labelled.
python3 - <<'EOF'
import json
with open("h.jsonl", "w") as h:
    for r in range(15):
        m = 1234567.0 * (1.05 if r >= 12 else 1.0) + (r * 37 % 7) * 20
        h.write(json.dumps({
            "type": "result", "run": "run%02d" % r,
            "benchmark": "sys/exec/vfork/bin/init/depth:0/manual_time",
            "status": "ok", "n": 5, "median": m, "ci_lo": m - 300,
            "ci_hi": m + 300, "ci_level": 0.9375,
            "unit": "virtual ns = guest instructions", "mode": "icount",
            "timestamp": "2026-11-%02dT06:00:00Z" % (r + 1),
            "kernel_release": "6.1.0",
            "kernel_commit": "%012x" % (0xabcdef123456 + r)}) + "\n")
EOF
"$NSB" history publish --history=h.jsonl --out-dir=site >/dev/null 2>err
ok $? "a site of a history with long commits"
python3 - site/b/*.html >trend.svg <<'EOF'
import re, sys
m = re.search(r"<svg.*?</svg>", open(sys.argv[1]).read(), re.S)
print(m.group(0) if m else "")
EOF
grep -q 'change +' trend.svg && grep -q '>abcdef123464<' trend.svg
ok $? "the trend shows the change and the last run's commit"
python3 "$LAYOUT" trend.svg 11 >problems 2>/dev/null
ok $? "trend: every text inside the canvas, none over another"
diag problems

tap_done
