#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t99-publish-browser.sh — the site of `nsbench history publish` in a
# real browser (headless Chromium) from file://: the DOM it builds from
# the index and a benchmark page (tables, links, the SVG chart with a
# point per run and the change point), a screenshot of each that is a
# real picture, and not one message on the browser's console — the
# pages carry no script, and their Content-Security-Policy turns any
# script that slipped in into a console message.  A control page with a
# failing script shows the console check sees what it should.

set -u
# shellcheck source=tests/lib-tap.sh
. "$(dirname "$0")/lib-tap.sh"
need python3 python3
command -v chromium >/dev/null ||
	skip_all "chromium not installed (Debian package chromium)"

# chrome PAGE OUT ARGS...: OUT.dom or OUT.png, the log in OUT.log.  Its
# own profile in $tmp; --no-sandbox: the tests run as root.  A minute
# at most, should the browser hang.
chrome() {
	local page=$1 out=$2

	shift 2
	timeout 60 chromium --headless --no-sandbox --disable-gpu \
		--no-first-run --user-data-dir="$tmp/profile" \
		--enable-logging=stderr --v=0 "$@" "file://$page" \
		>"$out.out" 2>"$out.log"
}

# console LOG: the page's console messages (Chromium logs each as
# "INFO:CONSOLE", uncaught exceptions as "Uncaught ...").
console() {
	grep -E 'CONSOLE|Uncaught' "$1"
}

# png_ok FILE W H: a PNG of W x H pixels and more than 20 kB (a blank
# page of that size compresses to a few kB).
png_ok() {
	python3 - "$@" <<'PY'
import struct, sys
f, w, h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
b = open(f, "rb").read()
ok = b[:8] == b"\x89PNG\r\n\x1a\n" and b[12:16] == b"IHDR"
ok = ok and struct.unpack(">II", b[16:24]) == (w, h)
print("%s: %d bytes, %dx%d" % (f.split("/")[-1], len(b),
      *struct.unpack(">II", b[16:24])))
sys.exit(0 if ok and len(b) > 20000 else 1)
PY
}

mkdir "$tmp/w" && cd "$tmp/w" || exit 1
python3 "$top/tests/fixtures/publish/make_hostile.py" .
"$NSB" history publish --history=h.jsonl --out-dir=site >/dev/null 2>"$tmp/err"
ok $? "the site of a hostile history is published"
S=$tmp/w/site
page=$(ls "$S"/b/sys_exec_*.html)

# the control: the console check must see a failing script
printf '<!DOCTYPE html><p>x</p><script>no_such_fn()</script>\n' >ctl.html
chrome "$tmp/w/ctl.html" ctl --dump-dom
console ctl.log | grep -q 'Uncaught ReferenceError'
ok $? "control: an uncaught error shows on the console"

# dom OUT: the DOM as Chromium built it, read back by python's parser:
# tags counted, the text of every <td class="name"> cell.
dom() {
	python3 - "$1" <<'PY'
import html.parser, sys
class P(html.parser.HTMLParser):
    tags, names, cell = {}, [], None
    def handle_starttag(self, t, a):
        self.tags[t] = self.tags.get(t, 0) + 1
        if t == "td" and ("class", "name") in a:
            self.cell = ""
    def handle_endtag(self, t):
        if t == "td" and self.cell is not None:
            self.names.append(self.cell)
            self.cell = None
    def handle_data(self, d):
        if self.cell is not None:
            self.cell += d
p = P()
p.feed(open(sys.argv[1], encoding="utf-8").read())
for t in ("script", "img", "b", "i", "svg", "circle", "line", "table", "a"):
    print("%s %d" % (t, p.tags.get(t, 0)))
for n in p.names:
    print("name " + n)
PY
}

chrome "$S/index.html" index --dump-dom
dom index.out >index.dom
grep -q '^name sys/exec/<script>alert(1)</script>$' index.dom &&
	grep -q '^name ../../etc/passwd$' index.dom
ok $? "index DOM: hostile names are cell text, as written"
grep -qx 'script 0' index.dom && grep -qx 'img 0' index.dom &&
	grep -qx 'b 0' index.dom && grep -qx 'i 0' index.dom
ok $? "index DOM: no script, img, b or i element"
[ "$(grep -c '^name ' index.dom)" = 8 ] && grep -q 'regression(s)' index.out
ok $? "index DOM: 8 benchmarks in their tables, the summary line"
[ -z "$(console index.log)" ]
rc=$?
ok $rc "index: nothing on the console"
[ $rc = 0 ] || console index.log | diag

chrome "$page" bench --dump-dom
dom bench.out >bench.dom
grep -qx 'svg 1' bench.dom && grep -qx 'circle 16' bench.dom
ok $? "benchmark DOM: one SVG chart, a point per run (16)"
grep -q 'class="cp"' bench.out && grep -q 'change +5.00 %' bench.out
ok $? "benchmark DOM: the change point is marked with its size"
grep -qx 'script 0' bench.dom && [ -z "$(console bench.log)" ]
ok $? "benchmark: no script element, nothing on the console"

chrome "$S/index.html" shot1 --screenshot="$tmp/w/index.png" \
	--window-size=1200,900
png_ok index.png 1200 900 >shots
ok $? "index screenshot: $(tail -1 shots)"
chrome "$page" shot2 --screenshot="$tmp/w/bench.png" --window-size=1200,900
png_ok bench.png 1200 900 >shots
ok $? "benchmark screenshot: $(tail -1 shots)"
[ -z "$(console shot1.log shot2.log)" ]
ok $? "screenshots: nothing on the console"

tap_done
