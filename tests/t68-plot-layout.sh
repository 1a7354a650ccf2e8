#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t68-plot-layout.sh — plots a reviewer can read: one chart per question
# and benchmark family, none wider than 1600 px or higher than 1200 px (a
# large family is split over several files), the A/B chart shows the shift
# in % with its CI, the depth chart a log2 axis; and `nsbench plot` finds
# its templates from any directory, beside the program (installed:
# ../share/nsbench/plots; built: ../plots), or says how to name them.
# Skipped without gnuplot.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
NSB=$(cd "${NSB_BUILD:-$top/build}" && pwd)/nsbench
FIX=$top/tests/fixtures/stats
unset NSB_PLOTS

if ! command -v gnuplot >/dev/null; then
	echo "1..0 # SKIP gnuplot not installed"
	exit 0
fi

# png_size FILE: "WIDTH HEIGHT" from the IHDR chunk (bytes 16..23).
png_size() {
	od -An -tu1 -j16 -N8 "$1" | awk '{
		print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4,
		      $5 * 16777216 + $6 * 65536 + $7 * 256 + $8 }'
}

# A full run's shape: families of 2 to 80 variants, depths 0..32, a
# sys/open as big as the real one, and two families whose names make the
# same file name.
python3 - "$tmp" <<'EOF'
import json, sys
t = sys.argv[1]
names = []
for v in ("2015", "now"):
    for c in ("hot", "cold"):
        for h in ("hit", "miss"):
            for d in (0, 1, 2, 4, 8, 16, 32):
                names.append(("models/in_userns/%s/%s/%s/depth:%d" %
                              (v, c, h, d), 2 + d * (50 if c == "cold" else 1)))
for kind in ("file", "dev", "dev/nodev"):
    for owner in ("init", "self", "parent", "foreign-proc", "foreign-fd",
                  "foreign-tree", "unrelated"):
        for d in (0, 1, 8, 32):
            names.append(("sys/open/%s/%s/depth:%d/manual_time" %
                          (kind, owner, d), 2000 + 10 * d))
for b in ("bin", "suid"):
    for owner in ("init", "self", "foreign-fd", "foreign-tree"):
        names.append(("sys/exec/vfork/%s/%s/depth:1/manual_time" %
                      (b, owner), 78000))
names += [("sys/a b/x", 100), ("sys/a_b/x", 100)]
for side, scale in (("base", 1.0), ("patched", 1.004)):
    benches = [{"name": n, "run_type": "iteration", "iterations": 100,
                "real_time": v * scale * (1 + 0.001 * (r % 3)),
                "cpu_time": 1, "time_unit": "ns"}
               for n, v in names for r in range(8)]
    json.dump({"context": {"nsbench_mode": "native",
                           "patch_series": side}, "benchmarks": benches},
              open("%s/%s.json" % (t, side), "w"))
EOF
ok $? "results of a full run's shape written"

mkdir "$tmp/elsewhere"
cd "$tmp/elsewhere" || exit 1
"$NSB" plot --templates="$top/plots" --out-dir=out --format=png \
	"$tmp/base.json" -- "$tmp/patched.json" >"$tmp/list" 2>"$tmp/err"
ok $? "plot from another directory exits 0"
big=
while read -r f; do
	wh=$(png_size "$f")
	w=${wh% *}
	h=${wh#* }
	[ "$w" -le 1600 ] && [ "$h" -le 1200 ] && [ "$w" -ge 600 ] ||
		big="$big $(basename "$f") ${w}x$h"
done <"$tmp/list"
[ -z "$big" ]
ok $? "every PNG at most 1600x1200 (too big:${big:- none})"
for f in ab-models_in_userns depth-models_in_userns dist-models_in_userns \
	ab-sys_exec dist-sys_exec ab-sys_a_b ab-sys_a_b_2; do
	[ -s out/nsbench-$f.png ] || [ -s out/nsbench-$f-1.png ]
	ok $? "per family: nsbench-$f"
done
[ -s out/nsbench-ab-sys_open-3.png ] && [ -s out/nsbench-depth-sys_open-2.png ]
ok $? "sys/open (84 rows) is split over several files"
[ ! -e out/nsbench-depth-sys_exec.png ] &&
	[ ! -e out/nsbench-depth-sys_exec-1.png ]
ok $? "no depth chart of variants with one depth each (sys/exec)"
! grep -qi 'warning\|error' "$tmp/err"
ok $? "gnuplot has nothing to warn about"

# What the charts say: the A/B chart in % with the CI; log2 depth.
cd "$tmp" || exit 1
"$NSB" plot --templates="$top/plots" --out-dir=fix --format=svg \
	"$FIX/base.json" -- "$FIX/patched.json" >/dev/null 2>&1
grep -q '+14.11% \[+13.05, +15.17\] slower' fix/nsbench-ab-fix_in_userns.svg
ok $? "A/B chart: the shift in % with its CI and verdict per row"
grep -q 'shift of the median' fix/nsbench-ab-fix_in_userns.svg
ok $? "A/B chart: its axis is the shift of the median"
grep -q 'log2 axis' fix/nsbench-depth-fix_in_userns.svg &&
	grep -q '>8<' fix/nsbench-depth-fix_in_userns.svg &&
	! grep -q '>6<' fix/nsbench-depth-fix_in_userns.svg
ok $? "depth chart: log2 axis, tics at powers of two"

# Templates beside the program: installed and built layouts, any cwd.
mkdir -p inst/bin inst/share/nsbench/plots repo/build repo/plots lone/bin
cp "$NSB" inst/bin/ && cp "$NSB" repo/build/ && cp "$NSB" lone/bin/
cp "$top"/plots/*.gp inst/share/nsbench/plots/
cp "$top"/plots/*.gp repo/plots/
cd "$tmp/elsewhere" || exit 1
"$tmp/inst/bin/nsbench" plot --out-dir=inst --format=png \
	"$FIX/base.json" -- "$FIX/patched.json" >/dev/null 2>"$tmp/err"
ok $? "installed: templates from ../share/nsbench/plots"
"$tmp/repo/build/nsbench" plot --out-dir=built --format=png \
	"$FIX/base.json" -- "$FIX/patched.json" >/dev/null 2>"$tmp/err"
ok $? "built: templates from <repo>/plots"
"$tmp/lone/bin/nsbench" plot --out-dir=lone --format=png \
	"$FIX/base.json" -- "$FIX/patched.json" >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q 'templates=DIR' "$tmp/err"
ok $? "no templates anywhere: exit 2, says --templates=DIR"
chmod o+w "$tmp/repo/plots"
"$tmp/repo/build/nsbench" plot --out-dir=open --format=png \
	"$FIX/base.json" -- "$FIX/patched.json" >/dev/null 2>"$tmp/err"
[ $? = 2 ]
ok $? "a world-writable template directory is not used unasked"
H=$top/tests/fixtures/history/step.jsonl
! "$tmp/lone/bin/nsbench" history plot --history="$H" --out-dir=hist \
	--format=png >/dev/null 2>&1 &&
	"$tmp/inst/bin/nsbench" history plot --history="$H" \
	--out-dir=hist --format=png >/dev/null 2>&1 &&
	[ -s hist/trend-fix_exec_step.png ]
ok $? "history plot finds the templates beside the program too"

tap_done
