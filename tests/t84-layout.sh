#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t84-layout.sh — src/ shows commands and library at a glance, and stays
# so (as git's check-builtins keeps its command table and files in step):
# every row of src/cmd/commands.h is src/cmd/<name>.c and every file
# there but main.c is a row; no library file includes a command header;
# each src/lib/*/*.h is beside its .c (nsbench.h: the base headers in
# one; a room's private *_internal.h, included in that room only), which
# includes it; no library file spells a command's name (the command
# sets the messages' prefix, nsb_set_prog); src/lib/ holds only its
# rooms (base, io, stats, render, history); the README's "Layout" names
# every file of src/cmd/, and each room of src/lib/ with its files.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
cd "$top" || exit 1

sed -n 's/^NSB_CMD(\([a-z_]*\),.*/\1/p' src/cmd/commands.h | sort >"$tmp/rows"
for f in src/cmd/*.c; do basename "$f" .c; done | grep -vx main |
	sort >"$tmp/files"
diff "$tmp/rows" "$tmp/files" >"$tmp/diff"
ok $? "src/cmd/: one file per row of commands.h$(tr '\n' ' ' <"$tmp/diff")"

bad=$(grep -l '#include "src/cmd/' src/lib/*/*.c src/lib/*/*.h)
[ -z "$bad" ]
ok $? "src/lib/ includes nothing of src/cmd/${bad:+: $bad}"

bad=
for f in src/lib/*/*.c; do
	h=${f%.c}.h
	[ ! -f "$h" ] || grep -q "#include \"$h\"" "$f" || bad="$bad $f"
done
for h in src/lib/*/*.h; do
	# the base headers: definitions only, no file of their own
	case $h in
	src/lib/base/nsbench.h | src/lib/base/base.h | *_internal.h) continue ;;
	esac
	[ -f "${h%.h}.c" ] || bad="$bad $h"
done
[ -z "$bad" ]
ok $? "src/lib/: each header beside its file, which includes it${bad:+:$bad}"

# A room's private header (git's refs/refs-internal.h) is its own.
bad=
for h in src/lib/*/*_internal.h; do
	[ -f "$h" ] || continue
	out=$(grep -rl --include='*.[ch]' "#include \"$h\"" \
		src bench workloads guest tests | grep -v "^${h%/*}/[^/]*\$")
	bad="$bad${out:+ $out($h)}"
done
[ -z "$bad" ]
ok $? "src/lib/: a room's *_internal.h included only in its room${bad:+:$bad}"

# The library names no command (git's usage.c): a command sets the
# prefix of libnsb's messages, nsb_set_prog("nsbench gate"), once.
bad=$(grep -nE '"nsbench [a-z_]+( [a-z_]+)*[:"]' src/lib/*/*.c)
[ -z "$bad" ]
ok $? "src/lib/ spells no command's name: nsb_prog() does${bad:+: $bad}"

files=$(find src/lib -maxdepth 1 -type f)
[ -z "$files" ]
ok $? "src/lib/ holds rooms only, no file of its own${files:+:" $files"}"

sed -n '/^## Layout/,/^## /p' README.md >"$tmp/layout"
missing=
for f in src/cmd/*.c; do
	w=$(basename "$f" .c)
	grep -qw -- "$w" "$tmp/layout" || missing="$missing $f"
done
[ -z "$missing" ]
ok $? "README's Layout names every file of src/cmd/${missing:+ (not:$missing)}"

# A room's entry runs from its "    <room>/" line to the next entry (a
# line indented less than the descriptions); its files are named there,
# in the text after the room's own name (stats/ is not stats.c).
missing=
for d in src/lib/*/; do
	room=$(basename "$d")
	awk -v r="    $room/" 'index($0, r) == 1 {
			on = 1; print substr($0, length(r) + 1); next }
		on && /^ {0,4}[^ ]/ { exit } on' "$tmp/layout" >"$tmp/room"
	[ -s "$tmp/room" ] || { missing="$missing $d"; continue; }
	for f in "$d"*.c "$d"*.h; do
		w=$(basename "${f%.?}")
		grep -qw -- "$w" "$tmp/room" || missing="$missing $f"
	done
done
[ -z "$missing" ]
ok $? "README's Layout names each room of src/lib/ with its files${missing:+ (not:$missing)}"

tap_done
