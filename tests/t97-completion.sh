#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t97-completion.sh — the bash completion (contrib/completion/nsbench.bash)
# against the real tables: every row of src/cmd/commands.h, every option of
# every command's table (as its --help renders it), history's
# subcommands, nsbench-bench's options and libbenchmark's, and the values
# an option lists.  The completion reads them from --help, so a command
# or option added without completing fails here; a stand-in nsbench
# with a new command and option shows both complete unedited.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
BENCH=$NSB_BUILD/bench/nsbench-bench
# shellcheck source=contrib/completion/nsbench.bash
. "$top/contrib/completion/nsbench.bash"

# comp WORD...: the completions of the last word, one a line, in $tmp/c
comp() {
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMPREPLY=()
	case $1 in
	*nsbench-bench) _nsbench_bench ;;
	*) _nsbench ;;
	esac
	printf '%s\n' "${COMPREPLY[@]}" >"$tmp/c"
}

# offers WANT_FILE: every line of WANT_FILE is among the completions.
offers() {
	sort -u "$tmp/c" >"$tmp/cs"
	sort -u "$1" | comm -23 - "$tmp/cs" >"$tmp/missing"
	[ ! -s "$tmp/missing" ]
}

# table_options CMD...: the options CMD --help renders from its table,
# read apart from the completion's own sed: "--name" or "--name=".
table_options() {
	"$@" --help 2>/dev/null | grep -oE '^  (-h, )?--[a-z0-9_-]+=?' |
		sed 's/^ *\(-h, \)\{0,1\}//'
}

sed -n 's/^NSB_CMD(\([a-z_]*\),.*/\1/p' "$top/src/cmd/commands.h" | tr _ - \
	>"$tmp/commands"
comp "$NSB" ''
offers "$tmp/commands"
ok $? "nsbench <TAB>: all $(wc -l <"$tmp/commands") rows of src/cmd/commands.h$(tr '\n' ' ' <"$tmp/missing")"
comp "$NSB" his
[ "$(cat "$tmp/c")" = history ]
ok $? "nsbench his<TAB>: history"

bad=
while read -r cmd; do
	table_options "$NSB" "$cmd" >"$tmp/want"
	comp "$NSB" "$cmd" --
	[ -s "$tmp/want" ] && offers "$tmp/want" ||
		bad="$bad $cmd:$(tr '\n' ' ' <"$tmp/missing")"
done <"$tmp/commands"
[ -z "$bad" ]
ok $? "nsbench CMD --<TAB>: every option of every command's table${bad:+ (missing$bad)}"

"$NSB" history --help | grep -oE 'nsbench history [a-z]+' |
	sed 's/.* //' | sort -u >"$tmp/want"
comp "$NSB" history ''
offers "$tmp/want" && [ "$(wc -l <"$tmp/want")" -ge 5 ]
ok $? "nsbench history <TAB>: $(tr '\n' ' ' <"$tmp/want")"
comp "$NSB" history changes --fa
[ "$(cat "$tmp/c")" = --false-alarms ]
ok $? "nsbench history changes --fa<TAB>: --false-alarms"

# plot's modes: the words, and each mode's own options
comp "$NSB" plot ''
[ "$(sort "$tmp/c" | tr '\n' ' ')" = "ab costs profile trend " ]
ok $? "nsbench plot <TAB>: ab costs profile trend"
for m in ab costs profile trend; do
	table_options "$NSB" plot "$m" >"$tmp/want"
	comp "$NSB" plot "$m" --
	[ -s "$tmp/want" ] && offers "$tmp/want" ||
		bad="$bad plot $m:$(tr '\n' ' ' <"$tmp/missing")"
done
comp "$NSB" plot trend --ti
[ -z "$bad" ] && [ "$(cat "$tmp/c")" = --title= ]
ok $? "nsbench plot MODE --<TAB>: each mode's table${bad:+ (missing$bad)}"
comp "$NSB" plot costs --ti
[ -z "$(tr -d '\n' <"$tmp/c")" ]
ok $? "nsbench plot costs --ti<TAB>: nothing (--title is trend's)"

# nsbench-bench: ours, and libbenchmark's "[--benchmark_x=...]"
{ table_options "$BENCH"
  "$BENCH" --help | grep -oE '\[--[a-z0-9_]+(=|\])' | tr -d '[]'; } >"$tmp/want"
comp "$BENCH" --
offers "$tmp/want" && grep -qx -- --benchmark_filter= "$tmp/want" &&
	grep -qx -- --version "$tmp/want"
ok $? "nsbench-bench --<TAB>: all $(wc -l <"$tmp/want") options$(tr '\n' ' ' <"$tmp/missing")"

# values (bash splits "--mode=" at '=', COMP_WORDBREAKS)
comp "$BENCH" --mode = ''
[ "$(sort "$tmp/c" | tr '\n' ' ')" = "icount kvm native tcg " ]
ok $? "nsbench-bench --mode=<TAB>: the four modes"
comp "$BENCH" --mode=i
[ "$(cat "$tmp/c")" = --mode=icount ]
ok $? "nsbench-bench --mode=i<TAB> (one word): --mode=icount"
comp "$BENCH" --tier = ''
[ "$(sort "$tmp/c" | tr '\n' ' ')" = "full quick " ]
ok $? "nsbench-bench --tier=<TAB>: quick full"
comp "$NSB" gate --format = ''
[ "$(sort "$tmp/c" | tr '\n' ' ')" = "junit ktap text " ]
ok $? "nsbench gate --format=<TAB>: text ktap junit"

# a stand-in nsbench with a new command and option, the completion as is
cat >"$tmp/nsbench" <<'SH'
#!/bin/sh
case "$1 $2" in
"newcmd --help") printf 'usage: nsbench newcmd\n\n  --new-opt=a|b      new\n' ;;
*) printf 'Commands:\n  gate              g\n  newcmd            new\n\n' ;;
esac
SH
chmod +x "$tmp/nsbench"
comp "$tmp/nsbench" new
[ "$(cat "$tmp/c")" = newcmd ]
ok $? "a command added to the table completes, the completion unedited"
comp "$tmp/nsbench" newcmd --new
[ "$(cat "$tmp/c")" = --new-opt= ]
ok $? "... and its new option"

tap_done
