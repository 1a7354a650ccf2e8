# SPDX-License-Identifier: GPL-2.0
#
# Bash completion for nsbench and nsbench-bench: commands, history's
# subcommands and plot's modes (each mode with its own options), options
# and the values an option lists (--mode=native|kvm|tcg|icount,
# --benchmark_format=<console|json|csv>), else file names.
#
# Nothing is listed here: every word comes from the programs' own --help,
# which options.c renders from the option tables, so a command or option
# added to a table completes at once (tests/t97-completion.sh checks
# every one).  `make install` puts this file in bash-completion's
# directory as nsbench, and nsbench-bench beside it.

# _nsbench_options CMD...: the options CMD... --help lists, "--name=" for
# one that takes a value; ours ("  --name=ARG  help", "  -h, --help")
# and libbenchmark's ("[--benchmark_filter=<regex>]").
_nsbench_options()
{
	"$@" --help 2>/dev/null | sed -n \
		-e 's/^  \(-h, \)\{0,1\}\(--[a-z0-9_-]*\)\(=\{0,1\}\).*/\2\3/p' \
		-e 's/^[a-z]* *\[\(--[a-z0-9_]*\)\(=\{0,1\}\).*/\1\2/p' \
		-e 's/^ *\[\(--[a-z0-9_]*\)\(=\{0,1\}\).*/\1\2/p'
}

# _nsbench_values OPT CMD...: the values --help lists for --OPT, as
# "--opt=a|b|c", "{a|b}" or "<a|b>"; nothing for a free value.
_nsbench_values()
{
	local opt=$1

	shift
	"$@" --help 2>/dev/null | sed -n \
		"s/^[^-]*\[\{0,1\}--$opt=[{<]\{0,1\}\([a-z0-9]*|[a-z0-9|]*\)[}>]\{0,1\}[] ].*/\1/p;
		 s/^[^-]*\[\{0,1\}--$opt=[{<]\{0,1\}\([a-z0-9]*|[a-z0-9|]*\)[}>]\{0,1\}\$/\1/p" |
		head -n 1 | tr '|' ' '
}

# _nsbench_commands NSBENCH: the rows of its "Commands:" list.
_nsbench_commands()
{
	"$1" --help 2>/dev/null |
		sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z0-9-]*\) .*/\1/p'
}

# _nsbench_subcommands NSBENCH CMD: "nsbench CMD SUB" of its usage.
_nsbench_subcommands()
{
	"$1" "$2" --help 2>/dev/null |
		sed -n "s/^[a-z: ]*nsbench $2 \([a-z][a-z-]*\).*/\1/p" | sort -u
}

# _nsbench_complete CMD...: COMPREPLY for the word under the cursor, the
# options and values of CMD... (the program and its command words).
_nsbench_complete()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev= opt vals

	[ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD - 1]}
	# "--mode=na": bash splits at '=' (COMP_WORDBREAKS), or does not
	if [ "$cur" = = ] || [ "$prev" = = ]; then
		[ "$cur" = = ] && opt=$prev || opt=${COMP_WORDS[COMP_CWORD - 2]}
		[ "$cur" = = ] && cur=
		vals=$(_nsbench_values "${opt#--}" "$@")
		[ -n "$vals" ] && COMPREPLY=($(compgen -W "$vals" -- "$cur"))
		return 0
	fi
	case $cur in
	--*=*)
		opt=${cur%%=*}
		vals=$(_nsbench_values "${opt#--}" "$@")
		vals=${vals:+$(printf -- "${cur%%=*}=%s " $vals)}
		[ -n "$vals" ] && COMPREPLY=($(compgen -W "$vals" -- "$cur"))
		;;
	-*)
		COMPREPLY=($(compgen -W "$(_nsbench_options "$@")" -- "$cur"))
		# "--mode=": no blank after it
		[ "${#COMPREPLY[@]}" = 1 ] && [ "${COMPREPLY[0]%=}" != \
			"${COMPREPLY[0]}" ] && compopt -o nospace 2>/dev/null
		;;
	esac
	return 0
}

_nsbench()
{
	local nsbench=${COMP_WORDS[0]} cmd= sub= i

	COMPREPLY=()
	# the command (and history's subcommand, plot's mode): the first
	# words not options
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*|=) ;;
		*)
			if [ -z "$cmd" ]; then
				cmd=${COMP_WORDS[i]}
			elif [ -z "$sub" ]; then
				sub=${COMP_WORDS[i]}
			fi
			;;
		esac
	done
	if [ -z "$cmd" ]; then
		case ${COMP_WORDS[COMP_CWORD]} in
		-*) COMPREPLY=($(compgen -W "--help --version" -- \
				 "${COMP_WORDS[COMP_CWORD]}")) ;;
		*) COMPREPLY=($(compgen -W "help $(_nsbench_commands \
				"$nsbench")" -- "${COMP_WORDS[COMP_CWORD]}")) ;;
		esac
		return 0
	fi
	if [ "$cmd" = help ]; then
		COMPREPLY=($(compgen -W "$(_nsbench_commands "$nsbench")" -- \
			     "${COMP_WORDS[COMP_CWORD]}"))
		return 0
	fi
	local subs

	subs=$(_nsbench_subcommands "$nsbench" "$cmd")
	if [ -z "$sub" ] && [ "${COMP_WORDS[COMP_CWORD]#-}" = \
	     "${COMP_WORDS[COMP_CWORD]}" ] && [ -n "$subs" ]; then
		COMPREPLY=($(compgen -W "$subs" -- "${COMP_WORDS[COMP_CWORD]}"))
		return 0
	fi
	# a mode with its own options (plot costs): its --help
	if [ -n "$sub" ] && printf '%s\n' $subs | grep -qx -- "$sub"; then
		_nsbench_complete "$nsbench" "$cmd" "$sub"
		return 0
	fi
	_nsbench_complete "$nsbench" "$cmd"
}

_nsbench_bench()
{
	COMPREPLY=()
	_nsbench_complete "${COMP_WORDS[0]}"
}

complete -o default -F _nsbench nsbench
complete -o default -F _nsbench_bench nsbench-bench
