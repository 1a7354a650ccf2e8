#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Google Benchmark's own compare.py (Debian's libbenchmark-tools) reads
# nsbench's results files: the fixtures, and a file nsbench-bench writes.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
build=${NSB_BUILD:-$top/build}
fix=$top/tests/fixtures/stats
cmp_py=/usr/share/benchmark/compare.py

if [ ! -r "$cmp_py" ] || ! /usr/bin/python3 -c 'import scipy' 2>/dev/null; then
	echo "1..0 # SKIP compare.py or python3-scipy not installed (make deps)"
	exit 0
fi

# The fixtures' skipped entry carries no times; libbenchmark 1.7.1 writes
# real_time 0 and cpu_time 0 for one (as nsbench-bench's files have it).
for s in base patched; do
	jq '.benchmarks |= map(if .error_occurred then
		{real_time: 0, cpu_time: 0, iterations: 0, time_unit: "ns"} + .
		else . end)' "$fix/$s.json" >"$tmp/$s.json"
done
/usr/bin/python3 "$cmp_py" --no-color benchmarks "$tmp/base.json" "$tmp/patched.json" \
	>"$tmp/out" 2>&1
ok $? "compare.py benchmarks base.json patched.json"
grep -q '^fix/exec/slow ' "$tmp/out" && grep -q '^fix/in_userns/depth:8_pvalue ' "$tmp/out"
ok $? "compare.py lists nsbench's benchmarks"
# patched is 10 % slower on fix/exec/slow: compare.py's time column says so
awk '$1 == "fix/exec/slow" { print $2 }' "$tmp/out" | grep -q '^+0\.09\|^+0\.10'
ok $? "compare.py sees the +10 % on fix/exec/slow"

bench=$build/bench/nsbench-bench
"$bench" --benchmark_filter='^models/shim/c/' --benchmark_min_time=0.01 \
	--benchmark_repetitions=3 --out="$tmp/a.json" >/dev/null 2>&1 &&
	"$bench" --benchmark_filter='^models/shim/c/' --benchmark_min_time=0.01 \
	--benchmark_repetitions=3 --out="$tmp/b.json" >/dev/null 2>&1
ok $? "two nsbench-bench results files"
/usr/bin/python3 "$cmp_py" --no-color -a benchmarks "$tmp/a.json" "$tmp/b.json" \
	>"$tmp/out2" 2>&1 && grep -q 'models/shim/c/' "$tmp/out2"
ok $? "compare.py reads nsbench-bench's own files (with its U test)"
tap_done
