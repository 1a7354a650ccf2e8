#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t75-ci-job.sh — contrib/nsbench-ci.sh, the job both CI files run, with a
# stand-in for scripts/ab.sh (fixture results instead of kernel boots)
# and a kernel "tree" of two commits cloned at depth 1:
#   - no base (nightly, workflow_dispatch: empty or all-zero SHA): one
#     kernel, no A/B, the drift gate against the last accepted run, and
#     the run accepted when it passes;
#   - a base: the base commit fetched at depth 1, the A/B and its gate,
#     a regression fails the job and moves no baseline;
#   - the check-cost pipeline (kernels, shard, report), with a stand-in
#     kernel build too: the tree's version decides — its toggles series:
#     the checks headline of the tree; none: the A/B against the base
#     (series none); none and no base: nothing, said and passed — each
#     kernel built once, the shards booting the kernels handed to them.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
FIX=$top/tests/fixtures/history
build=${NSB_BUILD:-build}
case "$build" in /*) ;; *) build=$top/$build ;; esac
ci=$top/contrib/nsbench-ci.sh
zeros=0000000000000000000000000000000000000000

# A tree with two commits, and the shallow clone a CI checkout makes.
git init -q "$tmp/origin"
git -C "$tmp/origin" -c user.name=t -c user.email=t@t commit -q \
	--allow-empty -m base
base=$(git -C "$tmp/origin" rev-parse HEAD)
git -C "$tmp/origin" -c user.name=t -c user.email=t@t commit -q \
	--allow-empty -m head
head=$(git -C "$tmp/origin" rev-parse HEAD)
git clone -q --depth 1 "file://$tmp/origin" "$tmp/linux"
! git -C "$tmp/linux" cat-file -e "$base^{commit}" 2>/dev/null
ok $? "the checkout is shallow: the base commit is not in it"

# ab.sh stand-in: its arguments in ab.args; side A the base fixture,
# side B the fixture named by FAKE_B (both only without --checks);
# --merge OUT SHARD...: their A/ and B/ files into OUT.
cat >"$tmp/ab.sh" <<'EOF'
#!/bin/sh
echo "$*" >>"${FAKE_LOG:?}"
out='' checks=0
while [ $# -gt 0 ]; do
	case "$1" in
	--merge) out=$2; shift 2; mkdir -p "$out/A" "$out/B"
		for d in "$@"; do cp "$d"/A/*.json "$out/A/"; cp "$d"/B/*.json "$out/B/"; done
		exit 0 ;;
	--out) out=$2; shift ;;
	--checks|--one-kernel) checks=1 ;;
	esac
	shift
done
mkdir -p "$out/A" "$out/B"
[ "$checks" = 1 ] || cp "$FAKE_A" "$out/A/r01-ab.json"
cp "$FAKE_B" "$out/B/r01-ab.json"
EOF
chmod +x "$tmp/ab.sh"

# job NAME BASE FIXTURE_B [ARGS...]: one CI job in $tmp/NAME; exit in rc.
job() {
	name=$1 b=$2 fb=$3
	shift 3
	mkdir -p "$tmp/$name"
	(cd "$tmp/$name" && NSB_BUILD=$build NSB_AB=$tmp/ab.sh \
		FAKE_LOG=$tmp/$name/ab.args FAKE_A=$FIX/icount-base.json \
		FAKE_B=$FIX/$fb "$ci" --ksrc "$tmp/linux" --head "$head" \
		--base "$b" --history "$tmp/history.jsonl" --run-id "$name" \
		--out out "$@") >"$tmp/$name.log" 2>&1
	rc=$?
}

has() {
	grep -q -- "$2" "$1"
}

# The last accepted run of the history.
accepted() {
	jq -r 'select(.type == "accept") | .run' "$tmp/history.jsonl" | tail -n 1
}

# --- nightly: no base --------------------------------------------------
job night1 "$zeros" icount-base.json --accept
[ "$rc" = 0 ]
ok $? "nightly (base all zeros), first run: exit 0 (exit $rc)"
[ "$rc" = 0 ] || sed 's/^/# /' "$tmp/night1.log"
has "$tmp/night1/ab.args" '--one-kernel' &&
	! has "$tmp/night1/ab.args" '--base-ref'
ok $? "... one kernel (ab.sh --one-kernel: --checks --shard 1/1), no base build"
has "$tmp/night1/ab.args" "--ref $head"
ok $? "... of the head commit"
[ -f "$tmp/night1/out/gate-history.ktap" ] &&
	[ ! -f "$tmp/night1/out/gate-ab.ktap" ] &&
	has "$tmp/night1/out/gate-history.ktap" '# SKIP no baseline'
ok $? "... the drift gate only: every benchmark '# SKIP no baseline'"
[ -f "$tmp/night1/out/gate-history.xml" ] && [ -s "$tmp/night1/out/summary.md" ]
ok $? "... JUnit and summary.md written"
is "$(accepted)" night1 "... and the run accepted as the baseline"

job night2 '' icount-same.json --accept
[ "$rc" = 0 ] && has "$tmp/night2/out/gate-history.ktap" 'against night1'
ok $? "nightly (base empty), no change: passes against night1 (exit $rc)"

job night3 '' icount-slower.json --accept
# the verdict follows the name in the description, not " # ": kunit.py parse
# shows the description only
[ "$rc" = 1 ] &&
	has "$tmp/night3/out/gate-history.ktap" '^not ok 1 fix/exec/plain regression'
ok $? "nightly drift +3 %: exit 1, 'not ok ... regression' (exit $rc)"
is "$(accepted)" night2 "... and the baseline stays night2"

# --- a change: base and head --------------------------------------------
job push "$base" icount-slower.json --accept
[ "$rc" = 1 ]
ok $? "push/MR with a regression: exit 1 (exit $rc)"
git -C "$tmp/linux" cat-file -e "$base^{commit}" 2>/dev/null
ok $? "... the base commit fetched into the shallow tree"
has "$tmp/push/ab.args" "--base-ref $base" &&
	has "$tmp/push/ab.args" "--ref $head" && ! has "$tmp/push/ab.args" '--checks'
ok $? "... the A/B of base against head"
has "$tmp/push/out/gate-ab.ktap" '^not ok 1 fix/exec/plain regression' &&
	[ -f "$tmp/push/out/gate-ab.xml" ] && [ -f "$tmp/push/out/report.md" ]
ok $? "... its gate fails the regression; report and JUnit written"
is "$(accepted)" night2 "... and moves no baseline"

job mr "$base" icount-same.json
[ "$rc" = 0 ] && has "$tmp/mr/out/gate-ab.ktap" '^ok 1 fix/exec/plain'
ok $? "MR without a change: exit 0 (exit $rc)"
is "$(accepted)" night2 "... and, without --accept, no new baseline"

job bad "$base" icount-same.json --mode
[ "$rc" = 2 ] && has "$tmp/bad.log" 'needs a value'
ok $? "an option without its value: exit 2 (exit $rc)"

# --- the check-cost pipeline: kernels once, shards, report ----------------
# Kernel "trees" of two versions, two commits each, cloned at depth 1:
# 6.1, for which kernel-patches/ has the toggles series, and 5.4, which
# has none.
# mktree NAME VERSION PATCHLEVEL: $tmp/NAME; its commits in kbase, khead.
mktree() {
	git init -q "$tmp/$1-origin"
	printf 'VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = 0\n' "$2" "$3" \
		>"$tmp/$1-origin/Makefile"
	git -C "$tmp/$1-origin" add Makefile
	git -C "$tmp/$1-origin" -c user.name=t -c user.email=t@t commit -q -m base
	kbase=$(git -C "$tmp/$1-origin" rev-parse HEAD)
	echo "# change" >>"$tmp/$1-origin/Makefile"
	git -C "$tmp/$1-origin" -c user.name=t -c user.email=t@t commit -q -a -m head
	khead=$(git -C "$tmp/$1-origin" rev-parse HEAD)
	git clone -q --depth 1 "file://$tmp/$1-origin" "$tmp/$1"
}
mktree v61 6 1
base61=$kbase head61=$khead
mktree v54 5 4
base54=$kbase head54=$khead

# scripts/kernel/build.sh stand-in: its arguments in kbuild.args, a
# "kernel" per series and ref in $tmp/kcache, printed as build.sh does.
cat >"$tmp/kbuild.sh" <<'EOS'
#!/bin/sh
echo "$*" >>"${KBUILD_LOG:?}"
series='' ref=''
while [ $# -gt 0 ]; do
	case "$1" in
	--series) series=$2; shift ;;
	--ref) ref=$2; shift ;;
	esac
	shift
done
d=${KCACHE:?}/$series-$ref
mkdir -p "$d"
echo "kernel $series $ref" >"$d/bzImage"
echo "{\"series\": \"$series\", \"source_commit\": \"$ref\"}" >"$d/meta.json"
echo "$d"
EOS
chmod +x "$tmp/kbuild.sh"

# ci NAME COMMAND ARGS...: nsbench-ci.sh COMMAND in $tmp/NAME; exit in rc.
ci() {
	name=$1
	shift
	mkdir -p "$tmp/$name"
	(cd "$tmp/$name" && NSB_BUILD=$build NSB_AB=$tmp/ab.sh \
		NSB_KBUILD=$tmp/kbuild.sh KCACHE=$tmp/kcache \
		KBUILD_LOG=$tmp/$name/kbuild.args FAKE_LOG=$tmp/$name/ab.args \
		FAKE_A=$FIX/icount-base.json FAKE_B=$FIX/icount-slower.json \
		"$ci" "$@") >"$tmp/$name.log" 2>&1
	rc=$?
}

kind() {
	jq -r .kind "$1/ci.json"
}

# 6.1: the toggles series exists, so the checks headline of the tree.
k61=$tmp/k61/kernels
ci k61 kernels --ksrc "$tmp/v61" --head "$head61" --base "$base61" \
	--kernels "$k61"
[ "$rc" = 0 ] && [ "$(kind "$k61")" = checks ]
ok $? "kernels, a 6.1 tree: kind checks (its version has the toggles) (exit $rc)"
[ "$rc" = 0 ] || sed 's/^/# /' "$tmp/k61.log"
[ "$(wc -l <"$tmp/k61/kbuild.args")" = 1 ] &&
	has "$tmp/k61/kbuild.args" "--series userns-checks-toggles --ksrc $tmp/v61 --ref $head61"
ok $? "... one kernel built: the tree at its head with the toggles"
[ -f "$k61/B/bzImage" ] && [ -f "$k61/B/meta.json" ] && [ ! -d "$k61/A" ]
ok $? "... handed on as kernels/B (bzImage, meta.json), no side A"
has "$tmp/k61.log" 'Linux 6.1 has the userns-checks-toggles series'
ok $? "... and the decision said in the log"

ci s61 shard --kernels "$k61" --shard 2/3 --boots 4 --out "$tmp/s61/shard-2"
[ "$rc" = 0 ] && has "$tmp/s61/ab.args" "--checks --kernel $k61/B " &&
	has "$tmp/s61/ab.args" '--shard 2/3' && has "$tmp/s61/ab.args" '--rounds 4' &&
	! has "$tmp/s61/ab.args" '--ksrc' && [ ! -e "$tmp/s61/kbuild.args" ]
ok $? "shard 2/3: ab.sh --checks --kernel kernels/B, nothing built (exit $rc)"

# 5.4: no toggles series: the A/B of the head against the base.
k54=$tmp/k54/kernels
ci k54 kernels --ksrc "$tmp/v54" --head "$head54" --base "$base54" \
	--kernels "$k54"
[ "$rc" = 0 ] && [ "$(kind "$k54")" = ab ] &&
	has "$tmp/k54.log" 'Linux 5.4 has no userns-checks-toggles series'
ok $? "kernels, a 5.4 tree with a base: kind ab (exit $rc)"
[ "$rc" = 0 ] || sed 's/^/# /' "$tmp/k54.log"
[ "$(wc -l <"$tmp/k54/kbuild.args")" = 2 ] &&
	has "$tmp/k54/kbuild.args" "--series none --ksrc $tmp/v54 --ref $base54" &&
	has "$tmp/k54/kbuild.args" "--series none --ksrc $tmp/v54 --ref $head54" &&
	[ -f "$k54/A/bzImage" ] && [ -f "$k54/B/bzImage" ]
ok $? "... two kernels, base and head as they are (series none), built once each"
git -C "$tmp/v54" cat-file -e "$base54^{commit}" 2>/dev/null
ok $? "... the base commit fetched into the shallow tree"

for k in 1 2 3; do
	ci s54-$k shard --kernels "$k54" --shard "$k/3" --out "$tmp/s54/shard-$k"
	[ "$rc" = 0 ] || break
done
[ "$rc" = 0 ] && has "$tmp/s54-1/ab.args" "--base none --series none --base-kernel $k54/A " &&
	has "$tmp/s54-1/ab.args" "--kernel $k54/B " && has "$tmp/s54-3/ab.args" '--shard 3/3' &&
	! has "$tmp/s54-1/ab.args" '--checks'
ok $? "shards of the A/B: --base-kernel kernels/A --kernel kernels/B (exit $rc)"
ci r54 report --out "$tmp/r54/checks" "$tmp/s54/shard-1" "$tmp/s54/shard-2" \
	"$tmp/s54/shard-3"
[ "$rc" = 0 ] && has "$tmp/r54/ab.args" "--merge $tmp/r54/checks" &&
	[ -s "$tmp/r54/checks/report.md" ] &&
	has "$tmp/r54/checks/summary.md" '^nsbench: Linux 5.4 has no'
ok $? "report: the shards merged, report.md, summary.md saying what was measured (exit $rc)"
[ "$rc" = 0 ] || sed 's/^/# /' "$tmp/r54.log"

# 5.4 without a base (a nightly): nothing to measure, said, exit 0.
k0=$tmp/k0/kernels
ci k0 kernels --ksrc "$tmp/v54" --head "$head54" --base "$zeros" --kernels "$k0"
[ "$rc" = 0 ] && [ "$(kind "$k0")" = none ] && [ ! -e "$tmp/k0/kbuild.args" ]
ok $? "kernels, 5.4 without a base: kind none, nothing built (exit $rc)"
ci s0 shard --kernels "$k0" --shard 1/3 --out "$tmp/s0/shard-1"
[ "$rc" = 0 ] && [ ! -e "$tmp/s0/ab.args" ] && has "$tmp/s0.log" 'nothing to measure'
shard_ok=$?
ci r0 report --out "$tmp/r0/checks" "$tmp/s0/shard-1"
[ "$shard_ok" = 0 ] && [ "$rc" = 0 ] &&
	has "$tmp/r0/checks/summary.md" 'nothing to measure'
ok $? "... its shard boots nothing and the report says why; both exit 0"

ci knot kernels --ksrc "$tmp/linux" --head "$head" --base "$base" \
	--kernels "$tmp/knot/kernels"
[ "$rc" = 2 ] && has "$tmp/knot.log" 'no kernel version' &&
	[ ! -e "$tmp/knot/kbuild.args" ]
ok $? "kernels on a tree with no kernel Makefile: exit 2, nothing built (exit $rc)"

tap_done
