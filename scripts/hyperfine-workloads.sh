#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# scripts/hyperfine-workloads.sh — whole-process workloads through
# hyperfine: exec storms and mount storms of nsb-wl (workloads/progs),
# swept over userns depth, mount owner, binary kind, fs type and number of
# IPC namespaces, exported with --export-json and converted by
# `nsbench import-hyperfine` into one results file per workload.
#
# usage: scripts/hyperfine-workloads.sh [--build=DIR] [--name=RUN]
#                                       [--tier=quick|full|smoke] [--results=DIR]
#   raw hyperfine JSON:  <results>/hyperfine/<run>/<workload>.json
#   nsbench results:     <results>/<UTC>-<host>-hf-<workload>-<tier>.json
#
# Each hyperfine run is one nsb-wl process: scenario set-up (self-checked)
# plus --count operations, so these numbers include set-up; the sys/
# microbenchmarks keep it out.  A scenario the kernel refuses makes nsb-wl
# exit 3, which the import records as a skip (hyperfine runs with -i).
# Workloads: exec (storm of setuid/file-caps/plain execs), mount (mount +
# umount storm), fscreate (superblock lookups past N IPC namespaces' mqueue
# superblocks), open.

set -eu

build=build
name=
tier=quick
results=results
# shellcheck source=scripts/host-opts.sh
. "$(dirname "$0")/host-opts.sh"
for arg; do
	case $arg in
	--tier=*) tier=${arg#*=} ;;
	-h|--help) sed -n '4,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) host_opt "$arg" ||
		{ echo "hyperfine-workloads.sh: unknown option '$arg'" >&2; exit 2; } ;;
	esac
done

case $tier in
quick|full|smoke) ;;
*) echo "hyperfine-workloads.sh: --tier must be quick, full or smoke, not '$tier'" >&2; exit 2 ;;
esac
case $name in
*/*|.|..) echo "hyperfine-workloads.sh: --name must be a plain name, not '$name'" >&2; exit 2 ;;
esac
[ -n "$results" ] || { echo "hyperfine-workloads.sh: --results needs a directory" >&2; exit 2; }

wl=$build/workloads/nsb-wl
nsbench=$build/nsbench
for f in "$wl" "$nsbench"; do
	if [ ! -x "$f" ]; then
		echo "hyperfine-workloads.sh: $f not built (make O=$build)" >&2
		exit 2
	fi
done
if ! command -v hyperfine >/dev/null; then
	echo "hyperfine-workloads.sh: hyperfine not installed (apt-get install hyperfine)" >&2
	exit 2
fi
if [ "$(id -u)" != 0 ]; then
	echo "hyperfine-workloads.sh: the workloads need root (namespaces, mounts, setuid files)" >&2
	exit 2
fi

stamp=$(date -u +%Y%m%dT%H%M%SZ)
host=$(hostname 2>/dev/null || echo unknown)
name=${name:-$stamp}
raw=$results/hyperfine/$name
mkdir -p "$raw"

if [ "$tier" = smoke ]; then
	# For tests: proves the pipeline, measures nothing worth keeping.
	runs=2 depths=0,1 owners=init,parent files=bin nipcs=1 count=5
elif [ "$tier" = full ]; then
	runs=20 depths=0,1,2,4,8,16,32 files=bin,suid,fcaps
	owners=init,self,parent,foreign-proc,foreign-fd,foreign-tree,unrelated
	nipcs=1,16,256,1024 count=200
else
	runs=5 depths=0,8,32 owners=init,foreign-fd files=bin,suid
	nipcs=1,256 count=100
fi

# hyperfine [sweep...] -n NAME CMD, exported, then imported as wl/...
run() {
	workload=$1
	shift
	echo "== $workload ($tier): $raw/$workload.json" >&2
	hyperfine -N -i --style basic --warmup 1 --runs "$runs" \
		${HYPERFINE_EXTRA:-} \
		--export-json "$raw/$workload.json" "$@" >&2
	"$nsbench" import-hyperfine --prefix="wl" \
		--label="hf-$workload-$tier" "$raw/$workload.json" \
		"$results/$stamp-$host-hf-$workload-$tier.json"
	echo "$results/$stamp-$host-hf-$workload-$tier.json"
}

# parent needs depth >= 1: nsb-wl exits 3 there, imported as a skip.
d='--depth={depth}'
run exec -L depth "$depths" -L owner "$owners" -L file "$files" \
	-n 'exec/file:{file}/owner:{owner}/depth:{depth}' \
	"$wl exec --unpriv $d --owner={owner} --file={file} --count=$count"
run mount -L depth "$depths" -L fs tmpfs,mqueue -L nipc "$nipcs" \
	-n 'mount/fs:{fs}/depth:{depth}/ipcns:{nipc}' \
	"$wl mount $d --fs={fs} --nipc={nipc} --count=$count"
run fscreate -L depth "$depths" -L nipc "$nipcs" \
	-n 'fscreate/fs:mqueue/depth:{depth}/ipcns:{nipc}' \
	"$wl fscreate $d --fs=mqueue --nipc={nipc} --count=$((count * 10))"
run open -L depth "$depths" -L owner "$owners" \
	-n 'open/file/owner:{owner}/depth:{depth}' \
	"$wl open --unpriv $d --owner={owner} --file=file --count=$((count * 100))"
