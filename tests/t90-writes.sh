#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t90-writes.sh — where nsbench writes, under attack and under faults:
# symlinks planted at every plot output (gnuplot opened them itself and,
# as root, overwrote the link's target), a full disk (gnuplot exits 0
# and leaves empty files), standard output on /dev/full, a plot killed
# by SIGTERM (its /tmp/nsbench-* directory stayed), 20 concurrent
# appends of one run to a history (duplicated it), and the cap on the
# charts of plot costs and plot profile, and on the gate's samples.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
FIX=$top/tests/fixtures
export TMPDIR=$tmp/tmpdir
mkdir -p "$TMPDIR"
cd "$tmp" || exit 1

need gnuplot gnuplot-nox
need jq jq

# --- inputs of every plot form ---------------------------------------------
printf '2024-01-01T00:00:00Z 100 99 101 a\n2024-01-02T00:00:00Z 101 100 102 b\n' \
	>trend.txt
"$NSB" history append --history=h.jsonl "$FIX/stats/base.json" >/dev/null &&
	cp "$FIX/stats/patched.json" patched.json &&
	"$NSB" history append --history=h.jsonl patched.json >/dev/null
ok $? "a history of two runs"
"$NSB" profile --json=prof.json "$FIX/profile/ab/A/profile" -- \
	"$FIX/profile/ab/B/profile" >/dev/null
ok $? "a profile comparison"
# costs: one row, as costs --json writes it
cat >costs.json <<'EOF'
{"icount": true, "rows": [{"seed": "005", "label": "exec", "shift":
 {"est": 25.0, "lo": 24.0, "hi": 26.0}, "pct": 0.1, "pct_lo": 0.09,
 "pct_hi": 0.11, "decides": false, "unreliable": false}]}
EOF

# plots DIR: every plot form into DIR
plots() {
	"$NSB" plot --out-dir="$1" "$FIX/stats/base.json" -- \
		"$FIX/stats/patched.json" >/dev/null &&
	"$NSB" plot trend --out-dir="$1" trend.txt >/dev/null &&
	"$NSB" plot costs --out-dir="$1" costs.json >/dev/null &&
	"$NSB" plot profile --out-dir="$1" prof.json >/dev/null &&
	"$NSB" history plot --history=h.jsonl --out-dir="$1" >/dev/null
}
plots ref 2>err
ok $? "every plot form renders ($(ls ref | wc -l) files)"
forms=$(ls ref | sed 's/^nsbench-//; s/[-.].*//' | sort -u | tr '\n' ' ')

# --- symlinks planted at every output -------------------------------------
mkdir -p att
echo secret >target
for f in ref/*; do
	ln -s ../target "att/$(basename "$f")"
done
plots att 2>err
ok $? "every plot form renders over planted symlinks"
[ "$(cat target)" = secret ]
ok $? "the links' target is untouched"
bad=0
for f in att/*; do
	[ -f "$f" ] && [ ! -L "$f" ] && [ -s "$f" ] || bad=$((bad + 1))
done
[ "$bad" = 0 ] && [ "$(ls att | wc -l)" = "$(ls ref | wc -l)" ]
ok $? "each output is a regular file of its own ($bad are not; $forms)"
[ -z "$(ls -A att | grep '^\.')" ]
ok $? "no private file left beside them"

# --- a full disk: gnuplot exits 0, leaves an empty file -------------------
cat >empty-gnuplot <<'EOF'
#!/bin/sh
: >"$6"
EOF
chmod +x empty-gnuplot
NSB_GNUPLOT=$tmp/empty-gnuplot "$NSB" plot trend --out-dir=full trend.txt \
	>out 2>err
rc=$?
[ $rc = 2 ] && grep -q "cannot write full/nsbench-trend.svg" err
ok $? "an empty output is an error naming it (exit $rc: $(head -n 1 err))"
[ -z "$(ls -A full 2>/dev/null)" ]
ok $? "no 0-byte file left"
# a real full file system, if this machine lets us mount one
if mkdir -p tiny && mount -t tmpfs -o size=12k tmpfs tiny 2>/dev/null; then
	dd if=/dev/zero of=tiny/fill bs=4k count=3 2>/dev/null
	"$NSB" plot trend --out-dir=tiny trend.txt >out 2>err
	rc=$?
	[ $rc = 2 ] && grep -q 'No space left on device' err &&
		[ -z "$(find tiny -name '*.svg' -o -name '*.png' -o -name '.nsb*')" ]
	ok $? "a full tmpfs: exit 2, ENOSPC named, nothing left (exit $rc)"
	"$NSB_BUILD/bench/nsbench-bench" --out=tiny/r.json \
		--benchmark_filter='^models/in_userns/2015/hot/hit/depth:0$' \
		--benchmark_min_time=0.01 >out 2>err
	rc=$?
	[ $rc != 0 ] && grep -q 'No space left on device' err &&
		! grep -q 'invalid JSON' err
	ok $? "nsbench-bench on a full disk names ENOSPC, not invalid JSON (exit $rc)"
	umount tiny
else
	skip 2 "cannot mount a tmpfs here"
fi

# --- standard output on /dev/full -----------------------------------------
"$NSB" history accept --history=h.jsonl base >/dev/null
for cmd in "summary $FIX/stats/base.json" \
	"report $FIX/stats/base.json -- $FIX/stats/patched.json" \
	"gate --history=h.jsonl --format=ktap patched.json" \
	"history show --history=h.jsonl" \
	"compare $FIX/stats/base.json -- $FIX/stats/patched.json"; do
	# shellcheck disable=SC2086
	"$NSB" $cmd >/dev/full 2>err
	rc=$?
	[ $rc = 2 ] && grep -q 'standard output: No space left on device' err
	ok $? "${cmd%% *} > /dev/full: exit 2, named (exit $rc)"
done

# --- SIGTERM during a plot ------------------------------------------------
cat >slow-gnuplot <<EOF
#!/bin/sh
echo \$\$ >$tmp/gp.pid
exec sleep 30
EOF
chmod +x slow-gnuplot
rm -rf "${TMPDIR:?}"/* killed
NSB_GNUPLOT=$tmp/slow-gnuplot "$NSB" plot trend --out-dir=killed trend.txt \
	>/dev/null 2>&1 &
pid=$!
i=0
while [ ! -s gp.pid ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -n "$(ls "$TMPDIR")" ] && [ -n "$(ls -A killed)" ]
ok $? "while gnuplot runs: a private directory and the output's file"
kill -TERM $pid
wait $pid
rc=$?
sleep 0.2
# gone, or a zombie nobody reaps here (its parent died)
[ $rc = 143 ] && [ -z "$(ls "$TMPDIR")" ] && [ -z "$(ls -A killed)" ] &&
	! ps -o stat= -p "$(cat gp.pid)" | grep -qv Z
ok $? "SIGTERM: exit 143, nothing left in TMPDIR or beside the output, gnuplot gone (exit $rc; $(ls "$TMPDIR" killed -A | tr '\n' ' '))"

# --- 20 appends of one run at once ---------------------------------------
for try in 1 2 3; do
	rm -f c.jsonl
	for i in $(seq 20); do
		"$NSB" history append --history=c.jsonl "$FIX/stats/base.json" \
			>/dev/null 2>&1 &
	done
	wait
	printf '%s ' "$(grep -c '"type":"result"' c.jsonl)"
done >counts
"$NSB" history append --history=one.jsonl "$FIX/stats/base.json" >/dev/null
want=$(grep -c '"type":"result"' one.jsonl)
[ "$(cat counts)" = "$want $want $want " ]
ok $? "20 concurrent appends of one run: its $want records once (got $(cat counts))"

# --- caps on the number of charts ------------------------------------------
cat >fast-gnuplot <<'EOF'
#!/bin/sh
case "$6" in
*.png) printf '\211PNG\r\n\032\nIEND\256B`\202' >"$6" ;;
*) printf '<svg></svg>\n' >"$6" ;;
esac
EOF
chmod +x fast-gnuplot
# many_charts WHAT FILE DIR NOTE: nsbench plot --WHAT=FILE into DIR with the
# stand-in gnuplot exits 0, writes 128 files (64 charts) and says NOTE
many_charts() {
	NSB_GNUPLOT=$tmp/fast-gnuplot "$NSB" plot "$1" --out-dir="$3" "$2" \
		>/dev/null 2>err
	rc=$?
	[ $rc = 0 ] && [ "$(ls "$3" | wc -l)" = 128 ] && grep -q "$4" err
}
jq '.rows as $r | .rows = [range(3000) as $i | $r[0] | .label = "exec/\($i)"]' \
	costs.json >many-costs.json
many_charts costs many-costs.json many \
	'3000 rows; the first 2048 in 64 charts, 952 rows left out'
ok $? "plot costs of 3000 rows: 64 charts, the rest said (exit $rc, $(ls many | wc -l) files)"
jq '.benchmarks as $b | .benchmarks = [range(100) as $i | $b[0] |
	.benchmark = "b/\($i)"]' prof.json >many-prof.json
many_charts profile many-prof.json manyp \
	'100 benchmarks; the first 64 plotted, 36 left out'
ok $? "plot profile of 100 benchmarks: 64 charts, the rest said (exit $rc, $(ls manyp | wc -l) files, $(head -c 200 err))"
# --- the gate's cap on samples --------------------------------------------
python3 -c '
import json
b = [{"name": "x/y", "run_type": "iteration", "real_time": 100 + i % 7,
      "time_unit": "ns"} for i in range(100001)]
json.dump({"context": {"nsbench_mode": "native"}, "benchmarks": b},
	  open("huge.json", "w"))'
"$NSB" gate --history=h.jsonl --baseline="$FIX/stats/base.json" huge.json \
	>out 2>err
rc=$?
[ $rc = 2 ] && grep -q "huge.json: x/y: 100001 samples, over the gate's limit of 100000" err
ok $? "gate on 100001 samples of a benchmark: refused, named (exit $rc)"
tap_done
