#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t56-append-full-disk.sh — `nsbench history append` on a disk that fills
# in the middle of the run's write: the command fails (exit 2), the
# history is byte for byte what it was (no part of the run, no torn
# line), and once there is room the same run goes in whole.  The disk is
# a 2 MiB tmpfs mounted here and unmounted on every exit.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
need python3 python3
[ "$(id -u)" = 0 ] || skip_all "mounting a tmpfs needs root"

disk=$tmp/disk
mkdir "$disk" || exit 1
mount -t tmpfs -o size=2m,mode=0755 nsb-t56 "$disk" 2>"$tmp/mount.err" ||
	skip_all "cannot mount a tmpfs: $(cat "$tmp/mount.err")"
# unmounted before $tmp goes, whatever ends the test
trap 'umount "$disk" 2>/dev/null || umount -l "$disk"; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

# results IN OUT K: a copy of results file IN with K benchmarks
results() {
	python3 - "$1" "$2" "$3" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
one = [b for b in d["benchmarks"] if b.get("run_type") == "iteration"][:5]
rows = []
for i in range(int(sys.argv[3])):
    for b in one:
        rows.append(dict(b, name="full/%05d/op" % i, run_name="full/%05d/op" % i))
d["benchmarks"] = rows
json.dump(d, open(sys.argv[2], "w"))
PY
}
results "$top/tests/fixtures/history/icount-base.json" "$tmp/big.json" 3000
h=$disk/history.jsonl
"$NSB" history append --history="$h" \
	"$top/tests/fixtures/history/icount-base.json" >/dev/null 2>&1 &&
	"$NSB" history append --history="$h" \
		"$top/tests/fixtures/history/icount-slower.json" >/dev/null 2>&1
ok $? "a history of two runs on a 2 MiB tmpfs"
cp "$h" "$tmp/before"
before=$(wc -c <"$h")

# the disk all but full: the run's lines (some MiB) cannot all fit
dd if=/dev/zero of="$disk/fill" bs=64k 2>/dev/null
rm -f "$disk/fill"
free=$(($(stat -f -c '%a*%S' "$disk")))
dd if=/dev/zero of="$disk/fill" bs=1k count=$((free / 1024 - 64)) 2>/dev/null
"$NSB" history append --history="$h" --run-id=full "$tmp/big.json" \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q "No space left on device" "$tmp/err"
ok $? "append on a full disk fails, saying why (exit $rc)"
[ $rc = 2 ] || diag "$tmp/err"
cmp -s "$h" "$tmp/before"
ok $? "the history is as it was ($before bytes, now $(wc -c <"$h")): no record of the run, no torn line"

rm -f "$disk/fill"
"$NSB" history append --history="$h" --run-id=full "$tmp/big.json" \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 0 ] && ! grep -q "already in" "$tmp/err"
ok $? "with room again, the same run is appended, not 'already there' (exit $rc)"
[ $rc = 0 ] || diag "$tmp/err"
is "$(grep -c '"run":"full"' "$h")" 3000 "the run's 3000 records, each once"
head -c "$before" "$h" | cmp -s - "$tmp/before"
ok $? "the runs before it are untouched"
"$NSB" history show --history="$h" >/dev/null 2>"$tmp/err" &&
	! grep -q 'line skipped' "$tmp/err"
ok $? "every line of the history reads"

tap_done
