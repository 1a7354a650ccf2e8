#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t53-bisect-codes.sh — `nsbench bisect`'s exit codes and numbers: bad
# input exits 2 (1 is "nothing to bisect"), and --rounds/--max-rounds
# with leading zeros are decimal all the way down.  The A/B steps are a
# stand-in ab.sh beside a copy of bisect.sh: it copies two fixture runs
# whose CI straddles the threshold, so each step asks for one round more
# until --max-rounds, and logs the rounds it was asked for.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
need git git
need jq jq
need bash bash

# a kernel "tree" of two commits: bisect's checks want a good and a bad
k=$tmp/ksrc
git init -q "$k" && git -C "$k" config user.email t@nsbench &&
	git -C "$k" config user.name nsbench &&
	git -C "$k" commit -q --allow-empty -m good &&
	git -C "$k" commit -q --allow-empty -m bad || exit 1
args="--ksrc $k --good HEAD~1 --bad HEAD --workloads ^fix/"

# shellcheck disable=SC2086 # args: words without spaces
for bad in "--rounds abc" "--rounds -1" "--rounds 1" "--max-rounds x" \
	   "--threshold 1.2.3" "--bogus" "--rounds 08 --max-rounds 07"; do
	run 2 "bisect $bad: bad input" bisect $args $bad --out "$tmp/o"
done
grep -q "must be at least 08, not '07'" "$tmp/err"
ok $? "--max-rounds 07 against --rounds 08 compares as decimal"
[ ! -e "$tmp/o" ]
ok $? "bad input writes nothing"

# --- the rounds, decimal downstream -------------------------------------------
fake=$tmp/fake/scripts
mkdir -p "$fake/kernel" &&
	cp "$top/scripts/bisect.sh" "$fake/" &&
	cp "$top/scripts/kernel/lib.sh" "$top/scripts/kernel/default-version.sh" \
		"$fake/kernel/" &&
	mkdir "$tmp/fake/kernel-patches" &&
	cp "$top/kernel-patches/default-version" "$tmp/fake/kernel-patches/" ||
	exit 1
cat >"$fake/ab.sh" <<EOF
#!/bin/sh
# stand-in: A is the base fixture, B one that differs by 16 [14, 18]
while [ \$# -gt 0 ]; do
	case "\$1" in
	--out) out=\$2 ;;
	--rounds) echo "\$2" >>"$tmp/rounds" ;;
	esac
	shift
done
mkdir -p "\$out/A" "\$out/B"
cp "$top/tests/fixtures/history/icount-base.json" "\$out/A/r.json"
cp "$top/tests/fixtures/history/icount-same.json" "\$out/B/r.json"
EOF
chmod +x "$fake/ab.sh"
# shellcheck disable=SC2086
bash "$fake/bisect.sh" $args --rounds 08 --max-rounds 010 --threshold 016 \
	--out "$tmp/b" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 1 ] && grep -q "nothing to bisect" "$tmp/err"
ok $? "an unclear bad: more rounds, then 'nothing to bisect' (exit $rc, want 1)"
[ $rc = 1 ] || diag "$tmp/err"
! grep -q "value too great\|invalid" "$tmp/err"
ok $? "no octal error on the way"
is "$(tr '\n' ' ' <"$tmp/rounds" 2>/dev/null)" "8 9 10 " \
	"--rounds 08 --max-rounds 010: steps of 8, 9 and 10 rounds"
grep -q "threshold 16 insn" "$tmp/err"
ok $? "--threshold 016 is 16"

tap_done
