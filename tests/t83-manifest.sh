#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t83-manifest.sh — `nsbench manifest`, the manifest.json of a kernel A/B
# run (scripts/ab.sh): each boot's row from what its directory holds (a
# boot without a .source failed), each side's kernel from its meta.json,
# every string kept as data; shards merged with their boots in boot order;
# a bad boot list or meta.json refused by name, nothing written.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
need jq "jq"
tap_plan 14

b=$tmp/boots
mkdir -p "$b/r01-A" "$b/r01-B" "$b/r02-B" "$tmp/k"
echo "fresh" >"$b/r01-A.source"
echo "cache 0123abcd" >"$b/r01-B.source"
echo 27 >"$b/r01-A/wall_seconds"
echo 3.5 >"$b/r01-B/wall_seconds"
printf '1 1 77 A\n2 1 77 B\n3 2 99 B\n' >"$tmp/list"
echo '{"key": "k", "config_hash": "sha256:0"}' >"$tmp/k/meta.json"
evil='a "q" $(touch '$tmp'/pwned) `id` \n'

"$NSB" manifest --out="$tmp/m.json" --boots="$tmp/list" --boots-dir="$b" \
	--kernel-b="$tmp/k" --mode=icount --rounds=2 --checks \
	--plan=checks.plan --append="$evil" --shard=1/2 --host-command="$evil"
ok $? "a manifest is written"
[ "$(jq -c '[.boots[] | [.boot, .status, .source, .wall_seconds]]' "$tmp/m.json")" = \
  '[[1,"ok","fresh",27],[2,"ok","cache",3.5],[3,"fail","none",0]]' ]
ok $? "each boot from its directory: status, source's first word, wall seconds"
[ "$(jq -c '[.rounds, .aa, .checks, .A, .B.key, .shard]' "$tmp/m.json")" = \
  '[2,false,true,null,"k","1/2"]' ]
ok $? "numbers and flags typed; no --kernel-a: null; the kernel's meta.json"
[ "$(jq -r .append "$tmp/m.json")" = "$evil" ] &&
	[ "$(jq -r .host_command "$tmp/m.json")" = "$evil" ] && [ ! -e "$tmp/pwned" ]
ok $? "strings are data, byte for byte"

# shards: the second has the earlier boot
printf '2 1 77 B\n' >"$tmp/l2"
printf '1 1 77 A\n3 2 99 B\n' >"$tmp/l1"
"$NSB" manifest --out="$tmp/s1.json" --boots="$tmp/l1" --boots-dir="$b" \
	--shard=1/2 && "$NSB" manifest --out="$tmp/s2.json" --boots="$tmp/l2" \
	--boots-dir="$b" --shard=2/2 &&
	"$NSB" manifest --merge --out="$tmp/merged.json" "$tmp/s1.json" "$tmp/s2.json"
ok $? "two shards merged"
[ "$(jq -c '[[.boots[].boot], .shards, has("shard")]' "$tmp/merged.json")" = \
  '[[1,2,3],["1/2","2/2"],false]' ]
ok $? "boots in boot order, the shards named, no single shard left"

# bad input: named, nothing written
printf '1 1 77 A\n2 x 77 B\n' >"$tmp/bad"
"$NSB" manifest --out="$tmp/bad.json" --boots="$tmp/bad" --boots-dir="$b" \
	2>"$tmp/err"
[ $? = 2 ] && grep -q "bad:2:" "$tmp/err" && [ ! -e "$tmp/bad.json" ]
ok $? "a bad boot line: exit 2, file:line, nothing written"
printf '1 1 77 C\n' >"$tmp/bad"
"$NSB" manifest --out="$tmp/bad.json" --boots="$tmp/bad" --boots-dir="$b" \
	2>/dev/null
[ $? = 2 ] && [ ! -e "$tmp/bad.json" ]
ok $? "a side other than A or B is refused"
for bad in B+apparmor B+ A+selinux+smack Bselinux; do
	printf '1 1 77 %s\n' "$bad" >"$tmp/bad"
	"$NSB" manifest --out="$tmp/bad.json" --boots="$tmp/bad" \
		--boots-dir="$b" 2>/dev/null && exit 1
done
[ ! -e "$tmp/bad.json" ]
ok $? "a side with an LSM other than selinux or smack is refused"
mkdir -p "$b/r01-B+selinux"
echo 31 >"$b/r01-B+selinux/wall_seconds"
echo "fresh k3" >"$b/r01-B+selinux.source"
printf '1 1 77 B\n2 1 77 B+selinux\n3 1 77 B+smack\n' >"$tmp/lsm"
"$NSB" manifest --out="$tmp/lsm.json" --boots="$tmp/lsm" --boots-dir="$b" &&
[ "$(jq -c '[.boots[] | [.side, .lsm, .status, .wall_seconds]]' "$tmp/lsm.json")" = \
  '[["B","none","ok",3.5],["B+selinux","selinux","ok",31],["B+smack","smack","fail",0]]' ]
ok $? "LSM boots (B+LSM): their side, LSM, status and wall seconds"
echo '[1]' >"$tmp/k/meta.json"
"$NSB" manifest --out="$tmp/bad.json" --boots="$tmp/list" --boots-dir="$b" \
	--kernel-a="$tmp/k" 2>"$tmp/err"
[ $? = 2 ] && grep -q "meta.json: not a JSON object" "$tmp/err" &&
	[ ! -e "$tmp/bad.json" ]
ok $? "a meta.json that is no object is named"
"$NSB" manifest --merge --out="$tmp/bad.json" "$tmp/s1.json" "$tmp/k/meta.json" \
	2>"$tmp/err"
[ $? = 2 ] && [ ! -e "$tmp/bad.json" ]
ok $? "merging a file that is no manifest fails, nothing written"
timeout 10 "$NSB" manifest --out="$tmp/bad.json" --boots=/dev/zero \
	--boots-dir="$b" 2>/dev/null
[ $? = 2 ]
ok $? "an endless boot list (/dev/zero) ends with an error"
"$NSB" manifest --boots="$tmp/list" 2>/dev/null
[ $? = 2 ]
ok $? "no --out: usage error"

tap_done
