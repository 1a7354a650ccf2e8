#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Nothing left behind: after a normal run of sys/ benchmarks (including a
# scenario the kernel refuses), after one interrupted with SIGINT and after
# one killed with SIGKILL, the host has the same mounts, no process of the
# run's session, no namespace the run created, no setuid or file-caps file
# in /tmp, no scratch directory and no new loop device.

set -u
bench=${NSB_BUILD:-build}/bench/nsbench-bench
n=0
fail=0

ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		fail=1
	fi
}

if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP workload fixtures need root"
	exit 0
fi
if [ ! -x "$bench" ]; then
	echo "1..0 # SKIP $bench not built"
	exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Host state that a leaking run would change.
snapshot() {
	{
		echo '# mounts'
		awk '{ print $5, $9, $10 }' /proc/self/mountinfo | sort
		echo '# setuid/setgid in /tmp'
		find /tmp -xdev \( -perm -4000 -o -perm -2000 \) 2>/dev/null |
			sort
		echo '# file caps in /tmp'
		getcap -r /tmp 2>/dev/null | sort
		echo '# scratch'
		ls -d /tmp/nsbench-wl* 2>/dev/null
		echo '# loop devices'
		losetup -a 2>/dev/null | sort
	} >"$1"
}

# Pids whose session id is $1 (field 6 of /proc/PID/stat; comm may hold
# spaces, so count from the closing parenthesis).
session_pids() {
	for f in /proc/[0-9]*/stat; do
		sed -n 's/.*) [A-Za-z] [0-9-]* [0-9-]* \([0-9-]*\) .*/\1/p' \
			"$f" 2>/dev/null | grep -qx "$1" &&
			{ p=${f#/proc/}; echo "${p%/stat}"; }
	done
}

# Namespace inodes of the given pids (or of every process).
ns_inodes() {
	for p in "$@"; do
		for t in user mnt ipc pid; do
			readlink "/proc/$p/ns/$t" 2>/dev/null
		done
	done | sort -u
}

all_pids() {
	for f in /proc/[0-9]*; do echo "${f#/proc/}"; done
}

# Waits up to $2 seconds for session $1 to be empty; prints what is left.
wait_session_gone() {
	i=0
	while [ $i -lt $(($2 * 10)) ]; do
		[ -z "$(session_pids "$1")" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	session_pids "$1"
	return 1
}

# Runs nsbench-bench in its own session; waits for its scenario worker
# and helpers (>= 3 processes), records their namespaces, signals it.
interrupted_run() {
	sig=$1
	setsid "$bench" --no-results --benchmark_min_time=30 \
		--benchmark_filter='^sys/exec/fork/suid/foreign-fd/depth:8' \
		>"$tmp/out.$sig" 2>&1 &
	pid=$!
	i=0
	while [ $i -lt 300 ]; do
		[ "$(session_pids $pid | wc -l)" -ge 4 ] && break
		sleep 0.1
		i=$((i + 1))
	done
	ok $([ $i -lt 300 ]; echo $?) "SIGINT/KILL run: worker and helpers up ($sig)"
	ns_inodes $(session_pids $pid) >"$tmp/ns.during"
	comm -13 "$tmp/ns.before" "$tmp/ns.during" >"$tmp/ns.ours"
	ok $([ -s "$tmp/ns.ours" ]; echo $?) "the run made its own namespaces ($sig)"
	kill -s "$sig" $pid
	wait $pid
	rc=$?
	if [ "$sig" = INT ]; then
		ok $([ $rc -eq 130 ]; echo $?) "SIGINT: nsbench-bench exits 130 (got $rc)"
	else
		ok $([ $rc -eq 137 ]; echo $?) "SIGKILL: killed (got $rc)"
	fi
	left=$(wait_session_gone $pid 10)
	ok $([ -z "$left" ]; echo $?) "no process of the run is left ($sig)${left:+: $left}"
	check_host "$sig"
	ns_inodes $(all_pids) >"$tmp/ns.after"
	leaked=$(comm -12 "$tmp/ns.ours" "$tmp/ns.after" | tr '\n' ' ')
	ok $([ -z "$leaked" ]; echo $?) "no namespace of the run is pinned ($sig)${leaked:+: $leaked}"
}

check_host() {
	snapshot "$tmp/after"
	if diff -u "$tmp/before" "$tmp/after" >"$tmp/diff"; then
		ok 0 "host mounts, /tmp setuid/caps files, loop devices unchanged ($1)"
	else
		ok 1 "host mounts, /tmp setuid/caps files, loop devices unchanged ($1)"
		sed 's/^/# /' "$tmp/diff"
	fi
}

snapshot "$tmp/before"
ns_inodes $(all_pids) >"$tmp/ns.before"

# A normal run: several owners, a skip (parent at depth 0), mqueue with
# 256 IPC namespaces.
setsid "$bench" --no-results --benchmark_min_time=0.01 \
	--benchmark_filter='^sys/(open/file/parent|exec/fork/fcaps/foreign-tree|mount/mqueue/depth:1/)' \
	>"$tmp/out.normal" 2>&1 &
pid=$!
wait $pid
rc=$?
ok $([ $rc -eq 0 ]; echo $?) "normal run exits 0 (got $rc)"
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/out.normal" | tail -20
grep -q 'skipped: owner parent needs depth >= 1' "$tmp/out.normal"
ok $? "the refused scenario is reported as a skip"
left=$(wait_session_gone $pid 10)
ok $([ -z "$left" ]; echo $?) "no process of the normal run is left${left:+: $left}"
check_host normal

interrupted_run INT
interrupted_run KILL

echo "1..$n"
exit $fail
