#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# No comment or doc names a missing path: every repo-relative path that
# the READMEs, the C and shell sources, the build files, the plans and
# kernel-patches/checks.def name (a word starting with one of the tree's
# top directories: src/..., tests/..., kernel-patches/...) exists in the
# tree as it is.  A file moved or removed without its readers following
# fails here, naming each stale mention as FILE:LINE: PATH.
#
# What counts as a path: a word with a file name's dot in its last part
# (src/lib/render/table.c), or of three or more parts (kernel-patches/6.1/
# calibration), or ending in '/'.  Two parts without a dot (guest/exec)
# are benchmark names as often as directories, and are left alone.  Not
# paths either: globs and placeholders (kernel-patches/VERSION/, PLAN.plan,
# src/lib/*.c), paths under another path ($top/..., /tmp/...), and the
# kernel's own tree (its scripts/selinux/, scripts/kconfig/).  A program
# or object built from a source of the same name (guest/nsb-guest from
# guest/nsb-guest.c) exists if its source does; a test's short name
# (tests/t65) if a test of that number does.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
need python3 python3
cd "$top" || exit 1

# scan [FILE...]: FILE:LINE: PATH of every path named that is missing;
# no FILE: the tree's own files (tracked or new, not ignored)
scan() {
	python3 - "$@" <<'EOF'
import os, re, subprocess, sys

tracked = subprocess.run(['git', 'ls-files', '-co', '--exclude-standard'],
                         capture_output=True, text=True,
                         check=True).stdout.split('\n')
files = sys.argv[1:] or [f for f in tracked if f]

def read(f):
    b = os.path.basename(f)
    if f.startswith('tests/fixtures/') or f == 'tests/t48-doc-paths.sh':
        return False
    return bool(re.match(r'README.*\.md$', b) or b in ('Makefile', 'checks.def')
                or b.endswith(('.c', '.h', '.sh', '.mk', '.plan')))

# the tree's top directories, but results/ (runs write there)
tops = sorted({f.split('/')[0] for f in tracked if '/' in f} - {'results'})
PATH = re.compile(r'(?<![\w./$~-])((?:%s)/[\w.+/-]*)' %
                  '|'.join(map(re.escape, tops)))
KERNEL = ('scripts/selinux/', 'scripts/kconfig/')

def exists(p):
    q = p.rstrip('/')
    if os.path.exists(q):
        return True
    stem, ext = os.path.splitext(q)
    if any(os.path.exists((stem if ext in ('.so', '.o') else q) + s)
           for s in ('.c', '.cc', '.sh')):
        return True
    d, b = os.path.split(q)
    return bool(re.fullmatch(r't\d+', b)) and os.path.isdir(d) and \
        any(n.startswith(b + '-') for n in os.listdir(d))

for f in files:
    if not read(f) or not os.path.isfile(f):
        continue
    for n, line in enumerate(open(f, encoding='utf-8', errors='replace'), 1):
        for m in PATH.finditer(line):
            p = m.group(1).rstrip('.-')
            nxt = line[m.start(1) + len(p):][:1]
            parts = p.rstrip('/').split('/')
            if nxt and nxt in '*?[{<$\\':
                continue
            if any(re.fullmatch(r'[A-Z][A-Z0-9_]*', s.split('.')[0])
                   for s in parts):
                continue
            if p.startswith(KERNEL):
                continue
            if not ('.' in parts[-1] or len(parts) >= 3 or p.endswith('/')):
                continue
            if not exists(p):
                print('%s:%d: %s' % (f, n, p))
EOF
}

scan >"$tmp/missing"
rc=$?
[ $rc = 0 ] && [ ! -s "$tmp/missing" ]
ok $? "every path a comment or doc names exists ($(wc -l <"$tmp/missing") do not)"
diag "$tmp/missing"

# the scan itself: it finds a stale mention and passes the forms above
mkdir -p "$tmp/d"
cat >"$tmp/d/README.md" <<'EOF'
The check table (src/costs.c) and `src/lib/nosuch.h`, kernel-patches/9.9/x/.
Fine: src/lib/render/table.c, src/lib/, kernel-patches/6.1/calibration/README.md,
kernel-patches/VERSION/series, guest/plans/PLAN.plan, src/lib/*.c,
$top/src/gone.c, the kernel's scripts/selinux/mdp, guest/exec,
guest/nsb-guest, tests/t64, build/src/x.o.
EOF
scan "$tmp/d/README.md" | sed 's/^[^:]*://' >"$tmp/found"
is "$(tr '\n' ' ' <"$tmp/found")" \
	"1: src/costs.c 1: src/lib/nosuch.h 1: kernel-patches/9.9/x/ " \
	"the scan names each missing path, and only those"
tap_done
