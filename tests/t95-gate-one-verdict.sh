#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t95-gate-one-verdict.sh — one pair of runs, one verdict: the
# gate gives the same verdicts, the same result lines and the same exit
# status from the results files and from the history alone (the files
# gone, as in a CI job that keeps only the history).  Synthetic native
# runs (tests/fixtures/gate/make_runs.py): run01 accepted, the later runs
# scaled, the newest gated; a real +3 % step, no change and a noisy pair
# of 5 samples a run; and 8 runs of one sample (the quick tier's), where
# nothing is detectable at 95 % and the gate and `history changes` say
# how many more samples or runs it would take.
# Before, the 1- and 3-sample pairs passed with the files ("noisy") and
# failed from the history ("regressions, medians' 75 % CIs").

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
need python3 python3
MK=$top/tests/fixtures/gate/make_runs.py

# pair NAME REPS SCALE NOISE [RUNS]: RUNS runs (default 3), run01
# accepted; the gate with the files into NAME.files.{text,ktap,rc}, then
# with the history alone into NAME.hist.*.
pair() {
	local name=$1 reps=$2 scale=$3 noise=$4 d=$tmp/$1 i s

	mkdir -p "$d"
	for i in $(seq 1 "${5:-3}"); do
		s=$scale
		[ "$i" = 1 ] && s=1.0
		python3 "$MK" "$d/run0$i.json" --bench=30 --reps="$reps" \
			--scale="$s" --noise="$noise" --seed="$i" &&
		"$NSB" history append --history="$d/h.jsonl" \
			"$d/run0$i.json" >/dev/null || return 1
	done
	"$NSB" history accept --history="$d/h.jsonl" run01 >/dev/null || return 1
	for fmt in text ktap; do
		"$NSB" gate --history="$d/h.jsonl" --format=$fmt \
			>"$tmp/$name.files.$fmt" 2>&1
		echo $? >"$tmp/$name.files.rc"
	done
	mkdir "$d/gone" && mv "$d"/run0*.json "$d/gone/"
	for fmt in text ktap; do
		"$NSB" gate --history="$d/h.jsonl" --format=$fmt \
			>"$tmp/$name.hist.$fmt" 2>&1
		echo $? >"$tmp/$name.hist.rc"
	done
}

# same NAME WANT_RC SUMMARY_RE: one verdict from both paths.
same() {
	local name=$1 rc=$2 re=$3 f=$tmp/$1.files h=$tmp/$1.hist

	[ "$(cat "$f.rc")" = "$rc" ] && [ "$(cat "$h.rc")" = "$rc" ]
	ok $? "$name: exit $rc from the files and from the history alone"
	grep -Eq "$re" "$f.text" && grep -E '^(PASS|FAIL):' "$f.text" |
		cmp -s - <(grep -E '^(PASS|FAIL):' "$h.text")
	ok $? "$name: one summary from both: $(grep -E '^(PASS|FAIL):' "$h.text")"
	grep -E '^(not )?ok ' "$f.ktap" | cmp -s - <(grep -E '^(not )?ok ' "$h.ktap")
	ok $? "$name: every KTAP result line the same from both"
	grep -q '^method: nsbench compare on the samples the history keeps' \
		"$h.text"
	ok $? "$name: the history path runs compare's test on its samples"
}

pair step 5 1.03 0.002 || exit 1
same step 1 '^FAIL: 30 regression\(s\)'
pair nochange 5 1.0 0.002
same nochange 0 '^PASS: 0 regression\(s\), 0 error\(s\), 30 same'
pair noisy 5 1.01 0.05
same noisy "$(cat "$tmp/noisy.files.rc")" ' [0-9]+ noisy'
grep -q '^detectable: the smallest change these runs resolve at 95 % is about' \
	"$tmp/noisy.hist.text"
ok $? "noisy: the smallest change the runs resolve, stated"

# one sample a run: a clear +3 % step nothing at 95 % can see
pair quick 1 1.03 0.002 8
same quick 0 '^PASS: 0 regression\(s\), .* 30 noisy'
want='^detectable: nothing at 95 % in 30 noisy row(s): 1 sample(s) a run; a 95 % CI needs 4, 3 more'
grep -q "$want" "$tmp/quick.files.text" && grep -q "$want" "$tmp/quick.hist.text"
ok $? "quick: 'a 95 % CI needs 4, 3 more' from both"
grep -q "^# detectable: nothing at 95 %" "$tmp/quick.hist.ktap"
ok $? "quick: ... and in the KTAP header"
run 0 "history changes on the 8 runs" history changes \
	--history="$tmp/quick/h.jsonl"
grep -q '^0 change point' "$tmp/out" &&
	grep -q '^too short: 8 run(s) in the longest series; a change point needs 11 .*: 3 more run(s)' "$tmp/out"
ok $? "history changes: the step unflagged, '3 more run(s)' needed"

# records of an older nsbench (no samples): the medians, by the same rule
python3 - "$tmp/step/h.jsonl" "$tmp/legacy.jsonl" <<'PY'
import json, sys
with open(sys.argv[1]) as f, open(sys.argv[2], "w") as out:
    for line in f:
        o = json.loads(line)
        o.pop("samples", None)
        o.pop("rounds", None)
        out.write(json.dumps(o) + "\n")
PY
run 0 "legacy records: 5 samples' median CIs cover 94 %, under 95 %" \
	gate --history="$tmp/legacy.jsonl"
grep -q '^method: history medians and their CIs for 30 row(s) recorded without samples' "$tmp/out" &&
	grep -q 'too few samples for a 95% CI (94% only)' "$tmp/out"
ok $? "legacy records: the method says so; noisy below 95 %"

tap_done
