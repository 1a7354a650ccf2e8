#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""objdiff.py: compare two normalised kernel disassemblies function by
function (objdump -d --no-show-raw-insn of each vmlinux), for
scripts/kernel/objdiff.sh, which says what is proved and how."""
import argparse
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
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('--aa', action='store_true',
                    help='two builds of one source: no function may differ')
    ap.add_argument('--expect', default='',
                    help='the calibration K values that must be found')
    ap.add_argument('--new', action='append', default=[],
                    help='a function that may exist in PATCHED only')
    ap.add_argument('base')
    ap.add_argument('patched')
    opt = ap.parse_args()
    aa = opt.aa
    expect = [int(k) for k in opt.expect.split()]
    ra, rb = split(opt.base), split(opt.patched)
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
        if name in opt.new:
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
