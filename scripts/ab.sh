#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/ab.sh — kernel A/B in QEMU guests: build the kernels (cached),
# boot them in interleaved rounds (in parallel, results cached and
# audited), collect one results directory per boot, compare.
#
#   ab.sh --checks [--stock] [--lsm-boots "LSM..."]
#                                       what each check costs (make run)
#   ab.sh [--base SERIES] [--series SERIES] [--aa]   two kernels
#         [--mode MODE] [--rounds N] [--jobs N] [--shard K/N] [--no-cache]
#         [--plan FILE | --workloads "FILTER..."]
#         [--ksrc DIR [--base-ref REF] [--ref REF]] [--config FRAG]...
#         [--boot-file FILE] [--append ARGS] [--bench BIN] [--out DIR]
#         [--kernel DIR] [--base-kernel DIR]
#         [--timeout S] [--seed N] [--perf] [--lsm] [--context KEY=VALUE]...
#         [--cachesim PLUGIN.so]
#   ab.sh --one-kernel ... | --shard K/N ...   boots only, no comparison
#   ab.sh --merge OUT SHARD-DIR...      merge shards, then compare
#
# Results: OUT (default results/ab-<UTC>)/{A,B}/rNN-<label>.json, boots/
# (console logs), manifest.json, and compare.txt or, with --checks,
# report.txt.  This command line, shell-quoted, is in the manifest
# (host_command) and each results file's context (nsbench_host_command),
# with the kernel's meta.json fields (scripts/kernel/build.sh).  Boot
# results are cached in $NSB_CACHE/boots by what determines them (kernel
# image, initramfs, command line with the round's seed, QEMU version,
# mode, side); every run that takes a boot from the cache boots one of
# them again and requires byte-identical results, else drops the cache
# and boots everything.
#
# The options: the table ab_options below, which the parser reads and
# --help prints.  The modes: the functions mode_checks, mode_ab,
# mode_shard and mode_merge at the end, each a list of the stages above
# them.

set -eu
set -o pipefail
shopt -s inherit_errexit

# Parsed whole before it runs: editing this file cannot break a run.
{

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
# shellcheck source=scripts/kernel/lib.sh
. "$here/kernel/lib.sh"
build=$(build_dir "$top")
nsb=
[ -x "$build/nsbench" ] && nsb=$build/nsbench

# --- options -----------------------------------------------------------------

# One row per option, NAME|SETS|ARG|HELP:
#   SETS  a variable: the option takes a value (shown as ARG) and sets
#         it; VAR+: the option and its value are appended to the array
#         VAR (the option may repeat); VAR=VALUE[,VAR=VALUE]: a flag,
#         setting each; such a flag with an ARG takes the rest of the
#         command line as its operands (merge_args).
#   HELP  what --help prints; "(deprecated: --NAME)" marks an old
#         spelling, which says so on stderr when used.
ab_options=(
"--checks|checks=1||one kernel, the toggles series (--series): every boot measures each check on and off in the same boot (plan guest/plans/checks.plan, \`cost\` steps)"
"--one-kernel|checks=1,shard=1/1||--checks --shard 1/1 by its name: side B alone, its results and manifest, no comparison and no report"
"--report-command|report_cmd|CMD|with --checks: the command report.txt names as the one that reproduces the run (make run's)"
"--stock|stock=1||with --checks: also boot the unpatched kernel with the same plan and seeds (the toggles' own cost, one line of the report)"
"--lsm-boots|lsm_boots|\"LSM...\"|with --checks: every round also boots the kernel with each LSM active (selinux, smack: lsm=LSM on the command line, side B+LSM), the same image and seed"
"--base|base|SERIES|side A series of a two-kernel A/B (default none = stock)"
"--series|series|SERIES|side B series (default userns-checks-toggles)"
"--aa|aa=1||side B is a second, separate build of side A (A/A)"
"--mode|mode|MODE|auto (KVM if a probe boot works, else icount) | icount | tcg | kvm (default auto)"
"--rounds|rounds|N|rounds; each boots every side once, the side order alternating from round to round except under icount, where a boot's results do not depend on when it runs (default 6: the fewest with a 95 % sign-test interval)"
"--boots|rounds|N|(deprecated: --rounds) the old name of --rounds"
"--jobs|jobs|N|boots at once (default: the CPUs; icount results do not depend on the host's load, see README)"
"--shard|shard|K/N|run only boots K, K+N, K+2N, ... (1 <= K <= N), no comparison; merge the shards' directories with --merge"
"--no-cache|cache=0||boot everything, use no cached boot result"
"--plan|plan|FILE|guest plan (default guest/plans/ab.plan; with --checks checks.plan)"
"--workloads|workloads|\"W...\"|makes the plan: a W with a '/' is an nsbench-bench filter (one run each; two kernels: also a central-* step, read in a second table), else a plan of guest/plans/"
"--ksrc|ksrc|DIR|a kernel git tree to build (at --base-ref and --ref, default HEAD) instead of Debian's linux-source tarball"
"--base-ref|base_ref|REF|with --ksrc: side A's commit"
"--ref|ref|REF|with --ksrc: side B's commit"
"--config|frags+|FRAG|a kernel config fragment, both sides, instead of the version's base.config and those ab.sh picks (lsm.config, profile.config); repeatable"
"--boot-file|bootfile|FILE|a kernel-patches .boot file: extra command line, both sides"
"--append|append|ARGS|extra kernel command line, both sides"
"--bench|bench|BIN|the nsbench-bench to put into the image (default the build's)"
"--out|out|DIR|the results directory (default results/ab-<UTC>)"
"--kernel|kdirB|DIR|a kernel already built (a directory with bzImage and meta.json, as scripts/kernel/build.sh leaves them) for side B instead of building one"
"--base-kernel|kdirA|DIR|the same for side A"
"--timeout|timeout|S|a boot's limit: QEMU CPU seconds under tcg and icount, wall seconds under kvm (run-qemu.sh; default 900)"
"--seed|seed0|N|base of the per-round seeds (default 1)"
"--perf|perf=--perf||put perf into the guest image"
"--lsm|lsm=--lsm||the LSM scenarios: their files in the guest image, SELinux and Smack in the kernel (configs/lsm.config, unless --config is given); implied by a boot with an LSM (--lsm-boots, lsm= in --append or the boot file) and by a plan step naming a check of an LSM (\`cost selinux\`, \`check smack 0\`: kernel-patches/checks.def's LSM column)"
"--context|ctx+|KEY=VALUE|into every results file's context (KEY: a-z, 0-9, _), e.g. the commits a CI job compares (repeatable)"
"--cachesim|cachesim|PLUGIN.so|icount boots load the cache-model plugin (make builds build/guest/plugin/nsb-cachesim.so): every interleaved entry also gets its loads, stores and simulated misses per state (nsb_STATE_cs_*), the report a cache table"
"--merge|merge=1|OUT SHARD-DIR...|merge the shards' directories into OUT, then compare (the rest of the command line)"
"--help|want_help=1||this help (also -h)"
)

# The defaults, before the options.
checks=0 stock=0 base=none series=userns-checks-toggles aa=0 mode=auto
rounds=6 jobs=$(nproc) shard='' cache=1 plan='' workloads='' ksrc=''
base_ref='' ref='' frags=() bootfile='' append='' bench='' out=''
timeout=900 seed0=1 perf='' lsm='' merge=0 kdirA='' kdirB='' ctx=()
lsm_boots='' frag_names=() apic='' report_cmd='' cachesim='' want_help=0
merge_args=()

# usage: the header's synopsis and results, then the options from the
# table, on stderr; exit 2.
usage() {
	local row name sets arg what
	{
		sed -n '4,${/^# The options/q;p}' "$0" | sed 's/^# \{0,1\}//'
		echo "Options:"
		for row in "${ab_options[@]}"; do
			IFS='|' read -r name sets arg what <<<"$row"
			printf '%s\n' "$what" | fold -s -w 50 | sed 's/ *$//' |
				awk -v n="$name${arg:+ $arg}" '
				NR == 1 && length(n) > 21 { printf "  %s\n", n; n = "" }
				NR == 1 { printf "  %-22s%s\n", n, $0; next }
				{ printf "%24s%s\n", "", $0 }'
		done
	} >&2
	exit 2
}

# append_to ARRAY WORD...: the words appended to the array named ARRAY.
append_to() {
	local -n _a=$1
	shift
	_a+=("$@")
}

# parse_options ARG...: each option by its row of ab_options.
parse_options() {
	local row name sets arg what a found
	while [ $# -gt 0 ]; do
		[ "$1" != -h ] || usage
		found=''
		for row in "${ab_options[@]}"; do
			IFS='|' read -r name sets arg what <<<"$row"
			[ "$1" != "$name" ] || { found=1; break; }
		done
		[ -n "$found" ] || die "unknown option '$1' (see --help)"
		case "$what" in "(deprecated: "*)
			a=${what#(deprecated: }
			echo "ab.sh: $1 is deprecated; use ${a%%)*}" >&2 ;;
		esac
		case "$sets" in
		*+)	need_value "$1" $#
			append_to "${sets%+}" "$1" "$2"
			shift ;;
		*=*)	for a in ${sets//,/ }; do
				printf -v "${a%%=*}" '%s' "${a#*=}"
			done
			[ "$want_help" = 0 ] || usage
			if [ -n "$arg" ]; then
				shift
				merge_args=("$@")
				return 0
			fi ;;
		*)	need_value "$1" $#
			printf -v "$sets" '%s' "$2"
			shift ;;
		esac
		shift
	done
}

# sh_quote WORD...: one line that a POSIX shell reads back as the same
# words: a word of plain characters as is, any other in single quotes
# (each ' as '\'').
sh_quote() {
	local w line='' q="'\\''"
	for w in "$@"; do
		case "$w" in
		''|*[!A-Za-z0-9_./:=,+@%-]*) w="'${w//\'/$q}'" ;;
		esac
		line="$line${line:+ }$w"
	done
	printf '%s\n' "$line"
}

# src_tree_of KERNEL-DIR: the pristine source tree (under $NSB_CACHE/src)
# the kernel was built from, by its meta.json; the default tarball's
# where that tree is not here (a kernel built elsewhere: --kernel).
src_tree_of() {
	local src
	src=$(jq -r '.source // ""' "$1/meta.json")
	case "$src" in
	git-tree:*) src=$NSB_CACHE/src/git-${src#git-tree:} ;;
	*) src='' ;;
	esac
	[ -n "$src" ] && [ -d "$src" ] ||
		src=$NSB_CACHE/src/$(basename "$(default_tarball)" .tar.xz)
	echo "$src"
}

# src_version REF: the kernel version (6.1, 6.12) of the source a side
# builds: the --ksrc tree at REF, else the default tarball.
src_version() {
	local t
	if [ -n "$ksrc" ]; then
		source_version "$ksrc" "${1:-HEAD}"
		return
	fi
	t=$(default_tarball)
	[ -r "$t" ] || die "$t not found: install linux-source-$NSB_KERNEL (make deps KERNEL=$NSB_KERNEL) or pass --ksrc"
	source_version "$t"
}

# --- validate everything before any long step ----------------------------

validate() {
	local l k i
	case "$mode" in auto|icount|tcg|kvm) ;;
	*) die "--mode must be auto, icount, tcg or kvm, not '$mode'" ;; esac
	# lib.sh's need_uint; then read once, as decimal ("09" is nine,
	# not a bad octal number after the kernels are built)
	need_uint --rounds "$rounds" 1
	need_uint --jobs "$jobs" 1
	need_uint --timeout "$timeout" 1
	need_uint --seed "$seed0"
	rounds=$((10#$rounds)) jobs=$((10#$jobs)) timeout=$((10#$timeout))
	seed0=$((10#$seed0))
	if [ -n "$shard" ]; then
		[[ $shard =~ ^[0-9]+/[0-9]+$ ]] || die "--shard must be K/N, not '$shard'"
		sk=$((10#${shard%/*})) sn=$((10#${shard#*/}))
		[ "$sk" -ge 1 ] && [ "$sk" -le "$sn" ] ||
			die "--shard K/N needs 1 <= K <= N, not '$shard'"
	fi
	[ "$aa" = 1 ] && series=$base
	if [ "$checks" = 1 ]; then
		[ "$aa" = 0 ] || die "--checks and --aa do not go together"
		plan=${plan:-$top/guest/plans/checks.plan}
	elif [ "$stock" = 1 ] || [ -n "$lsm_boots" ]; then
		die "--stock and --lsm-boots go with --checks"
	fi
	for l in $lsm_boots; do
		case "$l" in selinux|smack) ;;
		*) die "--lsm-boots: selinux or smack, not '$l'" ;; esac
	done
	[ -z "$ksrc" ] || [ -d "$ksrc" ] || die "--ksrc '$ksrc' is not a directory"
	# Each side's series must exist for its source's version.
	vA='' vB=''
	[ -n "$kdirA" ] || vA=$(src_version "$base_ref")
	[ -n "$kdirB" ] || vB=$(src_version "$ref")
	[ -z "$vA" ] || series_dir "$top" "$base" "$vA" >/dev/null || exit
	[ -z "$vB" ] || series_dir "$top" "$series" "$vB" >/dev/null || exit
	[ -z "$bootfile" ] || [ -r "$bootfile" ] || die "--boot-file '$bootfile' not found"
	for ((i = 1; i < ${#frags[@]}; i += 2)); do
		[ -r "${frags[$i]}" ] || die "--config '${frags[$i]}' not found"
	done
	[ -z "$plan" ] || [ -r "$plan" ] || die "plan '$plan' not found"
	[ -z "$bench" ] || [ -x "$bench" ] || die "--bench '$bench' is not executable"
	for k in "$kdirA" "$kdirB"; do
		[ -z "$k" ] || { [ -f "$k/bzImage" ] && [ -f "$k/meta.json" ]; } ||
			die "--kernel '$k': no bzImage and meta.json there"
	done
	for k in "${QEMU:-qemu-system-x86_64}" busybox cpio; do
		command -v "$k" >/dev/null || die "$k not found (make deps)"
	done
	command -v jq >/dev/null || die "jq not found (make deps)"
	for ((i = 1; i < ${#ctx[@]}; i += 2)); do
		case "${ctx[$i]%%=*}" in "${ctx[$i]}"|''|[!a-z]*|*[!a-z0-9_]*)
			die "--context: KEY=VALUE, KEY of a-z, 0-9, _: not '${ctx[$i]}'" ;;
		esac
	done
}

# start_clock: the run's time; every progress line counts from it.
start_clock() {
	NSB_T0=$(date +%s)
	stamp=$(date -u -d "@$NSB_T0" +%Y%m%dT%H%M%SZ)
	# The run's date in every results file, a boot served from the
	# cache too (run-qemu.sh --date): the guests' clock is fixed.
	run_date=$(date -u -d "@$NSB_T0" +%Y-%m-%dT%H:%M:%SZ)
	export NSB_T0 NSB_LABEL=ab
}

# --- merge: shards into one directory ------------------------------------

# merge_shards OUT SHARD-DIR...: the shards' results, boots and
# manifests in OUT; checks from the manifest.
merge_shards() {
	local d s
	[ $# -ge 2 ] || die "--merge OUT SHARD-DIR..."
	out=$1
	shift
	mkdir -p "$out/A" "$out/B" "$out/boots"
	for d in "$@"; do
		[ -f "$d/manifest.json" ] || die "--merge: $d has no manifest.json"
	done
	for d in "$@"; do
		for s in "$d"/[AB] "$d"/[AB]+*; do
			[ -d "$s" ] || continue
			mkdir -p "$out/${s##*/}"
			find "$s" -name '*.json' -exec cp {} "$out/${s##*/}/" \;
		done
		[ -d "$d/boots" ] && cp -r "$d/boots/." "$out/boots/"
	done
	"$nsb" manifest --merge --out="$out/manifest.json" "${@/%//manifest.json}" ||
		die "--merge: cannot merge the shards' manifests"
	progress "merge" "$# shard(s) -> $out ($(jq '.boots | length' "$out/manifest.json") boots)"
	checks=$(jq -r 'if .checks then 1 else 0 end' "$out/manifest.json")
}

# --- plan ------------------------------------------------------------------

# slug FILTER: a step label made of the filter (a file name, a word).
slug() {
	echo "$1" | tr -c 'A-Za-z0-9_.\n-' _
}

# quoted FILTER: the filter as one single-quoted word of the plan (a
# quote in it dropped: it cannot end the quoting).
quoted() {
	echo "'$(echo "$1" | tr -d "'")'"
}

# central_step FILTER: the filter's ops in chunks of a count fixed on
# both kernels, each run's cost the mean of its central chunks
# (compare --metric=nsb_on; make validate's second table, where exec
# reads 4,153.0 for 4,153 and the plain means +-5).  On a kernel without
# the switch every chunk runs the same op; on the toggles kernel nsb_on
# is the check on, as the kernel ships it.  Two execs a chunk, 16 of
# anything else, as calibration-validate.plan.
central_step() {
	local k=16

	case "$1" in *exec*) k=2 ;; esac
	echo "cost mnt_may_suid central-$(slug "$1") --interleave-chunk=$k $(quoted "$1")"
}

# central_steps: COST_ARGS and a central_step per filter of --workloads.
central_steps() {
	local w

	# shellcheck disable=SC2016 # the guest's variables
	echo 'COST_ARGS="--benchmark_min_time=0.03 $STEADY_ARGS"'
	for w in $workloads; do
		case "$w" in */*) central_step "$w" ;; esac
	done
}

# make_plan: the plan the guests run (--workloads makes one), and the
# LSMs its checks need.
make_plan() {
	local w
	if [ -n "$workloads" ]; then
		genplan=$(mktemp)
		trap 'rm -f "$genplan"' EXIT
		{
			echo "# generated by ab.sh --workloads"
			# like every plan of guest/plans that times exec (t41),
			# the in-boot ones as checks.plan does
			[ "$checks" = 1 ] && echo "STEADY_INBOOT=1"
			echo "include steady"
			# shellcheck disable=SC2016 # the guest's variable
			echo 'BENCH_ARGS=$STEADY_ARGS'
			for w in $workloads; do
				case "$w" in
				*/*) echo "bench $(slug "$w") $(quoted "$w")" ;;
				*) [ -f "$top/guest/plans/${w%.plan}.plan" ] ||
					die "--workloads: no plan guest/plans/${w%.plan}.plan"
				   echo "include ${w%.plan}" ;;
				esac
			done
			# two kernels: then each filter as make run and make
			# validate's central table measure an op (central_step),
			# after every bench step, which run as they ran alone
			[ "$checks" = 1 ] || central_steps
		} >"$genplan"
		plan=$genplan
	fi
	plan=${plan:-$top/guest/plans/ab.plan}
	# Every check a `cost` or `check` step names (includes followed) is
	# a row of kernel-patches/checks.def; a check of an LSM needs that
	# LSM's files in the image (choose_configs).
	plan_lsms=$(plan_checks "$top" "$plan" | awk '$2 != "none" { print $2 }' |
		sort -u | tr '\n' ' ') || exit
}

# make_out: the output directory; everything after it takes time.
make_out() {
	out=${out:-$top/results/ab-$stamp}
	mkdir -p "$out/A" "$out/B" "$out/boots"
	# Generated results are not tracked.
	echo '*' >"$out/.gitignore"
}

# --- kernels ---------------------------------------------------------------

# choose_configs: the LSM scenarios (guest/lsm/README.md) when a boot has
# an LSM active or a plan step names a check of an LSM (the registry's
# LSM column): their files in the image (/lsm) and, unless the caller
# names the config, SELinux and Smack in the kernel.
choose_configs() {
	if [ -n "$lsm_boots" ] || [ -n "$plan_lsms" ] ||
	   echo "$append" | grep -q 'lsm=' ||
	   { [ -n "$bootfile" ] && grep -v '^#' "$bootfile" | grep -q 'lsm='; }; then
		lsm=--lsm
	fi
	# A plan with profile steps (its own or an included plan's): perf
	# in the image, and (unless the caller names the config)
	# high-resolution timers in the kernel.
	profiled=0
	grep -q '^profile[[:space:]]' <<<"$(plan_steps "$top/guest/plans" "$plan")" &&
		profiled=1
	[ "$profiled" = 1 ] && perf=--perf
	# perf samples on one-shot hrtimers: keep the LAPIC timer (run-qemu.sh)
	[ -z "$perf" ] || apic=--apic-timer
	# The fragments by name: each side's version picks its own files.
	if { [ -n "$lsm" ] || [ "$profiled" = 1 ]; } && [ ${#frags[@]} = 0 ]; then
		frag_names=(base.config)
		[ -n "$lsm" ] && frag_names+=(lsm.config)
		[ "$profiled" = 1 ] && frag_names+=(profile.config)
	fi
	return 0
}

# build SIDE SERIES REF SALT VERSION: prints the kernel's cache directory.
build() {
	local args=(--series "$2" "${frags[@]}") f
	for f in "${frag_names[@]}"; do
		args+=(--config "$(config_frag "$top" "$5" "$f")")
	done
	[ -n "$ksrc" ] && args+=(--ksrc "$ksrc")
	[ -n "$3" ] && args+=(--ref "$3")
	[ -n "$4" ] && args+=(--salt "$4")
	progress "kernel" "side $1: $2${4:+ (separate build: $4)}"
	NSB_T0='' NSB_LABEL='' "$here/kernel/build.sh" "${args[@]}"
}

# build_kernels: the sides (A B; --checks: B, A too with --stock, each
# again per --lsm-boots LSM) and their kernels, built or given.
build_kernels() {
	local l k
	sides="A B"
	if [ "$checks" = 1 ]; then
		base=none
		kernels=B
		[ "$stock" = 1 ] && kernels="A B"
		sides=$kernels
		for l in $lsm_boots; do
			for k in $kernels; do sides="$sides $k+$l"; done
		done
	fi
	kA=$kdirA kB=$kdirB
	case " $sides " in *" A "*) [ -n "$kA" ] || kA=$(build A "$base" "$base_ref" "" "$vA") ;; esac
	[ -n "$kB" ] || kB=$(build B "$series" "$ref" "$([ "$aa" = 1 ] && echo aa || true)" "$vB")
	[ "$kA" != "$kB" ] || die "both sides are the same kernel build ($kA)"
}

# --- guest image -------------------------------------------------------------

# make_image: the guests' initramfs, their command line, the QEMU mode
# and the cache-model plugin.
make_image() {
	if [ -z "$bench" ] && [ -x "$build/bench/nsbench-bench" ]; then
		bench=$build/bench/nsbench-bench
	fi
	[ -n "$bench" ] || progress "warn" "no nsbench-bench built (make): only nsb-guest steps run"
	initrd=$out/initramfs.cpio
	# The SELinux policy lists the classes of the kernel it is loaded
	# into: made from the tree side B was built from.
	NSB_SELINUX_SRC=$(src_tree_of "$kB") \
	"$top/guest/mkinitramfs.sh" --plan "$plan" --out "$initrd" \
		--guest "$build/guest/nsb-guest" ${bench:+--bench "$bench"} \
		$perf $lsm
	cp "$plan" "$out/plan"

	# Two kernels: the guests measure under SCHED_BATCH (init.sh says
	# why); the in-boot check costs choose it per step (checks.plan).
	[ "$checks" = 1 ] || append="${append:+$append }nsb.sched=batch"
	if [ -n "$bootfile" ]; then
		append="$append $({ grep -v '^#' "$bootfile" || true; } | tr '\n' ' ')"
		append=$(echo "$append" | tr -s ' ' | sed 's/^ //; s/ $//')
	fi
	if [ "$mode" = auto ]; then
		progress "mode" "probing KVM (<= 20 s)"
		mode=$("$top/guest/probe-kvm.sh" "$kB/bzImage" "$initrd" icount)
	fi
	progress "mode" "$mode"
	if [ -n "$cachesim" ]; then
		[ "$mode" = icount ] ||
			die "--cachesim: the cache model needs icount boots, not $mode"
		[ -f "$cachesim" ] || die "--cachesim: '$cachesim' not found (make builds it)"
		cachesim=$(cd "$(dirname "$cachesim")" && pwd)/$(basename "$cachesim")
		cachesim_sha=$(sha256sum <"$cachesim" | cut -d' ' -f1)
		progress "cache" "model plugin $(basename "$cachesim") ${cachesim_sha:0:16}"
	fi
	# The files of a cache entry, and their digest beside them (sorted).
	entry_files="console.log inputs results.raw"
	[ -z "$cachesim" ] || entry_files="cachesim.tsv $entry_files"
}

# --- boots ---------------------------------------------------------------------

reverse() {
	local w out=''
	for w in "$@"; do out="$w${out:+ $out}"; done
	echo "$out"
}

# The boot list, in order: "BOOT ROUND SEED SIDE" per line.  Seeds spread
# over [0, 10^9): one per round, every side alike; the side order
# alternates from round to round, so that a drift of the host's speed
# falls on both sides alike.  Under icount a boot's results do not depend
# on when it runs: the sides keep their order, the longest first as the
# caller lists them, and the last boot to start is a short one (18 boots
# two at a time, the no-LSM ones first: 10 s less idle at the end).
boot_list() {
	local r s b=0 side order
	for r in $(seq 1 "$rounds"); do
		s=$(( (seed0 * 1000003 + r * 7919 * 104729) % 1000000000 ))
		order=$sides
		[ $((r % 2)) = 1 ] || [ "$mode" = icount ] ||
			order=$(reverse $sides)
		for side in $order; do
			b=$((b + 1))
			echo "$b $r $s $side"
		done
	done
}

# A side is A or B (the kernel), maybe +LSM (that LSM active).
kernel_of() {
	case "$1" in A|A+*) echo "$kA" ;; *) echo "$kB" ;; esac
}

name_of() {
	case "$1" in A|A+*) echo "$base" ;; *) echo "$series" ;; esac
}

# append_of SIDE: the extra command line of SIDE's boots.
append_of() {
	case "$1" in
	*+*) echo "${append:+$append }lsm=${1#*+}" ;;
	*) echo "$append" ;;
	esac
}

# cache_inputs SIDE ROUND SEED: what determines a boot's results, as
# lines; their sha256 (24 hex) is the boot's cache key.
cache_inputs() {
	local k ksha cmd fw app
	k=$(kernel_of "$1")
	app=$(append_of "$1")
	ksha=$(sha256sum <"$k/bzImage" | cut -d' ' -f1)
	cmd=$("$top/guest/run-qemu.sh" --print-cmdline --mode "$mode" \
		--round "$2" --seed "$3" ${app:+--append "$app"} $apic)
	fw=$("$top/guest/run-qemu.sh" --print-firmware)
	printf '%s\n' "kernel $ksha" "initramfs $initrd_sha" "cmdline $cmd" \
		"qemu $qemu_version firmware $fw" \
		"mode $mode side $1 timeout $timeout"
	# a boot with the cache model is another entry (its records)
	[ -z "$cachesim" ] || echo "cachesim $cachesim_sha ${NSB_CACHESIM_ARGS:-}"
}

# entry_ok KEY: the cached entry holds the files it was stored with (the
# sha256 of each, in its digest) and was stored under this key (its
# inputs hash to KEY).  Only the first cached boot is booted again, so
# without this a copied or edited entry replayed as a measurement.
entry_ok() {
	local c=$NSB_CACHE/boots/$1
	[ -f "$c/digest" ] && [ -f "$c/inputs" ] || return 1
	[ "$(awk '{ print $2 }' "$c/digest" | sort | tr '\n' ' ')" = "$entry_files " ] ||
		return 1
	(cd "$c" && sha256sum --quiet --strict -c digest) >/dev/null 2>&1 ||
		return 1
	[ "$(sha256sum <"$c/inputs" | cut -c1-24)" = "$1" ]
}

# boot_dir ROUND SIDE: where a boot's output goes.
boot_dir() {
	printf '%s/boots/r%02d-%s' "$out" "$1" "$2"
}

# boot_one BOOT ROUND SEED SIDE SOURCE KEY: one boot into its directory.
# SOURCE: fresh (boot, then store in the cache), cache (replay the
# cache), audit (boot a cached one again into DIR.audit, store nothing).
boot_one() {
	local b=$1 r=$2 s=$3 side=$4 src=$5 key=$6 dir k cfg replay=() app
	local cdir=$NSB_CACHE/boots/$key
	k=$(kernel_of "$side")
	app=$(append_of "$side")
	cfg=$(jq -er .config_hash "$k/meta.json") ||
		{ echo "ab.sh: $k/meta.json: no config_hash" >&2; return 1; }
	dir=$(boot_dir "$r" "$side")
	[ "$src" = audit ] && dir=$dir.audit
	[ "$src" = cache ] && replay=(--replay "$cdir")
	"$top/guest/run-qemu.sh" --kernel "$k" --initrd "$initrd" \
		--out "$dir" --mode "$mode" --round "$r" --seed "$s" \
		--side "$side" --boot "$b" --series "$(name_of "$side")" \
		--config-hash "$cfg" --kernel-meta "$k/meta.json" "${ctx[@]}" \
		--context "nsbench_host_command=$host_cmd" --date "$run_date" \
		--timeout "$timeout" ${app:+--append "$app"} $apic \
		${cachesim:+--cachesim "$cachesim"} \
		"${replay[@]}" >"$dir.log" 2>&1 || { cat "$dir.log" >&2; return 1; }
	echo "$src $key" >"$dir.source"
	[ "$src" = fresh ] && [ "$cache" = 1 ] || return 0
	mkdir -p "$NSB_CACHE/boots"
	# this boot's own name: $BASHPID differs in the ( ) below
	local ctmp=$cdir.tmp.$BASHPID
	rm -rf "$ctmp"
	mkdir -p "$ctmp"
	cp "$dir/results.raw" "$dir/console.log" "$ctmp/"
	[ -z "$cachesim" ] || cp "$dir/cachesim.tsv" "$ctmp/"
	cp "$out/boots/keys/$key" "$ctmp/inputs"
	# what the boot took: the audit picks the quickest (plan_boots)
	cp "$dir/wall_seconds" "$ctmp/" 2>/dev/null || true
	# shellcheck disable=SC2086 # the names are fixed words
	(cd "$ctmp" && sha256sum $entry_files >digest) || return 1
	rm -rf "$cdir"
	mv "$ctmp" "$cdir"
}

# plan_boots: the boot list with each boot's source and cache key; the
# quickest boot the cache holds (its wall_seconds) is also booted again
# (audit), alongside.
# Every entry to be served is checked (entry_ok) first: one that fails is
# dropped, its boot booted afresh, and its key listed in boots/dropped.
plan_boots() {
	local b r s side key src audit='' inputs w best=''
	mkdir -p "$out/boots/keys"
	: >"$out/boots/dropped"
	while read -r b r s side; do
		inputs=$(cache_inputs "$side" "$r" "$s")
		key=$(printf '%s\n' "$inputs" | sha256sum | cut -c1-24)
		printf '%s\n' "$inputs" >"$out/boots/keys/$key"
		src=fresh
		[ "$cache" = 1 ] && [ -f "$NSB_CACHE/boots/$key/results.raw" ] &&
			src=cache
		if [ "$src" = cache ] && ! entry_ok "$key"; then
			echo "ab.sh: warning: cached boot $key fails its digest: dropped, booted afresh" >&2
			rm -rf "${NSB_CACHE:?}/boots/$key"
			echo "$key" >>"$out/boots/dropped"
			src=fresh
		fi
		echo "$b $r $s $side $src $key"
		[ "$src" = cache ] || continue
		# the audit boots again the cached boot that took least time
		# (an entry without its time counts as the slowest)
		w=$(cat "$NSB_CACHE/boots/$key/wall_seconds" 2>/dev/null) || w=
		case "$w" in ''|*[!0-9]*) w=999999 ;; esac
		if [ -z "$audit" ] || [ "$w" -lt "$best" ]; then
			audit="$b $r $s $side audit $key"
			best=$w
		fi
	done
	[ -z "$audit" ] || echo "$audit"
}

eta() {
	local el=$(( $(date +%s) - $3 ))
	local left=$(( $1 ? el * ($2 - $1) / $1 : 0 ))
	progress "boots" "$1/$2 done, $4 running, ETA $((left / 60)):$(printf '%02d' $((left % 60)))"
}

# Ctrl-C or a kill: stop every boot (run-qemu.sh stops its QEMU), keep
# what finished, exit non-zero.
stop_boots() {
	trap - INT TERM
	progress "stop" "interrupted: stopping the boots; finished ones stay in $out"
	kill $(jobs -p) 2>/dev/null || true
	wait 2>/dev/null || true
	exit 130
}

# run_boots LIST: every boot of LIST, up to $jobs at once, with progress.
run_boots() {
	local list=$1 total done=0 running=0 t0 b r s side src key fail=0
	total=$(wc -l <"$list")
	t0=$(date +%s)
	while read -r b r s side src key; do
		while [ "$running" -ge "$jobs" ]; do
			wait -n || fail=1
			running=$((running - 1))
			done=$((done + 1))
			eta "$done" "$total" "$t0" "$running"
		done
		[ "$fail" = 0 ] || break
		progress "boot" "$b/$total_boots ($src): round $r/$rounds side $side ($(name_of "$side")), seed $s"
		boot_one "$b" "$r" "$s" "$side" "$src" "$key" &
		running=$((running + 1))
	done <"$list"
	while [ "$running" -gt 0 ]; do
		wait -n || fail=1
		running=$((running - 1))
		done=$((done + 1))
		eta "$done" "$total" "$t0" "$running"
	done
	return "$fail"
}

# failed_steps: each plan step a guest ran that exited non-zero, a line
# each ("skipped:..." steps are the plan's own choice).
failed_steps() {
	local f
	for f in "$out"/boots/*/steps.txt; do
		[ -f "$f" ] || continue
		boot=${f%/steps.txt} boot=${boot##*/} awk '
			$2 ~ /^[0-9]+$/ && $2 != 0 { print "ab.sh: boot " \
				ENVIRON["boot"] ": guest step " $1 " exited " $2 }' "$f"
	done
}

# check_audit LIST: the audited boot's results must equal the cache's,
# byte for byte; else drop the cache and boot the cached ones afresh.
check_audit() {
	local b r s side src key redo
	read -r b r s side src key < <(grep ' audit ' "$1") || {
		audit_result="no boot from the cache"
		return 0
	}
	if cmp -s "$NSB_CACHE/boots/$key/results.raw" \
		"$(boot_dir "$r" "$side").audit/results.raw"; then
		audit_result="$(grep -c ' cache ' "$1") boot(s) from the cache; boot $b booted again alongside: byte-identical"
		progress "audit" "$audit_result"
		return 0
	fi
	audit_result="boot $b from the cache gave other results when booted again: cache dropped, every cached boot redone"
	echo "ab.sh: warning: $audit_result ($NSB_CACHE/boots)" >&2
	rm -rf "$NSB_CACHE/boots"
	cache=0
	redo=$out/boots/list.redo
	awk '$5 == "cache" { $5 = "fresh"; print }' "$1" >"$redo"
	run_boots "$redo"
}

# symfs: the image's files, where perf report looks for the binaries
# the guest ran, and each side's vmlinux.  perf report wants --vmlinux
# to exist as given and then opens it under --symfs: so the link is at
# SYMFS/vmlinux-SIDE and again at SYMFS/SYMFS/vmlinux-SIDE.
symfs() {
	local s k fs
	fs=$(cd "$out/boots" && pwd)/symfs
	[ -d "$fs" ] && return 0
	mkdir -p "$fs.tmp$fs"
	(cd "$fs.tmp" && cpio --quiet -id --no-absolute-filenames) <"$initrd" ||
		die "cannot unpack $initrd for perf report"
	for s in A B; do
		k=$(kernel_of "$s")
		[ -n "$k" ] || continue
		ln -s "$k/vmlinux" "$fs.tmp/vmlinux-$s"
		ln -s "$k/vmlinux" "$fs.tmp$fs/vmlinux-$s"
	done
	mv "$fs.tmp" "$fs"
}

# profiles DIR SIDE ROUND: each LABEL.perf.data of a boot, symbolised
# against the side's own vmlinux and the image's binaries, as
# SIDE/profile/ROUND-LABEL.profile.json (nsbench profile-import).
profiles() {
	local dir=$1 side=$2 r=$3 p label tsv fs
	for p in "$dir"/*.perf.data; do
		[ -f "$p" ] || continue
		symfs
		fs=$(cd "$out/boots" && pwd)/symfs
		label=$(basename "$p" .perf.data)
		tsv=$dir/$label.symbols.tsv
		perf report -i "$p" --stdio -q -t "$(printf '\t')" \
			--sort dso,sym -F sample,dso,sym --symfs "$fs" \
			--vmlinux "$fs/vmlinux-$side" >"$tsv" \
			2>"$dir/$label.perf.log" ||
			die "perf report of $p failed (see $dir/$label.perf.log)"
		mkdir -p "$out/$side/profile"
		"$nsb" profile-import --symbols="$tsv" \
			--bench="$dir/$label.bench.json" --ops="$(cat "$dir/$label.ops")" \
			--probes="$dir/probes.txt" --label="$label" \
			--out="$out/$side/profile/$r-$label.profile.json" ||
			die "cannot import the profile $p"
	done
}

# profile_time: the profile steps' share of the guests' time (virtual
# seconds: the probes the guest sends), over every boot of this run.
profile_time() {
	cat "$out"/boots/r*-[AB]/probes.txt 2>/dev/null | awk '
		/^profile\./ { for (i = 2; i <= NF; i++)
			if (sub(/^seconds=/, "", $i)) p += $i }
		/^uptime / { u += $2 }
		END { if (u > 0) printf "profile steps: %.1f of %.1f guest seconds (%.0f%% of the boots)", p, u, 100 * p / u }'
}

collect() {
	local f dir side j r
	for f in "$out"/boots/r*.source; do
		dir=${f%.source}
		case "$dir" in *.audit) continue ;; esac
		side=${dir##*-}
		r=$(basename "$dir" | cut -d- -f1)
		for j in "$dir"/*.json; do
			# a profiled run's own results carry perf's overhead
			case "$j" in *.bench.json) continue ;; esac
			[ -f "$j" ] || continue
			mkdir -p "$out/$side"
			cp "$j" "$out/$side/$r-$(basename "$j")"
		done
		profiles "$dir" "$side" "$r"
	done
}

# boot_all: every boot of this run (or shard), the cache audited, the
# results collected by side, the manifest written.
boot_all() {
	local status ndrop flags=()
	qemu_version=$("${QEMU:-qemu-system-x86_64}" --version | sed -n 1p)
	initrd_sha=$(sha256sum <"$initrd" | cut -d' ' -f1)
	list=$out/boots/list
	boot_list >"$list.all"
	total_boots=$(wc -l <"$list.all")
	if [ -n "$shard" ]; then
		awk -v k="$sk" -v n="$sn" '($1 - 1) % n == k - 1' "$list.all" >"$list"
	else
		cp "$list.all" "$list"
	fi
	plan_boots <"$list" >"$list.jobs"
	progress "boots" "$(wc -l <"$list") of $total_boots boot(s)${shard:+ (shard $shard)}, $(grep -c ' cache ' "$list.jobs" || true) from the cache, $jobs at once, $mode mode"
	status=ok why="a boot failed"
	audit_result="not audited: a boot failed"
	trap stop_boots INT TERM
	run_boots "$list.jobs" || status=fail
	[ "$status" = ok ] && { check_audit "$list.jobs" || status=fail; }
	ndrop=$(wc -l <"$out/boots/dropped")
	[ "$cache" = 0 ] && [ "$ndrop" = 0 ] ||
		audit_result="${audit_result:-}; sha256 of each served entry verified, $ndrop failed: dropped and booted afresh"
	collect
	if failed_steps | grep . >&2; then
		status=fail why="a guest step failed (above; each boot's console.log has its output)"
	fi

	# --- manifest (nsbench manifest: every value is data) -----------------
	[ "$aa" = 1 ] && flags+=(--aa)
	[ "$checks" = 1 ] && flags+=(--checks)
	"$nsb" manifest --out="$out/manifest.json" --boots="$list" \
		--boots-dir="$out/boots" --kernel-a="$kA" --kernel-b="$kB" \
		--date="$run_date" --mode="$mode" --rounds="$rounds" "${flags[@]}" \
		--plan="$(basename "$plan")" --append="$append" \
		--cmdline="$("$top/guest/run-qemu.sh" --print-cmdline --mode "$mode" --round 0 --seed 0 ${append:+--append "$append"} $apic)" \
		--initramfs-sha256="$initrd_sha" --cache-audit="$audit_result" \
		--shard="$shard" --host-command="$host_cmd" ||
		die "cannot write $out/manifest.json"
	[ "$status" = ok ] || die "$why; partial results in $out"
	progress "results" "$out"
}

# measure: every stage up to the results: plan, kernels, image, boots.
measure() {
	make_plan
	make_out
	choose_configs
	build_kernels
	make_image
	boot_all
}

# --- hand over to the comparison --------------------------------------------

# report_checks: the check costs of the boots (nsbench costs).
report_checks() {
	local d sdirs=()
	for d in "$out"/[AB] "$out"/[AB]+*; do
		ls "$d"/*.json >/dev/null 2>&1 && sdirs+=("$d")
	done
	progress "report" "$nsb costs ${sdirs[*]}"
	# one call, one computation: every format of the report
	"$nsb" costs --out="$out/report.txt" --markdown="$out/report.md" \
		--json="$out/costs.json" \
		${report_cmd:+--command="$report_cmd"} "${sdirs[@]}" ||
		die "nsbench costs failed"
	progress "report" "$out/report.txt"
}

# report_ab: side A against side B (nsbench compare; with profiles, the
# report with where the instructions go, and the per-symbol table).
report_ab() {
	local rc a b pa pb
	ls "$out"/A/*.json >/dev/null 2>&1 || return 0
	progress "compare" "$nsb compare A -- B"
	mapfile -t pa < <(side_results plain "$out" A)
	mapfile -t pb < <(side_results plain "$out" B)
	if [ "${#pa[@]}" -gt 0 ]; then
		rc=0
		"$nsb" compare "${pa[@]}" -- "${pb[@]}" >"$out/compare.txt" ||
			rc=$?
		[ "$rc" -le 1 ] || die "nsbench compare failed (exit $rc)"
		cat "$out/compare.txt"
	fi
	mapfile -t a < <(side_results central "$out" A)
	mapfile -t b < <(side_results central "$out" B)
	if [ "${#a[@]}" -gt 0 ]; then
		rc=0
		{
			echo
			echo "Each run's mean of its central chunks (central-* steps,"
			echo "compare --metric=nsb_on), as make run and make validate's"
			echo "second table measure an operation:"
			echo
			"$nsb" compare --metric=nsb_on "${a[@]}" -- "${b[@]}" || rc=$?
		} >"$out/compare-central.txt"
		[ "$rc" -le 1 ] || die "nsbench compare --metric=nsb_on failed (exit $rc)"
		cat "$out/compare-central.txt"
	fi
	if [ -d "$out/A/profile" ] && [ -d "$out/B/profile" ]; then
		progress "profile" "$(profile_time)"
		"$nsb" report --profile-base="$out/A/profile" \
			--profile-patched="$out/B/profile" --out="$out/report.txt" \
			"${pa[@]}" -- "${pb[@]}" ||
			die "nsbench report failed"
		# exit 2: no benchmark profiled in 2 rounds on both sides
		rc=0
		"$nsb" profile --json="$out/profile.json" "$out/A/profile" -- \
			"$out/B/profile" >"$out/profile.txt" 2>"$out/profile.err" || rc=$?
		[ "$rc" != 0 ] || "$nsb" plot profile "$out/profile.json" \
			--out-dir="$out" --stem=where >/dev/null ||
			progress "warn" "no per-symbol plot (nsbench plot profile failed)"
		[ "$rc" = 0 ] || [ "$rounds" -lt 2 ] ||
			die "nsbench profile failed: $(cat "$out/profile.err")"
		progress "report" "$out/report.txt, per symbol: $out/profile.txt"
	fi
	return 0
}

# --- the modes ----------------------------------------------------------------

# --checks: one kernel (the toggles series), each check on and off in
# the same boot; --stock and --lsm-boots add sides.  Then the report.
mode_checks() {
	measure
	report_checks
}

# Two kernels, side A (--base) against side B (--series); --aa: side B
# a second, separate build of side A.  Then the comparison.
mode_ab() {
	measure
	report_ab
}

# --shard K/N (--one-kernel: --checks --shard 1/1): this shard's boots,
# their results and manifest; compared after --merge.
mode_shard() {
	measure
}

# --merge OUT SHARD-DIR...: the shards in OUT, then what their mode
# compares (the manifest says whether they measured the checks).
mode_merge() {
	merge_shards "$@"
	make_out
	if [ "$checks" = 1 ]; then
		report_checks
	else
		report_ab
	fi
}

main() {
	# What reproduces this run (the report prints it).
	host_cmd=$(sh_quote "$0" "$@")
	parse_options "$@"
	# (not in a condition: set -e holds inside)
	if [ "$merge" = 0 ]; then
		validate
	fi
	[ -n "$nsb" ] || die "$build/nsbench not found (make)"
	start_clock
	if [ "$merge" = 1 ]; then
		mode_merge "${merge_args[@]}"
	elif [ -n "$shard" ]; then
		mode_shard
	elif [ "$checks" = 1 ]; then
		mode_checks
	else
		mode_ab
	fi
}

main "$@"
exit
}
