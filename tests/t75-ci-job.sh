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
#     a regression fails the job and moves no baseline.

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
# side B the fixture named by FAKE_B (both only without --checks).
cat >"$tmp/ab.sh" <<'EOF'
#!/bin/sh
echo "$*" >>"${FAKE_LOG:?}"
out='' checks=0
while [ $# -gt 0 ]; do
	case "$1" in
	--out) out=$2; shift ;;
	--checks) checks=1 ;;
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
has "$tmp/night1/ab.args" '--checks --shard 1/1' &&
	! has "$tmp/night1/ab.args" '--base-ref'
ok $? "... one kernel (ab.sh --checks --shard 1/1), no base build"
has "$tmp/night1/ab.args" "--ref $head"
ok $? "... of the head commit"
[ -f "$tmp/night1/out/gate-history.ktap" ] &&
	[ ! -f "$tmp/night1/out/gate-ab.ktap" ] &&
	has "$tmp/night1/out/gate-history.ktap" '# SKIP no baseline'
ok $? "... the drift gate only: every benchmark '# SKIP no baseline'"
[ -f "$tmp/night1/out/gate-history.xml" ] && [ -s "$tmp/night1/out/summary.md" ]
ok $? "... JUnit and summary.md written"
[ "$(accepted)" = night1 ]
ok $? "... and the run accepted as the baseline"

job night2 '' icount-same.json --accept
[ "$rc" = 0 ] && has "$tmp/night2/out/gate-history.ktap" 'against night1'
ok $? "nightly (base empty), no change: passes against night1 (exit $rc)"

job night3 '' icount-slower.json --accept
# the verdict follows the name in the description, not " # " (issue 26:
# kunit.py parse shows the description only)
[ "$rc" = 1 ] &&
	has "$tmp/night3/out/gate-history.ktap" '^not ok 1 fix/exec/plain regression'
ok $? "nightly drift +3 %: exit 1, 'not ok ... regression' (exit $rc)"
[ "$(accepted)" = night2 ]
ok $? "... and the baseline stays night2"

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
[ "$(accepted)" = night2 ]
ok $? "... and moves no baseline"

job mr "$base" icount-same.json
[ "$rc" = 0 ] && has "$tmp/mr/out/gate-ab.ktap" '^ok 1 fix/exec/plain'
ok $? "MR without a change: exit 0 (exit $rc)"
[ "$(accepted)" = night2 ]
ok $? "... and, without --accept, no new baseline"

job bad "$base" icount-same.json --mode
[ "$rc" = 2 ] && has "$tmp/bad.log" 'needs a value'
ok $? "an option without its value: exit 2 (exit $rc)"

tap_done
