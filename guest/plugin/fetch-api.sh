#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# guest/plugin/fetch-api.sh OUT — write QEMU's plugin API header,
# qemu-plugin.h, of the QEMU that runs the boots to OUT.
#
# The header is in no Debian binary package; it is in the qemu source
# package.  The build takes the real header rather than declarations of
# its own: the plugin is loaded into QEMU's process, and a declaration
# that drifted from QEMU's (an enum value, qemu_info_t's layout) would be
# a wrong number, not a build error.  The source of the installed
# version (the binary's version less a binNMU's +bN) is fetched once with
# apt-get source, through apt state of its own under $NSB_CACHE (a
# deb-src list for Debian's archive, its own package lists), so the
# host's apt configuration is not touched; only the header is kept, in
# $NSB_CACHE/qemu-plugin-api/VERSION/, for every later build and
# checkout.  23.5 MB are downloaded once.

set -eu

out=${1:?usage: fetch-api.sh OUT}
cache=${NSB_CACHE:-/var/cache/nsbench}/qemu-plugin-api

die() {
	echo "fetch-api.sh: error: $*" >&2
	exit 2
}

bin=$(dpkg-query -W -f='${Version}' qemu-system-x86 2>/dev/null) ||
	die "qemu-system-x86 is not installed (make deps)"
ver=$(echo "$bin" | sed 's/+b[0-9]*$//')
dir=$cache/$(echo "$ver" | tr ':' '_')

if [ ! -f "$dir/qemu-plugin.h" ]; then
	[ "$(id -u)" = 0 ] || [ -w "$(dirname "$cache")" ] ||
		die "$dir/qemu-plugin.h is missing and fetching it needs root (make deps)"
	work=$cache/.work.$$
	trap 'rm -rf "$work"' EXIT INT TERM
	mkdir -p "$work/lists/partial" "$work/parts" "$work/cache" "$work/src"
	# the host's own archives, as deb-src
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		sed 's/^Types:.*/Types: deb-src/' "$f"
		echo
	done >"$work/parts/nsbench-src.sources"
	if [ -f /etc/apt/sources.list ]; then
		sed -n 's/^deb \(.*\)/deb-src \1/p' /etc/apt/sources.list
	fi >"$work/parts/nsbench-src.list"
	set -- -o Dir::Etc::SourceList=/dev/null \
		-o "Dir::Etc::SourceParts=$work/parts" \
		-o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache" \
		-o APT::Sandbox::User=root
	echo "  FETCH   qemu $ver source for qemu-plugin.h (once, into $dir)"
	apt-get -qq "$@" update >"$work/apt.log" 2>&1 ||
		{ cat "$work/apt.log" >&2; die "apt-get update of the deb-src lists failed"; }
	# the installed version; the archive may have moved on to a newer
	# 7.2 update, whose plugin API is the same (QEMU_PLUGIN_VERSION, checked below)
	(cd "$work/src" && { apt-get -qq "$@" source --download-only "qemu=$ver" ||
		apt-get -qq "$@" source --download-only qemu; }) >>"$work/apt.log" 2>&1 ||
		{ cat "$work/apt.log" >&2; die "apt-get source qemu failed"; }
	orig=$(ls "$work/src"/qemu_*.orig.tar.* 2>/dev/null | sed -n 1p)
	[ -n "$orig" ] || die "no qemu orig tarball came with apt-get source"
	tar -xf "$orig" -C "$work/src" --wildcards '*/include/qemu/qemu-plugin.h' ||
		die "$orig has no include/qemu/qemu-plugin.h"
	h=$(find "$work/src" -name qemu-plugin.h -path '*include/qemu/*' | sed -n 1p)
	grep -q '^#define QEMU_PLUGIN_VERSION [0-9]' "$h" ||
		die "$h defines no QEMU_PLUGIN_VERSION"
	mkdir -p "$dir"
	cp "$h" "$dir/qemu-plugin.h.tmp"
	basename "$orig" >"$dir/source"
	mv "$dir/qemu-plugin.h.tmp" "$dir/qemu-plugin.h"
fi
mkdir -p "$(dirname "$out")"
cp "$dir/qemu-plugin.h" "$out.tmp"
mv "$out.tmp" "$out"
