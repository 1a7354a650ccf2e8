#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t67-plot-injection.sh — nothing from a results file, a history or a
# command line is ever gnuplot code.  Benchmark names, labels, context
# values, commits, titles, units, paths and $TMPDIR carry gnuplot
# payloads (system(), `backquotes`, @macros, quotes, newlines, ';'), each
# touching its own marker file if gnuplot ran it; every plot kind (ab,
# depth, dist, trend from a file and from a history, costs) must draw and
# no marker may appear.  Skipped without gnuplot.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT

if ! command -v gnuplot >/dev/null; then
	echo "1..0 # SKIP gnuplot not installed"
	exit 0
fi

m=$tmp/m
mkdir "$m"

# payloads.py MARKERDIR: the payloads, one JSON string per line
cat >"$tmp/payloads.py" <<'EOF'
import json, sys
m = sys.argv[1] + "/"
P = [
    # the old dist.gp eval of "set xtics (...)"
    'x" 0); system("touch %sp1"); set xtics ("z' % m,
    # backquote command substitution
    'a`touch %sp2`b' % m,
    # out of a single-quoted gnuplot string
    "c'; system('touch %sp3'); d='" % m,
    # a new line of gnuplot code
    'e\nsystem("touch %sp4")\nf' % m,
    # macro expansion
    '@cmd; cmd = "system(\'touch %sp5\')"; @cmd' % m,
    # out of a double-quoted data field
    'g" 1 2; print system("touch %sp6"); h="' % m,
    # a backslash before the quote, a comment after it
    '\\"); system("touch %sp7") # ' % m,
    # out of the output directory
    '../../../x`touch %sp8`' % m,
]
EOF

# Results files whose names, labels and context are all payloads.
python3 - "$m" "$tmp" <<'EOF'
import json, sys
exec(open(sys.argv[2] + "/payloads.py").read())
t = sys.argv[2]
for side, scale in (("base", 1.0), ("patched", 1.02)):
    benches = []
    # every payload a variant of one family, three of them families
    names = [("evil/all/%s/v%d" % (p, i), p) for i, p in enumerate(P)]
    names += [(p + "/fam/v", p) for p in (P[0], P[3], P[7])]
    for name, p in names:
        for d in (0, 1, 8):
            for r in range(8):
                benches.append({
                    "name": "%s/depth:%d" % (name, d),
                    "run_type": "iteration", "iterations": 100,
                    "real_time": (100 + 10 * d + r % 3) * scale,
                    "cpu_time": 1, "time_unit": "ns", "label": p})
    ctx = {"nsbench_mode": "native", "patch_series": P[3] + P[1],
           "nsbench_label": P[0], "host_name": P[2],
           "executable": P[4], "kernel_release": P[5],
           "kernel_commit": P[6]}
    json.dump({"context": ctx, "benchmarks": benches},
              open("%s/%s.json" % (t, side), "w"))
# each payload beside a plain row, in a plain context: a broken row must
# not take the plot down before the hostile label reaches a template
for side, scale in (("base2", 1.0), ("patched2", 1.02)):
    benches = [{"name": n, "run_type": "iteration", "iterations": 100,
                "real_time": (100 + r % 3) * scale, "cpu_time": 1,
                "time_unit": "ns"}
               for r in range(8) for p in P
               for n in ("fam/all/" + p + "/v", "fam/all/plain/v")]
    json.dump({"context": {"nsbench_mode": "native",
                           "patch_series": side},
               "benchmarks": benches},
              open("%s/%s.json" % (t, side), "w"))
# a history of one hostile benchmark with hostile commits
with open(t + "/history.jsonl", "w") as f:
    for run in range(12):
        f.write(json.dumps({
            "type": "result", "run": "run%02d" % run,
            "benchmark": "hist/" + P[3] + P[0],
            "status": "ok", "n": 5, "median": 100.0 + (run >= 6) * 5,
            "ci_lo": 99.0 + (run >= 6) * 5, "ci_hi": 101.0 + (run >= 6) * 5,
            "ci_level": 0.9375, "unit": "wall-clock ns",
            "metric": "real_time", "mode": "native",
            "timestamp": "2026-11-%02dT06:00:00Z" % (run + 1),
            "kernel_release": P[0], "kernel_commit": P[run % len(P)],
            "series": P[2], "config_hash": "sha256:ab",
            "nsbench_version": P[4]}) + "\n")
# the check costs of `nsbench costs --json`
rows = [{"seed": p, "label": p, "switch": p, "name": p,
         "shift": {"est": 25 + i, "lo": 20 + i, "hi": 30 + i},
         "pct": 0.1 * i, "pct_lo": 0.05 * i, "pct_hi": 0.2 * i}
        for i, p in enumerate(P)]
json.dump({"icount": True, "rows": rows}, open(t + "/costs.json", "w"))
# a trend file: the commit column is a payload (one word, no blanks)
with open(t + "/trend.dat", "w") as f:
    for run in range(5):
        f.write("2026-11-%02dT06:00:00Z %d %d %d `touch${IFS}%sp9`\n"
                % (run + 1, 100 + run, 99 + run, 101 + run, m))
EOF
ok $? "hostile results, history, costs and trend files written"

# Paths that are payloads too: the templates, the output, $TMPDIR.
tpl="$tmp/tp'l\"; system(\"touch $m/d1\")"
out="$tmp/o'u\"t; system(\"touch $m/d2\")"
td="$tmp/t'd; system('touch $m/d3'); \`touch $m/d4\`"
mkdir -p "$tpl" "$td" "$out"
cp "$top"/plots/*.gp "$tpl"
title=$(python3 -c 'import sys; exec(open(sys.argv[2]).read())
print(P[3] + P[2])' "$m" "$tmp/payloads.py" 2>/dev/null)
[ -n "$title" ]
ok $? "a payload for --title and --unit"

TMPDIR=$td "$NSB" plot --out-dir="$out" --templates="$tpl" \
	"$tmp/base.json" -- "$tmp/patched.json" >"$tmp/list" 2>"$tmp/err"
ok $? "plot of hostile names exits 0"
for kind in ab depth dist; do
	cnt=$(grep -c "/nsbench-$kind-.*\.png$" "$tmp/list")
	[ "$cnt" -ge 4 ]
	ok $? "$kind: drawn ($cnt PNG files)"
done
# every file went where it belongs: nothing climbed out of the directory
python3 - "$out" "$tmp/list" <<'EOF'
import os, re, sys
out, names = sys.argv[1], open(sys.argv[2]).read().splitlines()
clean = all(os.path.dirname(n) == out and
            re.fullmatch(r"nsbench-[A-Za-z0-9._-]+\.(svg|png)",
                         os.path.basename(n)) for n in names)
sys.exit(0 if clean and len(os.listdir(out)) == len(names) else 1)
EOF
ok $? "every plot is in --out-dir under a clean name"

"$NSB" plot --out-dir="$out/2" --templates="$top/plots" --format=png \
	"$tmp/base2.json" -- "$tmp/patched2.json" >"$tmp/list" 2>"$tmp/err"
ok $? "plot of hostile names beside plain ones exits 0"
grep -q 'nsbench-dist-.*\.png$' "$tmp/list"
ok $? "... and draws the distributions"

TMPDIR=$td "$NSB" plot trend "$tmp/trend.dat" --out-dir="$out" \
	--templates="$tpl" --title="$title" --unit="$title" \
	--keep-data >/dev/null 2>"$tmp/err"
ok $? "trend of a hostile file, title and unit exits 0"
head -c 8 "$out/nsbench-trend.png" 2>/dev/null | grep -q PNG
ok $? "trend: drawn"
# --keep-data leaves gnuplot.sh: rerun, it draws the same and runs nothing
kept=$(sed -n 's/^nsbench plot: data kept in \(.*\) (gnuplot.sh.*/\1/p' \
	"$tmp/err")
rm -f "$out/nsbench-trend.png"
[ -n "$kept" ] && (cd / && sh "$kept/gnuplot.sh") >/dev/null 2>&1 &&
	head -c 8 "$out/nsbench-trend.png" 2>/dev/null | grep -q PNG
ok $? "--keep-data: gnuplot.sh reruns gnuplot on the kept files"

TMPDIR=$td "$NSB" history plot --history="$tmp/history.jsonl" \
	--out-dir="$out/h" --templates="$tpl" >"$tmp/hlist" 2>"$tmp/err"
ok $? "history plot of hostile names and commits exits 0"
grep -q '\.png$' "$tmp/hlist"
ok $? "history trend: drawn"

TMPDIR=$td "$NSB" plot costs "$tmp/costs.json" --out-dir="$out" \
	--templates="$tpl" >/dev/null 2>"$tmp/err"
ok $? "plot costs of hostile labels exits 0"
head -c 8 "$out/nsbench-costs.png" 2>/dev/null | grep -q PNG
ok $? "costs: drawn"

ls "$m" >"$tmp/ran"
[ ! -s "$tmp/ran" ]
ok $? "no payload ran (markers: $(tr '\n' ' ' <"$tmp/ran"))"

# Text that does reach a plot is still well-formed: the SVGs parse.
find "$out" -name '*.svg' -print0 | xargs -0 python3 -c '
import sys, xml.dom.minidom
for f in sys.argv[1:]:
    xml.dom.minidom.parse(f)
' 2>"$tmp/err"
ok $? "every SVG is well-formed XML"
grep -q 'system(' "$out"/nsbench-ab-*.svg
ok $? "the payload is drawn as a label, as text"

tap_done
