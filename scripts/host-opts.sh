# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# scripts/host-opts.sh — the options the scripts that run workloads on
# this host share (hyperfine-workloads.sh, perf-profile.sh).  POSIX sh,
# so that hyperfine-workloads.sh (sh) can source it as perf-profile.sh
# (bash) does; scripts/kernel/lib.sh is bash only.  Sourced, not run.

# host_opt ARG: --build=DIR, --name=RUN or --results=DIR sets build, name
# or results; returns 1 when ARG is none of them.
# shellcheck disable=SC2034 # the caller's variables
host_opt() {
	case $1 in
	--build=*) build=${1#*=} ;;
	--name=*) name=${1#*=} ;;
	--results=*) results=${1#*=} ;;
	*) return 1 ;;
	esac
}
