#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# t93-checks-registry.sh — kernel-patches/checks.def against what it
# describes: for every kernel version's userns-checks-toggles series,
# each row's switch is a static key of its default (DEFINE_STATIC_KEY_TRUE
# or _FALSE) and a name of the userns_checks= / sysctl table, and every
# key and name of the series is a row; every `cost`/`check` step of
# guest/plans/*.plan names a row; every row has a `cost` step in
# checks.plan.  Then the same holds fail on a registry missing a row, on
# a series with a key the registry lacks and on a plan naming no row.
# No build, no guest.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
# shellcheck source=scripts/kernel/lib.sh
. "$top/scripts/kernel/lib.sh"

# keys SERIES-DIR: "NAME ON" per static key the series' patches add.
keys() {
	sed -n 's/^+DEFINE_STATIC_KEY_\(TRUE\|FALSE\)(userns_check_\([a-z0-9_]*\));$/\2 \1/p' \
		"$1"/*.patch | tr '[:upper:]' '[:lower:]' | sort -u
}

# names SERIES-DIR: the names of the switch table (userns_checks= words,
# sysctls): "NAME KEY" per entry.
names() {
	sed -n 's/^+[[:space:]]*{ "\([a-z0-9_]*\)", &userns_check_\([a-z0-9_]*\)\.key, .*/\1 \2/p' \
		"$1"/*.patch | sort -u
}

# breaches TOP: every rule, one line per breach.
breaches() {
	local t=$1 reg v d p used name lsm
	reg=$(checks_registry "$t") || return 1
	for d in "$t"/kernel-patches/[0-9]*/userns-checks-toggles; do
		v=${d#"$t"/kernel-patches/}
		v=${v%%/*}
		# the registry's rows, the series' keys, its table's names
		diff <(awk '{ print $1 " " $3 }' <<<"$reg" | sort) <(keys "$d") |
			sed -n "s/^< \(.*\)/$v: row '\1' (name default) is no static key of its default in the series/p
				s/^> \(.*\)/$v: static key '\1' (name default) is no row of the registry/p"
		diff <(awk '{ print $1 " " $1 }' <<<"$reg" | sort) <(names "$d") |
			sed -n "s/^< \([^ ]*\).*/$v: row '\1' is not in the series' userns_checks= table/p
				s/^> \([^ ]*\).*/$v: userns_checks= name '\1' is no row of the registry/p"
		grep -q '^+__setup("userns_checks=", ' "$d"/*.patch ||
			echo "$v: no userns_checks= parameter in the series"
	done
	for p in "$t"/guest/plans/*.plan; do
		(plan_checks "$t" "$p" >/dev/null) 2>&1
	done
	# used: the rows checks.plan has `cost` steps for; "$NSB_LSM" is
	# each row named after an LSM the registry has
	used=$(plan_steps "$t/guest/plans" "$t/guest/plans/checks.plan" |
		awk '$1 == "cost" { gsub(/["'\'']/, "", $2); print $2 }' |
		paste -sd ' ')
	while read -r name lsm; do
		[ "$lsm" = none ] || [ -n "$(awk -v l="$lsm" '$1 == l' <<<"$reg")" ] ||
			echo "LSM $lsm (row $name) has no row of its name: cost \"\$NSB_LSM\" cannot name it"
		# shellcheck disable=SC2016 # the plan's words, unexpanded
		case " $used " in
		*" $name "*) continue ;;
		*' $NSB_LSM '*|*' ${NSB_LSM} '*) [ "$lsm" = "$name" ] && continue ;;
		esac
		echo "row '$name' has no cost step in guest/plans/checks.plan"
	done < <(awk '{ print $1 " " $4 }' <<<"$reg")
}

# hold TOP: no breach (they are in $tmp/out).
hold() {
	breaches "$1" >"$tmp/out" 2>&1
	[ ! -s "$tmp/out" ]
}

tap_plan 11

hold "$top"
ok $? "the registry, every version's series and the plans agree"
diag "$tmp/out"

# The rules cover what they say.
reg=$(checks_registry "$top")
series=("$top"/kernel-patches/[0-9]*/userns-checks-toggles)
[ "$(wc -l <<<"$reg")" -ge 8 ] && [ -d "${series[0]}" ]
ok $? "$(wc -l <<<"$reg") rows, the series of ${#series[@]} kernel versions"

# copy: a tree of the registry, the series and the plans to break.
copy() {
	rm -rf "$tmp/t"
	mkdir -p "$tmp/t/kernel-patches" "$tmp/t/guest"
	cp "$top/kernel-patches/checks.def" "$tmp/t/kernel-patches/"
	cp -r "$top"/kernel-patches/[0-9]* "$tmp/t/kernel-patches/"
	cp -r "$top/guest/plans" "$tmp/t/guest/"
}

copy
sed -i '/^NSB_CHECK(nodev,/,/^NSB_CHECK(/{/^NSB_CHECK(nodev,/d;/^NSB_CHECK(/!d}' \
	"$tmp/t/kernel-patches/checks.def"
! grep -q '^NSB_CHECK(nodev' "$tmp/t/kernel-patches/checks.def" &&
	! hold "$tmp/t" && [ -s "$tmp/out" ] &&
	grep -q "static key 'nodev true' (name default) is no row" "$tmp/out" &&
	grep -q "userns_checks= name 'nodev' is no row" "$tmp/out" &&
	grep -q "checks.plan': 'cost nodev': no check 'nodev'" "$tmp/out"
ok $? "a row removed: the series' key and name and the plan's step say so"
diag "$tmp/out"

copy
sed -i 's/^NSB_CHECK(secattr, "006", false,/NSB_CHECK(secattr, "006", true,/' \
	"$tmp/t/kernel-patches/checks.def"
! hold "$tmp/t" &&
	grep -q "row 'secattr true' (name default) is no static key of its default" "$tmp/out"
ok $? "a row's default unlike its key's: refused"

copy
sed -i 's/^\(NSB_CHECK(walk_2015, .*\)/NSB_CHECK(nowalk, "009", false, none, false, "exec",\n\t  "in_userns",\n\t  "a check no series has")\n\1/' \
	"$tmp/t/kernel-patches/checks.def"
! hold "$tmp/t" &&
	[ "$(grep -c "row 'nowalk" "$tmp/out")" -ge 3 ] &&
	grep -q "row 'nowalk' has no cost step" "$tmp/out"
ok $? "a row no series has and no scenario measures: refused"

copy
for d in "$tmp"/t/kernel-patches/[0-9]*/userns-checks-toggles; do
	sed -i 's/^+DEFINE_STATIC_KEY_FALSE(userns_check_walk_2015);$/&\n+DEFINE_STATIC_KEY_FALSE(userns_check_extra);/' "$d"/0001-*.patch
done
! hold "$tmp/t" &&
	grep -q "static key 'extra false' (name default) is no row" "$tmp/out"
ok $? "a static key the registry lacks: refused"

copy
echo 'check no_such_check 0' >>"$tmp/t/guest/plans/lsm.plan"
! hold "$tmp/t" &&
	grep -q "lsm.plan': 'check no_such_check': no check 'no_such_check'" "$tmp/out"
ok $? "a plan step naming no check: refused, naming the plan"

copy
sed -i 's/^NSB_CHECK(sget, "002", true, none,/NSB_CHECK(sget, 002, true, none,/' \
	"$tmp/t/kernel-patches/checks.def"
! (checks_registry "$tmp/t") >"$tmp/out" 2>&1 && grep -q 'checks.def:[0-9]*: not a registry row' "$tmp/out"
ok $? "a row the strict pattern does not take: an error, not a skipped row"

# The image's LSM files follow the registry's LSM column of the steps the
# plan runs (includes followed, comments not read).
printf '# cost selinux x y: a comment\nbench a b\n' >"$tmp/p1.plan"
printf 'include lsm-switch\n' >"$tmp/p2.plan"
[ -z "$(plan_checks "$top" "$tmp/p1.plan" | awk '$2 != "none"')" ] &&
	[ "$(plan_checks "$top" "$tmp/p2.plan" | awk '$2 != "none" { print $2 }' | sort -u | paste -sd ' ')" = "selinux smack" ]
ok $? "LSMs of a plan: none from a comment, selinux and smack through an include"

# checks_funcs: each row's FUNCS (perf-profile.sh's check functions)
funcs=$(checks_funcs "$top")
want=$(sed -n '/^NSB_CHECK(/{n;p}' "$top/kernel-patches/checks.def" |
	tr -d '",' | tr ' \t' '\n\n' | sed '/^$/d' | sort -u)
[ -n "$funcs" ] && [ "$(printf '%s\n' "$funcs" | sort)" = "$want" ]
ok $? "checks_funcs: every row's FUNCS, each once"
copy
sed '/^NSB_CHECK(nodev/{n;s/.*/	  may_open_dev,/}' "$top/kernel-patches/checks.def" \
	>"$tmp/t/kernel-patches/checks.def"
! (checks_funcs "$tmp/t") >"$tmp/out" 2>&1 &&
	grep -q 'checks.def:[0-9]*: not a FUNCS line' "$tmp/out"
ok $? "checks_funcs: a row without its quoted FUNCS line is an error"
tap_done
