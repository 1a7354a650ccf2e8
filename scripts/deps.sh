#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh check|install|list [run|install|all]|which BIN — make sure the
# Debian 12 packages nsbench needs are present.  `check` only reports;
# `install` runs apt-get for what is missing (root needed), then npm for
# the test tools below.  `run` limits either to what the main job needs
# (`make run`): on a fresh machine the test tools (chromium, node, scipy)
# are a large share of the download, and the main job uses none of them.
# `install` is run's packages and what `make install` adds (help2man for
# the man pages), so `make install` works on a machine `make run` set up.
# Idempotent and quiet when everything is there.  `list` prints a group's
# packages, one a line.  `which BIN` prints where an npm test tool's BIN
# is (exit 1 if it is not installed): the tests ask it rather than
# knowing the layout.
#
# npm test tools: schema validators for contrib/'s CI files
# (tests/t94-ci-schema.sh), pinned, each in a directory of its own under
# $NSB_CACHE/npm (default /var/cache/nsbench/npm), out of the tree and
# shared by checkouts.  Optional: the build does not need them, so `check`
# does not ask for them and a failed `npm install` (no registry) is a
# warning; the test that needs a tool skips, saying why.

set -eu

# The kernel source to install: KERNEL=6.12 (NSB_KERNEL) or the default.
patches=$(dirname "$0")/../kernel-patches
kernel=${NSB_KERNEL:-$(sh "$(dirname "$0")/kernel/default-version.sh" "$(dirname "$0")/..")}
if [ ! -d "$patches/$kernel" ]; then
	echo "nsbench: KERNEL=$kernel: kernel-patches/ has no series for Linux $kernel, only:" \
		$(cd "$patches" && ls -d [0-9]*.[0-9]*) >&2
	exit 2
fi

# One line per package, grouped by what needs it.  The main job: build,
# kernel, guest image (SELinux policy: checkpolicy), plots.
RUN_PACKAGES="
build-essential g++ make pkg-config perl git python3
libbenchmark-dev liburcu-dev libjansson-dev libgsl-dev libcap-dev
gnuplot-nox jq
attr libcap2-bin e2fsprogs util-linux
qemu-system-x86 busybox-static cpio xz-utils kmod ccache
linux-source-$kernel flex bison bc libelf-dev libssl-dev
checkpolicy
"
# What `make install` needs beyond the main job: the man pages are
# help2man's rendering of each --help.
INSTALL_PACKAGES="
help2man
"
# The other commands (profiles, hyperfine workloads) and the tests
# (validators, reference statistics, man -l, the browser for the site).
MORE_PACKAGES="
hyperfine linux-perf
man-db libxml2-utils yamllint cmark-gfm python3-markdown
libbenchmark-tools python3-scipy
nodejs npm
chromium bash-completion
"

# npm packages, NAME@VERSION (pinned), and the command each provides.
NPM_TOOLS="
@action-validator/cli@0.6.0:action-validator
gitlab-ci-local@4.55.0:gitlab-ci-local
"
npm_root=${NSB_CACHE:-/var/cache/nsbench}/npm

# provided: the virtual packages installed packages provide (nodesource's
# nodejs provides npm, and conflicts with Debian's).
provided() {
	dpkg-query -W -f='${Status}|${Provides}\n' 2>/dev/null |
		sed -n 's/^install ok installed|//p' | tr ',' '\n' |
		sed 's/([^)]*)//; s/^ *//; s/ *$//' | sort -u
}

missing_packages() {
	virt=$(provided)
	for p in $PACKAGES; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q '^install ok installed$' ||
			printf '%s\n' "$virt" | grep -qx -- "$p" || echo "$p"
	done
}

# tool_dir SPEC: where npm package SPEC (NAME@VERSION) is installed.
tool_dir() {
	echo "$npm_root/$(echo "$1" | tr / _)"
}

# tool_bin BIN: the installed command BIN of NPM_TOOLS, else exit 1.
tool_bin() {
	for t in $NPM_TOOLS; do
		spec=${t%:*}
		[ "${t##*:}" = "$1" ] || continue
		[ -x "$(tool_dir "$spec")/node_modules/.bin/$1" ] || return 1
		echo "$(tool_dir "$spec")/node_modules/.bin/$1"
		return 0
	done
	return 1
}

# install_tools: npm install each missing tool; a failure is a warning.
install_tools() {
	for t in $NPM_TOOLS; do
		spec=${t%:*}
		tool_bin "${t##*:}" >/dev/null && continue
		d=$(tool_dir "$spec")
		echo "  DEPS    npm install $spec ($d)"
		mkdir -p "$d"
		if ! npm install --prefix "$d" --no-audit --no-fund --silent \
			--no-update-notifier --fetch-retries=1 "$spec" >/dev/null 2>&1 ||
		   ! tool_bin "${t##*:}" >/dev/null; then
			echo "nsbench: warning: npm could not install $spec: the tests that need ${t##*:} skip" >&2
			rm -rf "$d"
		fi
	done
}

if [ "${1:-}" = which ]; then
	[ $# = 2 ] || { echo "usage: $0 which BIN" >&2; exit 2; }
	tool_bin "$2"
	exit
fi

group=${2:-all}
case "$group" in
run) PACKAGES=$RUN_PACKAGES ;;
install) PACKAGES="$RUN_PACKAGES $INSTALL_PACKAGES" ;;
all) PACKAGES="$RUN_PACKAGES $INSTALL_PACKAGES $MORE_PACKAGES" ;;
*) echo "usage: $0 check|install|list [run|install|all]" >&2; exit 2 ;;
esac
if [ "${1:-}" = list ]; then
	printf '%s\n' $PACKAGES
	exit 0
fi

# The npm tools are for the tests: only with `all`.
tools() {
	[ "$group" != all ] || [ "$(id -u)" != 0 ] || install_tools
}

missing=$(missing_packages)
if [ -z "$missing" ]; then
	[ "${1:-check}" != install ] || tools
	exit 0
fi

case "${1:-check}" in
check)
	echo "nsbench: missing Debian packages:" $missing >&2
	echo "nsbench: run 'make deps' as root (or: apt-get install" $missing")" >&2
	exit 1
	;;
install)
	if [ "$(id -u)" != 0 ]; then
		echo "nsbench: these packages are missing and installing them needs root:" >&2
		echo "  apt-get install" $missing >&2
		exit 1
	fi
	echo "  DEPS    apt-get install" $missing
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
	still=$(missing_packages)
	if [ -n "$still" ]; then
		echo "nsbench: apt-get did not install:" $still >&2
		exit 1
	fi
	tools
	;;
*)
	echo "usage: $0 check|install|list [run|install|all]|which BIN" >&2
	exit 2
	;;
esac
