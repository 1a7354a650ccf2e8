#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t54-garbage-inputs.sh — input every other reader refuses is refused by
# each command too: one error naming the file and what is wrong, exit 2,
# nothing written.  The cases a hostile-input pass found accepted: a
# results file with "benchmarks": [] (stamp), a NUL byte right after a
# number (summary, import-hyperfine, compare, report), an empty {} as a
# kernel's meta.json (stamp --kernel-meta, manifest --kernel-a), a UTF-16
# byte-order mark before a trend file's first row (plot trend) and an
# expect file that is not UTF-8 (compare --expect).

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
need jq jq
need python3 python3
S=$top/tests/fixtures/stats
H=$top/tests/fixtures/history
cd "$tmp" || exit 1

# refused RC DESC WHAT NOTWRITTEN ARGS...: nsbench ARGS exits 2, its
# stderr names WHAT (a fixed string), NOTWRITTEN (a path) is not there
refused() {
	desc=$1 what=$2 gone=$3
	shift 3
	"$NSB" "$@" >out 2>err
	rc=$?
	[ $rc = 2 ] && grep -qF -- "$what" err && [ ! -e "$gone" ]
	ok $? "$desc (exit $rc): $(head -n 1 err)"
}

# --- stamp: "benchmarks": [] ------------------------------------------------
jq '.benchmarks = []' "$S/base.json" >empty.json
cp empty.json empty.orig
refused 'stamp of "benchmarks": []' 'empty.json: no benchmarks' none \
	stamp --set=x=y empty.json
cmp -s empty.json empty.orig
ok $? "... the file is unchanged"

# --- a NUL byte right after a number ----------------------------------------
python3 - "$S/hyperfine-base.json" nul.json <<'PY'
import sys
s = open(sys.argv[1], "rb").read()
i = s.index(b'"mean": ') + len(b'"mean": ')
while s[i:i + 1] in b"0123456789.":
    i += 1
open(sys.argv[2], "wb").write(s[:i] + b"\0" + s[i:])
PY
refused "summary of a hyperfine JSON with a NUL after a number" \
	'nul.json:5:17: invalid JSON: a NUL byte' none summary nul.json
refused "import-hyperfine of it" 'nul.json:5:17: invalid JSON: a NUL byte' \
	imported.json import-hyperfine nul.json imported.json
refused "compare with it" 'nul.json:5:17: invalid JSON: a NUL byte' none \
	compare nul.json -- "$S/hyperfine-patched.json"
refused "report with it" 'nul.json:5:17: invalid JSON: a NUL byte' \
	r.txt report --out=r.txt nul.json -- "$S/hyperfine-patched.json"
[ ! -s out ]
ok $? "... no report on stdout"
# and a history line with one: named and skipped, not read on
{ head -n 1 "$H/step.jsonl" | sed 's/"n":5/"n":5\x00/'; } >nul.jsonl
"$NSB" history show --history=nul.jsonl >out 2>err
grep -q 'nul.jsonl:1: column [0-9]*: a NUL byte; line skipped' err
ok $? "a history line with a NUL byte is named and skipped"

# --- kernel meta.json {} ------------------------------------------------------
echo '{}' >meta.json
cp "$S/base.json" r1.json
refused "stamp --kernel-meta={}" \
	'meta.json: no kernel in it' none stamp --kernel-meta=meta.json r1.json
cmp -s r1.json "$S/base.json"
ok $? "... the results file is unchanged"
mkdir ka boots && echo '{}' >ka/meta.json && echo '1 1 1 A' >boots.txt
refused "manifest --kernel-a with a meta.json of {}" \
	'ka/meta.json: no kernel in it' manifest.json manifest \
	--out=manifest.json --boots=boots.txt --boots-dir=boots --kernel-a=ka
echo '{"key": 7}' >ka/meta.json
refused "... or of a key that is no string" '"key": not a string' \
	manifest.json manifest --out=manifest.json --boots=boots.txt \
	--boots-dir=boots --kernel-a=ka
echo '{"key": "k1", "release": "6.1.192"}' >ka/meta.json
"$NSB" manifest --out=manifest.json --boots=boots.txt --boots-dir=boots \
	--kernel-a=ka 2>err
ok $? "a meta.json that names its kernel is taken"

# --- plot trend: \xff\xfe before the first row -----------------------------------
printf '\377\3762024-01-01T00:00:00Z 100 99 101 a\n2024-01-02T00:00:00Z 101 100 102 b\n' \
	>bom.txt
refused "plot trend of a file with a UTF-16 BOM" \
	'bom.txt:1: column 1: not UTF-8 text (byte 0xff)' plots \
	plot trend --out-dir=plots bom.txt
printf '2024-01-01T00:00:00Z 100 99 101 a\000\n' >nul.txt
refused "... or a NUL byte" 'nul.txt:1: column 34: a NUL byte' plots \
	plot trend --out-dir=plots nul.txt

# --- compare --expect: not UTF-8 ------------------------------------------------
printf 'fix/exec/plain 16 yes caf\351\n' >latin1.p
refused "compare --expect with a Latin-1 expect file" \
	'latin1.p:1: column 26: not UTF-8 text (byte 0xe9)' none \
	compare --expect=latin1.p "$H/icount-base.json" -- "$H/icount-same.json"
[ ! -s out ]
ok $? "... no comparison on stdout"

tap_done
