#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t61-compare-plot.sh — nsbench plot renders every template from the
# fixtures (SVG and PNG), a chart per benchmark family, and a trend;
# skipped without gnuplot.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
FIX=$(dirname "$0")/fixtures/stats

if ! command -v gnuplot >/dev/null; then
	echo "1..0 # SKIP gnuplot not installed"
	exit 0
fi

"$NSB" plot --out-dir="$tmp" --templates="$(dirname "$0")/../plots" \
	"$FIX/base.json" -- "$FIX/patched.json" >"$tmp/out" 2>"$tmp/err"
ok $? "plot exits 0"
# a chart per family: fix/exec, fix/open, fix/in_userns (depth: only it)
for f in ab-fix_exec ab-fix_open ab-fix_in_userns depth-fix_in_userns \
	dist-fix_exec dist-fix_open dist-fix_in_userns; do
	grep -q '<svg' "$tmp/nsbench-$f.svg" 2>/dev/null
	ok $? "$f: SVG written"
	head -c 8 "$tmp/nsbench-$f.png" 2>/dev/null | grep -q PNG
	ok $? "$f: PNG written"
done
[ "$(grep -c . "$tmp/out")" = 14 ]
ok $? "plot prints the 14 files it wrote"
grep -q 'in_userns (patched)' "$tmp/nsbench-depth-fix_in_userns.svg"
ok $? "depth plot has a line per variant and side"
grep -q 'fix/exec' "$tmp/nsbench-ab-fix_exec.svg" &&
	grep -q '>slow<' "$tmp/nsbench-ab-fix_exec.svg"
ok $? "A/B plot names the family and its benchmarks"

printf '%s\n' '2026-11-20T08:00:00Z 150100 150050 150160' \
	'2026-11-21T08:00:00Z 150201 150150 150260' >"$tmp/trend.dat"
# the old spelling on purpose: the named mode below draws the same chart
"$NSB" plot --trend="$tmp/trend.dat" --out-dir="$tmp" --format=svg \
	--templates="$(dirname "$0")/../plots" --unit=insn \
	--title="exec trend" >/dev/null 2>"$tmp/err"
ok $? "trend plot exits 0"
grep -q 'exec trend' "$tmp/nsbench-trend.svg"
ok $? "trend SVG has its title"
"$NSB" plot trend "$tmp/none.dat" --out-dir="$tmp" 2>"$tmp/err"
[ $? = 2 ] && grep -q none.dat "$tmp/err"
ok $? "missing trend file: exit 2, file named"

# the named modes: plot trend FILE, plot ab; the old spellings above
mkdir -p "$tmp/named"
"$NSB" plot trend "$tmp/trend.dat" --out-dir="$tmp/named" --format=svg \
	--templates="$(dirname "$0")/../plots" --unit=insn \
	--title="exec trend" >/dev/null 2>"$tmp/err" &&
	cmp -s "$tmp/nsbench-trend.svg" "$tmp/named/nsbench-trend.svg"
ok $? "plot trend FILE: the chart of plot --trend=FILE"
"$NSB" plot ab --out-dir="$tmp/named" --format=svg \
	--templates="$(dirname "$0")/../plots" \
	"$FIX/base.json" -- "$FIX/patched.json" >/dev/null 2>"$tmp/err" &&
	cmp -s "$tmp/nsbench-ab-fix_exec.svg" "$tmp/named/nsbench-ab-fix_exec.svg"
ok $? "plot ab BASE -- PATCHED: the chart of plot BASE -- PATCHED"
"$NSB" plot trend --help | grep -q -- '--title=TEXT' &&
	! "$NSB" plot costs --help | grep -q -- '--title' &&
	! "$NSB" plot --help | grep -q -- '--title'
ok $? "each mode its own options: --title is plot trend's"
"$NSB" plot trend --title=x >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q 'no FILE' "$tmp/err"
ok $? "plot trend without FILE: exit 2"

tap_done
