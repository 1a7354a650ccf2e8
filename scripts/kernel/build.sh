#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/kernel/build.sh — build one guest kernel, cached.
#
#   build.sh [--series NAME] [--config FRAG]... [--ksrc DIR [--ref REF]]
#            [--salt S] [--jobs N] [--quiet]
#
# Prints the cache directory holding bzImage, vmlinux, .config, release and
# meta.json on stdout (progress goes to stderr).  The key is a hash of the
# source, the series' patch files, the config fragments, BUILDER_VERSION
# and --salt (a salt gives a separate build of identical inputs: the A/A side).
# meta.json names the kernel: release, source (tarball:SHA256 or
# git-tree:TREE, plus source_commit and source_describe for --ksrc),
# series, series_sha256 (its patch files in order), config_hash.
#
# Source: Debian's linux-source-$NSB_KERNEL tarball (NSB_KERNEL default:
# kernel-patches/default-version; or NSB_TARBALL); --ksrc DIR uses a
# kernel git tree at REF (default HEAD).
# Series NAME is a directory kernel-patches/VERSION/NAME, VERSION the
# source's own (VERSION.PATCHLEVEL of its Makefile: 6.1, 6.12), or any
# directory with a quilt-style `series` file; "none" or "stock" builds the
# unpatched source.  A series with no version for the source is refused
# before anything long starts, with the versions it has.  Config
# fragments default to the version's base.config (kernel-patches/
# VERSION/configs where it has its own, else kernel-patches/configs).
# The tree is a hard-linked copy of the pristine source; GNU patch
# replaces the files it touches, so the pristine copy is never modified,
# and kbuild writes only into O=.  KBUILD_BUILD_{TIMESTAMP,USER,HOST} are
# fixed, so two builds of the same inputs give the same image.
#
# Environment: NSB_CACHE (default /var/cache/nsbench), NSB_KERNEL, NSB_TARBALL,
# CCACHE_DIR (default $NSB_CACHE/ccache), NSB_CCACHE=0 (compile without
# ccache, e.g. for a truly separate A/A build).

# Every error ends the run: in pipelines, and in $(...) too.
set -eu -o pipefail
shopt -s inherit_errexit

# Parsed whole before it runs: editing this file cannot break a run.
{

# Part of the cache key: bump when a change here changes the kernels built
# (not for cosmetic edits, which must not invalidate the cache).
BUILDER_VERSION=1

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=scripts/kernel/lib.sh
. "$here/lib.sh"

series=none
ksrc=
ref=
salt=
jobs=
frags=()
quiet=0

usage() {
	sed -n '4,/^$/{/^#/p}' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

while [ $# -gt 0 ]; do
	case "$1" in
	--series) need_value "$1" $#; series=$2; shift ;;
	--series=*) series=${1#*=} ;;
	--config) need_value "$1" $#; frags+=("$2"); shift ;;
	--config=*) frags+=("${1#*=}") ;;
	--ksrc) need_value "$1" $#; ksrc=$2; shift ;;
	--ksrc=*) ksrc=${1#*=} ;;
	--ref) need_value "$1" $#; ref=$2; shift ;;
	--ref=*) ref=${1#*=} ;;
	--salt) need_value "$1" $#; salt=$2; shift ;;
	--salt=*) salt=${1#*=} ;;
	--jobs) need_value "$1" $#; jobs=$2; shift ;;
	--jobs=*) jobs=${1#*=} ;;
	--quiet) quiet=1 ;;
	-h|--help) usage ;;
	*) die "unknown option '$1' (see --help)" ;;
	esac
	shift
done

# --- everything is checked before anything long starts --------------------

[ -n "$jobs" ] || jobs=$(nproc)
need_uint --jobs "$jobs" 1
[ -n "$series" ] || die "--series needs a name (none for the stock kernel)"
# The source: a git tree at REF, or the tarball.
if [ -n "$ksrc" ]; then
	[ -d "$ksrc/.git" ] || [ -f "$ksrc/.git" ] ||
		die "--ksrc '$ksrc' is not a git tree"
	tree=$(git -C "$ksrc" rev-parse --verify --quiet "${ref:-HEAD}^{tree}") ||
		die "--ref '${ref:-HEAD}' does not name a commit in $ksrc"
	kver=$(source_version "$ksrc" "${ref:-HEAD}")
else
	[ -z "$ref" ] || die "--ref needs --ksrc (the tarball has no commits)"
	tarball=$(default_tarball)
	{ [ -f "$tarball" ] && [ -r "$tarball" ]; } ||
		die "$tarball not found: install linux-source-$NSB_KERNEL (make deps KERNEL=$NSB_KERNEL) or pass --ksrc"
	kver=$(source_version "$tarball")
fi
ref=${ref:-HEAD}
[ ${#frags[@]} -gt 0 ] || frags=("$(config_frag "$top" "$kver" base.config)")
for i in "${!frags[@]}"; do
	f=${frags[$i]}
	{ [ -f "$f" ] && [ -r "$f" ]; } || die "config fragment '$f' not found"
	# merge_config.sh runs in the object directory: absolute paths
	case "$f" in /*) ;; *) frags[$i]=$PWD/$f ;; esac
done

# The series, read once: patches[] in order, each present, non-empty and a
# patch git can parse (patch --dry-run needs the tree: at apply time).
patches=()
read_series() {
	local dir line name opt extra p err
	dir=$(series_dir "$top" "$series" "$kver") || exit
	[ -n "$dir" ] || return 0
	dir=$(cd "$dir" && pwd)
	while IFS= read -r line || [ -n "$line" ]; do
		# quilt format: one patch per line, '#' comments, -p1 only.
		read -r name opt extra <<<"${line%%#*}" || true
		[ -n "${name:-}" ] || continue
		case "${opt:-}" in ''|-p1) ;;
		*) die "series '$series': '$line': only -p1 patches are applied" ;;
		esac
		[ -z "${extra:-}" ] || die "series '$series': '$line': one patch per line"
		p=$dir/$name
		[ -f "$p" ] || die "series '$series': patch '$name' not found in $dir"
		[ -s "$p" ] || die "series '$series': patch '$name' is empty"
		err=$(cd / && git apply --stat "$p" 2>&1 >/dev/null) ||
			die "series '$series': patch '$name' is not a patch: ${err%%$'\n'*}"
		patches+=("$p")
	done <"$dir/series"
	[ ${#patches[@]} -gt 0 ] ||
		die "series '$series': $dir/series names no patch (use --series none for the stock kernel)"
}
read_series

# series_hash: sha256 over the series' patch files in order (empty for
# none): which patches a kernel carries, whatever the series is called.
# Recorded in meta.json only; the cache key hashes the same bytes itself.
series_hash() {
	[ ${#patches[@]} -gt 0 ] || return 0
	cat "${patches[@]}" | sha256sum | cut -d' ' -f1
}

# --- source -------------------------------------------------------------

# prepare_source: sets src_dir (pristine tree) and src_id (its identity).
prepare_source() {
	if [ -n "$ksrc" ]; then
		src_id="git-tree:$tree"
		src_dir="$NSB_CACHE/src/git-$tree"
		if [ ! -f "$src_dir/.nsb-complete" ]; then
			progress "source" "git archive $ref from $ksrc"
			rm -rf "$src_dir.tmp"
			mkdir -p "$src_dir.tmp"
			git -C "$ksrc" archive "$ref" | tar -x -C "$src_dir.tmp" ||
				die "git archive $ref from $ksrc failed"
			touch "$src_dir.tmp/.nsb-complete"
			rm -rf "$src_dir"
			mv "$src_dir.tmp" "$src_dir"
		fi
		return
	fi
	local name stamp st
	name=$(basename "$tarball" .tar.xz)
	src_dir="$NSB_CACHE/src/$name"
	stamp="$src_dir/.nsb-complete"
	# The tarball's hash is computed once per (size, mtime).
	st=$(stat -c '%s-%Y' "$tarball")
	if [ -f "$stamp" ] && [ "$(sed -n 1p "$stamp")" = "$st" ]; then
		src_id=$(sed -n 2p "$stamp")
		return
	fi
	progress "source" "extracting $tarball"
	rm -rf "$src_dir" "$src_dir.tmp"
	mkdir -p "$src_dir.tmp"
	# xz -T0: Debian's tarballs are multi-block, so xz (>= 5.4)
	# decompresses them on every CPU; a single thread is 30 s here.
	tar -I 'xz -T0' -xf "$tarball" -C "$src_dir.tmp" --strip-components=1 ||
		die "cannot extract $tarball"
	src_id="tarball:$(sha256sum "$tarball" | cut -d' ' -f1)"
	printf '%s\n%s\n' "$st" "$src_id" >"$src_dir.tmp/.nsb-complete"
	mv "$src_dir.tmp" "$src_dir"
}

compute_key() {
	local p f
	{
		echo "source $src_id"
		echo "series $series"
		for p in "${patches[@]}"; do
			echo "patch $(basename "$p")"
			cat "$p"
		done
		for f in "${frags[@]}"; do
			echo "config $(basename "$f")"
			cat "$f"
		done
		echo "builder $BUILDER_VERSION"
		echo "salt $salt"
	} | sha256sum | cut -c1-16
}

# patch_series DIR CLEANUP [quiet]: apply each patch to DIR with patch -p1;
# a failure names the patch and its hunk(s), removes CLEANUP (nothing
# half-applied is left in the cache) and ends the run.
patch_series() {
	local dir=$1 p out n=0
	for p in "${patches[@]}"; do
		n=$((n + 1))
		[ -n "${3:-}" ] || progress "patch" "$(basename "$p")"
		if ! out=$(patch -d "$dir" -p1 --batch --forward \
				--no-backup-if-mismatch -r - <"$p" 2>&1); then
			printf '%s\n' "$out" | grep -E \
				'^(patching file|checking file|Hunk #[0-9]+ FAILED|can.t find file|Reversed|.*malformed)' \
				>&2 || printf '%s\n' "$out" | tail -n 20 >&2
			rm -rf "$2"
			die "series '$series': patch $n '$(basename "$p")' does not apply (failed hunks above: 'patching file F' then 'Hunk #N FAILED at LINE')"
		fi
	done
}

# apply_series DIR: the series into the build's tree.
apply_series() {
	patch_series "$1" "$work"
}

# check_series: the series applies, patch by patch as apply_series does,
# to a copy of only the files it touches: a patch that does not apply is
# named in a second, not after the 8-14 s hard-linked copy of the whole
# tree.
check_series() {
	local t p f
	[ ${#patches[@]} -gt 0 ] || return 0
	t=$(mktemp -d) || die "cannot make a temporary directory"
	for p in "${patches[@]}"; do
		(cd / && git apply --numstat -p1 "$p") | cut -f3-
	done | sort -u | while IFS= read -r f; do
		[ -f "$src_dir/$f" ] || continue
		mkdir -p "$t/$(dirname "$f")" && cp -p "$src_dir/$f" "$t/$f"
	done
	patch_series "$t" "$t" quiet
	rm -rf "$t"
}

# --- build --------------------------------------------------------------

# One extraction at a time (parallel test suites share the cache).
mkdir -p "$NSB_CACHE/src"
exec 8>"$NSB_CACHE/src/.lock"
flock 8
prepare_source
exec 8>&-
key=$(compute_key) || die "cannot read the series' patches or config fragments"
[ ${#key} = 16 ] || die "cannot compute the cache key"
out_dir=$NSB_CACHE/kernels/$key
label="$series${ksrc:+ @ $ref}${salt:+ (salt $salt)}"

if [ -f "$out_dir/bzImage" ] && [ -f "$out_dir/meta.json" ]; then
	[ "$quiet" = 1 ] || progress "cached" "$label: $out_dir"
	echo "$out_dir"
	exit 0
fi

# A lock per key: two builds of the same kernel wait for each other.
mkdir -p "$NSB_CACHE/kernels" "$NSB_CACHE/work"
exec 9>"$NSB_CACHE/kernels/.$key.lock"
flock 9
if [ -f "$out_dir/bzImage" ]; then
	echo "$out_dir"
	exit 0
fi

t0=$(date +%s)
export NSB_T0=$t0 NSB_LABEL="kernel $label [$key]"
# Same layout for every key, so ccache's base_dir makes paths relative
# and unchanged files hit the cache across series.
work=$NSB_CACHE/work/$key
rm -rf "$work"
mkdir -p "$work/obj"
check_series
progress "tree" "hard-linked copy of $src_dir"
cp -al "$src_dir" "$work/src"
apply_series "$work/src"

export ARCH=x86_64
export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2024"
export KBUILD_BUILD_USER=nsbench KBUILD_BUILD_HOST=nsbench
export KBUILD_BUILD_VERSION=1
export CCACHE_DIR=${CCACHE_DIR:-$NSB_CACHE/ccache}
export CCACHE_BASEDIR=$work
export CCACHE_NOHASHDIR=1
# Depend mode: a miss compiles once and takes the includes from gcc's
# -MMD file, where the default mode runs the preprocessor first.  Cold,
# `make fs/` of the guest config took 78 s with the default mode, 50 s
# with depend mode, 46 s without ccache; warm hits are the same (direct).
export CCACHE_DEPEND=${CCACHE_DEPEND:-1}
cc="ccache gcc"
command -v ccache >/dev/null || cc=gcc
[ "${NSB_CCACHE:-1}" = 0 ] && cc=gcc

log=$work/build.log
mk() {
	make -C "$work/src" O="$work/obj" CC="$cc" HOSTCC="$cc" "$@" \
		>>"$log" 2>&1
}

names=
for f in "${frags[@]}"; do names="$names $(basename "$f")"; done
progress "config" "tinyconfig +$names"
mk tinyconfig || fail_log "$log" "make tinyconfig failed"
(cd "$work/obj" && "$work/src/scripts/kconfig/merge_config.sh" -m -O . \
	.config "${frags[@]}") >>"$log" 2>&1 || fail_log "$log" "merge_config.sh failed"
mk olddefconfig || fail_log "$log" "make olddefconfig failed"
check_config "$work/obj/.config" "${frags[@]}"

progress "compile" "bzImage with -j$jobs (log: $log)"
mk -j"$jobs" bzImage &
pid=$!
ticker "$log" "$pid" &
tick=$!
status=0
wait "$pid" || status=$?
kill "$tick" 2>/dev/null || true
wait "$tick" 2>/dev/null || true
[ "$status" = 0 ] || fail_log "$log" "kernel build failed"

progress "install" "$out_dir"
rm -rf "$out_dir.tmp"
mkdir -p "$out_dir.tmp"
cp "$work/obj/arch/x86/boot/bzImage" "$work/obj/vmlinux" \
	"$work/obj/System.map" "$out_dir.tmp/"
cp "$work/obj/.config" "$out_dir.tmp/config"
release=$(make -s -C "$work/src" O="$work/obj" kernelrelease 2>/dev/null | tail -n 1) ||
	die "make kernelrelease failed"
[ -n "$release" ] || die "make kernelrelease printed nothing"
echo "$release" >"$out_dir.tmp/release"
cp "$log" "$out_dir.tmp/build.log"
t1=$(date +%s)
cfg_hash="sha256:$(sha256sum "$work/obj/.config" | cut -d' ' -f1)"
# A tree's commit and `git describe --tags` say more than its tree id.
git_meta=()
if [ -n "$ksrc" ]; then
	commit=$(git -C "$ksrc" rev-parse --verify "$ref^{commit}") ||
		die "cannot read $ref in $ksrc"
	describe=$(git -C "$ksrc" describe --tags --always "$commit") ||
		die "git describe $commit failed in $ksrc"
	git_meta=(source_commit="$commit" source_describe="$describe")
fi
ser_sha=$(series_hash) || die "cannot read the series' patches"
write_meta "$out_dir.tmp/meta.json" key="$key" source="$src_id" \
	"${git_meta[@]}" series="$series" \
	series_sha256="${ser_sha:+sha256:$ser_sha}" salt="$salt" \
	version="$kver" release="$release" config_hash="$cfg_hash" \
	build_seconds:=$((t1 - t0)) built="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
mv "$out_dir.tmp" "$out_dir"
rm -rf "$work"
progress "done" "$release in $((t1 - t0)) s"
echo "$out_dir"
exit
}
