#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/kernel/objdiff.sh — prove from two built kernels what a
# calibration series changed: function by function over the whole vmlinux.
#
#   objdiff.sh [--expect "K..."] [--new FUNC]... BASE PATCHED
#   objdiff.sh --aa BASE OTHER
#
# BASE, PATCHED: kernel cache directories (scripts/kernel/build.sh prints
# them) or vmlinux files.  Every function of both vmlinux files is
# disassembled (objdump -d --no-show-raw-insn) and normalised: addresses
# dropped, calls and data references kept by symbol name, a jump inside a
# function kept as the index of its target instruction.  Then:
#
#   - a function changed by the series must equal its base form once the
#     inserted calibration_spin() blocks are taken out, jump targets
#     included; each block must be exactly
#         push %rcx; mov $K,%ecx; 1: dec %ecx; jne 1b; pop %rcx
#     which retires 2K + 3 instructions per pass;
#   - every other function must be identical (so no object file changed
#     anywhere else: no inlining, register or layout decision moved);
#   - --expect "1999 49 24 499": the K values that must be found (each at
#     least once; a block whose K is not listed is an error).
#   --aa: two builds of the same source must not differ in any function.
#   --new FUNC: FUNC may exist in PATCHED only (a layout-only series adds
#   a function nothing calls; everything else must still be identical).
#
# Output: one line per changed function (K, 2K+3, insertions) and a
# verdict; exit 0 when the proof holds, 1 when not, 2 on usage errors.
# Needs objdump (binutils) and python3.

set -eu

# Parsed whole before it runs: editing this file cannot break a run.
{

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/kernel/lib.sh
. "$here/lib.sh"

aa=0 expect='' new=''
while [ $# -gt 0 ]; do
	case "$1" in
	--aa) aa=1 ;;
	--expect) expect=$2; shift ;;
	--expect=*) expect=${1#*=} ;;
	--new) new="$new $2"; shift ;;
	-h|--help) sed -n '4,31p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
	-*) echo "objdiff.sh: unknown option '$1'" >&2; exit 2 ;;
	*) break ;;
	esac
	shift
done
[ $# = 2 ] || { echo "usage: objdiff.sh [--aa] [--expect \"K...\"] BASE PATCHED" >&2; exit 2; }

vmlinux() {
	if [ -d "$1" ]; then echo "$1/vmlinux"; else echo "$1"; fi
}
a=$(vmlinux "$1")
b=$(vmlinux "$2")
for f in "$a" "$b"; do
	[ -r "$f" ] || { echo "objdiff.sh: no vmlinux at '$f'" >&2; exit 2; }
done
command -v objdump >/dev/null || { echo "objdiff.sh: objdump not found (binutils)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "objdiff.sh: python3 not found" >&2; exit 2; }

sa=$(sha256sum "$a" | cut -d' ' -f1)
sb=$(sha256sum "$b" | cut -d' ' -f1)
if [ "$sa" = "$sb" ]; then
	# Byte-identical files (a reproducible A/A build): nothing to
	# disassemble.
	echo "objdiff: base    $a (${sa:0:16})"
	echo "objdiff: patched $b (${sb:0:16})"
	echo "objdiff: the two vmlinux files are byte-identical"
	if [ "$aa" = 1 ] || [ -z "$expect" ]; then
		echo "objdiff: PASS (the two builds are the same code)"
		exit 0
	fi
	echo "objdiff: FAIL no calibration block (expected K = $expect)"
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Both disassemblies at once: two cores, ~15 s each.
objdump -d --no-show-raw-insn "$a" >"$tmp/a.dis" &
pa=$!
objdump -d --no-show-raw-insn "$b" >"$tmp/b.dis"
wait "$pa"

echo "objdiff: base    $a (${sa:0:16})"
echo "objdiff: patched $b (${sb:0:16})"
AA=$aa EXPECT=$expect NEW=$new python3 - "$tmp/a.dis" "$tmp/b.dis" <<'EOF'
import os
import re
import sys

FUNC = re.compile(r'^([0-9a-f]+) <([^>]+)>:$')
INSN = re.compile(r'^\s*([0-9a-f]+):\s*(.*)$')
TARGET = re.compile(r'\b[0-9a-f]+ <([^>+]+)(\+0x[0-9a-f]+)?>')
PAD = re.compile(r'^(nop|xchg\s+%ax,%ax|int3|cs nopw|data16|\(bad\))')


def split(path):
    """{function: (start address, raw body text)}, objdump's blocks."""
    funcs = {}
    with open(path, errors='replace') as f:
        text = f.read()
    for block in text.split('\n\n'):
        nl = block.find('\n')
        m = FUNC.match(block[:nl] if nl >= 0 else block)
        if not m:
            continue
        name, key, n = m.group(2), m.group(2), 1
        # Static functions of the same name in several files: numbered
        # in link order.
        while key in funcs:
            n += 1
            key = '%s#%d' % (name, n)
        funcs[key] = (int(m.group(1), 16), block[nl + 1:] if nl >= 0 else '')
    return funcs


CHEAP = re.compile(r'(?m)^\s*[0-9a-f]+:|\b[0-9a-f]{16}\b|'
                   r'-?0x[0-9a-f]+(?=\(%rip\))|\$0xffffffff[0-9a-f]{8}|'
                   r'-0x[0-9a-f]{7,8}(?=\()|\b0xffffffff[0-9a-f]{8}\b')


def cheap(entry):
    return CHEAP.sub('', entry[1]).rstrip()


def parse_body(body):
    """[(offset, text, comment)] of one function (offsets from 0)."""
    out, base = [], None
    for line in body.split('\n'):
        m = INSN.match(line)
        if not m:
            continue
        addr = int(m.group(1), 16)
        if base is None:
            base = addr
        text = re.sub(r'\s+', ' ', m.group(2).split('#')[0]).strip()
        cmt = m.group(2).split('#', 1)[1] if '#' in m.group(2) else ''
        out.append((addr - base, text, cmt))
    return out


def normalise(name, insns):
    """Instructions as comparable strings: padding at the end dropped,
    jumps inside the function as @index, other addresses as symbols."""
    end = len(insns)
    while end and PAD.match(insns[end - 1][1]):
        end -= 1
    insns = insns[:end]
    index = {off: i for i, (off, _, _) in enumerate(insns)}
    own = name.split('#')[0]
    out = []
    for off, text, cmt in insns:
        def target(m):
            sym, rel = m.group(1), m.group(2)
            if sym == own:
                # offset -> instruction index inside this function
                o = int(rel, 16) if rel else 0
                return '@%s' % index.get(o, 'x%x' % o)
            return '<%s%s>' % (sym, rel or '')
        t = TARGET.sub(target, text)
        # Alignment padding: one instruction whatever its encoding (a
        # moved function may get nopw where it had nopl).
        if re.match(r'^(nop[wl]?|xchg %ax,%ax|cs nopw|data16 .*nop.*)\b', t):
            t = 'nop'
        # rip-relative displacements and absolute kernel addresses move
        # with the layout; the symbol in objdump's comment does not.
        t = re.sub(r'-?0x[0-9a-f]+\(%rip\)', 'X(%rip)', t)
        t = re.sub(r'\$0xffffffff[0-9a-f]{8}', '$ADDR', t)
        t = re.sub(r'-0x[0-9a-f]{7,8}\(', '-ADDR(', t)
        t = re.sub(r'\b0xffffffff[0-9a-f]{8}\b', 'ADDR', t)
        sym = re.search(r'<([^>+]+)(\+0x[0-9a-f]+)?>', cmt)
        if sym:
            t += ' ; <%s%s>' % (sym.group(1), sym.group(2) or '')
        out.append(t)
    return out


SPIN = [re.compile(r'^push %rcx$'),
        re.compile(r'^mov \$0x([0-9a-f]+),%ecx$'),
        re.compile(r'^dec %ecx$'),
        re.compile(r'^jne @(\d+)$'),
        re.compile(r'^pop %rcx$')]


def strip_spins(insns):
    """(base-comparable instructions, [K...]): each calibration block is
    removed and the jump indices after it renumbered."""
    keep, ks, removed_before = [], [], []
    i, removed = 0, 0
    while i < len(insns):
        w = insns[i:i + 5]
        if len(w) == 5 and all(p.match(x) for p, x in zip(SPIN, w)) and \
           int(SPIN[3].match(w[3]).group(1)) == i + 2:
            ks.append(int(SPIN[1].match(w[1]).group(1), 16))
            # A jump to the block's push lands, in the base, on the
            # instruction after the block; inside the block: no.
            removed_before.extend([removed] + [None] * 4)
            removed += 5
            i += 5
            continue
        removed_before.append(removed)
        keep.append(insns[i])
        i += 1

    def renumber(m):
        j = int(m.group(1))
        if j >= len(removed_before) or removed_before[j] is None:
            return '@?%d' % j
        return '@%d' % (j - removed_before[j])
    return [re.sub(r'@(\d+)', renumber, x) for x in keep], ks


def main():
    aa = os.environ.get('AA') == '1'
    expect = [int(k) for k in os.environ.get('EXPECT', '').split()]
    ra, rb = split(sys.argv[1]), split(sys.argv[2])
    only_a = sorted(set(ra) - set(rb))
    only_b = sorted(set(rb) - set(ra))
    same = changed_ok = 0
    bad, found = [], {}
    for name in sorted(set(ra) & set(rb)):
        # Cheap first: the body without addresses; a function whose code
        # did not change and did not move inside is equal here.
        if cheap(ra[name]) == cheap(rb[name]):
            same += 1
            continue
        na = normalise(name, parse_body(ra[name][1]))
        nb = normalise(name, parse_body(rb[name][1]))
        if na == nb:
            same += 1
            continue
        if aa:
            bad.append('%s: differs between the two builds' % name)
            continue
        stripped, ks = strip_spins(nb)
        if not ks:
            bad.append('%s: changed without a calibration block' % name)
            continue
        if stripped != na:
            bad.append('%s: differs from base beyond its calibration '
                       'block(s) K=%s' % (name, ks))
            continue
        changed_ok += 1
        for k in ks:
            found.setdefault(k, []).append(name)
        print('objdiff: %-32s +%d insn in %d block(s): K=%s -> '
              '2K+3 = %s instructions per pass' %
              (name, 5 * len(ks), len(ks), ','.join(map(str, ks)),
               ','.join(str(2 * k + 3) for k in ks)))
    for name in only_a:
        bad.append('%s: only in base' % name)
    for name in only_b:
        if name in os.environ.get('NEW', '').split():
            print('objdiff: %-32s new in patched (allowed: --new)' % name)
            continue
        bad.append('%s: only in patched' % name)
    for k in expect:
        if k not in found:
            bad.append('K=%d (%d instructions): no such block found' %
                       (k, 2 * k + 3))
    for k in found:
        if expect and k not in expect:
            bad.append('K=%d in %s: not an expected K' % (k, found[k]))
    print('objdiff: %d functions identical, %d changed only by '
          'calibration blocks, %d problems' %
          (same, changed_ok, len(bad)))
    for b in bad:
        print('objdiff: FAIL %s' % b)
    if not bad:
        print('objdiff: PASS (%s)' % (
            'the two builds are the same code' if aa else
            'every other function of vmlinux is unchanged'))
    return 1 if bad else 0


sys.exit(main())
EOF
exit
}
