#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One spelling per command: the project's own code says `nsbench costs`
# and `nsbench plot MODE FILE`, never the deprecated `nsbench report
# FILE|DIR...` (no "--"), `plot --costs=/--trend=/--profile=FILE` or
# `history publish --out=DIR` (--out is a FILE everywhere else).  The
# aliases stay for scripts written elsewhere; a test of an alias marks
# its line with "old spelling on purpose" (on it or the line before; in
# Markdown, anywhere in the paragraph).
# The deprecation lines themselves are checked here too, and ab.sh's
# options: one table that its parser reads and its --help prints.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
need python3 python3

# scan FILE...: "path:line: text" of each deprecated spelling
scan() {
	python3 - "$@" <<'EOF'
import re, sys

# how the project's code runs nsbench: the name, $nsb, $NSB, ${NSB},
# $(NSBENCH), or a C test's command string
NSB = r'(?:\bnsbench|\$\{?nsb\}?|\$\{?NSB\}?|\$\(NSBENCH\)|\$\{?nsbench\}?)"?'
REPORT = re.compile(NSB + r'\s+report\b(.*)')
PLOT = re.compile(r'(?:' + NSB + r'\s+|"|\b)plot\b(?!\s*\()(.*)')
PUBLISH = re.compile(r'\bhistory\s+publish\b.*--out(?:=|\s)')
OLD_PLOT = re.compile(r'(?<![\w-])--(costs|trend|profile)(?:=|\s|$|")')
MARK = 'old spelling on purpose'

for path in sys.argv[1:]:
    try:
        lines = open(path, encoding='utf-8', errors='replace').read().split('\n')
    except OSError:
        continue
    i = 0
    while i < len(lines):
        start = i
        text = lines[i]
        # a command continued over lines (shell "\", C string pieces)
        while text.endswith('\\') and i + 1 < len(lines):
            i += 1
            text = text[:-1] + ' ' + lines[i]
        i += 1
        near = '\n'.join(lines[max(0, start - 1):i])
        if path.endswith('.md'):
            # Markdown: the marker anywhere in the paragraph
            a, b = start, i
            while a > 0 and lines[a - 1].strip():
                a -= 1
            while b < len(lines) and lines[b].strip():
                b += 1
            near = '\n'.join(lines[a:b])
        if MARK in near:
            continue
        if not path.endswith(('.c', '.h', '.md')):
            # shell: what runs, not what is said (comments, messages)
            text = re.sub(r"'[^']*'", "''", text)
            text = re.sub(r'"([^"]*)"', lambda q: q.group(0) if
                          re.fullmatch(r'\$\{?(nsb|NSB|nsbench)\}?', q.group(1))
                          else '""', text)
            text = re.sub(r'(^|\s)#.*', '', text)
        bad = None
        m = REPORT.search(text)
        if m:
            # the command's own words: up to a pipe, redirection, list,
            # substitution's end or quote's end
            words = re.split(r'[|;&>`)]', m.group(1))[0].split()
            if words and words[0] not in ('--help', '-h') and \
                    '--' not in words and \
                    any(not w.startswith('-') for w in words):
                bad = 'nsbench report FILE|DIR... (say nsbench costs)'
        m = PLOT.search(text)
        if m and not bad:
            o = OLD_PLOT.search(m.group(1))
            if o:
                bad = 'plot --%s (say nsbench plot %s FILE)' % (o.group(1), o.group(1))
        if not bad and PUBLISH.search(text):
            bad = 'history publish --out=DIR (say --out-dir=DIR)'
        if bad:
            print('%s:%d: %s: %s' % (path, start + 1, bad, lines[start].strip()))
EOF
}

# the files: every script, test, build file, guest plan and doc example
cd "$top" || exit 1
mapfile -t files < <(git ls-files -- scripts tests guest contrib bench \
	workloads plots kernel-patches Makefile '*.mk' '*.md' |
	grep -Ev '^tests/t47-spellings\.sh$|^tests/fixtures/')
[ "${#files[@]}" -gt 50 ]
ok $? "the project's own code: ${#files[@]} files to read"

scan "${files[@]}" >"$tmp/bad"
[ ! -s "$tmp/bad" ]
ok $? "no command in the project's own code uses a deprecated spelling"
diag "$tmp/bad"

# the scan finds what it is for: each deprecated spelling, once
cat >"$tmp/old.sh" <<'EOF'
"$nsb" report --json="$tmp/c.json" "$tmp/t"
nsbench report results/checks
"$NSB" plot --costs="$tmp/c.json" --out-dir=x
"$nsb" plot --out-dir=x \
	--trend=trend.txt
"$NSB" history publish --history=h.jsonl --out=site
EOF
echo '	"plot --profile={F} --out-dir={OD}",' >"$tmp/old.c"
cat >"$tmp/new.sh" <<'EOF'
"$nsb" costs --json="$tmp/c.json" "$tmp/t"
"$nsb" report --markdown "$A" -- "$B"
"$nsb" report --profile-base=A/profile \
	--profile-patched=B/profile A/r*.json -- B/r*.json
"$nsb" report --help
"$NSB" plot costs "$tmp/c.json" --out-dir=x
"$nsb" plot trend --out-dir=x trend.txt
"$NSB" history plot --history=h.jsonl --out-dir=x
"$NSB" history publish --history=h.jsonl --out-dir=site
perf report -i perf.data --stdio
EOF
is "$(scan "$tmp/old.sh" "$tmp/old.c" | wc -l)" 6 \
	"the scan finds each deprecated spelling"
scan "$tmp/old.sh" "$tmp/old.c" | diag
is "$(scan "$tmp/new.sh" | wc -l)" 0 "... and none in the current ones"
scan "$tmp/new.sh" | diag

# the aliases still work, and say they are deprecated, on stderr only
run 2 "report FILE: the old spelling still runs costs" \
	report "$tmp/nosuch.json"
grep -qx 'nsbench report: FILE|DIR... without "--" is deprecated; use nsbench costs' \
	"$tmp/err"
ok $? "... with one deprecation line on stderr"
printf '%s\n' '2026-11-20T08:00:00Z 1 1 1' >"$tmp/trend.txt"
for m in costs trend profile; do
	"$NSB" plot --$m="$tmp/nosuch" --out-dir="$tmp/p" >/dev/null 2>"$tmp/err"
	grep -qx "nsbench plot: --$m=FILE is deprecated; use nsbench plot $m FILE" \
		"$tmp/err"
	ok $? "plot --$m=FILE: one deprecation line"
	"$NSB" plot $m "$tmp/nosuch" --out-dir="$tmp/p" >/dev/null 2>"$tmp/err"
	! grep -q deprecated "$tmp/err"
	ok $? "plot $m FILE: none"
done
"$NSB" plot --help >"$tmp/h" 2>&1 && grep -q 'deprecated' "$tmp/h"
ok $? "plot --help names the old spellings as deprecated"
# ab.sh: its options one table, which the parser reads and --help prints
ab=$top/scripts/ab.sh
sed -n '/^ab_options=(/,/^)/s/^"\(--[a-z-]*\)|.*/\1/p' "$ab" | sort >"$tmp/table"
"$ab" --help 2>"$tmp/abhelp"
rc=$?
sed -n 's/^  \(--[a-z-]*\).*/\1/p' "$tmp/abhelp" | sort >"$tmp/helped"
[ $rc = 2 ] && [ "$(wc -l <"$tmp/table")" -ge 30 ] &&
	cmp -s "$tmp/table" "$tmp/helped"
ok $? "ab.sh --help: every option of the table, $(wc -l <"$tmp/table") of them"
bad=
while read -r o; do
	# the parser takes each: a refusal, if any, is not "unknown option"
	"$ab" "$o" x --mode bogus >/dev/null 2>"$tmp/abrc" </dev/null
	! grep -q "unknown option '$o'" "$tmp/abrc" || bad="$bad $o"
done < <(grep -vx -e --help -e --merge "$tmp/table")
[ -z "$bad" ]
ok $? "ab.sh: the parser takes every option of the table${bad:+ (not:$bad)}"
"$ab" --boots 2 --mode bogus >/dev/null 2>"$tmp/abrc"
[ $? = 2 ] && grep -qx 'ab.sh: --boots is deprecated; use --rounds' "$tmp/abrc" &&
	grep -q "mode must be auto" "$tmp/abrc"
ok $? "ab.sh --boots: the old name of --rounds, said to be deprecated"
tap_done
