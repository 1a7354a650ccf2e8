#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t51-bounds.sh — output and time bounded whatever the input's size:
# history publish makes at most 2000 pages (more benchmarks are refused
# in one line, nothing written); plot costs draws at most 64 charts of 32
# rows and plot profile 64 charts (the rest said in one line).  Each runs
# on a generated input and on one ten times larger: the large run must
# take at most 30 times the small one (linear is 10; a quadratic walk
# 100), or 10 s, whichever is more, so a loaded host does not fail it.
# A stand-in gnuplot: the time under test is nsbench's.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
need python3 python3
gen=$top/tests/fixtures/bounds/make_large.py
cd "$tmp" || exit 1

cat >gnuplot <<'EOF'
#!/bin/sh
case "$6" in
*.png) printf '\211PNG\r\n\032\nIEND\256B`\202' >"$6" ;;
*) printf '<svg></svg>\n' >"$6" ;;
esac
EOF
chmod +x gnuplot
export NSB_GNUPLOT=$tmp/gnuplot

# timed NAME ARGS...: nsbench ARGS; its exit in rc, wall ms in NAME.ms
timed() {
	name=$1
	shift
	t0=$(date +%s%N)
	"$NSB" "$@" >"$name.out" 2>"$name.err"
	rc=$?
	echo $((($(date +%s%N) - t0) / 1000000)) >"$name.ms"
}

# bounded SMALL LARGE WHAT: LARGE.ms within the bound of SMALL.ms
bounded() {
	s=$(cat "$1.ms") l=$(cat "$2.ms")
	bound=$((30 * s))
	[ $bound -ge 10000 ] || bound=10000
	[ "$l" -le $bound ]
	ok $? "$3: ${l} ms for 10x the input of ${s} ms (bound ${bound} ms)"
}

# --- history publish -----------------------------------------------------------
python3 "$gen" history 1000 h-small.jsonl &&
	python3 "$gen" history 10000 h-large.jsonl || exit 1
timed pub-small history publish --history=h-small.jsonl --out-dir=site-small
[ $rc = 0 ] && [ "$(ls site-small/b | wc -l)" = 1000 ]
ok $? "publish of 1000 benchmarks: 1000 pages (exit $rc)"
timed pub-large history publish --history=h-large.jsonl --out-dir=site-large
[ $rc = 2 ] && [ ! -e site-large ] && [ "$(wc -l <pub-large.err)" = 1 ] &&
	grep -q "h-large.jsonl: 10000 benchmarks, over the site's limit of 2000 pages; nothing published (choose some with --benchmark=RE)" pub-large.err
ok $? "publish of 10000 benchmarks: refused in one line, nothing written (exit $rc): $(cat pub-large.err)"
bounded pub-small pub-large "publish"
"$NSB" history publish --history=h-large.jsonl --out-dir=site-re \
	--benchmark='^big/[0-9]{1,3}/' >/dev/null 2>&1 &&
	[ "$(ls site-re/b | wc -l)" = 1000 ]
ok $? "... --benchmark=RE narrows it to a site of 1000 pages"

# plot_pair MODE SMALL_FILES WHAT SAID: plot MODE of MODE-small.json
# (SMALL_FILES files) and of MODE-large.json, ten times larger: that one
# 64 charts (128 files), its cut said in one line (SAID), its time
# bounded by the small one's
plot_pair() {
	timed "$1-small" plot "$1" --out-dir="$1-s" "$1-small.json"
	[ $rc = 0 ] && [ "$(ls "$1-s" | wc -l)" = "$2" ]
	ok $? "plot $1 of the small input: $2 files (exit $rc)"
	timed "$1-large" plot "$1" --out-dir="$1-l" "$1-large.json"
	[ $rc = 0 ] && [ "$(ls "$1-l" | wc -l)" = 128 ] &&
		[ "$(wc -l <"$1-large.err")" = 1 ] &&
		grep -qF "$4" "$1-large.err"
	ok $? "plot $1 of $3: 64 charts, the rest said in one line (exit $rc)"
	bounded "$1-small" "$1-large" "plot $1"
}

python3 "$gen" costs 2000 costs-small.json &&
	python3 "$gen" costs 20000 costs-large.json || exit 1
plot_pair costs 126 "20000 rows" \
	'costs-large.json: 20000 rows; the first 2048 in 64 charts, 17952 rows left out'

"$NSB" profile --json=profile-small.json \
	"$top/tests/fixtures/profile/ab/A/profile" -- \
	"$top/tests/fixtures/profile/ab/B/profile" >/dev/null &&
	cp profile-small.json profile-large.json &&
	python3 "$gen" profile 200 profile-small.json &&
	python3 "$gen" profile 2000 profile-large.json || exit 1
plot_pair profile 128 "2000 benchmarks" \
	'profile-large.json: 2000 benchmarks; the first 64 plotted, 1936 left out'

# --- the limits are documented ---------------------------------------------------
"$NSB" history --help | grep -q 'at most 2000 benchmarks (pages)' &&
	"$NSB" plot costs --help | grep -q 'most 64 charts (2048' &&
	"$NSB" plot profile --help | grep -q 'at most 64 benchmarks'
ok $? "--help states each limit"

tap_done
