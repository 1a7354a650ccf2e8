# SPDX-License-Identifier: GPL-2.0
#
# lib-tap.sh — TAP for nsbench's shell tests (sourced):
#	ok $? "what held"	one test point from an exit status
#	tap_done		the plan, and exit 1 if any point failed

n=0
fail=0

ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		fail=1
	fi
}

tap_done() {
	echo "1..$n"
	exit $fail
}
