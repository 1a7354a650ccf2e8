# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# scripts/kernel/lib.sh — helpers shared by the kernel and guest scripts.
# Sourced, not run.

NSB_CACHE=${NSB_CACHE:-/var/cache/nsbench}
export NSB_CACHE

# Bad input or a failed step exits 2, as nsbench's commands do: 1 is a
# verdict (a slower row, bisect's "nothing to bisect"), never an error.
die() {
	echo "${0##*/}: error: $*" >&2
	exit 2
}

# build_dir TOP: the build whose binaries a script runs, absolute: the one
# the caller names in NSB_BUILD (make check: its sanitizer build), else
# TOP/build.
build_dir() {
	local b=${NSB_BUILD:-$1/build}
	case "$b" in /*) echo "$b" ;; *) echo "$PWD/$b" ;; esac
}

# default_version TOP: the kernel version make run builds when KERNEL is
# not given, the one line of kernel-patches/default-version (6.1, 6.12);
# nothing if the line is not a version.  default-version.sh reads it, for
# this and for every other reader.
default_version() {
	sh "$(dirname "${BASH_SOURCE[0]}")/default-version.sh" "$1"
}

# The kernel source a run builds when no --ksrc is given: Debian's
# linux-source-$NSB_KERNEL package (make run KERNEL=6.12 sets it), or the
# tarball NSB_TARBALL names; by default default_version's.
NSB_KERNEL=${NSB_KERNEL:-$(default_version "$(dirname "${BASH_SOURCE[0]}")/../..")}
export NSB_KERNEL
case "$NSB_KERNEL" in
[0-9]*.[0-9]*) ;;
*) echo "${0##*/}: error: NSB_KERNEL (KERNEL) must be a version such as 6.1 or 6.12, not '$NSB_KERNEL'" >&2
   exit 2 ;;
esac

# default_tarball: the tarball of the default source.
default_tarball() {
	echo "${NSB_TARBALL:-/usr/src/linux-source-$NSB_KERNEL.tar.xz}"
}

# source_version SOURCE [REF]: "VERSION.PATCHLEVEL" (6.1, 6.12) of a kernel
# source from its top Makefile: a git tree at REF, an extracted tree, or
# a tarball (read up to its top Makefile only: under a second).  sed, not
# head, reads the Makefile to its end: no SIGPIPE fails the pipeline.  The
# series that fit a source are chosen by it.
source_version() {
	local mk v p
	if [ -n "${2:-}" ]; then
		mk=$(git -C "$1" show "$2:Makefile" 2>/dev/null | sed -n 1,8p)
	elif [ -d "$1" ]; then
		mk=$(sed -n 1,8p "$1/Makefile" 2>/dev/null)
	elif [ -f "$NSB_CACHE/src/$(basename "$1" .tar.xz)/.nsb-complete" ]; then
		# extracted before (build.sh): no decompression at all
		mk=$(sed -n 1,8p "$NSB_CACHE/src/$(basename "$1" .tar.xz)/Makefile")
	else
		mk=$(tar --occurrence=1 --wildcards --no-wildcards-match-slash \
			-xOf "$1" '*/Makefile' 2>/dev/null | sed -n 1,8p)
	fi
	v=$(printf '%s\n' "$mk" | sed -n 's/^VERSION = \([0-9][0-9]*\)$/\1/p')
	p=$(printf '%s\n' "$mk" | sed -n 's/^PATCHLEVEL = \([0-9][0-9]*\)$/\1/p')
	[ -n "$v" ] && [ -n "$p" ] ||
		die "$1${2:+ at $2}: no VERSION/PATCHLEVEL in its top Makefile (not a kernel source?)"
	echo "$v.$p"
}

# series_versions TOP: the kernel versions kernel-patches/ has series for.
series_versions() {
	(cd "$1/kernel-patches" && ls -d -- [0-9]*.[0-9]* 2>/dev/null) | sort -V | tr '\n' ' '
}

# series_dir TOP NAME VERSION: the directory of patch series NAME for a
# source of VERSION (nothing for none and stock): kernel-patches/VERSION/
# NAME (calibration, calibration/layout), else NAME as a path (a series
# of the user's own, relative or absolute).  A series that exists only
# for other versions is refused with the versions it has.
series_dir() {
	local have='' v
	case "$2" in
	none|stock) return 0 ;;
	esac
	if [ -f "$1/kernel-patches/$3/$2/series" ]; then
		echo "$1/kernel-patches/$3/$2"
		return 0
	elif [ -f "$2/series" ]; then
		echo "$2"
		return 0
	elif [ -d "$2" ]; then
		die "series '$2': $2/series not found"
	fi
	for v in $(series_versions "$1"); do
		[ -f "$1/kernel-patches/$v/$2/series" ] && have="$have $v"
	done
	[ -z "$have" ] ||
		die "series '$2' has no version for Linux $3 (kernel-patches/$3/$2); it exists for:$have.  Port it, or compare two trees with --series none (the two-kernel A/B)"
	die "series '$2': not under kernel-patches/$3/ nor a directory (none, stock, $( (cd "$1/kernel-patches/$3" 2>/dev/null && ls -- */series */*/series) | sed 's|/series$||' | tr '\n' ' ')or a directory with a series file)"
}

# config_frag TOP VERSION NAME: config fragment NAME (base.config,
# lsm.config, profile.config) for a source of VERSION: the version's own
# (kernel-patches/VERSION/configs/NAME) where it has one, else the shared
# kernel-patches/configs/NAME.
config_frag() {
	if [ -f "$1/kernel-patches/$2/configs/$3" ]; then
		echo "$1/kernel-patches/$2/configs/$3"
	else
		echo "$1/kernel-patches/configs/$3"
	fi
}

# need_value OPT NARGS: an option written "OPT VALUE" has its value
# (NARGS: the "$#" where OPT is $1).
need_value() {
	[ "$2" -ge 2 ] || die "$1 needs a value (see --help)"
}

# need_uint OPT VALUE [MIN]: VALUE is a whole number (>= MIN, default 0);
# leading zeros are read as decimal, never octal.
need_uint() {
	case "$2" in
	''|*[!0-9]*) die "$1 must be a whole number, not '$2'" ;;
	esac
	[ ${#2} -le 9 ] || die "$1: '$2' is too large"
	[ $((10#$2)) -ge "${3:-0}" ] || die "$1 must be at least ${3:-0}, not '$2'"
}

# write_meta FILE KEY=VALUE... [KEY:=NUMBER]...: a flat JSON object, in
# order; jq makes every VALUE data (quotes, backslashes, $(...), newlines),
# and KEY:= takes whole numbers only.  KEY: a-z, 0-9 and _, a letter first.
write_meta() {
	local file=$1 kv k v jqargs=() expr='{' sep=''
	shift
	for kv in "$@"; do
		k=${kv%%=*}
		v=${kv#*=}
		case "$k" in
		*:)	k=${k%:}
			need_uint "meta $k" "$v"
			jqargs+=(--argjson "$k" "$((10#$v))") ;;
		*)	jqargs+=(--arg "$k" "$v") ;;
		esac
		case "$k" in ''|[!a-z]*|*[!a-z0-9_]*)
			die "write_meta: bad key '$k'" ;;
		esac
		expr="$expr$sep\"$k\": \$$k"
		sep=', '
	done
	jq -n "${jqargs[@]}" "$expr}" >"$file.tmp" || die "cannot write $file"
	mv "$file.tmp" "$file"
}

# progress STEP WHAT: "[kernel toggles 00:42] compile bzImage ..." on stderr.
progress() {
	local now el
	now=$(date +%s)
	el=$((now - ${NSB_T0:-$now}))
	printf '[%s %02d:%02d] %-8s %s\n' "${NSB_LABEL:-${0##*/}}" \
		$((el / 60)) $((el % 60)) "$1" "$2" >&2
}

# fail_log LOG MSG: die with the log's tail.
fail_log() {
	echo "--- last lines of $1 ---" >&2
	tail -n 30 "$1" >&2 || true
	echo "---" >&2
	die "$2"
}

# ticker LOG PID: every 15 s, print elapsed time and the last object built.
ticker() {
	while kill -0 "$2" 2>/dev/null; do
		sleep 15
		kill -0 "$2" 2>/dev/null || break
		progress "compile" "$(grep -E '^  [A-Z]+ ' "$1" | tail -n 1 |
			sed 's/^ *//')"
	done
}

# check_config CONFIG FRAG...: every CONFIG_X=y / "is not set" line of the
# fragments must hold in the final .config (Kconfig drops what it cannot
# satisfy; say which symbol instead of booting a surprising kernel).
check_config() {
	local cfg=$1 f line sym bad=0
	shift
	for f in "$@"; do
		while IFS= read -r line; do
			case "$line" in
			CONFIG_*=*)
				grep -qxF "$line" "$cfg" && continue
				sym=${line%%=*}
				;;
			"# CONFIG_"*" is not set")
				sym=${line#\# }
				sym=${sym%% *}
				grep -q "^$sym=" "$cfg" || continue
				;;
			*) continue ;;
			esac
			echo "config: $(basename "$f") wants '$line', got '$(grep "^$sym=\|^# $sym " "$cfg" || echo unset)'" >&2
			bad=1
		done <"$f"
	done
	[ "$bad" = 0 ] || die "config fragment not satisfied (see above)"
}

# checks_registry TOP: the rows of kernel-patches/checks.def, one line
# each: "NAME SEED ON LSM FORM OP" (tab-separated; ON and FORM true or
# false, LSM none or the LSM's name).  A line starting a row that is not
# one, or a name given twice, is an error naming the line.
checks_registry() {
	local def=$1/kernel-patches/checks.def
	[ -r "$def" ] || die "$def not found"
	awk -v def="$def" '
	/^NSB_CHECK\(/ {
		if ($0 !~ /^NSB_CHECK\([a-z][a-z0-9_]*, "[0-9\/]+", (true|false), [a-z]+, (true|false), "[a-z]+",$/) {
			printf "%s:%d: not a registry row (see the header): %s\n", def, NR, $0 >"/dev/stderr"
			bad = 1
			exit 1
		}
		row = substr($0, 11)
		gsub(/[",]/, "", row)
		split(row, f, " ")
		if (f[1] in seen) {
			printf "%s:%d: check %s given twice\n", def, NR, f[1] >"/dev/stderr"
			bad = 1
			exit 1
		}
		seen[f[1]] = 1
		print f[1] "\t" f[2] "\t" f[3] "\t" f[4] "\t" f[5] "\t" f[6]
		n++
	}
	END {
		if (!bad && !n) {
			printf "%s: no rows\n", def >"/dev/stderr"
			exit 1
		}
	}' "$def" || die "kernel-patches/checks.def unreadable (see above)"
}

# checks_funcs TOP: the kernel functions of every check (the FUNCS line
# after each row of kernel-patches/checks.def: the second line of a row,
# a quoted list of names), one a line, each once.  A row without that
# line is an error naming the line.
checks_funcs() {
	local def=$1/kernel-patches/checks.def
	checks_registry "$1" >/dev/null || exit 2
	awk -v def="$def" '
	row {
		row = 0
		if ($0 !~ /^[ \t]*"[a-z_0-9][a-z_0-9 ]*",$/) {
			printf "%s:%d: not a FUNCS line (see the header): %s\n", def, NR, $0 >"/dev/stderr"
			bad = 1
			exit 1
		}
		gsub(/[",]/, "")
		for (i = 1; i <= NF; i++)
			if (!($i in seen)) {
				seen[$i] = 1
				print $i
			}
	}
	/^NSB_CHECK\(/ { row = 1 }
	' "$def" || die "kernel-patches/checks.def unreadable (see above)"
}

# side_results KIND DIR SIDE: DIR/SIDE's results files of KIND, one a
# line: central (a `cost` step labelled central-*, read as compare
# --metric=nsb_on) or plain (every other: bench and forkexec steps).
side_results() {
	local f k

	for f in "$2/$3"/*.json; do
		[ -f "$f" ] || continue
		case "${f##*/}" in *-central-*) k=central ;; *) k=plain ;; esac
		[ "$k" != "$1" ] || echo "$f"
	done
}

# plan_steps PLANS-DIR PLAN: the plan's steps as the guest runs them, one
# per line: a line continued with '\' joined to the next, comments (a
# '#' starting a word) and blank lines dropped, and `include NAME`
# replaced by the steps of PLANS-DIR/NAME.plan (the guest's /plans),
# however deep.  A missing plan or an include cycle is an error.
plan_steps() {
	local dir=$1 plan=$2 seen=${3:-} line name
	[ -r "$plan" ] || die "plan '$plan' not found"
	while IFS= read -r line; do
		case "$line" in
		include|include[[:space:]]*)
			read -r _ name _ <<<"$line"
			name=${name//[\"\']/}
			name=$dir/${name%.plan}.plan
			case " $seen " in *" $name "*)
				die "plan '$plan': include cycle through $name" ;;
			esac
			[ -r "$name" ] || die "plan '$plan': '$line': no $name"
			plan_steps "$dir" "$name" "$seen $plan"
			;;
		*) printf '%s\n' "$line" ;;
		esac
	done < <(sed -e ':a' -e '/\\$/{N;s/\\\n//;ba' -e '}' "$plan" |
		sed -e 's/\(^\|[[:space:]]\)#.*//' -e 's/^[[:space:]]*//' \
		    -e 's/[[:space:]]*$//' -e '/^$/d')
}

# plan_checks TOP PLAN: the checks the plan's `cost` and `check` steps
# name (includes followed), each a registry row, one line each: "NAME
# LSM" (its registry row's LSM).  A name that is not a row stops here,
# before anything is built.  `$NSB_LSM` (the booted LSM, in a step the
# guest runs under an LSM only) stands for the rows named after an LSM
# and yields nothing: which LSM a boot has is the boots' business.
plan_checks() {
	local reg steps
	reg=$(checks_registry "$1") || exit 2
	steps=$(plan_steps "$1/guest/plans" "$2") || exit 2
	awk -v me="${0##*/}" -v plan="$2" -v reg="$reg" '
	BEGIN {
		n = split(reg, row, "\n")
		for (i = 1; i <= n; i++) {
			split(row[i], f, "\t")
			lsm[f[1]] = f[4]
			names = names (i > 1 ? " " : "") f[1]
		}
	}
	$1 == "cost" || $1 == "check" {
		name = $2
		gsub(/["\047]/, "", name)
		if (name == "$NSB_LSM" || name == "${NSB_LSM}")
			next
		if (!(name in lsm)) {
			printf "%s: error: plan \047%s\047: \047%s %s\047: no check \047%s\047 in kernel-patches/checks.def (the checks: %s)\n", me, plan, $1, name, name, names >"/dev/stderr"
			exit 1
		}
		print name " " lsm[name]
	}' <<<"$steps" || exit 2
}
