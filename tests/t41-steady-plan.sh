#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t41-steady-plan.sh — guest/plans/steady.plan, the boot state taken out
# before exec is timed on 6.12: sourced as the guest's /init does, with
# the probes and uname stood in, it pins the pid leaves on 6.1 (and
# nothing more; for make run's in-boot steps every block of 256), and on
# 6.12 (and later) seeds the crng from the round's seed, pins the pid
# leaves and sets STEADY_ARGS; a second include sets the same flags and
# probes nothing.  Then every plan of guest/plans that times exec (a bench,
# cost or profile step naming sys/exec, or a forkexec step) includes it
# before its first such step, and the check fails on a plan that does
# not.  No build, no guest.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
tap_plan 12

plans=$top/guest/plans

# steady RELEASE [TIMES]: each probe's name and command, then
# STEADY_ARGS, after including steady.plan TIMES times (default 1) on a
# kernel whose uname -r is RELEASE (STEADY_INBOOT from the caller).
steady() {
	(
		# shellcheck disable=SC2317 # called by the plan
		uname() { echo "$release"; }
		# shellcheck disable=SC2317 # called by the plan
		probe() { echo "probe $*"; }
		# shellcheck disable=SC2034 # read by the plan
		release=$1 NSB_SEED=42
		for _ in $(seq "${2:-1}"); do
			# shellcheck disable=SC1091 # the plan under test
			. "$plans/steady.plan"
		done
		echo "args $STEADY_ARGS"
	) | grep -v '^probe ksoftirqd '
}

steady 6.1.158 >"$tmp/61"
printf '%s\n' "probe pidpin nsb-guest pidpin" "args " | cmp -s - "$tmp/61"
ok $? "6.1: the pid leaves pinned, no flags"
cmp -s "$tmp/61" - < <(steady 6.1.158 2)
ok $? "6.1, included twice: pinned once"
printf '%s\n' "probe pidpin nsb-guest pidpin 256" "args " |
	cmp -s - <(STEADY_INBOOT=1 steady 6.1.158)
ok $? "6.1, make run's in-boot steps (STEADY_INBOOT=1): every block of 256 pids pinned, no flags"

steady 6.12.118 >"$tmp/612"
printf '%s\n' "probe crng nsb-guest seed 42" "probe pidpin nsb-guest pidpin" \
	"args --sched=batch --sched-slice=100000" | cmp -s - "$tmp/612"
ok $? "6.12: the crng seeded from the round's seed, the pid leaves pinned, the flags"
cmp -s "$tmp/612" - < <(steady 6.12.118)
ok $? "6.12: the same every time"
cmp -s "$tmp/612" - < <(steady 7.0.1)
ok $? "a later kernel: as 6.12"
steady 6.12.118 2 >"$tmp/twice"
cmp -s "$tmp/612" "$tmp/twice"
ok $? "included twice: the probes once, the same flags"

# times_exec PLAN: the line number of PLAN's first step that times exec,
# or nothing.
times_exec() {
	awk '/^[[:space:]]*#/ { next }
	     /^[[:space:]]*forkexec[[:space:]]/ ||
	     (/^[[:space:]]*(bench|cost|profile)[[:space:]]/ && /sys\/exec/) {
		print NR; exit
	     }' "$1"
}

# unsteady PLAN...: the plans that time exec without including
# steady.plan first, one per line.
unsteady() {
	local p first inc

	for p in "$@"; do
		first=$(times_exec "$p")
		[ -n "$first" ] || continue
		inc=$(awk '/^[[:space:]]*include[[:space:]]+steady([.]plan)?[[:space:]]*$/ {
			print NR; exit }' "$p")
		if [ -z "$inc" ] || [ "$inc" -ge "$first" ]; then
			basename "$p"
		fi
	done
}

timing=0
for p in "$plans"/*.plan; do
	[ -n "$(times_exec "$p")" ] && timing=$((timing + 1))
done
[ "$timing" -ge 8 ]
ok $? "the plans that time exec are found ($timing)"
unsteady "$plans"/*.plan >"$tmp/unsteady"
[ ! -s "$tmp/unsteady" ]
ok $? "every plan that times exec includes steady.plan first"
[ -s "$tmp/unsteady" ] && diag "$tmp/unsteady"

printf '%s\n' "# exec, but not a step" "bench a '^sys/open/'" >"$tmp/none.plan"
printf '%s\n' "forkexec exec 5 100" "include steady" >"$tmp/late.plan"
printf '%s\n' "bench b '^sys/exec/vfork/'" >"$tmp/bare.plan"
unsteady "$tmp/none.plan" "$tmp/late.plan" "$tmp/bare.plan" >"$tmp/bad"
printf '%s\n' late.plan bare.plan | cmp -s - "$tmp/bad"
ok $? "it fails on a plan that includes steady.plan too late or not at all"
printf '%s\n' late.plan bare.plan | cmp -s - "$tmp/bad" || diag "$tmp/bad"
grep -q 'include steady' "$plans/checks.plan" &&
	[ "$(times_exec "$plans/steady.plan")" = "" ]
ok $? "steady.plan times nothing itself"
awk '/^STEADY_INBOOT=1$/ { set = NR } /^include steady$/ { inc = NR }
     END { exit !(set && inc && set < inc) }' "$plans/checks.plan"
ok $? "checks.plan (in-boot) sets STEADY_INBOOT=1 before it includes steady.plan"
