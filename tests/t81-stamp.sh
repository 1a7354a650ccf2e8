#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t81-stamp.sh — `nsbench stamp`, the host's values into a guest's results:
# placeholders filled in every string value (not in keys, not in numbers),
# values kept as data, --default only where the guest gave none, the
# kernel's meta.json only where the guest could not tell, --date the
# host's with the guest's fixed clock kept as guest_date, --set last; a
# file that is no JSON object is refused by name and left as it was.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
tap_plan 11

r=$tmp/r.json
cat >"$r" <<'JSON'
{"context": {"nsbench_side": "@SIDE@", "patch_series": "@SERIES@",
 "kernel_release": "unknown", "kernel_config_hash": "c0ffee",
 "nsbench_aslr": "2", "@SIDE@": ["x@SIDE@y@SIDE@", 3, null]},
  "benchmarks": [{"name": "b/@BOOT@", "run_type": "iteration",
   "real_time": 2.5, "time_unit": "ns", "iterations": 7}]}
JSON
cat >"$tmp/meta.json" <<'JSON'
{"key": "k1", "source": "", "release": "6.1.9", "config_hash": "feed",
 "series": "from-meta", "series_sha256": "abc"}
JSON
evil='a "q" & | \1 $(touch '$tmp'/pwned) @BOOT@'
"$NSB" stamp --set nsbench_qemu="q 'x'" --fill SIDE=B --fill "SERIES=$evil" \
	--fill BOOT=4 --default nsbench_aslr=0 --default nsbench_new=n \
	--kernel-meta "$tmp/meta.json" "$r"
ok $? "stamp exits 0"
get() { jq -r "$1" "$r"; }
[ "$(get .context.nsbench_side)" = B ] &&
	[ "$(get '.context["@SIDE@"][0]')" = xByB ] &&
	[ "$(get '.benchmarks[0].name')" = b/4 ]
ok $? "placeholders filled in every string value, nested too"
[ "$(get '.context["@SIDE@"][1]')" = 3 ] &&
	[ "$(get '.benchmarks[0].real_time')" = 2.5 ] &&
	[ "$(get '.benchmarks[0].iterations')" = 7 ]
ok $? "keys and numbers as they were"
[ "$(get .context.patch_series)" = "$evil" ] && [ ! -e "$tmp/pwned" ]
ok $? "a value with quotes, \$(...) and a placeholder stays data"
[ "$(get .context.nsbench_aslr)" = 2 ] && [ "$(get .context.nsbench_new)" = n ]
ok $? "--default: only where the guest gave none"
[ "$(get .context.kernel_release)" = 6.1.9 ] &&
	[ "$(get .context.kernel_config_hash)" = c0ffee ] &&
	[ "$(get .context.kernel_build_key)" = k1 ] &&
	[ "$(get .context.patch_series_sha256)" = abc ] &&
	[ "$(get .context.kernel_source)" = null ]
ok $? "--kernel-meta: identity always, release/config only where unknown, no empty value"
[ "$(get .context.nsbench_qemu)" = "q 'x'" ]
ok $? "--set"

# The guest's clock is fixed (run-qemu.sh): its date is that instant in
# every boot; the host's goes in, the guest's is kept, once.
d=$tmp/d.json
printf '{"context": {"date": "2024-01-01T00:00:02+00:00"}, "benchmarks": [%s]}' \
	'{"name": "b", "iterations": 1, "real_time": 1, "cpu_time": 1, "time_unit": "ns"}' >"$d"
"$NSB" stamp --date 2026-12-06T20:15:00Z "$d" &&
	"$NSB" stamp --date 2026-12-07T08:00:00+01:00 "$d" &&
	[ "$(jq -r .context.date "$d")" = 2026-12-07T08:00:00+01:00 ] &&
	[ "$(jq -r .context.guest_date "$d")" = 2024-01-01T00:00:02+00:00 ] &&
	"$NSB" stamp --date 2026-12-06T20:15:00Z --set date=x "$d" &&
	[ "$(jq -r .context.date "$d")" = x ]
ok $? "--date: the host's date, the guest's kept as guest_date (stamped twice too); --set last"
cp "$d" "$tmp/d.orig"
bad=0
for v in 2026-12-06 "2026-12-06 20:15:00Z" 2026-12-06T20:15:00 \
	2026-13-06T20:15:00Z 2026-12-06T20:15:00+1 x; do
	"$NSB" stamp --date "$v" "$d" 2>"$tmp/err"
	[ $? = 2 ] && grep -q -- "--date wants" "$tmp/err" || bad=1
done
[ $bad = 0 ] && cmp -s "$d" "$tmp/d.orig"
ok $? "--date that the readers would not take: exit 2, the file unchanged"

printf '[1, 2]' >"$tmp/a.json"
printf '{"context": [' >"$tmp/t.json"
cp "$tmp/t.json" "$tmp/t.orig"
"$NSB" stamp --set a=b "$tmp/a.json" 2>"$tmp/err"
rc1=$?
"$NSB" stamp --set a=b "$tmp/t.json" 2>>"$tmp/err"
rc2=$?
[ $rc1 = 2 ] && [ $rc2 = 2 ] && cmp -s "$tmp/t.json" "$tmp/t.orig" &&
	grep -q "a.json: expected a JSON object" "$tmp/err" &&
	grep -q "t.json:1:.*invalid JSON" "$tmp/err"
ok $? "no object, cut JSON: exit 2 naming the file, the file unchanged"
mkfifo "$tmp/fifo"
timeout 10 "$NSB" stamp --set a=b "$tmp/fifo" /dev/zero 2>/dev/null
rc1=$?
timeout 10 "$NSB" stamp --set novalue "$r" 2>/dev/null
rc2=$?
[ $rc1 = 2 ] && [ $rc2 = 2 ]
ok $? "a FIFO, /dev/zero, a --set without '=': exit 2 at once"
tap_done
