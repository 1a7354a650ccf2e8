#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The cache-model plugin in the QEMU that runs the boots (TAP): one icount
# boot of the toggles kernel with nsb-cachesim.so loaded and one without
# it, same image and seed (in parallel), each running an open row and an
# exec row (the userns walk at depth 8) in the interleaved A/B; then:
#   - the plugin loads and says its model; its records name every state
#     of every run the results name (the markers counted per state);
#   - two counters agree: the plugin's instructions per op and state
#     equal the icount clock's (nsb_on, nsb_off1, nsb_off2) within 0.1;
#   - the plugin changes nothing it measures: every clock counter is the
#     same, bit for bit, with it loaded as without it;
#   - cold misses are at least the warm ones, on every state;
#   - the history follows four of the model's quantities per row;
#   - the per-function attribution (System.map) names in_userns as what
#     the switch adds to exec at depth 8: two more walks of 8 levels;
#   - its chunk dump (chunks=1): per run one #chunk line per chunk the
#     run timed, and the mean over the chunks its #keep line keeps (on
#     either side of its #step, if any) is the state's record, per op;
#     each chunk's functions add up to it;
#   - caller=in_userns: each chunk's in_userns instructions are charged,
#     all of them, to the functions that ran before it, and the tail
#     call of the mnt_may_suid check (current_in_userns) is one;
#   - a plugin built for another API version stops the boot with one
#     line saying so; bad plugin arguments are refused before a boot.
# About a minute.  NSB_SKIP_KERNEL=1 skips it.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"

# Parsed whole before it runs: editing this file cannot break a run.
{

need_guest
need jq jq
tap_plan 15

build=${NSB_BUILD:-$top/build}
plugin=$build/guest/plugin/nsb-cachesim.so
[ -f "$plugin" ]
ok $? "the plugin is built ($plugin)"

cfg=$top/kernel-patches/configs
kdir=$("$top/scripts/kernel/build.sh" --series userns-checks-toggles \
	--config "$cfg/base.config" --config "$cfg/lsm.config" 2>"$tmp/build.err")
ok $? "toggles kernel built or cached"

cat >"$tmp/plan" <<'PLAN'
COST_ARGS=--benchmark_min_time=0.005
cost nodev open-dev '^sys/open/dev/init/depth:0/'
cost mnt_may_suid exec '^sys/exec/vfork/bin/init/depth:8/'
PLAN
# The guest runs an unsanitized nsbench-bench (make check's is ASan).
bench=${NSB_GUEST_BENCH:-$top/build/bench/nsbench-bench}
"$top/guest/mkinitramfs.sh" --plan "$tmp/plan" --bench "$bench" \
	--out "$tmp/initrd" >"$tmp/mkinit.log" 2>&1 ||
	{ diag <"$tmp/mkinit.log"; echo "Bail out! no guest image"; exit 1; }

boot() {
	"$top/guest/run-qemu.sh" --kernel "$kdir" --initrd "$tmp/initrd" \
		--mode icount --round 3 --seed 123456789 --timeout 600 "$@"
}
NSB_CACHESIM_ARGS=chunks=1,caller=in_userns boot --out "$tmp/with" \
	--cachesim "$plugin" \
	>"$tmp/with.log" 2>&1 &
boot --out "$tmp/without" >"$tmp/without.log" 2>&1 &
wait

tsv=$tmp/with/cachesim.tsv
head -n 1 "$tsv" 2>/dev/null | grep -q '^# nsb-cachesim api 1 model skylake-i7-6700 '
ok $? "the plugin loaded in $(qemu-system-x86_64 --version | sed -n 1p) and wrote its model"
diag <"$tmp/with.log"

# Every interleaved entry of both results files, with its counters.
entries() {
	jq -c '.benchmarks[] | select(.nsb_run_id != null)' "$1"/*.json
}
entries "$tmp/with" >"$tmp/with.entries"
entries "$tmp/without" >"$tmp/without.entries"
[ "$(wc -l <"$tmp/with.entries")" = 2 ]
ok $? "both rows ran interleaved with the plugin loaded"

# per_state: every entry's run has a record of each state with chunks
# and operations, no more chunks than the run timed.
missing=$(jq -r '[.nsb_run_id, .nsb_chunks] | @tsv' "$tmp/with.entries" |
	while read -r id chunks; do
		for st in on off1 off2; do
			awk -F'\t' -v id="$id" -v st="$st" -v max="$chunks" '
				$1 == id && $2 == st && $3 > 0 && $4 >= $3 &&
				$3 <= max { found = 1 }
				END { exit !found }' "$tsv" || echo "$id/$st"
		done
	done)
is "$missing" "" "the markers counted: every run has its on, off1 and off2 chunks"

# agree: |clock - plugin| per op and state, in instructions (x1000: us)
worst=$(jq -r '[.nsb_on - .nsb_on_cs_insn, .nsb_off1 - .nsb_off1_cs_insn,
	.nsb_off2 - .nsb_off2_cs_insn] | map(. * 1000 | fabs) | max' \
	"$tmp/with.entries" | sort -g | tail -n 1)
awk -v w="${worst:-nan}" 'BEGIN { exit !(w + 0 == w && w < 0.1) }'
ok $? "the plugin's instructions per op equal the icount clock's within 0.1 (worst $worst)"

# The clock's counters, per entry, with and without the plugin.
clock() {
	jq -c '[.name, .nsb_on, .nsb_off1, .nsb_off2, .nsb_chunks,
		.nsb_ticked_chunks]' "$1"
}
[ -s "$tmp/without.entries" ] &&
	cmp -s <(clock "$tmp/with.entries") <(clock "$tmp/without.entries")
ok $? "every clock counter is the same with the plugin loaded as without it"
diff <(clock "$tmp/with.entries") <(clock "$tmp/without.entries") | diag

bad=$(jq -r '. as $e | ["on", "off1", "off2"][] as $s |
	["d1", "ll", "i1"][] as $m |
	select($e["nsb_\($s)_cs_\($m)_miss_cold"] < $e["nsb_\($s)_cs_\($m)_miss"]) |
	"\($e.name) \($s) \($m)"' "$tmp/with.entries")
is "$bad" "" "cold misses are at least the warm ones, every state and cache"

d=$(jq -r 'select(.name | test("exec")) | .nsb_cs_funcs.in_userns |
	if . then .[0] - .[1] else "none" end' "$tmp/with.entries")
awk -v d="$d" 'BEGIN { exit !(d + 0 == d && d >= 48) }'
ok $? "the attribution: in_userns moves by $d insn per exec (>= 2 walks x 8 levels x 3)"

# the chunk dump: per run and state, the kept chunks' mean insn per op
# (on either side of a #step, weighted by the sides' chunks) against the
# state's record; per chunk, its functions' sum against it
bad=$(awk -F'\t' '
	$1 == "#chunk" { st[$2, $3] = $4; ops[$2, $3] = $5; ins[$2, $3] = $6
		n[$2]++; next }
	$1 == "#cfn" { fsum[$2, $3] += $5; next }
	$1 == "#keep" { keep[$2] = $3; next }
	$1 == "#step" { step[$2] = $3; next }
	/^#/ || $1 == "run" { next }
	{ rec[$1, ($2 == "on" ? 0 : $2 == "off1" ? 1 : 2)] = $5 }
	END {
		for (r in keep) {
			if (length(keep[r]) != n[r]) print r ": keep " length(keep[r]) " of " n[r]
			t = (r in step) ? step[r] : n[r]
			for (s = 0; s < 3; s++) for (h = 0; h < 2; h++) { sum[s, h] = 0; k[s, h] = 0 }
			for (i = 0; i < n[r]; i++) {
				d = fsum[r, i] - ins[r, i]
				if (d < 0) d = -d
				if (d > ins[r, i] / 100) print r "/" i ": functions " fsum[r, i] " of " ins[r, i]
				if (substr(keep[r], i + 1, 1) != "1" || !ops[r, i]) continue
				h = i >= t
				sum[st[r, i], h] += ins[r, i] / ops[r, i]; k[st[r, i], h]++
			}
			for (s = 0; s < 3; s++) {
				if (!((r, s) in rec)) {
					if (k[s, 0] + k[s, 1]) print r "/" s ": kept chunks, no record"
					continue
				}
				w = !k[s, 1] ? 1 : !k[s, 0] ? 0 : t / n[r]
				m = (k[s, 0] ? w * sum[s, 0] / k[s, 0] : 0) + (k[s, 1] ? (1 - w) * sum[s, 1] / k[s, 1] : 0)
				d = (k[s, 0] + k[s, 1] ? m : -1) - rec[r, s]
				if (d > 0.001 || d < -0.001) print r "/" s ": " d
			}
		}
	}' "$tsv")
[ -z "$bad" ] && grep -q '^#chunk' "$tsv"
ok $? "chunks=1: every chunk dumped, the kept ones' mean is each state's record, its functions add up"
[ -z "$bad" ] || echo "$bad" | head -n 5 | diag

# caller=in_userns: per chunk, the #caller lines add up to in_userns's
# #cfn line, none names in_userns itself, one names current_in_userns
bad=$(awk -F'\t' '
	$1 == "#cfn" && $4 == "in_userns" { f[$2 "/" $3] += $5; next }
	$1 == "#caller" { c[$2 "/" $3] += $5; n++
		if ($4 == "in_userns") print $2 "/" $3 ": charged to itself"
		if ($4 == "current_in_userns") tail = 1 }
	END {
		for (k in f) if (f[k] != c[k]) print k ": " f[k] " in_userns, " c[k] " charged"
		for (k in c) if (!(k in f)) print k ": charged, no in_userns"
		if (!n) print "no #caller line"
		else if (!tail) print "no chunk charged to current_in_userns"
	}' "$tsv")
[ -z "$bad" ]
ok $? "caller=in_userns: every chunk's in_userns charged whole to its callers, current_in_userns one"
[ -z "$bad" ] || echo "$bad" | head -n 5 | diag

# the history follows the model's quantities per benchmark, in its unit
"$NSB" history append --history="$tmp/h.jsonl" "$tmp"/with/*.json \
	>/dev/null 2>&1 &&
	[ "$(jq -r 'select(.benchmark | test("depth:8/.*@l1d_miss_cold$")) |
		"\(.unit)|\(.metric)"' "$tmp/h.jsonl")" = \
	  "L1d misses, caches cold|nsb_on_cs_d1_miss_cold" ] &&
	[ "$(jq -r 'select(.benchmark | test("@")) | .benchmark' "$tmp/h.jsonl" |
		wc -l)" = 8 ] &&
	"$NSB" history show --history="$tmp/h.jsonl" \
		--benchmark='depth:8/.*@l1d_miss_cold' >"$tmp/show" 2>&1 &&
	grep -q '(L1d misses, caches cold' "$tmp/show" &&
	grep -Eq '^ +0 +[^ ]+ +[0-9]+(\.[0-9])? +[+-]' "$tmp/show"
ok $? "history append: each row's L1d and LL misses cold and cycles, a series each, shown as counts"
diag "$tmp/show"

jq -e '.context.nsbench_cachesim_complete == "yes"' "$tmp"/with/*.json >/dev/null
ok $? "the results say the model covered every run"

NSB_CACHESIM_ARGS=api=99 boot --out "$tmp/api" --cachesim "$plugin" \
	>"$tmp/api.log" 2>&1
st=$?
line=$(grep -c '^nsb-cachesim: built for QEMU plugin API 99, this QEMU offers [0-9]*\.\.[0-9]*' "$tmp/api.log")
[ "$st" != 0 ] && [ "$line" -ge 1 ] &&
	grep 'error:' "$tmp/api.log" | grep -q 'nsb-cachesim: built for QEMU plugin API 99'
ok $? "a plugin of another API version stops the boot, saying so in one line"
diag <"$tmp/api.log"

NSB_CACHESIM_ARGS='out=/etc/x;rm' boot --out "$tmp/bad" --cachesim "$plugin" \
	>"$tmp/bad.log" 2>&1
[ $? != 0 ] && grep -q 'NSB_CACHESIM_ARGS: key=value' "$tmp/bad.log" &&
	[ ! -e "$tmp/bad/console.log" ]
ok $? "plugin arguments other than key=value words are refused before a boot"

tap_done
}
