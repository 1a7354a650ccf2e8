#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/perf-profile.sh — sample a workload with `perf record -g` and
# name the share of the user-namespace mount checks in it.
#
# usage: scripts/perf-profile.sh [--build=DIR] [--name=RUN] [--results=DIR]
#                                [--freq=HZ] [--count=N] WORKLOAD...
#        scripts/perf-profile.sh [options] --cmd=LABEL -- COMMAND [ARG...]
#   WORKLOAD: exec | open | mount | sget | stat (nsb-wl presets), or
#   --cmd=LABEL -- COMMAND: any command, e.g. nsbench-bench with a filter.
#   Output, per workload: <results>/perf/<run>/<workload>/
#     perf.data      the samples (perf report -i perf.data)
#     report.txt     perf report --stdio (self time, call graphs)
#     summary.txt    share of the check functions, self and inclusive
#
# Event: cycles where the machine has a hardware PMU, cpu-clock (a timer
# interrupt, software) where it has none (most VMs).  Root is needed for
# the workloads; a non-root perf user needs perf_event_paranoid <= 1 for
# kernel samples and kptr_restrict = 0 for kernel symbol names — the
# script checks and says which one is in the way.

set -eu

build=build
name=
results=results
freq=4999
count=
label=
workloads=
# shellcheck source=scripts/host-opts.sh
. "$(dirname "$0")/host-opts.sh"
for arg; do
	case $arg in
	--freq=*) freq=${arg#*=} ;;
	--count=*) count=${arg#*=} ;;
	--cmd=*) label=${arg#*=} ;;
	--) shift; break ;;
	-h|--help) sed -n '4,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) host_opt "$arg" ||
		{ echo "perf-profile.sh: unknown option '$arg'" >&2; exit 2; } ;;
	*) workloads="$workloads $arg" ;;
	esac
	shift
done

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/kernel/lib.sh
. "$top/scripts/kernel/lib.sh"

# (its own message form, the exit code lib.sh's)
die() {
	echo "perf-profile.sh: $*" >&2
	exit 2
}

# Every option and workload is checked before the first sample.
case $freq in ''|*[!0-9]*|0) die "--freq must be a whole number >= 1, not '$freq'" ;; esac
case $count in *[!0-9]*|0) die "--count must be a whole number >= 1, not '$count'" ;; esac
[ -n "$results" ] || die "--results needs a directory"
case $name in */*|.|..) die "--name must be a plain name, not '$name'" ;; esac
for w in $workloads; do
	case $w in
	exec|open|mount|sget|stat) ;;
	*) die "unknown workload '$w' (exec, open, mount, sget, stat)" ;;
	esac
done
if [ -n "$label" ]; then
	case $label in ''|*/*|.|..) die "--cmd=LABEL must be a plain name, not '$label'" ;; esac
	[ $# -gt 0 ] || die "--cmd=$label needs -- COMMAND"
	command -v "$1" >/dev/null || die "--cmd=$label: '$1' not found"
elif [ $# -gt 0 ]; then
	die "a COMMAND after -- needs --cmd=LABEL"
fi

command -v perf >/dev/null ||
	die "perf not installed (Debian: apt-get install linux-perf)"
wl=$build/workloads/nsb-wl
[ -n "$label" ] || [ -x "$wl" ] || die "$wl not built (make O=$build)"
[ -n "$label$workloads" ] || die "nothing to profile (see --help)"

# --- can perf see the kernel? -------------------------------------------
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo '?')
kptr=$(cat /proc/sys/kernel/kptr_restrict 2>/dev/null || echo '?')
if [ "$(id -u)" != 0 ] && [ "$paranoid" != '?' ] && [ "$paranoid" -gt 1 ]; then
	die "perf_event_paranoid is $paranoid: a non-root user may not sample
the kernel, and every check function lives there. Run as root, or
lower it for this boot: sysctl kernel.perf_event_paranoid=1"
fi
# With kptr_restrict, /proc/kallsyms shows zero addresses to us and perf
# cannot name kernel functions: the summary would be all hex.
if ! awk 'NR == 1 { exit ($1 ~ /^0+$/) }' /proc/kallsyms 2>/dev/null; then
	die "kernel symbols are hidden (kptr_restrict = $kptr, /proc/kallsyms
reads zero addresses): perf could not name the check functions. Run as
root, or: sysctl kernel.kptr_restrict=0"
fi

# Hardware cycles if there is a PMU, else the cpu-clock software timer.
if perf stat -e cycles -x, true 2>&1 | grep -q '^[0-9]'; then
	event=cycles
else
	event=cpu-clock
fi

name=${name:-$(date -u +%Y%m%dT%H%M%SZ)}
out=$results/perf/$name
mkdir -p "$out"

# The check functions: kernel-patches/checks.def's FUNCS, the list the
# report's perf diff counts too; inlined ones (check_mnt, bprm_fill_uid)
# show up in their callers.  Around them, named here as context only:
# what the checks call (test_keyed_super, the compare sget_fc makes per
# superblock; the capability helpers), every LSM hook, and the hot
# paths' callers.
funcs=$(checks_funcs "$top" | paste -sd '|') || exit
CHECKS="$funcs|test_keyed_super|get_vfs_caps_from_disk|cap_inode_setxattr|\
cap_convert_nscap|security_[a-z_]*|selinux_[a-z_]*|smack_[a-z_]*|\
apparmor_[a-z_]*|bprm_execve|do_open_execat|path_openat|do_dentry_open"

summarize() {
	data=$1
	what=$2
	echo "perf summary: $what"
	echo "event: $event (${freq} Hz), kernel $(uname -r)"
	echo "perf_event_paranoid=$paranoid kptr_restrict=$kptr"
	grep -E '^# (Samples|Event count)' "${data%perf.data}report.txt" || true
	echo
	echo "Share of all samples.  self: in the function itself;"
	echo "incl.: with everything it calls.  A check absent below had no"
	echo "sample (too cheap to see at this rate) or is inlined into its caller."
	echo
	printf '%8s %8s  %s\n' incl. self function
	perf report -i "$data" --stdio --children --sort sym -g none \
		--percent-limit 0 2>/dev/null |
		awk -v re="^($CHECKS)\$" '
		/^ +[0-9.]+% +[0-9.]+% +\[k\] / {
			if ($4 ~ re) printf "%8s %8s  %s\n", $1, $2, $4
		}' | sort -k1 -rn
	echo
	echo "Top 15 kernel functions by self time:"
	perf report -i "$data" --stdio --no-children --sort sym -g none \
		2>/dev/null | awk '/^ +[0-9.]+% +\[k\] / { print; if (++n == 15) exit }'
}

profile() {
	what=$1
	shift
	dir=$out/$what
	mkdir -p "$dir"
	echo "== $what: perf record -e $event -g -- $*" >&2
	if ! perf record -e "$event" -F "$freq" -g -o "$dir/perf.data" \
		-- "$@" >"$dir/record.log" 2>&1; then
		sed 's/^/  /' "$dir/record.log" >&2
		die "perf record failed for $what (log: $dir/record.log)"
	fi
	perf report -i "$dir/perf.data" --stdio --no-children --sort sym \
		>"$dir/report.txt" 2>"$dir/report.err" ||
		die "perf report failed for $what: $(tail -n 1 "$dir/report.err")"
	summarize "$dir/perf.data" "$what: $*" >"$dir/summary.txt" ||
		die "summary of $what failed"
	cat "$dir/summary.txt"
	echo
}

n=${count:-}
for w in $workloads; do
	case $w in
	exec)	profile exec "$wl" exec --unpriv --depth=8 --owner=init \
			--file=fcaps --count=${n:-10000} ;;
	open)	profile open "$wl" open --unpriv --depth=8 --owner=init \
			--file=null --count=${n:-1000000} ;;
	mount)	profile mount "$wl" mount --depth=8 --fs=mqueue --nipc=1024 \
			--count=${n:-20000} ;;
	sget)	profile sget "$wl" fscreate --depth=8 --fs=mqueue --nipc=1024 \
			--count=${n:-200000} ;;
	stat)	profile stat "$wl" stat --unpriv --depth=8 --path-depth=64 \
			--count=${n:-200000} ;;
	esac
done
[ -z "$label" ] || profile "$label" "$@"
# perf.data of a root run is root-owned 0600; keep it readable for the
# user who reads the results.
chmod -R a+rX "$out" 2>/dev/null || true
echo "perf-profile.sh: results in $out" >&2
