#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t92-hostile-names.sh — benchmark names and a host name built to forge
# output lines, read back by each consumer's own tool: kunit.py parse for
# KTAP (a vertical tab or U+2028 in a name once split a result line, and
# two regressions read "passed: 1, failed: 1"), prove for TAP, xmllint
# for JUnit (a '"' or '<' in the classname broke the XML), a Markdown
# parser for table structure (cmark-gfm and python3-markdown: '|', code
# fences, '<img onerror>' and '##' in names and host names), and every
# text output for raw line breaks.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
FIX=$(dirname "$0")/fixtures/history

# Every character some consumer reads as a line break, and markup.
# \u000b vertical tab, \u000c form feed, \u001c-\u001e, \u0085, \u2028,
# \u2029, \r, \n; then a forged KTAP/TAP result after each.
evil='"fix/exec/plain\u000bok 7 forged\u2028ok 8 forged\u0085ok 9 x\u2029ok 10 y\u001cok 11\u000c\r\nok 12 |x| ```\n## head <img src=x onerror=alert(1)> \"q\" &amp;"'
evil2='"fix/open/dev\u001d\u001e<b>|</b>``` `"'
host='"## host <img src=x onerror=alert(1)>\n# also | pipe"'

for run in base slower; do
	jq ".benchmarks |= map(
		if .name == \"fix/exec/plain\" then .name = $evil
		elif .name == \"fix/open/dev\" then .name = $evil2 else . end)
	    | .context.host_name = $host" \
		"$FIX/icount-$run.json" >"$tmp/$run.json"
done
# a second regression on the evil-named row: both must fail
jq '.benchmarks |= map(if (.name | startswith("fix/open/dev"))
	then .real_time *= 1.2 else . end)' "$tmp/slower.json" >"$tmp/s2.json" &&
	mv "$tmp/s2.json" "$tmp/slower.json"
H="--history=$tmp/h.jsonl"
"$NSB" history append "$H" "$tmp/base.json" >/dev/null &&
	"$NSB" history accept "$H" base >/dev/null
ok $? "a history with hostile names appended and accepted"

"$NSB" gate "$H" --format=ktap "$tmp/slower.json" >"$tmp/g.ktap" 2>"$tmp/err"
[ $? = 1 ]
ok $? "gate: the regressions are a failure (exit 1)"
"$NSB" gate "$H" --format=junit "$tmp/slower.json" >"$tmp/g.xml" 2>>"$tmp/err"
"$NSB" gate "$H" "$tmp/slower.json" >"$tmp/g.txt" 2>>"$tmp/err"

# no_breaks FILE: no line holds a character splitlines() breaks at
# (but \n), nor \r, nor a C0 control but tab
no_breaks() {
	/usr/bin/python3 -c '
import sys
t = open(sys.argv[1], "rb").read().decode("utf-8")
bad = [c for c in t if c != "\n" and (c in "\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"
	or (ord(c) < 32 and c != "\t"))]
sys.exit(1 if bad else 0)' "$1"
}
for f in g.ktap g.txt; do
	no_breaks "$tmp/$f"
	ok $? "$f: no raw line-break character"
done
cnt=$(grep -c '^\(not \)\?ok ' "$tmp/g.ktap")
[ "$cnt" = 3 ]
ok $? "KTAP: 3 result lines for 3 benchmarks (got $cnt)"
grep -q '^# name: fix/exec/plain\\x0bok_7' "$tmp/g.ktap" ||
	grep -q '^# name: fix/exec/plain\\x0bok 7 forged' "$tmp/g.ktap"
ok $? "KTAP: the original name is kept in a diagnostic"

# --- the kernel's parser --------------------------------------------------
find_kunit
if [ -f "$kunit/kunit_parser.py" ]; then
	(cd "$kunit" && python3 -c '
import sys, kunit_parser
t = kunit_parser.parse_run_tests(open(sys.argv[1]).read().splitlines())
c = t.counts
print(c.passed, c.failed, c.skipped, c.errors, len(t.subtests))
sys.exit(not (c.failed == 2 and c.passed == 0 and len(t.subtests) == 3))
' "$tmp/g.ktap") >"$tmp/kunit" 2>&1
	ok $? "kunit_parser: two regressions read as failed: 2 ($(cat "$tmp/kunit" | tail -n 1))"
	(cd "$kunit" && python3 kunit.py parse "$tmp/g.ktap") >/dev/null 2>&1
	[ $? = 1 ]
	ok $? "kunit.py parse: not a success"
else
	skip 2 "linux-source-6.1 absent: no tools/testing/kunit"
fi
prove --exec cat "$tmp/g.ktap" >"$tmp/prove" 2>&1
[ $? != 0 ] && grep -q 'Failed 2/3 subtests' "$tmp/prove"
ok $? "prove: 2 of 3 failed"

# --- JUnit ----------------------------------------------------------------
xmllint --noout "$tmp/g.xml" 2>"$tmp/xerr"
ok $? "JUnit: well-formed XML (xmllint)"
[ "$(xmllint --xpath 'string(/testsuites/testsuite/@failures)' \
	"$tmp/g.xml" 2>/dev/null)" = 2 ]
ok $? "JUnit: failures=2"
printf '{"benchmarks":[{"name":"a\\"b</x>/y\\"<z/w","run_type":"iteration","real_time":1,"time_unit":"ns"}]}\n' >"$tmp/q.json"
"$NSB" history append --history="$tmp/q.jsonl" "$tmp/q.json" >/dev/null &&
	"$NSB" history accept --history="$tmp/q.jsonl" q >/dev/null
cp "$tmp/q.json" "$tmp/q2.json"
"$NSB" gate --history="$tmp/q.jsonl" --format=junit "$tmp/q2.json" \
	>"$tmp/q.xml" 2>/dev/null
xmllint --noout "$tmp/q.xml" 2>"$tmp/xerr" &&
	[ "$(xmllint --xpath 'string(//testcase/@classname)' "$tmp/q.xml")" = \
	  'a"b<.x>' ]
ok $? "JUnit: a classname with '\"' and '<' is escaped"

# --- Markdown -------------------------------------------------------------
"$NSB" report --markdown "$tmp/base.json" -- "$tmp/slower.json" \
	>"$tmp/r.md" 2>>"$tmp/err"
"$NSB" compare --format=markdown "$tmp/base.json" -- "$tmp/slower.json" \
	>"$tmp/c.md" 2>>"$tmp/err"
"$NSB" report "$tmp/base.json" -- "$tmp/slower.json" >"$tmp/r.txt" 2>>"$tmp/err"
"$NSB" compare "$tmp/base.json" -- "$tmp/slower.json" >"$tmp/c.txt" 2>>"$tmp/err"
"$NSB" summary "$tmp/slower.json" >"$tmp/s.txt" 2>>"$tmp/err"
"$NSB" history show "$H" >"$tmp/h.txt" 2>>"$tmp/err"
for f in r.md c.md r.txt c.txt s.txt h.txt; do
	no_breaks "$tmp/$f"
	ok $? "$f: no raw line-break character"
done

# md_check FILE: every table row has its header's cell count, no HTML
# from the data, one h2 heading at most; via python3-markdown and cmark-gfm
md_check() {
	/usr/bin/python3 -c '
import sys, markdown, html.parser
class P(html.parser.HTMLParser):
	def __init__(s):
		super().__init__(); s.rows = []; s.tags = []; s.row = None
	def handle_starttag(s, t, a):
		s.tags.append(t)
		if t == "tr": s.row = 0
		if t in ("td", "th"): s.row += 1
	def handle_endtag(s, t):
		if t == "tr": s.rows.append(s.row)
text = open(sys.argv[1]).read()
for name, h in (("python3-markdown", markdown.markdown(text,
		extensions=["tables"])), ("cmark-gfm", sys.stdin.read())):
	p = P(); p.feed(h)
	bad = [t for t in p.tags if t in ("img", "b", "script")]
	if bad or p.tags.count("h2") > 1 or len(set(p.rows)) > 1 or \
	   not p.rows:
		print(name, "rows", sorted(set(p.rows)), "tags", bad,
		      "h2", p.tags.count("h2"))
		sys.exit(1)
' "$1" <"$2"
}
for f in r.md c.md; do
	cmark-gfm -e table "$tmp/$f" >"$tmp/$f.html" 2>/dev/null
	md_check "$tmp/$f" "$tmp/$f.html" >"$tmp/mdout" 2>&1
	ok $? "$f: tables keep their cells, no HTML, no heading from data $(cat "$tmp/mdout")"
done
tap_done
