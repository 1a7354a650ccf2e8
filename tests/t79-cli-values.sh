#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t79-cli-values.sh — a bad value names its option ("nsbench compare:
# --threshold: bad value 'abc'"), an unknown history subcommand is named,
# `nsbench context --help` exits 0, and an interrupted run's .partial
# file is refused as what it is.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
FIX=$top/tests/fixtures/stats
A=$FIX/base.json
B=$FIX/patched.json

# bad WANT-LINE ARGS...: exit 2 and WANT-LINE first on stderr.
bad() {
	local want=$1
	shift
	"$NSB" "$@" >/dev/null 2>"$tmp/err"
	[ $? = 2 ] && [ "$(sed -n 1p "$tmp/err")" = "$want" ]
	ok $? "nsbench $1: $want"
}

bad "nsbench compare: --threshold: bad value 'abc'" \
	compare --threshold=abc "$A" -- "$B"
bad "nsbench compare: --threshold: bad value 'abc'" \
	compare --threshold abc "$A" -- "$B"
bad "nsbench compare: --metric: bad value 'wall'" \
	compare --metric=wall "$A" -- "$B"
bad "nsbench compare: --seed: bad value '1x'" compare --seed=1x "$A" -- "$B"
bad "nsbench compare: --format: bad value 'xml'" \
	compare --format=xml "$A" -- "$B"
bad "nsbench report: --threshold: bad value '-1'" \
	report --threshold=-1 "$A" -- "$B"
bad "nsbench gate: --threshold: bad value 'abc'" \
	gate --history="$tmp/h.jsonl" --threshold=abc "$B"
bad "nsbench gate: --format: bad value 'xml'" \
	gate --history="$tmp/h.jsonl" --format=xml "$B"
bad "nsbench history: --sig: bad value 'abc'" \
	history show --history="$tmp/h.jsonl" --sig=abc
bad "nsbench history: --format: bad value 'xml'" \
	history changes --history="$tmp/h.jsonl" --format=xml
bad "nsbench history: unknown subcommand 'frob'" history frob

"$NSB" context --help >"$tmp/out" 2>"$tmp/err"
[ $? = 0 ] && grep -q '^usage: nsbench context' "$tmp/out" && [ ! -s "$tmp/err" ]
ok $? "nsbench context --help: usage on stdout, exit 0"
"$NSB" context extra >/dev/null 2>&1
[ $? = 2 ]
ok $? "nsbench context extra: exit 2"

p=$tmp/exec.json.Ab12Cd.partial
cp "$B" "$p"
bad "$p: an interrupted run's unfinished output (killed?), not a results file" \
	summary "$p"
bad "$p: an interrupted run's unfinished output (killed?), not a results file" \
	compare "$A" -- "$p"

tap_done
