#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Slow tier of the kernel pipeline (TAP): a real A/B in icount mode,
# stock against the toggles series, and an A/A (stock against a separate
# build of stock), NSB_AB_ROUNDS rounds each (default 3).  Checks that
# every boot produced results, the manifest, and that the A/A paired
# median of the pipeline's fork+exec workload is within 1 virtual ns.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/../lib-tap.sh"

rounds=${NSB_AB_ROUNDS:-3}
build=${NSB_BUILD:-$top/build}
case "$build" in /*) ;; *) build=$PWD/$build ;; esac
nsb=$build/nsbench

need_guest
need jq jq
[ -x "$nsb" ] || skip_all "no $nsb (make)"
tap_plan 6

# ab OUT ARGS...: one ab.sh run, quietly.
ab() {
	local out=$1
	shift
	"$top/scripts/ab.sh" --mode icount --rounds "$rounds" --out "$out" \
		--plan "$top/guest/plans/ab.plan" "$@" >"$out.log" 2>&1
}

ab "$tmp/ab" --base none --series userns-checks-toggles
ok $? "A/B stock vs userns-checks-toggles, $rounds rounds"
[ "$(ls "$tmp"/ab/A/*.json "$tmp"/ab/B/*.json 2>/dev/null | wc -l)" -ge $((rounds * 2)) ]
ok $? "one results file per boot and side"
jq -e '.boots | length > 0 and all(.status == "ok")' "$tmp/ab/manifest.json" >/dev/null
ok $? "manifest lists every boot as ok"
"$nsb" compare --rounds "$tmp"/ab/A/*.json -- "$tmp"/ab/B/*.json 2>&1 |
	sed 's/^/# /'

ab "$tmp/aa" --base none --aa
ok $? "A/A stock vs a separate build of stock, $rounds rounds"
# The A/A's paired shift of guest/exec (median of per-round differences).
med=$("$nsb" compare --format=json "$tmp"/aa/A/*.json -- "$tmp"/aa/B/*.json |
	jq -r '.rows[] | select(.name == "guest/exec") | select(.paired) |
	       .shift.est')
echo "# A/A paired median B-A for guest/exec: ${med:-missing} ns"
[ -n "$med" ] && awk -v m="$med" 'BEGIN { exit !(m <= 1 && m >= -1) }'
ok $? "A/A residual within 1 virtual ns per fork+exec"
[ -f "$tmp/aa/manifest.json" ] &&
	[ "$(jq -r .A.key "$tmp/aa/manifest.json")" != "$(jq -r .B.key "$tmp/aa/manifest.json")" ]
ok $? "A/A sides are separate builds (different cache keys)"
tap_done
