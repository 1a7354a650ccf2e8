#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# slow/fuzz.sh — tests/test_fuzz.c's corpus at its slow size: truncation
# every few bytes of two results files, a hyperfine file and a history,
# every wrong type of every field read, 100k benchmark names, 100k
# samples, a 20k-run history; every reader on each case, 10 s each.
# `make check` runs the quick size with the sanitizers; check-slow runs
# this on the release build (make O=build), and NSB_BUILD=build/check
# runs it with the sanitizers (a leak check every 4th run).

set -u
build=${NSB_BUILD:-build}
prog=$build/tests/test_fuzz

# check-slow builds the programs, not the tests: build this one, with
# the sanitizers if the build directory has them
if [ ! -x "$prog" ]; then
	san=0
	ldd "$build/nsbench" 2>/dev/null | grep -q libasan && san=1
	if ! make --no-print-directory -s O="$build" SANITIZE=$san \
		"$prog" >&2; then
		echo "1..0 # SKIP cannot build $prog"
		exit 0
	fi
fi
NSB_FUZZ_TIER=slow exec "$prog"
