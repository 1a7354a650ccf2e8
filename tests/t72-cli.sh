#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t72-cli.sh — the command line's habits: -h wherever --help works,
# `nsbench help CMD` is CMD's help, an unknown command is one line that
# lists the commands, --version, and `make help` padded with spaces (no
# U+00A0 a copied command would carry into a shell).

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"

# out NAME ARGS...: stdout in $tmp/NAME.out, stderr in .err, status in .rc
out() {
	name=$1
	shift
	"$NSB" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
	echo $? >"$tmp/$name.rc"
}

same() {
	cmp -s "$tmp/$1.out" "$tmp/$2.out" && cmp -s "$tmp/$1.err" "$tmp/$2.err" &&
		cmp -s "$tmp/$1.rc" "$tmp/$2.rc"
}

# --- the top level --------------------------------------------------------
out help --help
out h -h
out word help
[ "$(cat "$tmp/help.rc")" = 0 ] && grep -q '^Usage: nsbench <command>' "$tmp/help.out"
ok $? "nsbench --help: usage on stdout, exit 0"
same help h && same help word
ok $? "nsbench -h and nsbench help say the same"
out none
[ "$(cat "$tmp/none.rc")" = 2 ] && [ -s "$tmp/none.err" ]
ok $? "nsbench alone: usage on stderr, exit 2"

out version --version
grep -Eqx 'nsbench [^ ]+' "$tmp/version.out"
ok $? "nsbench --version: 'nsbench VERSION'"

commands=$(sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z-]*\)  .*/\1/p' \
	"$tmp/help.out")
[ "$(echo "$commands" | wc -w)" -ge 8 ]
ok $? "--help lists the commands: $(echo "$commands" | tr '\n' ' ')"

# --- every command --------------------------------------------------------
for c in $commands; do
	out "$c-long" "$c" --help
	out "$c-short" "$c" -h
	out "$c-help" help "$c"
	same "$c-long" "$c-short" && same "$c-long" "$c-help" &&
		{ [ -s "$tmp/$c-long.out" ] || [ -s "$tmp/$c-long.err" ]; }
	ok $? "$c: -h and 'nsbench help $c' are $c --help"
done
out gate-later gate --threshold=2 -h
same gate-later gate-long
ok $? "-h after other options too (gate --threshold=2 -h)"

# --- an unknown command ---------------------------------------------------
out bad frobnicate
[ "$(cat "$tmp/bad.rc")" = 2 ] && [ ! -s "$tmp/bad.out" ] &&
	[ "$(wc -l <"$tmp/bad.err")" = 1 ] &&
	grep -q "'frobnicate' is not a command" "$tmp/bad.err"
ok $? "unknown command: one line on stderr, exit 2: $(cat "$tmp/bad.err")"
all=1
for c in $commands; do
	grep -qw -- "$c" "$tmp/bad.err" || all=0
done
[ "$all" = 1 ]
ok $? "... and the line lists every command"
out badhelp help frobnicate
same bad badhelp
ok $? "nsbench help frobnicate: the same one line"

# --- make help --------------------------------------------------------------
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$top" O="$tmp/o" help \
	>"$tmp/make-help" 2>&1
ok $? "make help runs"
! grep -qP '\xa0' "$tmp/make-help"
ok $? "make help has no U+00A0 (no-break space)"
grep -q '^  make install  *PREFIX=' "$tmp/make-help"
ok $? "make help names make install"

tap_done
