# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# scripts/kernel/lib.sh — helpers shared by the kernel and guest scripts.
# Sourced, not run.

NSB_CACHE=${NSB_CACHE:-/var/cache/nsbench}
export NSB_CACHE

die() {
	echo "${0##*/}: error: $*" >&2
	exit 1
}

# build_dir TOP: the build whose binaries a script runs, absolute: the one
# the caller names in NSB_BUILD (make check: its sanitizer build), else
# TOP/build.
build_dir() {
	local b=${NSB_BUILD:-$1/build}
	case "$b" in /*) echo "$b" ;; *) echo "$PWD/$b" ;; esac
}

# series_dir TOP NAME: the directory of patch series NAME (nothing for
# none and stock): kernel-patches/NAME (calibration, calibration/layout),
# else NAME as a path (a series of the user's own, relative or absolute).
series_dir() {
	case "$2" in
	none|stock) return 0 ;;
	esac
	if [ -f "$1/kernel-patches/$2/series" ]; then
		echo "$1/kernel-patches/$2"
	elif [ -f "$2/series" ]; then
		echo "$2"
	elif [ -d "$2" ]; then
		die "series '$2': $2/series not found"
	else
		die "series '$2': not under kernel-patches/ nor a directory (none, stock, $(cd "$1/kernel-patches" && ls -- */series */*/series | sed 's|/series$||' | tr '\n' ' ')or a directory with a series file)"
	fi
}

# need_value OPT NARGS: an option written "OPT VALUE" has its value
# (NARGS: the "$#" where OPT is $1).
need_value() {
	[ "$2" -ge 2 ] || die "$1 needs a value (see --help)"
}

# need_uint OPT VALUE [MIN]: VALUE is a whole number (>= MIN, default 0);
# leading zeros are read as decimal, never octal.
need_uint() {
	case "$2" in
	''|*[!0-9]*) die "$1 must be a whole number, not '$2'" ;;
	esac
	[ ${#2} -le 9 ] || die "$1: '$2' is too large"
	[ $((10#$2)) -ge "${3:-0}" ] || die "$1 must be at least ${3:-0}, not '$2'"
}

# write_meta FILE KEY=VALUE... [KEY:=NUMBER]...: a flat JSON object, in
# order; jq makes every VALUE data (quotes, backslashes, $(...), newlines),
# and KEY:= takes whole numbers only.  KEY: a-z, 0-9 and _, a letter first.
write_meta() {
	local file=$1 kv k v jqargs=() expr='{' sep=''
	shift
	for kv in "$@"; do
		k=${kv%%=*}
		v=${kv#*=}
		case "$k" in
		*:)	k=${k%:}
			need_uint "meta $k" "$v"
			jqargs+=(--argjson "$k" "$((10#$v))") ;;
		*)	jqargs+=(--arg "$k" "$v") ;;
		esac
		case "$k" in ''|[!a-z]*|*[!a-z0-9_]*)
			die "write_meta: bad key '$k'" ;;
		esac
		expr="$expr$sep\"$k\": \$$k"
		sep=', '
	done
	jq -n "${jqargs[@]}" "$expr}" >"$file.tmp" || die "cannot write $file"
	mv "$file.tmp" "$file"
}

# progress STEP WHAT: "[kernel toggles 00:42] compile bzImage ..." on stderr.
progress() {
	local now el
	now=$(date +%s)
	el=$((now - ${NSB_T0:-$now}))
	printf '[%s %02d:%02d] %-8s %s\n' "${NSB_LABEL:-${0##*/}}" \
		$((el / 60)) $((el % 60)) "$1" "$2" >&2
}

# fail_log LOG MSG: die with the log's tail.
fail_log() {
	echo "--- last lines of $1 ---" >&2
	tail -n 30 "$1" >&2 || true
	echo "---" >&2
	die "$2"
}

# ticker LOG PID: every 15 s, print elapsed time and the last object built.
ticker() {
	while kill -0 "$2" 2>/dev/null; do
		sleep 15
		kill -0 "$2" 2>/dev/null || break
		progress "compile" "$(grep -E '^  [A-Z]+ ' "$1" | tail -n 1 |
			sed 's/^ *//')"
	done
}

# check_config CONFIG FRAG...: every CONFIG_X=y / "is not set" line of the
# fragments must hold in the final .config (Kconfig drops what it cannot
# satisfy; say which symbol instead of booting a surprising kernel).
check_config() {
	local cfg=$1 f line sym bad=0
	shift
	for f in "$@"; do
		while IFS= read -r line; do
			case "$line" in
			CONFIG_*=*)
				grep -qxF "$line" "$cfg" && continue
				sym=${line%%=*}
				;;
			"# CONFIG_"*" is not set")
				sym=${line#\# }
				sym=${sym%% *}
				grep -q "^$sym=" "$cfg" || continue
				;;
			*) continue ;;
			esac
			echo "config: $(basename "$f") wants '$line', got '$(grep "^$sym=\|^# $sym " "$cfg" || echo unset)'" >&2
			bad=1
		done <"$f"
	done
	[ "$bad" = 0 ] || die "config fragment not satisfied (see above)"
}
