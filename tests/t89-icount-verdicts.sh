#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t89-icount-verdicts.sh — under icount every table judges a row as the
# in-boot check-cost table does: against +-1 instruction or the row's A/A
# residual, never against a percentage of the operation; --threshold is
# a filter beside the verdict.  On a synthetic 6.12-style pair
# (tests/fixtures/icount/make_pair.py, 6 paired rounds): +1,500 on
# 85,000 instructions is slower, a CI of about +-200 around 0 is noisy,
# an A/A within 0.5 is same; compare, report, gate and history agree,
# and native results keep the percent band.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
need python3 "python3"
MK=$(dirname "$0")/fixtures/icount/make_pair.py
P=$tmp/pair
python3 "$MK" "$P" aa || skip_all "make_pair.py failed"
python3 "$MK" "$tmp/native" native || skip_all "make_pair.py failed"
EXEC=exec/vfork/bin/init/depth:0
NOSUID=exec/vfork/nosuid/init/depth:0
OPEN=open/reg/init/depth:0

has() {
	grep -q -- "$2" "$tmp/$1"
	ok $? "$3"
}

# verdict NAME: the compare text's verdict of row NAME (last word).
verdict() {
	grep -A1 "^$1/" "$tmp/out" | tail -n 1 | awk '{ print $NF }'
}

fits() {
	awk 'length($0) > 72 { bad = 1 } END { exit bad }' "$tmp/out"
	ok $? "$1 fits 72 columns"
}

# --- compare ------------------------------------------------------------
run 1 "compare: the +1,500 insn row fails the exit status" \
	compare "$P"/A/*.json -- "$P"/B/*.json
is "$(verdict "$EXEC")" slower "+1,500 on 85,000 insn (+1.8 %) is slower"
is "$(verdict "$NOSUID")" noisy "a CI of [-152.5, +282.5] around 0 is noisy"
is "$(verdict "$OPEN")" same "differences within +-0.5 insn are same"
has out 'shift +1499.5 insn \[+1482.2, +1582.1\] against +-1.0 insn' \
	"the shift in instructions and the band it was judged against"
has out '^1 slower, 0 faster, 1 same, 1 noisy, 0 skipped, 0 failed\.' \
	"the summary counts the new verdicts"
has out '^Rule (icount): verdicts against +-1 insn' "the rule is named"
fits "compare"

run 0 "compare --threshold=2: the row under it passes" \
	compare --threshold=2 "$P"/A/*.json -- "$P"/B/*.json
is "$(verdict "$EXEC")" slower "... and is still slower"
tr '\n' ' ' <"$tmp/out" | tr -s ' ' |
	grep -q 'slower, +1.8%, under your 2% threshold'
ok $? "... 'slower, +1.8%, under your 2% threshold' beside the verdict"
has out '^1 slower (1 under your 2% threshold)' "... counted apart"

run 0 "compare --format=json --threshold=2" compare --format=json \
	--threshold=2 "$P"/A/*.json -- "$P"/B/*.json
jq -e --arg e "sys/$EXEC/manual_time" --arg n "sys/$NOSUID/manual_time" '
	.rule == "icount-band" and .threshold_given and
	(.rows[] | select(.name == $e) | .verdict == "slower" and
	 .under_threshold and .band == 1) and
	(.rows[] | select(.name == $n) | .verdict == "noisy") and
	.summary.slower == 1 and .summary.slower_under_threshold == 1' \
	"$tmp/out" >/dev/null
ok $? "JSON: rule, band, under_threshold, counts"

run 0 "compare: an A/A pair within +-0.5 insn" \
	compare "$P"/A/*.json -- "$P"/D/*.json
has out '^0 slower, 0 faster, 3 same, 0 noisy' "A/A within 0.5: all same"

A=$(for f in "$P"/C/*.json; do printf -- '--aa=%s ' "$f"; done)
# shellcheck disable=SC2086
run 1 "compare --aa: a row inside its A/A residual" \
	compare $A "$P"/A/*.json -- "$P"/B/*.json
is "$(verdict "$OPEN")" noisy \
	"against a +5 insn A/A residual, +-0.5 insn is noisy, not same"
has out 'against +-5.0 insn (A/A residual) \*' "... marked * with its band"
has out 'A/A residual +5.0 insn \[+5.0, +5.0\]' "... residual in insn"

# --- report (the two-kernel table) --------------------------------------
run 0 "report" report "$P"/A/*.json -- "$P"/B/*.json
has out '^  bin/init/d0 .* +1.76 slower$' "report: the exec row is slower"
has out '^  nosuid/init/d0 .* noisy$' "report: the nosuid row is noisy"
has out '^  reg/init/d0 .* same$' "report: the open row is same"
tr '\n' ' ' <"$tmp/out" | tr -s ' ' |
	grep -q 'verdict against +-1 insn or, marked \*'
ok $? "report: the heading states the instruction band"
has out '^Rule (icount)' "report: one closing line names the rule"
fits "report"
run 1 "report --gate: exit 1 on the slower row" \
	report --gate "$P"/A/*.json -- "$P"/B/*.json
run 0 "report --gate --threshold=2: exit 0, the row under it" \
	report --gate --threshold=2 "$P"/A/*.json -- "$P"/B/*.json
has out '^      slower, +1.8%, under your 2% threshold$' \
	"report: 'slower, +1.8%, under your 2% threshold' under the row"
has out 'icount$' "report title: the threshold goes on its own line..."
has out 'mode, your threshold 2.0%' "... as the user's"
run 0 "report --markdown --threshold=2" report --markdown --threshold=2 \
	"$P"/A/*.json -- "$P"/B/*.json
has out '| slower (+1.8%, under your 2% threshold) |' \
	"Markdown: the threshold beside the verdict"
# shellcheck disable=SC2086
run 0 "report --aa" report $A "$P"/A/*.json -- "$P"/B/*.json
has out '^  reg/init/d0 .* noisy\*$' "report --aa: the open row is noisy*"

# --- gate ---------------------------------------------------------------
H="--history=$tmp/h.jsonl"
B=$(for f in "$P"/A/*.json; do printf -- '--baseline=%s ' "$f"; done)
# shellcheck disable=SC2086
run 1 "gate: the icount regression fails" gate "$H" $B "$P"/B/*.json
has out '^rule: icount rows against +-1 insn, every regression fails' \
	"gate: the rule line says what decided"
has out 'regression +1.76 % (+1499.5 insn, 95% CI +1482.2..+1582.1 insn' \
	"gate: the regression in % and instructions"
has out 'noisy +0.01 % (+10.0 insn' "gate: the nosuid row is noisy"
has out '^FAIL: 1 regression(s), 0 error(s), 1 same' "gate: the summary"
# shellcheck disable=SC2086
run 0 "gate --threshold=2: a regression under it passes" \
	gate "$H" --threshold=2 $B "$P"/B/*.json
has out 'against +-1), under your 2 % threshold, not gated' \
	"gate: 'under your 2 % threshold, not gated'"
has out '^rule: icount rows against +-1 insn, failing only at 2 % or more' \
	"gate: the rule names the threshold as the filter"
has out '^PASS: 1 regression(s) (1 under your 2 % threshold)' \
	"gate: still counted as a regression"
# shellcheck disable=SC2086
run 0 "gate --format=ktap --threshold=2" \
	gate "$H" --threshold=2 --format=ktap $B "$P"/B/*.json
# the verdict in the description, where kunit.py parse shows it
has out '^ok 1 sys/exec/vfork/bin/init/depth:0/manual_time regression' \
	"KTAP: ok, with the regression's text"
# shellcheck disable=SC2086
run 1 "gate --threshold=1.5: above it fails" \
	gate "$H" --threshold=1.5 $B "$P"/B/*.json

# the gate from the history's medians alone (the files gone)
mkdir "$tmp/h" && cp -r "$P/A" "$P/B" "$tmp/h/"
run 0 "history append the base" history append "$H" --run-id=base \
	"$tmp"/h/A/*.json
run 0 "history accept it" history accept "$H" base
run 0 "history append the patched run" history append "$H" \
	--run-id=patched "$tmp"/h/B/*.json
rm -r "$tmp/h"
# was "history medians ... medians' CIs": the history keeps the samples
# and the gate runs compare's test on them, as on the files
run 1 "gate from the history alone: the regression fails" gate "$H"
has out '^method: nsbench compare on the samples the history keeps' \
	"... from the samples the history keeps"
has out 'regression +1.76 % (+1499.5 insn, 95% CI +1482.2..+1582.1 insn' \
	"... the very shift and CI of the files"

# --- history changes: a step the percent rule missed ---------------------
python3 - "$tmp/step.jsonl" <<'EOF'
import json, sys
with open(sys.argv[1], "w") as f:
    for i in range(16):
        m = 85000.0 + (20.0 if i >= 10 else 0.0) + (i % 3) * 0.25
        f.write(json.dumps({
            "type": "result", "run": "run%02d" % i,
            "benchmark": "fix/exec/small-step", "status": "ok", "n": 5,
            "median": m, "ci_lo": m - 0.5, "ci_hi": m + 0.5,
            "ci_level": 0.9375, "unit": "virtual ns = guest instructions",
            "metric": "real_time", "mode": "icount",
            "timestamp": "2026-11-01T%02d:00:00Z" % i,
            "kernel_commit": "c%06d" % i}) + "\n")
EOF
run 0 "history changes: +20 insn (+0.02 %) on an icount series" \
	history changes --history="$tmp/step.jsonl"
has out 'change at #10: 85000 insn -> 85020 insn' \
	"flagged against +-1 insn, not 1 % of the op"
has out '^rule: icount series flagged when the shift lies beyond +-1 insn' \
	"the rule is named"
run 0 "history changes --threshold=1: the user's filter" \
	history changes --history="$tmp/step.jsonl" --threshold=1
has out '^0 change point' "... lets the +0.02 % step through"

# --- native keeps the percent band (MDE logic) ---------------------------
run 0 "native: the same numbers in ns" \
	compare "$tmp/native"/A/*.json -- "$tmp/native"/B/*.json
is "$(verdict "$EXEC")" same "native: +1.8 % inside +-2 % is same"
has out '^Rule (native): verdicts against +-2% of the base median' \
	"native: the percent rule is named"

tap_done
