#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t86-profile.sh — where the instructions go: profile-import reads a
# hand-written perf report table (padding, [k]/[.] prefixes, unresolved
# addresses, a symbol with '"', '\' and '%') into the profile JSON, byte
# for byte; bad input exits 2 naming file:line and writes nothing; 200k
# lines import in linear time.  `nsbench profile` and report's
# --profile-base/--profile-patched on the fixture A/B
# (tests/fixtures/profile/make_fixtures.py): the slower row gets its
# "where it goes" block, begin_new_exec first; an A/A shows no
# significant symbol.  No guest: every input is a file here.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
nsb=${NSB_BUILD:-$top/build}/nsbench
case $nsb in /*) ;; *) nsb=$PWD/$nsb ;; esac	# rep() runs it elsewhere
fix=$top/tests/fixtures/profile
ab=$fix/ab

imp() {	# imp OUT [ARGS...]: the fixture's import with ARGS overriding
	out=$1
	shift
	"$nsb" profile-import --symbols="$fix/stat.symbols.tsv" \
		--bench="$fix/stat.bench.json" --ops-file="$fix/stat.ops" \
		--period=10007 --out="$out" "$@"
}

sym() {	# sym JSON DSO SYMBOL JQ: a field of one symbol entry
	jq -r --arg d "$2" --arg s "$3" \
		".symbols[] | select(.dso == \$d and .symbol == \$s) | $4" "$1"
}

# --- profile-import ---------------------------------------------------------

p=$tmp/stat.profile.json
imp "$p" 2>"$tmp/err"
ok $? "profile-import: the fixture imports"
[ "$(jq -r '[.nsbench_profile, .label, .benchmark, .event, .period, .ops,
	.samples] | @tsv' "$p")" = "$(printf '1\tstat\t%s\tcpu-clock\t%s' \
	sys/stat/init/depth:0/path:64 $'10007\t250000\t2440')" ]
ok $? "profile-import: header (label from the file name, ops from the file)"
[ "$(jq -r '.context.nsbench_round + "/" + .context.nsbench_seed + "/" +
	.context.nsbench_side' "$p")" = "3/1003/B" ]
ok $? "profile-import: the bench's context copied"
[ "$(jq '[.symbols[].samples] | add' "$p")" = 2440 ]
ok $? "profile-import: symbols sum to samples"
[ "$(sym "$p" '[kernel.kallsyms]' __d_lookup_rcu .samples)" = 810 ]
ok $? "profile-import: the same symbol twice is summed (800 + 10)"
[ "$(sym "$p" '[kernel.kallsyms]' '[unresolved]' .samples)" = 5 ] &&
	[ "$(sym "$p" '[unknown]' '[unresolved]' '.samples, .kernel')" = \
		"$(printf '12\nfalse')" ]
ok $? "profile-import: unresolved addresses pooled per dso"
! jq -e '.symbols[] | select(.symbol | test("^0x"))' "$p" >/dev/null
ok $? "profile-import: no raw address left"
# the symbols exactly as in the table: the 3rd field, "[x] " and blanks off
cut -f3 "$fix/stat.symbols.tsv" | sed 's/^\[.\] //' | grep -v '^0x' |
	sort -u >"$tmp/want"
jq -r '.symbols[].symbol' "$p" | grep -v '^\[unresolved\]$' | sort -u \
	>"$tmp/got"
cmp -s "$tmp/want" "$tmp/got"
ok $? "profile-import: every symbol byte for byte (quotes, backslashes, %)"
[ "$(sym "$p" libweird.so 'a\b\\c"d%s%n' .samples)" = 6 ]
ok $? "profile-import: the symbol with '\"', '\\' and '%' found by jq"
[ "$(sym "$p" nsbench-bench benchmark::State::KeepRunning .kernel)" = false ] &&
	[ "$(sym "$p" '[kernel.kallsyms]' mnt_may_suid .kernel)" = true ]
ok $? "profile-import: [k] is kernel, [.] is not"
[ "$(jq -r '[.symbols[].samples] | . == (sort | reverse)' "$p")" = true ]
ok $? "profile-import: sorted by samples, descending"
imp "$tmp/n.json" --ops=1000 --label=other --event=cycles &&
	[ "$(jq -r '[.ops, .label, .event] | @tsv' "$tmp/n.json")" = \
		"$(printf '1000\tother\tcycles')" ]
ok $? "profile-import: --ops=N, --label, --event"

# bad NAME WHERE ARGS...: exit 2, stderr names WHERE, no output file
bad() {
	name=$1 where=$2
	shift 2
	imp "$tmp/$name.json" "$@" 2>"$tmp/$name.err"
	rc=$?
	[ $rc = 2 ] && grep -qF -- "$where" "$tmp/$name.err" &&
		[ ! -e "$tmp/$name.json" ] &&
		! ls -a "$tmp" | grep -q "^\.$name\.json\."
	ok $? "profile-import: $name: exit 2 ($rc), names '$where', writes nothing"
	[ $rc = 2 ] || cat "$tmp/$name.err" >&2
}

tsv() {	# tsv NAME: a copy of the fixture table with line 3 replaced by stdin
	{ sed -n 1,2p "$fix/stat.symbols.tsv"; cat; sed -n '4,$p' \
		"$fix/stat.symbols.tsv"; } >"$tmp/$1.tsv"
}
printf '   5   \t[kernel.kallsyms]\n' | tsv two-fields
bad two-fields "two-fields.tsv:3: expected 3 TAB-separated fields" \
	--symbols="$tmp/two-fields.tsv"
printf '  -5   \t[kernel.kallsyms]\t[k] x\n' | tsv negative
bad negative "negative.tsv:3: samples" --symbols="$tmp/negative.tsv"
printf '  5x   \t[kernel.kallsyms]\t[k] x\n' | tsv non-numeric
bad non-numeric "non-numeric.tsv:3: samples" --symbols="$tmp/non-numeric.tsv"
printf '  5    \t[kernel.kallsyms]\tx\n' | tsv no-prefix
bad no-prefix "no-prefix.tsv:3: symbol 'x' lacks" --symbols="$tmp/no-prefix.tsv"
printf '  5    \t[kernel.kallsyms]\t[k] \xff\xfe\n' | tsv not-utf8
bad not-utf8 "not-utf8.tsv:3: not valid UTF-8" --symbols="$tmp/not-utf8.tsv"
printf '0\t[kernel.kallsyms]\t[k] a\n0\tdash\t[.] b\n' >"$tmp/zero.tsv"
bad zero-samples "zero.tsv: no samples" --symbols="$tmp/zero.tsv"
: >"$tmp/empty.tsv"
bad empty-tsv "empty.tsv: no samples" --symbols="$tmp/empty.tsv"
echo 0 >"$tmp/zero.ops"
bad ops-zero "zero.ops:1: ops" --ops-file="$tmp/zero.ops"
echo 12abc >"$tmp/nan.ops"
bad ops-nan "nan.ops:1: ops" --ops-file="$tmp/nan.ops"
printf '1\n2\n' >"$tmp/two.ops"
bad ops-lines "two.ops:1: expected one line" --ops-file="$tmp/two.ops"
jq '.benchmarks += [.benchmarks[0] | .name = "other" | .run_name = "other"]' \
	"$fix/stat.bench.json" >"$tmp/two.bench.json"
bad two-benchmarks "two.bench.json: benchmarks: expected exactly one" \
	--bench="$tmp/two.bench.json"
jq '.benchmarks = []' "$fix/stat.bench.json" >"$tmp/none.bench.json"
bad no-benchmark "none.bench.json: no benchmarks in 'benchmarks'" \
	--bench="$tmp/none.bench.json"
echo '{"benchmarks": [' >"$tmp/broken.bench.json"
bad broken-bench "broken.bench.json:" --bench="$tmp/broken.bench.json"
bad period-zero "--period: expected a count > 0" --period=0
bad ops-arg "--ops: expected a count > 0" --ops=-3 --ops-file=
"$nsb" profile-import --symbols="$fix/stat.symbols.tsv" --period=1 \
	--bench="$fix/stat.bench.json" --out="$tmp/x.json" 2>/dev/null
[ $? = 2 ] && [ ! -e "$tmp/x.json" ]
ok $? "profile-import: neither --ops nor --ops-file: exit 2"

# --probes: the period a sample stands for, from the boot's probe line
# (what sampling leaves of a period: P x N / T, rounded)
probes() {	# probes OUT LINE: import with a probes.txt holding LINE
	printf 'uptime 9.10\n%s\n' "$2" >"$tmp/probes.txt"
	"$nsb" profile-import --symbols="$fix/stat.symbols.tsv" \
		--bench="$fix/stat.bench.json" --ops-file="$fix/stat.ops" \
		--label=stat --probes="$tmp/probes.txt" --out="$1"
}
probes "$tmp/p.json" "profile.stat period=10007 spin_insn=20000002 spin_ns=22000000 seconds=2.00" &&
	[ "$(jq .period "$tmp/p.json")" = 9097 ]
ok $? "profile-import --probes: 10007 x 20000002 / 22000000 = 9097 per sample"
probes "$tmp/p2.json" "profile.stat-other period=10007 spin_insn=1 spin_ns=1" 2>"$tmp/p2.err"
[ $? = 2 ] && grep -q 'no line "profile.stat ' "$tmp/p2.err" && [ ! -e "$tmp/p2.json" ]
ok $? "profile-import --probes: no line for the label (another label's does not count)"
probes "$tmp/p3.json" "profile.stat period=10007 spin_insn=5 spin_ns=4" 2>/dev/null
[ $? = 2 ] && [ ! -e "$tmp/p3.json" ]
ok $? "profile-import --probes: a spin faster than its instructions is refused"
probes "$tmp/p4.json" "profile.stat period=10007 spin=failed" 2>/dev/null
[ $? = 2 ] && [ ! -e "$tmp/p4.json" ]
ok $? "profile-import --probes: a failed spin is refused"
imp "$tmp/p5.json" --probes="$tmp/probes.txt" 2>/dev/null
[ $? = 2 ] && [ ! -e "$tmp/p5.json" ]
ok $? "profile-import: --period and --probes together: exit 2"

# 200k lines, 50k distinct symbols: sort and merge, not a scan per line
awk 'BEGIN { for (i = 0; i < 200000; i++)
	printf "%10d \t[kernel.kallsyms]\t[k] fn_%d\n", 1 + i % 7, i % 50000 }' \
	>"$tmp/big.tsv"
start=$(date +%s)
imp "$tmp/big.json" --symbols="$tmp/big.tsv"
rc=$?
secs=$(($(date +%s) - start))
[ $rc = 0 ] && [ $secs -le 20 ] &&
	[ "$(jq '.symbols | length' "$tmp/big.json")" = 50000 ] &&
	[ "$(jq .samples "$tmp/big.json")" = \
		"$(awk -F'\t' '{ s += $1 } END { print s }' "$tmp/big.tsv")" ]
ok $? "profile-import: 200k lines in ${secs}s (<= 20), 50k symbols, sum kept"

# --- nsbench profile --------------------------------------------------------

"$nsb" profile --json="$tmp/ab.json" "$ab/A/profile" -- "$ab/B/profile" \
	>"$tmp/ab.out" 2>"$tmp/ab.err"
ok $? "profile: the fixture A/B exits 0"
sed -n '/^sys\/stat/,/^$/p' "$tmp/ab.out" >"$tmp/stat.out"
grep -A1 '^  symbol ' "$tmp/stat.out" | tail -n 1 |
	grep -q '^  begin_new_exec .* +39[0-9][0-9] \[.*\] \*$'
ok $? "profile: begin_new_exec first on sys/stat, about +4000, significant"
# +52 on ~2,000 insn/op, ~10,000 samples a round: its CI excludes 0, but
# counting noise alone gives 4 standard errors of the median of 6 rounds
# = 58: not significant (the floor against testing hundreds of symbols).
grep -q '^  link_path_walk.* +52 \[+38, +63\]$' "$tmp/stat.out" &&
	grep -q '^  \* significant (CI excludes 0, above noise): 1 of 33 symbols' \
		"$tmp/stat.out"
ok $? "profile: link_path_walk's +52 stays under the counting-noise floor; 1 of 33"
sed -n '/^sys\/open/,/^$/p' "$tmp/ab.out" |
	grep -q '^  no symbol with a significant change'
ok $? "profile: sys/open (unchanged) has no significant symbol"
[ "$(jq -r '.benchmarks[] | select(.benchmark | startswith("sys/stat")) |
	[.symbols[0].symbol, .symbols[0].significant, .rounds, .period,
	 .total.significant] | @tsv' "$tmp/ab.json")" = \
	"$(printf 'begin_new_exec\ttrue\t6\t10007\ttrue')" ]
ok $? "profile --json: the same data"
! awk 'length($0) > 72' "$tmp/ab.out" | grep -q .
ok $? "profile: at most 72 columns"
"$nsb" profile "$ab/A/profile" -- "$ab/A/profile" >"$tmp/aa.out" 2>&1 &&
	[ "$(grep -c '^  no symbol with a significant change' "$tmp/aa.out")" = 2 ]
ok $? "profile: an A/A says 'no symbol with a significant change' twice"
"$nsb" profile "$ab"/A/profile/r0[1-5]-stat.profile.json -- "$ab/B/profile" \
	>"$tmp/five.out" 2>&1 &&
	grep -qx '  no symbol with a significant change (5 rounds give a 94 %.*' \
		"$tmp/five.out" && grep -q ' CI only)$' "$tmp/five.out" &&
	! grep -q ' \*$' "$tmp/five.out"
ok $? "profile: 5 rounds say no 95 % CI exists, mark nothing"
"$nsb" profile "$ab/A/profile/r01-stat.profile.json" -- "$ab/B/profile" \
	>/dev/null 2>"$tmp/one.err"
[ $? = 2 ] && grep -q '1 common round(s), need 2' "$tmp/one.err"
ok $? "profile: one common round is refused (exit 2), saying why"
jq '.event = "cycles"' "$ab/B/profile/r02-stat.profile.json" \
	>"$tmp/r02-stat.profile.json"
"$nsb" profile "$ab/A/profile" -- "$ab/B/profile/r01-stat.profile.json" \
	"$tmp/r02-stat.profile.json" >/dev/null 2>"$tmp/ev.err"
[ $? = 2 ] && grep -q "refusing to pool" "$tmp/ev.err"
ok $? "profile: mixed events are refused"
jq '.symbols[0].samples += 1' "$ab/B/profile/r02-stat.profile.json" \
	>"$tmp/sum.profile.json"
"$nsb" profile "$ab/A/profile" -- "$tmp/sum.profile.json" >/dev/null \
	2>"$tmp/sum.err"
[ $? = 2 ] && grep -q "sum.profile.json: samples: .* but the symbols' sum" \
	"$tmp/sum.err"
ok $? "profile: a profile whose symbols do not sum up is refused"

# broken input: a profile cut every 211 bytes is refused naming it (exit 2,
# never a crash); a table cut every 29 bytes imports or is refused (0, 2)
src=$ab/B/profile/r02-stat.profile.json
size=$(wc -c <"$src")
bad_cut=
for ((cut = 0; cut < size; cut += 211)); do
	head -c $cut "$src" >"$tmp/cut.profile.json"
	"$nsb" profile "$ab/A/profile" -- "$tmp/cut.profile.json" \
		>/dev/null 2>"$tmp/cut.err"
	rc=$?
	[ $rc = 2 ] && grep -q cut.profile.json "$tmp/cut.err" ||
		bad_cut="$bad_cut $cut:$rc"
done
tsize=$(wc -c <"$fix/stat.symbols.tsv")
for ((cut = 0; cut < tsize; cut += 29)); do
	head -c $cut "$fix/stat.symbols.tsv" >"$tmp/cut.tsv"
	imp "$tmp/cut.json" --symbols="$tmp/cut.tsv" 2>/dev/null
	rc=$?
	case $rc in 0 | 2) ;; *) bad_cut="$bad_cut tsv$cut:$rc" ;; esac
done
[ -z "$bad_cut" ]
ok $? "profile, profile-import: cut input refused cleanly (${bad_cut:-all})"

# --- report -------------------------------------------------------------------

# relative paths: the provenance names the files, and the 72-column check
# is about the block, not about where the checkout lives
rep() {
	(cd "$ab" && "$nsb" report --profile-base=A/profile \
		--profile-patched=B/profile "$@" A/r*.json -- B/r*.json)
}
rep >"$tmp/rep.out" 2>"$tmp/rep.err"
ok $? "report --profile-base/--profile-patched exits 0"
grep -A2 '^  init/d0/path:64 .* slower$' "$tmp/rep.out" | sed -n 2,3p \
	>"$tmp/block"
head='    where it goes (perf cpu-clock, 1 sample per 10007 insn,'
head="$head 6 rounds):"
grep -qx "$head" "$tmp/block" &&
	grep -q '^      begin_new_exec  *+39[0-9][0-9] \[' "$tmp/block"
ok $? "report: the slower row's block, begin_new_exec first"
grep -q '^      rest (32 symbols) ' "$tmp/rep.out" &&
	grep -q '^      profile total +40[0-9][0-9] \[.*\]; measured +41[0-9][0-9]:$' \
		"$tmp/rep.out" &&
	grep -q '^      unattributed +[0-9]* ([0-9.]* % of the shift)$' \
		"$tmp/rep.out"
ok $? "report: rest, profile total, measured and unattributed"
[ "$(grep -c 'where it goes' "$tmp/rep.out")" = 1 ]
ok $? "report: no block under the 'same' row"
! awk 'length($0) > 72' "$tmp/rep.out" | grep -q .
ok $? "report: at most 72 columns with the block"
rep --markdown >"$tmp/rep.md" 2>&1 &&
	grep -q '^\*\*where it goes\*\*: `sys/stat/init/depth:0/path:64`' \
		"$tmp/rep.md" &&
	grep -A3 '^| symbol | shift' "$tmp/rep.md" | sed -n 3p |
	grep -q '^| `begin_new_exec` | +39'
ok $? "report --markdown: a small table, begin_new_exec first"
"$nsb" report "$ab"/A/r*.json -- "$ab"/B/r*.json >"$tmp/plain.out" 2>&1 &&
	! grep -q 'where it goes' "$tmp/plain.out"
ok $? "report without profiles: no block"
"$nsb" report --profile-base="$ab/A/profile" "$ab"/A/r*.json -- \
	"$ab"/B/r*.json >/dev/null 2>"$tmp/half.err"
[ $? = 2 ] && grep -q 'go together' "$tmp/half.err"
ok $? "report: --profile-base alone is refused"

# --- plot profile -------------------------------------------------------------

# a symbol that would be gnuplot code if it were ever read as code
evil='x" ; system("touch '$tmp'/pwned") ; print "\\'
mkdir -p "$tmp/evil/A" "$tmp/evil/B"
for side in A B; do
	for f in "$ab/$side"/profile/r*-stat.profile.json; do
		jq --arg e "$evil" '(.symbols[] |
			select(.symbol == "begin_new_exec")).symbol = $e' \
			"$f" >"$tmp/evil/$side/${f##*/}"
	done
done
"$nsb" profile --json="$tmp/evil.json" "$tmp/evil/A" -- "$tmp/evil/B" \
	>/dev/null 2>&1 &&
	[ "$(jq -r '.benchmarks[0].symbols[0].symbol' "$tmp/evil.json")" = \
		"$evil" ]
ok $? "profile --json: a hostile symbol kept as it is"
"$nsb" plot profile "$tmp/evil.json" --out-dir="$tmp/plots" \
	--templates="$top/plots" >"$tmp/plot.out" 2>&1
rc=$?
[ $rc = 0 ] && [ ! -e "$tmp/pwned" ] &&
	head -c 8 "$tmp/plots/nsbench-profile-sys_stat_init_depth_0_path_64.png" |
	grep -q PNG &&
	grep -q '<svg' "$tmp/plots/nsbench-profile-sys_stat_init_depth_0_path_64.svg"
ok $? "plot profile: drawn (svg, png), the hostile symbol never run ($rc)"
[ $rc = 0 ] || cat "$tmp/plot.out" >&2
"$nsb" plot profile "$fix/stat.bench.json" --out-dir="$tmp/plots2" \
	--templates="$top/plots" >/dev/null 2>"$tmp/plot.err"
[ $? = 2 ] && grep -q "want the output of nsbench profile --json" \
	"$tmp/plot.err"
ok $? "plot profile: not a profile comparison: exit 2"

# --- help ---------------------------------------------------------------------

"$nsb" profile --help | grep -q '^usage: nsbench profile ' &&
	"$nsb" profile-import --help | grep -q '^usage: nsbench profile-import ' &&
	"$nsb" report --help -- x | grep -q -- '--profile-base=DIR'
ok $? "help: profile, profile-import, report's --profile-base"

tap_done
