#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t52-gate-forged-lines.sh — values from the command line and from files
# cannot add a line to the gate's output: a run id, a benchmark name and
# a kernel release holding "\nok 1 forged" come out escaped (text) or
# flattened (KTAP, JUnit), in every format, with the line count of a
# clean run.  (The newline in a --run-id once started a line of the text
# output: "ok 1 forged against ...".)

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
need jq jq
FIX=$top/tests/fixtures/history
cd "$tmp" || exit 1

forged=$(printf 'new\nok 1 forged')
# the same results with a forged benchmark name and kernel release
jq '.context.kernel_release = "6.1\nok 2 forged" |
    .benchmarks[0].name = "fix/exec/plain\nok 3 forged" |
    .benchmarks[1:5][].name = "fix/exec/plain\nok 3 forged"' \
	"$FIX/icount-same.json" >forged.json
jq '.benchmarks[0:5][].name = "fix/exec/plain\nok 3 forged"' \
	"$FIX/icount-base.json" >base.json

for fmt in text ktap junit; do
	"$NSB" gate --history=none.jsonl --baseline="$FIX/icount-base.json" \
		--format=$fmt --run-id=new "$FIX/icount-same.json" >clean.$fmt
	"$NSB" gate --history=none.jsonl --baseline="$FIX/icount-base.json" \
		--format=$fmt --run-id="$forged" "$FIX/icount-same.json" \
		>run.$fmt 2>err
	! grep -q '^ok 1 forged' run.$fmt &&
		[ "$(wc -l <run.$fmt)" = "$(wc -l <clean.$fmt)" ]
	ok $? "$fmt: a newline in --run-id makes no line of its own"
	"$NSB" gate --history=none.jsonl --baseline=base.json \
		--format=$fmt --run-id=new forged.json >file.$fmt 2>err
	# (KTAP names a name it had to flatten on a "# name:" line)
	! grep -q '^ok [23] forged' file.$fmt &&
		[ "$(grep -vc '^# name: ' file.$fmt)" = "$(wc -l <clean.$fmt)" ]
	ok $? "$fmt: nor one in a benchmark name or kernel release of a file"
done
grep -qF 'run new\x0aok 1 forged against' run.text
ok $? "text: the run id's newline is shown as \\x0a"
grep -qF 'fix/exec/plain\x0aok 3 forged' file.text &&
	grep -qF 'kernel 6.1\x0aok 2 forged' file.text
ok $? "text: so are the name's and the kernel release's"

tap_done
