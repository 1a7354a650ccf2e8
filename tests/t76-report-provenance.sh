#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t76-report-provenance.sh — the report names each side's kernel
# (release, source commit and `git describe` or tarball hash, series and
# its patches' hash, config hash) and prints the host command that made
# the run (context nsbench_host_command, as scripts/ab.sh records it)
# instead of the in-guest one; all within 72 columns, text and Markdown.
# Results without those keys still give a report; a series name or a
# command with quotes, $(...) and a newline stays data.

# shellcheck disable=SC2016  # jq programs: $x is jq's, not the shell's
set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
FIX=$top/tests/fixtures/stats
command -v jq >/dev/null || { echo "1..0 # SKIP jq not installed"; exit 0; }

commit=0123456789abcdef0123456789abcdef01234567
tarball=cacdc3830989309d042083be3307969e55600ed7f908cf00df544c5ff50759a1
pat=aaaabbbbccccddddeeeeffff0000111122223333444455556666777788889999
cfg=3fa3c081875bb9851efb2980f8613df724f403440c3586d2f2d47aa40ae0be12
# an ab.sh command line as its sh_quote records it: quotes, $(...), `...`
# and a newline inside single quotes
host="scripts/ab.sh --base none --series userns-checks-toggles --rounds 6"
host="$host --workloads 'sys/exec/(bin|suid)/depth:(0|8)/ it'\\''s"
host="$host \$(touch m1) \`touch m2\`
x' --out results/ab-20261204T152233Z"

# ctx IN OUT JQ-ARGS... FILTER: IN with its context changed.
ctx() {
	local in=$1 out=$2
	shift 2
	jq "$@" "$in" >"$out"
}
ctx "$FIX/base.json" "$tmp/a.json" --arg t "tarball:$tarball" \
	--arg c "sha256:$cfg" --arg h "$host" \
	'.context += {kernel_source: $t, kernel_config_hash: $c,
	  patch_series: "none", nsbench_host_command: $h}'
ctx "$FIX/patched.json" "$tmp/b.json" --arg s "git-tree:$pat" \
	--arg k "$commit" --arg p "sha256:$pat" --arg c "sha256:$cfg" \
	--arg h "$host" --arg series "it's \$(touch m3) \"x\"" \
	'.context += {kernel_source: $s, kernel_source_commit: $k,
	  kernel_source_describe: "v6.1-12-g0123456789ab",
	  patch_series: $series, patch_series_sha256: $p,
	  kernel_config_hash: $c, nsbench_host_command: $h,
	  nsbench_ci_head: $k, nsbench_ci_run_id: "ci-1"}'

# cmd FILE: the host command, the report's last lines.
cmd() {
	sed -n '/the run (host/,$p' "$1" | sed 1d
}

"$NSB" report "$tmp/a.json" -- "$tmp/b.json" >"$tmp/r" 2>"$tmp/err"
[ $? != 2 ] && [ -s "$tmp/r" ]
ok $? "a report of results with the kernel identity keys"
awk 'length > 72 { bad = 1 } END { exit bad }' "$tmp/r"
ok $? "... fits 72 columns"
sed -n '/^Provenance/,/^  mode/p' "$tmp/r" >"$tmp/prov"
grep -q '^  base      kernel 6.1.0-fixture (#1 SMP fixture)$' "$tmp/prov" &&
	grep -q "^ *source tarball sha256:${tarball:0:16}\$" "$tmp/prov" &&
	grep -q '^ *series none$' "$tmp/prov" &&
	[ "$(grep -c "^ *config sha256:${cfg:0:16}\$" "$tmp/prov")" = 2 ]
ok $? "... base: release, tarball hash, series, config hash (16 hex)"
grep -q "^ *source git ${commit:0:12} (v6.1-12-g0123456789ab)\$" \
	"$tmp/prov" &&
	grep -qF "series it's \$(touch m3) \"x\"" "$tmp/prov" &&
	grep -q "^ *patches sha256:${pat:0:16}\$" "$tmp/prov"
ok $? "... patched: commit (12 hex) and describe, series, its patches' hash"
want="run ci-1: base none (the head alone), head ${commit:0:12}"
grep -q "^  ci        $want\$" "$tmp/r"
ok $? "... the CI run's commits"
grep -q 'the run (host' "$tmp/r" && ! grep -q 'nsbench-bench' "$tmp/r"
ok $? "... the host command, not the in-guest one"
cmd "$tmp/r" >"$tmp/cmd"
(cd "$tmp" && sh -c 'printargs() { printf "%s\0" "$@"; }
	eval "printargs $(cat "$1")"' sh "$tmp/cmd") >"$tmp/got"
# a control character is data from elsewhere: the readers hand it on as
# "\x0a" (nsb_json_clean), so the newline comes back as those 4 bytes
host_clean=$(printf '%s' "$host" | awk 'NR > 1 { printf "\\x0a" } { printf "%s", $0 }')
(cd "$tmp" && sh -c 'printargs() { printf "%s\0" "$@"; }
	eval "printargs $1"' sh "$host_clean") >"$tmp/want"
[ -s "$tmp/want" ] && cmp -s "$tmp/got" "$tmp/want"
ok $? "... which, pasted into sh, gives back ab.sh's arguments (a newline as \\x0a)"

"$NSB" report --markdown "$tmp/a.json" -- "$tmp/b.json" >"$tmp/md" \
	2>"$tmp/err"
[ $? != 2 ] && grep -qF "source git $commit (v6.1-12-g0123456789ab)" \
	"$tmp/md" && grep -qF "(patches sha256:$pat)" "$tmp/md" &&
	grep -qF "source tarball:$tarball" "$tmp/md" &&
	grep -q '^scripts/ab.sh --base none' "$tmp/md"
ok $? "Markdown: whole hashes, the host command"

# old results: none of the new keys
"$NSB" report "$FIX/base.json" -- "$FIX/patched.json" >"$tmp/old" \
	2>"$tmp/err"
[ $? != 2 ] && grep -q '^ *source not recorded$' "$tmp/old" &&
	grep -q '^ *series stock$' "$tmp/old" && ! grep -q 'patches' "$tmp/old" &&
	grep -q 'the measurement (from the results' "$tmp/old" &&
	grep -q 'nsbench-bench' "$tmp/old"
ok $? "old results: what is there, and the reconstructed measurement"
awk 'length > 72 { bad = 1 } END { exit bad }' "$tmp/old"
ok $? "... within 72 columns"

# one side with a host command, the other without: the one there is
"$NSB" report "$FIX/base.json" -- "$tmp/b.json" >"$tmp/half" 2>"$tmp/err"
[ $? != 2 ] && grep -q '^  scripts/ab.sh --base none' "$tmp/half"
ok $? "a host command on one side is printed"

! ls "$tmp"/m[0-9] >/dev/null 2>&1
ok $? "no command ran: every value stayed data"

tap_done
