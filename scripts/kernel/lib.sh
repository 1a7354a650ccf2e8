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
	tail -n 30 "$1" >&2
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
