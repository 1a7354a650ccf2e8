#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t96-cli-typos.sh — small things a CI user hits: nsbench-bench
# --version says the version its results carry; --mode takes native, kvm,
# tcg or icount and refuses anything else (it becomes nsbench_mode, which
# picks the rule a comparison judges by) before any benchmark runs; a
# mistyped nsbench command gets "did you mean", by edit distance over the
# command table, and only when one command is near.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
BENCH=$NSB_BUILD/bench/nsbench-bench

# --- nsbench-bench --version, --mode ---------------------------------------
"$BENCH" --version >"$tmp/v" 2>"$tmp/err"
ok $? "nsbench-bench --version: exit 0"
want=$(cat "$NSB_BUILD/guest-version.txt" 2>/dev/null)
grep -qx "nsbench-bench ${want:-.*}" "$tmp/v" && [ "$(wc -l <"$tmp/v")" = 1 ]
ok $? "... one line, the guest version its results carry: $(cat "$tmp/v")"
"$BENCH" --mode=xyz --no-results --benchmark_filter=models/shim \
	>"$tmp/out" 2>"$tmp/err"
[ $? = 2 ] && grep -q "^nsbench-bench: --mode must be native, kvm, tcg or icount, not 'xyz'" \
	"$tmp/err" && ! grep -q 'models/shim' "$tmp/out"
ok $? "--mode=xyz: exit 2, the valid modes listed, nothing run"
"$BENCH" --mode=icount --no-results --benchmark_filter=models/shim/c/keep \
	--benchmark_min_time=0.001 >"$tmp/out" 2>"$tmp/err"
ok $? "--mode=icount is taken"
"$BENCH" --help | grep -q -- '--mode=native|kvm|tcg|icount'
ok $? "--help lists the modes"

# --- did you mean ----------------------------------------------------------
# typo WORD WANT: nsbench WORD exits 2, suggesting WANT ("" for none).
typo() {
	"$NSB" "$1" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ -n "$2" ]; then
		[ $rc = 2 ] && grep -q "^nsbench: '$1' is not a command; did you mean '$2'? commands: context" \
			"$tmp/err"
		ok $? "nsbench $1: did you mean '$2'?"
	else
		[ $rc = 2 ] && ! grep -q 'did you mean' "$tmp/err" &&
			grep -q "'$1' is not a command; commands:" "$tmp/err"
		ok $? "nsbench $1: no suggestion, the command list"
	fi
	[ "$(wc -l <"$tmp/err")" = 1 ]
	ok $? "... on one line"
}
typo histroy history
typo gaet gate
typo compre compare
typo profile-imprt profile-import
typo import_hyperfin import-hyperfine
typo frobnicate ""
typo x ""
"$NSB" help repotr >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "did you mean 'report'?" "$tmp/err"
ok $? "nsbench help repotr: did you mean 'report'?"

tap_done
