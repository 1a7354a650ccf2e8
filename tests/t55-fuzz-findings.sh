#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t55-fuzz-findings.sh — what a review found in nsbench's readers, each
# replayed through the binary: the gate's crash on aggregate-only results
# and its PASS without a baseline; FIFOs, /dev/zero and oversized files
# as input; impossible numbers; a symlink planted where nsbench writes.
# tests/test_fuzz.c runs the generated corpus; this is the named cases.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
FIX=$(dirname "$0")/fixtures
cd "$tmp" || exit 1

# run WANT_RC DESCRIPTION ARGS...: 10 s at most, stderr in err
run() {
	want=$1 desc=$2
	shift 2
	timeout -k 2 10 "$NSB" "$@" >out 2>err
	rc=$?
	[ "$rc" = "$want" ]
	ok $? "$desc (exit $rc, want $want)"
	[ "$rc" = "$want" ] || sed 's/^/# /' err | head -5
}

# says WHAT DESCRIPTION: stderr holds WHAT (fixed string)
says() {
	grep -qF -- "$1" err
	ok $? "$2"
	grep -qF -- "$1" err || sed 's/^/# /' err | head -5
}

abs() {
	case $1 in
	/*) echo "$1" ;;
	*) echo "$OLDPWD/$1" ;;
	esac
}
FIX=$(abs "$FIX")
NSB=$(abs "$NSB")

# --- 1, 2: the gate ------------------------------------------------------
printf '{"benchmarks":[{"name":"x","run_type":"aggregate","real_time":1,"time_unit":"ns"}]}\n' >agg.json
run 0 "append a run" history append --history=h.jsonl "$FIX/stats/base.json"
run 0 "accept it" history accept --history=h.jsonl base
run 2 "gate on aggregate-only results: an error, not a crash" \
	gate --history=h.jsonl agg.json
says "agg.json: no samples" "the error names the file and why"
echo '{"type":"accept","run":"ghost"}' >>h.jsonl
run 2 "gate with an accepted run the history lacks: an error" \
	gate --history=h.jsonl "$FIX/history/icount-base.json"
says "'ghost' is not in the history" "it names the missing run"
[ "$(wc -l <err)" = 1 ] && ! grep -q PASS out
ok $? "one line, no PASS"

# --- 3: not files, too big ----------------------------------------------
mkfifo fifo.json fifo.jsonl
run 2 "import-hyperfine on a FIFO: refused at once" \
	import-hyperfine fifo.json o.json
says "fifo.json: not a regular file" "named: not a regular file"
run 2 "--history=FIFO: refused at once" history show --history=fifo.jsonl
says "fifo.jsonl: not a regular file" "named: not a regular file"
run 2 "--history=/dev/zero: refused" history show --history=/dev/zero
says "/dev/zero: not a regular file" "named: not a regular file"
run 2 "summary of a directory: refused" summary .
truncate -s 300M big.json
run 2 "a 300 MiB results file: refused" summary big.json
says "big.json: 314572800 bytes, over the limit of 256 MiB" \
	"the size and the limit named"
run 2 "compare on a FIFO: refused at once" \
	compare fifo.json -- "$FIX/stats/base.json"
mkfifo perf.data
run 2 "report --perf-base=FIFO: refused (perf would wait)" \
	report --perf-base=perf.data --perf-patched=perf.data \
	"$FIX/stats/base.json" -- "$FIX/stats/patched.json"
says "perf.data: not a regular file" "named: not a regular file"

# --- 4: impossible numbers ------------------------------------------------
entry() {
	printf '{"benchmarks":[{"name":"b","run_type":"iteration","real_time":%s,"time_unit":"%s"}]}\n' "$1" "$2"
}
for v in 0 -1 -0.0; do
	entry "$v" ns >t.json
	run 2 "real_time $v: refused" summary t.json
	says "t.json: benchmarks[0].real_time (b): must be a positive finite number" \
		"real_time $v: file and field named"
done
entry 1e10 s >t.json
run 2 "1e10 s: over the limit of 1e18 ns, refused" compare t.json -- t.json
says "t.json: benchmarks[0].real_time (b): 1e+10 is 1e+19 ns" \
	"1e10 s: file, field and value named"
entry 5 ns | sed 's/"b"/""/' >t.json
cp h.jsonl h.before
run 2 "an empty name: refused, not written for the reader to skip" \
	history append --history=h.jsonl t.json
cmp -s h.jsonl h.before
ok $? "the history is unchanged"
printf '{"results":[{"command":"c","times":[0.1,0,0.1],"exit_codes":[0,0,0]}]}\n' >hf.json
run 2 "import-hyperfine: a zero time refused" import-hyperfine hf.json o.json
says "hf.json: results[0].times[1] (c): must be a positive finite number" \
	"file and field named"
printf '{"results":[{"command":"c","times":[0.1,0.1],"exit_codes":[0]}]}\n' >hf.json
run 2 "import-hyperfine: exit codes that do not match the runs" \
	import-hyperfine hf.json o.json
says "results[0].exit_codes (c): 1 exit codes for 2 runs" "named"
printf '{"results":[{"command":"c","times":[0.1,0.1],"exit_codes":[0,1]}]}\n' >hf.json
run 0 "import-hyperfine: a failed run is an error entry" \
	import-hyperfine hf.json o.json
says "the workload failed" "and it says so"

# --- 5: where nsbench writes ----------------------------------------------
echo precious >victim
# the old temporary name was OUT.tmp.<pid>: plant it for the next pid
sh -c 'ln -s victim o.json.tmp.$$; exec "$0" "$@"' "$NSB" \
	import-hyperfine "$FIX/stats/hyperfine-base.json" o.json >/dev/null 2>&1
[ "$(cat victim)" = precious ] && [ -f o.json ] && [ ! -L o.json ]
ok $? "a planted OUT.tmp.<pid> symlink is not written through"
ln -s victim o2.json
run 0 "import-hyperfine onto a symlink" \
	import-hyperfine "$FIX/stats/hyperfine-base.json" o2.json
[ "$(cat victim)" = precious ] && [ ! -L o2.json ]
ok $? "the symlink is replaced, its target untouched"
[ "$(find . -name '.o*.json.*' | wc -l)" = 0 ]
ok $? "no temporary file left behind"
[ "$(umask)" != 0022 ] || [ "$(stat -c %a o2.json)" = 644 ]
ok $? "the file is 0644 under umask 022, as before"
if [ "$(id -u)" = 0 ]; then
	ln -s victim theirs.jsonl
	chown -h 65534:65534 theirs.jsonl
	run 2 "history append through another user's symlink: refused" \
		history append --history=theirs.jsonl "$FIX/stats/base.json"
	[ "$(cat victim)" = precious ]
	ok $? "the file it points to is untouched"
else
	ok 0 "# SKIP not root: cannot plant another user's symlink"
fi

tap_done
