#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t91-repro-build.sh — two clones of one commit build byte-identical guest
# programs and guest images, even when the first of them was built on a
# machine whose packages make had not seen yet.  On a fresh machine the
# first `make run` used to read the build files before `make deps` had
# installed liburcu: pkg-config failed, the fallback linked other
# libraries, the guest image hash differed from every later build's and
# the boot cache never served a second clone.  Here clone a builds with
# pkg-config answering nothing (PKG_CONFIG=false: the packages unknown to
# it), clone b as usual; every program that goes into the image, and the
# image itself (the default plan, with the LSM files), must be the same
# bytes.  Clone a compiles every object itself (CCACHE=), clone b as make
# does (through ccache where installed: what it serves must be the
# compiler's bytes too).  Also: `make run` and `make check` read the build files only
# after deps (a sub-make).

. "$(dirname "$0")/lib-tap.sh"
tap_plan 11

need git git
cd "$top" || exit 1
# The committed tree: a clone has no uncommitted change in it.
for c in a b; do
	git clone -q --no-hardlinks "$top" "$tmp/$c" || exit 1
done

progs="bench/nsbench-bench guest/nsb-guest guest/nsb-lsm workloads/progs/nsb-true nsbench guest/plugin/nsb-cachesim.so"
build() {
	# shellcheck disable=SC2046 # the program list is words
	(cd "$tmp/$1" && shift && make -s -j2 O=build "$@" \
		$(for p in $progs; do printf 'build/%s ' "$p"; done)) \
		>"$tmp/build.log" 2>&1
}
build a PKG_CONFIG=false CCACHE=
ok $? "clone a builds with pkg-config answering nothing, without ccache"
diag <"$tmp/build.log"
build b
ok $? "clone b builds as usual"
diag <"$tmp/build.log"

# the cache-model plugin too: its hash is part of the boot cache's key
for p in bench/nsbench-bench guest/nsb-guest guest/nsb-lsm workloads/progs/nsb-true \
	 guest/plugin/nsb-cachesim.so; do
	cmp -s "$tmp/a/build/$p" "$tmp/b/build/$p"
	ok $? "$p: byte-identical in both clones"
done

if [ -r /usr/src/linux-source-6.1.tar.xz ] && command -v busybox >/dev/null &&
   command -v checkpolicy >/dev/null; then
	for c in a b; do
		(cd "$tmp/$c" && NSB_BUILD="$tmp/$c/build" guest/mkinitramfs.sh \
			--plan guest/plans/checks.plan --out "$tmp/$c.cpio" \
			--bench build/bench/nsbench-bench --lsm) 2>"$tmp/img.log" ||
			diag <"$tmp/img.log"
	done
	[ -s "$tmp/a.cpio" ] && cmp -s "$tmp/a.cpio" "$tmp/b.cpio"
	ok $? "the guest image (checks.plan, --lsm) is byte-identical"
else
	skip "no kernel source, busybox or checkpolicy: no guest image"
fi

# A commit that does not touch what the guest runs (docs, scripts, the
# report) leaves nsbench-bench as it was (it carries the version of the
# last commit that did), so the image and the boot cache's keys stay.
cp "$tmp/b/build/bench/nsbench-bench" "$tmp/bench.before"
(cd "$tmp/b" && echo "a note" >>README.md &&
	echo "a note" >>guest/lsm/README.md &&
	git -c user.name=t -c user.email=t@t commit -qam "docs only" &&
	make -s O=build build/bench/nsbench-bench) >"$tmp/build.log" 2>&1 &&
	cmp -s "$tmp/bench.before" "$tmp/b/build/bench/nsbench-bench"
ok $? "a docs-only commit (Markdown, in guest/ too) builds the same nsbench-bench"
(cd "$tmp/b" && echo "/* a change */" >>bench/main.c &&
	git -c user.name=t -c user.email=t@t commit -qam "bench change" &&
	make -s O=build build/bench/nsbench-bench) >"$tmp/build.log" 2>&1 &&
	! cmp -s "$tmp/bench.before" "$tmp/b/build/bench/nsbench-bench" &&
	strings "$tmp/b/build/bench/nsbench-bench" |
		grep -qx "$(cd "$tmp/b" && git describe --always --tags)"
ok $? "a commit to the measuring code: nsbench-bench carries its version"

# make reads the link flags after deps: run and check call a sub-make
# (run installs the main job's share, deps-run; check all, deps).
rc=0
for t in run:deps-run check:deps; do
	sed -n "/^${t%%:*}: ${t#*:}\$/,/^\$/p" "$top/Makefile" |
		grep -q 'MAKE) --no-print-directory build-all' || rc=1
done
ok $rc "make run and check: deps, then a make that reads the build files anew"
tap_done
