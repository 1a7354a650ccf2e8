#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Slow tier of the LSM scenarios (TAP): the kernel A/B of
# guest/plans/lsm.plan in icount mode, stock against the toggles
# series, once with SELinux (enforcing) and once with Smack,
# NSB_AB_ROUNDS rounds each (default 2; ~4 min per boot on a loaded
# 2-core host).  Checks every boot's label preconditions, that the rows
# carry the LSM, that no row failed its precondition, and that the
# in-boot A/B of the LSM's switch (lsm vs lsm.off on the toggles side)
# compares with nsbench compare.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/../lib-tap.sh"

rounds=${NSB_AB_ROUNDS:-2}
nsb=${NSB_BUILD:-$top/build}/nsbench

need_guest
need jq jq
need checkpolicy checkpolicy
tap_plan 10

for l in selinux smack; do
	out=$tmp/$l
	"$top/scripts/ab.sh" --mode icount --rounds "$rounds" --out "$out" \
		--base none --series userns-checks-toggles \
		--plan "$top/guest/plans/lsm.plan" \
		--boot-file "$top/kernel-patches/configs/$l.boot" >"$out.log" 2>&1
	ok $? "$l: A/B stock vs toggles, $rounds rounds"
	! cat "$out"/boots/*/console.log | tr -d '\r' |
		grep '^@@NSB PROBE lsm.pre' | grep -q ' FAIL'
	ok $? "$l: every boot's label preconditions hold"
	cat "$out"/boots/*/console.log | tr -d '\r' |
		grep -q '^@@NSB PROBE lsm.pre result ok'
	ok $? "$l: preconditions ran"
	[ "$(jq -s '[.[].benchmarks[] | select(.error_occurred)] | length' \
		"$out"/A/*.json "$out"/B/*.json)" = 0 ] &&
	[ "$(jq -s --arg l "sys/lsm/$l/" '[.[].benchmarks[] |
		select(.name | startswith($l))] | length' "$out"/B/*-lsm.json)" -gt 0 ]
	ok $? "$l: sys/lsm/$l rows, none failed its precondition"
	"$nsb" compare "$out"/B/*-lsm.json -- "$out"/B/*-lsm.off.json \
		>"$out.cmp" 2>&1
	[ $? -le 1 ] && grep -q "sys/lsm/$l/" "$out.cmp"
	ok $? "$l: in-boot A/B of the $l switch compares"
done
tap_done
