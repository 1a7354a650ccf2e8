#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t73-install.sh — `make install PREFIX=/usr DESTDIR=<temp>` of the build
# under test: the programs, the plot templates, help2man's man pages and
# the bash completion land where install.mk says, the installed nsbench
# runs and names its version (the tag, once the tree has one), `man -l`
# renders the pages, and `make uninstall` takes it all away again.  And
# `make install` from a fresh clone on a machine that has only `make
# run`'s packages (a stand-in dpkg-query and apt-get on PATH: removing
# packages is no test's business) asks apt-get for help2man itself,
# before it builds anything.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
build=${NSB_BUILD:-build}
case "$build" in /*) ;; *) build=$top/$build ;; esac
root=$tmp/root

# The build under test is make check's sanitizer build or a release one:
# install from it with the same flags, so nothing is rebuilt differently.
san=0
ldd "$build/nsbench" 2>/dev/null | grep -q libasan && san=1

mk() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$top" \
		O="$build" SANITIZE=$san "$@" >>"$tmp/make.log" 2>&1
}

mk install PREFIX=/usr DESTDIR="$root" || sed 's/^/# /' "$tmp/make.log"
[ -x "$root/usr/bin/nsbench" ]
ok $? "make install PREFIX=/usr DESTDIR=$root"

for f in bin/nsbench bin/nsbench-bench libexec/nsbench/nsb-wl; do
	[ -x "$root/usr/$f" ]
	ok $? "installed: /usr/$f"
done
[ -f "$root/usr/share/nsbench/plots/common.gp" ] &&
	[ -f "$root/usr/share/nsbench/plots/ab.gp" ]
ok $? "installed: plot templates in /usr/share/nsbench/plots"
ls "$root"/usr/share/man/man1/nsbench-*.1 >"$tmp/pages" 2>/dev/null
[ -f "$root/usr/share/man/man1/nsbench.1" ] &&
	[ -f "$root/usr/share/man/man1/nsbench-gate.1" ] &&
	[ -f "$root/usr/share/man/man1/nsbench-bench.1" ]
ok $? "installed: $(($(wc -l <"$tmp/pages") + 1)) man pages in /usr/share/man/man1"

# --- the installed program --------------------------------------------------
"$root/usr/bin/nsbench" --version >"$tmp/version" 2>&1
ok $? "installed nsbench --version runs: $(cat "$tmp/version")"
"$build/nsbench" --version | cmp -s - "$tmp/version"
ok $? "... and says what the build says"
desc=$(git -C "$top" describe --always --dirty --tags 2>/dev/null)
if [ -n "$desc" ]; then
	stamp=$(cat "$build/version.txt" 2>/dev/null)
	grep -qxF "nsbench $stamp" "$tmp/version"
	ok $? "the version is the build's git describe ($stamp)"
else
	skip "not a git checkout"
fi
# A tag, once there is one: in a clone of this tree's HEAD with a tag,
# the version stamp the build would compile in (no compiler needed).
if [ -n "$desc" ] && git clone -q --shared "$top" "$tmp/clone" 2>/dev/null &&
   git -C "$tmp/clone" tag v9.8.7-t73 2>/dev/null; then
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$tmp/clone" \
		O="$tmp/o" "$tmp/o/version.txt" >>"$tmp/make.log" 2>&1
	[ "$(cat "$tmp/o/version.txt" 2>/dev/null)" = v9.8.7-t73 ]
	ok $? "a tagged tree's version is the tag ($(cat "$tmp/o/version.txt" 2>/dev/null))"
else
	skip "not a git checkout: no tag to name"
fi
# bash-completion's directory, as install.mk asks pkg-config for it
comp=$(pkg-config --variable=completionsdir bash-completion 2>/dev/null ||
	echo /usr/share/bash-completion/completions)
[ -f "$root$comp/nsbench" ] && [ -L "$root$comp/nsbench-bench" ] &&
	[ -f "$root$comp/nsbench-bench" ]
ok $? "installed: bash completion, $comp/nsbench and nsbench-bench"
"$root/usr/bin/nsbench" help gate >"$tmp/gate-help" 2>&1 &&
	grep -q -- '--baseline' "$tmp/gate-help"
ok $? "installed nsbench help gate"

# --- man pages --------------------------------------------------------------
if command -v man >/dev/null; then
	MANWIDTH=80 man -l "$root/usr/share/man/man1/nsbench.1" \
		>"$tmp/man" 2>"$tmp/man.err"
	ok $? "man -l nsbench.1 renders"
	grep -q 'nsbench help <command>' "$tmp/man" &&
		grep -q 'SEE ALSO' "$tmp/man" && grep -q 'nsbench-gate(1)' "$tmp/man"
	ok $? "nsbench(1): synopsis, commands, SEE ALSO nsbench-gate(1)"
	MANWIDTH=80 man -l "$root/usr/share/man/man1/nsbench-gate.1" \
		>"$tmp/man" 2>&1 &&
		grep -q 'nsbench-gate - CI gate' "$tmp/man" &&
		grep -q -- '--threshold=PCT' "$tmp/man"
	ok $? "nsbench-gate(1): its NAME line and its options, from --help"
	MANWIDTH=80 man -l "$root/usr/share/man/man1/nsbench-bench.1" \
		>"$tmp/man" 2>&1 && grep -q -- '--benchmark_filter' "$tmp/man"
	ok $? "nsbench-bench(1) renders with its options"
else
	skip "man not installed (Debian man-db)"
	skip "man not installed (Debian man-db)"
	skip "man not installed (Debian man-db)"
	skip "man not installed (Debian man-db)"
fi

# --- uninstall --------------------------------------------------------------
mk uninstall PREFIX=/usr DESTDIR="$root"
ok $? "make uninstall"
find "$root" -type f >"$tmp/left"
[ ! -s "$tmp/left" ]
ok $? "nothing left behind$(sed 's/^/ /' "$tmp/left" | tr -d '\n')"

# --- make install on a machine make run set up --------------------------------
deps=$top/scripts/deps.sh
"$deps" list run >"$tmp/run-pkgs" && "$deps" list install >"$tmp/inst-pkgs"
! grep -qx help2man "$tmp/run-pkgs" && grep -qx help2man "$tmp/inst-pkgs" &&
	[ -z "$(grep -vxFf "$tmp/inst-pkgs" "$tmp/run-pkgs")" ]
ok $? "deps.sh: the install group is make run's packages and help2man"
if [ "$(id -u)" = 0 ] && [ -n "$desc" ] &&
   git clone -q --shared "$top" "$tmp/fresh" 2>/dev/null; then
	# the stand-ins: dpkg-query answers from a list, apt-get logs what
	# it is asked and "installs" it only when FAKE_APT_OK=1
	mkdir "$tmp/fake"
	cp "$tmp/run-pkgs" "$tmp/installed"
	cat >"$tmp/fake/dpkg-query" <<EOF
#!/bin/sh
eval "p=\\\${\$#}"
case "\$p" in
-f=*) sed 's/^/install ok installed|/' "$tmp/installed" ;;
*) grep -qx -- "\$p" "$tmp/installed" || exit 1
   echo "install ok installed" ;;
esac
EOF
	cat >"$tmp/fake/apt-get" <<EOF
#!/bin/sh
[ "\$1" = install ] || exit 0
shift
for p; do
	case "\$p" in
	-*) ;;
	*) echo "\$p" >>"$tmp/apt.log"
	   [ "\${FAKE_APT_OK:-0}" = 1 ] && echo "\$p" >>"$tmp/installed" ;;
	esac
done
[ "\${FAKE_APT_OK:-0}" = 1 ] || exit 100
EOF
	chmod +x "$tmp/fake/dpkg-query" "$tmp/fake/apt-get"
	fresh() {
		env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL PATH="$tmp/fake:$PATH" \
			make -C "$tmp/fresh" O="$tmp/fresh-build" "$@" \
			>"$tmp/fresh.log" 2>&1
	}
	fresh deps-run
	rc=$?
	[ $rc = 0 ] && [ ! -e "$tmp/apt.log" ]
	ok $? "the stand-ins: make run's packages are all there (exit $rc)"
	fresh install PREFIX=/usr DESTDIR="$tmp/root2"
	rc=$?
	[ $rc != 0 ] && [ "$(cat "$tmp/apt.log" 2>/dev/null)" = help2man ] &&
		! grep -q 'help2man: not found' "$tmp/fresh.log" &&
		[ ! -e "$tmp/fresh-build/nsbench" ]
	ok $? "make install in a fresh clone asks apt-get for help2man first, before any build (apt-get failing: exit $rc)"
	[ $? = 0 ] || diag "$tmp/fresh.log"
	rm -f "$tmp/apt.log"
	FAKE_APT_OK=1 fresh deps-install
	rc=$?
	[ $rc = 0 ] && [ "$(cat "$tmp/apt.log" 2>/dev/null)" = help2man ]
	ok $? "... and once apt-get installs it, its deps step passes (exit $rc)"
	fresh -n install PREFIX=/usr DESTDIR="$tmp/root2"
	grep -n 'deps.sh install install\|help2man ' "$tmp/fresh.log" |
		head -n 1 | grep -q 'deps.sh install install'
	ok $? "make -n install: the deps step comes before the first help2man"
else
	skip 4 "not root, or not a git checkout: no fresh clone"
fi

tap_done
