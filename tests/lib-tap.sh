# SPDX-License-Identifier: GPL-2.0
#
# lib-tap.sh — TAP for nsbench's shell tests (sourced):
#	tap_plan N		the plan up front (else tap_done prints it)
#	ok $? "what held"	one test point from an exit status
#	is GOT WANT "what"	one test point: GOT is the string WANT
#	skip [N] WHY		one (or N) test points skipped
#	diag [FILE...]		lines (of stdin or the files) as TAP comments
#	skip_all WHY		the whole script skipped, exit 0
#	need CMD "package"	skip_all unless CMD is on PATH
#	need_guest		skip_all unless guests can be built and booted
#	need_stand_in		what a test with a stand-in QEMU needs
#	need_kernel_tree	what a test on a kernel git tree needs
#	run RC DESC ARGS...	nsbench ARGS must exit RC: one test point;
#				stdout in $tmp/out, stderr in $tmp/err
#	find_kunit		kunit: the kernel's KTAP parser's directory
#	tap_done		the plan if not given, exit 1 if a point failed
#
# Sourcing it sets up every test the same way: $top the checkout,
# $NSB_BUILD the build under test (absolute; default $top/build), $NSB
# its nsbench, $tmp a private directory removed on exit (a test that
# sets its own EXIT trap removes "$tmp" in it).

# (plain sh has no BASH_SOURCE: up from the test to the checkout)
top=$(cd "$(dirname "$0")" && pwd)
while [ "$top" != / ] && [ ! -f "$top/tests/lib-tap.sh" ]; do
	top=$(dirname "$top")
done
NSB_BUILD=${NSB_BUILD:-$top/build}
[ -d "$NSB_BUILD" ] && NSB_BUILD=$(cd "$NSB_BUILD" && pwd)
NSB=$NSB_BUILD/nsbench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

n=0
fail=0
planned=0

tap_plan() {
	echo "1..$1"
	planned=1
}

ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		fail=1
	fi
}

is() {
	[ "$1" = "$2" ]
	ok $? "$3"
	[ "$1" = "$2" ] || echo "# got '$1', want '$2'"
}

skip() {
	local k=1

	if [ $# -ge 2 ]; then
		k=$1
		shift
	fi
	while [ "$k" -gt 0 ]; do
		n=$((n + 1))
		echo "ok $n # SKIP $1"
		k=$((k - 1))
	done
}

diag() {
	sed 's/^/# /' "$@"
}

skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}

need() {
	command -v "$1" >/dev/null || skip_all "$2 not installed"
}

run() {
	local want=$1 desc=$2 rc

	shift 2
	"$NSB" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" = "$want" ]
	ok $? "$desc (exit $rc, want $want)"
	[ "$rc" = "$want" ] || diag "$tmp/err" "$tmp/out"
}

# kernel_version: the version the guest tests build (NSB_KERNEL, else
# kernel-patches/default-version).
kernel_version() {
	echo "${NSB_KERNEL:-$(sh "$top/scripts/kernel/default-version.sh" "$top")}"
}

# What every guest test needs: a kernel source to build and QEMU, busybox
# for the initramfs.  NSB_SKIP_KERNEL=1 skips them all.
need_guest() {
	[ "${NSB_SKIP_KERNEL:-0}" = 1 ] && skip_all "NSB_SKIP_KERNEL=1"
	t=${NSB_TARBALL:-/usr/src/linux-source-$(kernel_version).tar.xz}
	[ -r "$t" ] || skip_all "$t not installed"
	need qemu-system-x86_64 qemu-system-x86
	need busybox busybox-static
}

# need_calibration: ver, the version, and cal, its calibration series
# (kernel-patches/VERSION/calibration); skips all without one.
need_calibration() {
	ver=$(kernel_version)
	cal=$top/kernel-patches/$ver/calibration
	[ -f "$cal/series" ] || skip_all "no calibration series for Linux $ver"
}

# need_stand_in: what a test of ab.sh with a stand-in QEMU needs (jq,
# busybox and cpio for the initramfs), its boot cache under $tmp.
need_stand_in() {
	export NSB_CACHE=$tmp/cache
	need jq jq
	need busybox busybox-static
	need cpio cpio
}

# need_kernel_tree: what a slow test on a kernel git tree needs (a guest,
# jq, git, a built nsbench as $nsb, the calibration series: ver, cal).
need_kernel_tree() {
	local build=${NSB_BUILD:-$top/build}

	case "$build" in /*) ;; *) build=$PWD/$build ;; esac
	nsb=$build/nsbench
	need_guest
	need jq jq
	need git git
	[ -x "$nsb" ] || skip_all "no $nsb (make)"
	need_calibration
}

# find_kunit: kunit, the kernel's tools/testing/kunit (its KTAP parser),
# from the kernel source the suite's builds unpack, else straight from
# Debian's tarball, $tarball (only tools/testing/kunit is extracted);
# the caller checks for "$kunit/kunit_parser.py".
find_kunit() {
	local src=linux-source-$(kernel_version)

	kunit=${NSB_CACHE:-/var/cache/nsbench}/src/$src/tools/testing/kunit
	tarball=/usr/src/$src.tar.xz
	if [ ! -f "$kunit/kunit_parser.py" ] && [ -f "$tarball" ]; then
		tar -xJf "$tarball" -C "$tmp" "$src/tools/testing/kunit"
		kunit=$tmp/$src/tools/testing/kunit
	fi
}

# kernel_tree DIR VERSION: a git repository in DIR of Debian's source of
# VERSION, one commit tagged base; commit_all MSG TAG commits what
# changed since.  Debian's source ignores every file (.gitignore: /*):
# hence add -f.
kernel_tree() {
	mkdir -p "$1" &&
	tar -xf "/usr/src/linux-source-$2.tar.xz" -C "$1" --strip-components=1 &&
	git -C "$1" init -q &&
	git -C "$1" config user.email t@nsbench &&
	git -C "$1" config user.name nsbench &&
	commit_all "$1" base base
}
commit_all() {
	git -C "$1" add -f -A && git -C "$1" commit -qm "$2" &&
	git -C "$1" tag "$3"
}

tap_done() {
	[ "$planned" = 1 ] || echo "1..$n"
	exit $fail
}
