#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t78-ci-level.sh — an interval is labelled at the coverage it has: the
# order-statistic CI of the median of 3 samples covers 75 %, of 6 at
# least 95 %.  history show's column, the trend plot's title and the
# gate's lines (compare's interval and the history medians') say so.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"

# gen OUT N BASE: a results file of one benchmark, N repetitions.
gen() {
	python3 - "$@" <<'PY'
import json, sys
out, n, base = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
b = [{"name": "fix/x", "run_name": "fix/x", "run_type": "iteration",
      "repetitions": n, "threads": 1, "iterations": 1000,
      "real_time": base + 0.1 * i, "cpu_time": base + 0.1 * i,
      "time_unit": "ns", "repetition_index": i} for i in range(n)]
ctx = {"nsbench_mode": "native", "host_name": "t",
       "nsbench_time_unit_meaning": "wall-clock ns",
       "kernel_release": "6.1", "patch_series": "none"}
json.dump({"context": ctx, "benchmarks": b}, open(out, "w"))
PY
}

plot=0
command -v gnuplot >/dev/null && plot=1
for k in 3 6; do
	h=--history=$tmp/h$k.jsonl
	for r in 1 2 3; do
		gen "$tmp/run$k-$r.json" "$k" $((100 + r))
		"$NSB" history append "$h" "$tmp/run$k-$r.json" >/dev/null
	done
	"$NSB" history accept "$h" latest >/dev/null
	gen "$tmp/cur$k.json" "$k" 110
	"$NSB" history show "$h" >"$tmp/show$k" 2>&1
	"$NSB" gate "$h" "$tmp/cur$k.json" >"$tmp/gate$k" 2>&1
	[ "$plot" = 0 ] || (cd "$top" && "$NSB" history plot "$h" \
		--out-dir="$tmp/p$k" --format=svg) >/dev/null 2>&1
done

grep -q ' 75% CI, % of it ' "$tmp/show3" && ! grep -q '95%' "$tmp/show3"
ok $? "history show, 3 samples a run: 75% CI"
grep -q ' 95% CI, % of it ' "$tmp/show6"
ok $? "history show, 6 samples a run: 95% CI"

# a run of each kind: the column says the range
"$NSB" history append --history="$tmp/h6.jsonl" "$tmp/cur3.json" >/dev/null
"$NSB" history show --history="$tmp/h6.jsonl" >"$tmp/mixed" 2>&1
grep -q ' CI (75-95%) ' "$tmp/mixed"
ok $? "history show, 3 and 6 samples: CI (75-95%)"

grep -q '(90% CI ' "$tmp/gate3" && ! grep -q '(95% CI' "$tmp/gate3"
ok $? "gate, 3 against 3 samples, unpaired: the Moses CI's 90%"
grep -q '(95% CI ' "$tmp/gate6"
ok $? "gate, 6 against 6 samples: 95% CI"
rm "$tmp/run3-3.json"
"$NSB" gate --history="$tmp/h3.jsonl" "$tmp/cur3.json" >"$tmp/gateh" 2>&1
# was "medians' 75% CIs": the history keeps the samples, and the gate
# runs the test it runs on the files, at its interval's 90%
grep -q '(90% CI ' "$tmp/gateh" && ! grep -q "medians'" "$tmp/gateh"
ok $? "gate on the history's samples of 3: the Moses CI's 90%, as files"

if [ "$plot" = 1 ]; then
	grep -q 'median and 75% CI per run' "$tmp"/p3/*.svg &&
		grep -q 'median and 95% CI per run' "$tmp"/p6/*.svg
	ok $? "trend plot titles: 75% CI of 3 samples, 95% CI of 6"
else
	n=$((n + 1))
	echo "ok $n # SKIP gnuplot not installed"
fi

tap_done
