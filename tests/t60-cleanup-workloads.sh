#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Nothing left behind: after a normal run of sys/ benchmarks (including a
# scenario the kernel refuses), after runs interrupted with SIGINT (once,
# and twice: quit at once) and SIGTERM, one killed with SIGKILL and one
# that failed (its scenario worker killed under it), the host has the
# same mounts, no process of the run's session, no namespace the run
# created, no setuid or file-caps file in /tmp, no scratch directory and
# no new loop device.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
bench=${NSB_BUILD:-build}/bench/nsbench-bench

if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP workload fixtures need root"
	exit 0
fi
if [ ! -x "$bench" ]; then
	echo "1..0 # SKIP $bench not built"
	exit 0
fi


# Host state that a leaking run would change.  Other work on the machine
# may mount and unmount meanwhile, so only what a leak of ours would look
# like is compared: mounts of our sources ("nsb", "nsb-scratch"), of the
# types we mount, or under /tmp; setuid and file-caps files with our
# names; loop devices backed by our files.
snapshot() {
	{
		echo '# mounts'
		# Type and source follow the " - " after the optional fields.
		awk '{	for (i = 7; i < NF && $i != "-"; i++)
				;
			t = $(i + 1); src = $(i + 2)
			if (src ~ /^nsb/ || t ~ /^(mqueue|proc)$/ || $5 ~ /^\/tmp/)
				print $5, t, src }' /proc/self/mountinfo | sort
		# Files named as ours (others' files in /tmp may come and go).
		echo '# setuid/setgid in /tmp'
		find /tmp -xdev \( -perm -4000 -o -perm -2000 \) 2>/dev/null |
			grep -E 'nsb|/(suid|fcaps|bin)$' | sort
		echo '# file caps in /tmp'
		getcap -r /tmp 2>/dev/null | grep -E 'nsb|/(suid|fcaps|bin) ' |
			sort
		echo '# scratch'
		ls -d /tmp/nsbench-wl* 2>/dev/null
		echo '# loop devices'
		losetup -a 2>/dev/null | grep nsb | sort
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

# serving SID: a process of session SID is the scenario worker at work.
# Its last step of set-up, after forking the helpers, is the chdir into
# the scenario directory (workloads/worker.c), so its cwd says it is
# done: a count of processes could be met half-way by a short-lived one.
serving() {
	for p in $(session_pids "$1"); do
		case "$(readlink "/proc/$p/cwd" 2>/dev/null)" in
		*/nsbench-wl/*) return 0 ;;
		esac
	done
	return 1
}

# Runs nsbench-bench in its own session; waits for its scenario worker
# and helpers (>= 3 processes), records their namespaces, signals it.
interrupted_run() {
	sig=$1
	setsid "$bench" --no-results --benchmark_min_time=30 \
		--benchmark_filter='^sys/exec/vfork/suid/foreign-fd/depth:8' \
		>"$tmp/out.$sig" 2>&1 &
	pid=$!
	# Until one of two events: the worker serves, or the run is over
	# (it measures 30 s once set up, so a set-up that never finishes
	# ends it too).  No deadline of its own: a loaded host (guests
	# booting beside) made a 30 s one fail.  The 15 minutes are only a
	# hung run's end.
	i=0
	until serving $pid || ! kill -0 $pid 2>/dev/null ||
	      [ $i -ge 9000 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	up=$(serving $pid && [ "$(session_pids $pid | wc -l)" -ge 4 ]; echo $?)
	ok $up "$sig run: worker and helpers up"
	if [ $up -ne 0 ]; then
		sed 's/^/# /' "$tmp/out.$sig" | tail -5
		kill -s KILL $pid 2>/dev/null
		wait $pid
		return
	fi
	ns_inodes $(session_pids $pid) >"$tmp/ns.during"
	comm -13 "$tmp/ns.before" "$tmp/ns.during" >"$tmp/ns.ours"
	ok $([ -s "$tmp/ns.ours" ]; echo $?) "the run made its own namespaces ($sig)"
	if [ "$sig" = WORKER ]; then
		# A failed run: the scenario worker dies under the benchmark.
		kill -s KILL $(cat /proc/$pid/task/*/children)
	elif [ "$sig" = INT2 ]; then
		# The impatient user: the second one quits at once.
		kill -s INT $pid
		kill -s INT $pid
	else
		kill -s "$sig" $pid
	fi
	wait $pid
	rc=$?
	case $sig in
	INT|TERM|INT2)
		ok $([ $rc -eq 130 ]; echo $?) "SIG$sig: nsbench-bench exits 130 (got $rc)" ;;
	KILL)
		ok $([ $rc -eq 137 ]; echo $?) "SIGKILL: killed (got $rc)" ;;
	WORKER)
		grep -q 'operation gave -32' "$tmp/out.$sig"
		ok $? "worker killed: the benchmark reports the failure (exit $rc)" ;;
	esac
	# a leak stays for good: a minute is time for a loaded host's exits
	left=$(wait_session_gone $pid 60)
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
interrupted_run INT2
interrupted_run TERM
interrupted_run KILL
interrupted_run WORKER

tap_done
