#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ab.sh's boot scheduling without a real guest: a stand-in QEMU (QEMU=)
# writes what a guest of the checks plan would send, as a function of the
# command line's seed.  Checks the boot cache (a rerun takes every boot
# from it and boots one again alongside; a tampered cached result is
# found, the cache dropped, the boots redone), parallel boots, shards
# merged into the same files as one run, that a failed guest step fails
# the run, and that a bad invocation fails before any long step.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
need_stand_in

# The stand-in QEMU: results of one `cost` step, from the seed.
cat >"$tmp/qemu" <<'EOF'
#!/bin/bash
[ "${1:-}" = --version ] && { echo "QEMU emulator version 0.0 (stand-in)"; exit 0; }
ser=() app=
while [ $# -gt 0 ]; do
	case "$1" in
	-serial) ser+=("${2#file:}"); shift ;;
	-append) app=$2; shift ;;
	esac
	shift
done
seed=$(echo "$app" | sed -n 's/.*nsb\.seed=0*\([0-9][0-9]*\).*/\1/p')
round=$(echo "$app" | sed -n 's/.*nsb\.round=0*\([0-9][0-9]*\).*/\1/p')
off=$(awk -v s="$seed" 'BEGIN { printf "%.3f", (70000 + s % 97) / 1000 }')
on=$(awk -v s="$seed" 'BEGIN { printf "%.3f", (70025 + s % 97) / 1000 }')
{
	echo "@@NSB INIT mode=icount round=$round seed=$seed aslr=0 kernel=6.1.192"
	echo "@@NSB FILE exec.json"
	printf '{"context": {"date": "2024-01-01T00:00:02+00:00", "nsbench_mode": "icount", "nsbench_round": "%s", "nsbench_seed": "%s", "nsbench_side": "@SIDE@", "nsbench_boot": "@BOOT@", "patch_series": "@SERIES@", "kernel_config_hash": "@CONFIG_HASH@", "nsbench_check": "mnt_may_suid", "nsbench_check_applied": "yes", "nsbench_time_unit_meaning": "virtual ns = guest instructions"}, "benchmarks": [{"name": "sys/exec/vfork/bin/init/depth:0/manual_time", "run_type": "iteration", "iterations": 100, "real_time": %s, "cpu_time": 1, "time_unit": "us", "nsb_on": %s, "nsb_off1": %s, "nsb_off2": %s}]}\n' \
		"$round" "$seed" "$on" "$on" "$off" "$off"
	echo "@@NSB EOF exec.json"
	echo "@@NSB STEP exec ${STAND_IN_STEP_RC:-0}"
	echo "@@NSB DONE 0"
} >"${ser[1]}"
cp "${ser[1]}" "${ser[0]}"
EOF
chmod +x "$tmp/qemu"
export QEMU=$tmp/qemu
mkdir -p "$tmp/k"
echo "not a kernel" >"$tmp/k/bzImage"
echo '{"key": "test", "series": "userns-checks-toggles", "config_hash": "sha256:00", "release": "6.1.192"}' >"$tmp/k/meta.json"

ab() {
	"$top/scripts/ab.sh" --checks --kernel "$tmp/k" --mode icount \
		--rounds 4 --jobs 2 "$@"
}
# the results of a run, as one stream; without the command line that
# made the run (its --out and --shard differ from run to run) and its
# date (the host's, checked apart)
files() {
	for f in "$1"/B/*.json; do
		echo "== $(basename "$f")"
		jq -c 'del(.context.nsbench_host_command, .context.date)' "$f"
	done
}
# dated DIR T0 T1: every results file, the manifest and costs.json of
# DIR carry one date, the host's between T0 and T1 (epoch seconds); the
# guest's fixed clock is kept as guest_date
dated() {
	local d t
	d=$(jq -r .date "$1/manifest.json")
	t=$(date -u -d "$d" +%s) || return 1
	[ "$t" -ge "$2" ] && [ "$t" -le "$3" ] &&
		[ "$(jq -r .provenance.date "$1/costs.json")" = "$d" ] &&
		[ -z "$(jq -r --arg d "$d" 'select(.context.date != $d or
			.context.guest_date != "2024-01-01T00:00:02+00:00")
			| input_filename' "$1"/B/*.json)" ]
}

t0=$(date +%s)
ab --out "$tmp/r1" >"$tmp/r1.log" 2>&1
ok $? "a checks run of 4 boots, 2 at once"
t1=$(date +%s)
[ "$(ls "$tmp"/r1/B/*.json | wc -l)" = 4 ] &&
	[ "$(jq '[.boots[] | select(.source == "fresh")] | length' "$tmp/r1/manifest.json")" = 4 ]
ok $? "4 fresh boots, one results file each"
[ "$(ls "$NSB_CACHE/boots" | wc -l)" = 4 ]
ok $? "each boot's result is cached"
grep -q '+25' "$tmp/r1/report.txt"
ok $? "the report gives the stand-in's +25 insn"

dated "$tmp/r1" "$t0" "$t1"
ok $? "results, manifest and costs.json carry the host's date of the run, the guest's as guest_date"

# a second apart at least: the cached boots must not keep r1's date
until [ "$(date +%s)" -gt "$t1" ]; do sleep 0.2; done
t2=$(date +%s)
ab --out "$tmp/r2" >"$tmp/r2.log" 2>&1
ok $? "the same run again"
t3=$(date +%s)
[ "$(jq '[.boots[] | select(.source == "cache")] | length' "$tmp/r2/manifest.json")" = 4 ] &&
	jq -r .cache_audit "$tmp/r2/manifest.json" | grep -q 'byte-identical'
ok $? "every boot from the cache, one booted again: byte-identical"
dated "$tmp/r2" "$t2" "$t3" &&
	"$NSB" history append --history="$tmp/h.jsonl" --run-id=r2 \
		"$tmp"/r2/B/*.json >/dev/null &&
	[ "$(jq -r .timestamp "$tmp/h.jsonl" | sort -u)" = "$(jq -r .date "$tmp/r2/manifest.json")" ]
ok $? "boots from the cache carry this run's date, and so does its history"
! grep -rqE "$(date -u -d "@$t0" +%Y)-|T[0-9]{2}:[0-9]{2}:[0-9]{2}Z" \
	"$NSB_CACHE/boots"/*/inputs "$tmp"/r1/boots/keys
ok $? "no date in any cache key's inputs"
# the audit boots again the cached boot that took least time: its line
# in the boot list says which
audit=$(awk '$5 == "audit" { printf "r%02d-%s %s", $2, $4, $6 }' \
	"$tmp/r2/boots/list.jobs")
[ -n "$audit" ] && [ -f "$tmp/r2/boots/${audit%% *}.audit/results.raw" ]
ok $? "the audited boot really was booted again (${audit%% *})"
cmp -s <(files "$tmp/r1") <(files "$tmp/r2")
ok $? "results from the cache are the fresh ones, byte for byte"

# Tamper with the cached result the audit boots again, its digest made
# anew: what a guest that is not deterministic would store.  Every boot
# of the stand-in takes as long (its wall_seconds, the audit's choice):
# the same one is audited again.
key=${audit#* }
sed -i 's/"nsb_on": 70\./"nsb_on": 90./' "$NSB_CACHE/boots/$key/results.raw"
(cd "$NSB_CACHE/boots/$key" && sha256sum console.log inputs results.raw >digest)
ab --out "$tmp/r3" >"$tmp/r3.log" 2>&1
ok $? "a run over a tampered cache still succeeds"
grep -q 'gave other results when booted again: cache dropped' "$tmp/r3.log"
ok $? "the tampered cached result is detected"
cmp -s <(files "$tmp/r1") <(files "$tmp/r3")
ok $? "and every cached boot is redone: the results are the fresh ones"

# Entries the audit does not boot again: each carries the sha256 of its
# files and its key's inputs, checked before it is served.  A copy of a
# real entry with other values replayed with exit 0 before.
ab --out "$tmp/r4" >"$tmp/r4.log" 2>&1
ok $? "a fresh run again fills the cache"
[ -f "$NSB_CACHE/boots/$key/digest" ] && [ -f "$NSB_CACHE/boots/$key/inputs" ] &&
	(cd "$NSB_CACHE/boots/$key" && sha256sum --quiet -c digest)
ok $? "an entry holds the digest of its files and its inputs"
k2=$(cut -d' ' -f2 "$tmp/r4/boots/r02-B.source")
k3=$(cut -d' ' -f2 "$tmp/r4/boots/r03-B.source")
k4=$(cut -d' ' -f2 "$tmp/r4/boots/r04-B.source")
sed -i 's/"nsb_on": 70\./"nsb_on": 97./' "$NSB_CACHE/boots/$k2/results.raw"
rm -rf "${NSB_CACHE:?}/boots/$k3"
cp -r "$NSB_CACHE/boots/$k4" "$NSB_CACHE/boots/$k3"
ab --out "$tmp/r5" >"$tmp/r5.log" 2>&1
ok $? "a run over an edited and a copied entry succeeds"
[ "$(grep -c 'fails its digest: dropped, booted afresh' "$tmp/r5.log")" = 2 ] &&
	[ "$(cat "$tmp/r5/boots/r02-B.source")" = "fresh $k2" ] &&
	[ "$(cat "$tmp/r5/boots/r03-B.source")" = "fresh $k3" ] &&
	[ "$(cat "$tmp/r5/boots/r04-B.source")" = "cache $k4" ]
ok $? "both are found and booted afresh; the sound ones served"
cmp -s <(files "$tmp/r1") <(files "$tmp/r5")
ok $? "the results are the fresh ones, byte for byte"
jq -r .cache_audit "$tmp/r5/manifest.json" | grep -q '2 failed: dropped and booted afresh'
ok $? "the manifest's cache audit says so: $(jq -r .cache_audit "$tmp/r5/manifest.json")"

# Shards: two processes, each a part of the boots, merged = one run.
NSB_CACHE=$tmp/c2 ab --shard 1/2 --out "$tmp/s1" >"$tmp/s1.log" 2>&1 &
NSB_CACHE=$tmp/c3 ab --shard 2/2 --out "$tmp/s2" >"$tmp/s2.log" 2>&1
s2=$?
wait $!
[ $? = 0 ] && [ $s2 = 0 ]
ok $? "two shards run as separate processes"
[ "$(ls "$tmp"/s1/B/*.json | wc -l)" = 2 ] && [ "$(ls "$tmp"/s2/B/*.json | wc -l)" = 2 ]
ok $? "each shard booted its half"
"$top/scripts/ab.sh" --merge "$tmp/m" "$tmp/s1" "$tmp/s2" >"$tmp/m.log" 2>&1
ok $? "ab.sh --merge joins them"
cmp -s <(files "$tmp/r1") <(files "$tmp/m") &&
	[ "$(jq '.boots | length' "$tmp/m/manifest.json")" = 4 ]
ok $? "the merged results are the unsharded run's, byte for byte"
[ -s "$tmp/m/report.txt" ] && diff <(sed -n '/^What each/,/^Provenance/p' "$tmp/r1/report.txt") \
	<(sed -n '/^What each/,/^Provenance/p' "$tmp/m/report.txt") >/dev/null
ok $? "and so is the report's table"

# Numbers with a leading zero are decimal, read once before any step
# ("09: value too great for base" came after the kernels were built).
"$top/scripts/ab.sh" --checks --kernel "$tmp/k" --mode icount --rounds 01 \
	--jobs 01 --seed 09 --timeout 0900 --out "$tmp/r9" >"$tmp/r9.log" 2>&1
rc=$?
[ $rc = 0 ] && [ "$(ls "$tmp"/r9/B/*.json | wc -l)" = 1 ]
ok $? "ab.sh --rounds 01 --jobs 01 --seed 09 --timeout 0900: one boot (exit $rc)"

# A guest step that fails (a results file the bench could not write, a
# missing fixture) fails the run by name, its results kept: validate
# once passed with two of its steps failed in every boot.
STAND_IN_STEP_RC=2 "$top/scripts/ab.sh" --checks --kernel "$tmp/k" \
	--mode icount --rounds 1 --jobs 1 --no-cache --out "$tmp/r10" \
	>"$tmp/r10.log" 2>&1
rc=$?
[ $rc != 0 ] && grep -q 'boot r01-B: guest step exec exited 2' "$tmp/r10.log" &&
	grep -q 'a guest step failed' "$tmp/r10.log" &&
	[ -f "$tmp/r10/manifest.json" ] && ! grep -q unbound "$tmp/r10.log"
ok $? "a guest step that exits 2 fails the run, named (exit $rc): $(grep -m1 'guest step' "$tmp/r10.log")"

# A bad invocation fails at once, before any build or boot.
for bad in "--mode bogus" "--series typo" "--rounds 0" "--jobs x" \
	"--shard 3/2" "--kernel $tmp/nope"; do
	t0=$(date +%s%N)
	# shellcheck disable=SC2086
	"$top/scripts/ab.sh" --checks $bad >"$tmp/bad.log" 2>&1
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	[ $rc != 0 ] && grep -q 'error' "$tmp/bad.log" && [ $ms -lt 5000 ]
	ok $? "ab.sh $bad fails at once ($ms ms): $(tail -n 1 "$tmp/bad.log")"
done
tap_done
