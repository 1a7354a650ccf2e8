#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t69-report-reproduce.sh — the report's "Reproduce" commands, pasted
# into sh, give back the exact arguments: a results file name and a
# --filter holding single and double quotes, blanks, $(...) and `...`;
# context values (executable, series) likewise; wrapped at 72 columns,
# a word longer than a line split with backslash-newline (inside single
# quotes closed and reopened around it); text and Markdown.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
FIX=$top/tests/fixtures/stats

# a results file whose name and context carry quotes and substitutions
f="$tmp/it's a \$(touch m1) \`touch m2\` \"b\"; long enough to wrap.json"
series="it's \$(touch m3) \"x\""
exe="$tmp/my bench's/nsbench-bench"
python3 - "$FIX/base.json" "$f" "$series" "$exe" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["context"]["patch_series"] = sys.argv[3]
d["context"]["executable"] = sys.argv[4]
json.dump(d, open(sys.argv[2], "w"))
EOF
# longer than a line: split, and still one word
filter="exec/sl.*|it's|$(printf 'sys/exec/vfork/(bin|suid)/%.0s' 1 2 3)"

# cmd FILE TEXT: the command line in FILE that holds TEXT, with the
# lines it continues onto (" \" at the end).
cmd() {
	awk -v pat="$2" 'go { print; if (!/\\$/) exit; next }
		index($0, pat) { go = 1; print; if (!/\\$/) exit }' "$1"
}

# args FILE: the arguments the command in FILE gives, NUL-terminated.
args() {
	(cd "$tmp" && sh -c 'printargs() { printf "%s\0" "$@"; }
		eval "printargs $(cat "$1")"' sh "$1")
}

for md in "" --markdown; do
	what=${md:-text}
	"$NSB" report $md --filter="$filter" "$f" -- "$FIX/patched.json" \
		>"$tmp/r" 2>"$tmp/err"
	[ $? != 2 ] && [ -s "$tmp/r" ]
	ok $? "$what: report written (exit 0 or 1 for a slower row)"
	cmd "$tmp/r" "nsbench report" >"$tmp/cmd"
	args "$tmp/cmd" >"$tmp/got"
	printf '%s\0' nsbench report $md --filter="$filter" "$f" -- \
		"$FIX/patched.json" >"$tmp/want"
	cmp -s "$tmp/got" "$tmp/want"
	ok $? "$what: the report's command gives back its exact arguments"
	# Markdown's tables and list items are not wrapped; text is
	whole=$tmp/r
	[ -z "$md" ] || whole=$tmp/cmd
	[ "$(grep -c . "$tmp/cmd")" -ge 3 ] &&
		awk 'length > 72 { bad = 1 } END { exit bad }' "$whole"
	ok $? "$what: wrapped within 72 columns (text: the whole report)"

	cmd "$tmp/r" "nsbench-bench" >"$tmp/m"
	args "$tmp/m" >"$tmp/got"
	printf '%s\0' "$exe" --mode=native --tier=quick --series="$series" \
		>"$tmp/want"
	cmp -s "$tmp/got" "$tmp/want"
	ok $? "$what: the measurement's command gives back the context's values"
done
! ls "$tmp"/m[0-9] >/dev/null 2>&1
ok $? "pasting the commands ran nothing"

tap_done
