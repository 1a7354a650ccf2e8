# SPDX-License-Identifier: GPL-2.0
"""svg_layout.py SVG FONT_PX [WHISKERS] — what a reader sees of a chart.

Reads the picture, not the code that drew it: every drawn <text> (not a
<title> tooltip) as a box from its position, anchor, rotation, font size
and length (0.6 em a character: DejaVu Sans averages 0.55-0.64), and
checks that each box lies inside the canvas (the viewBox) and that no two
boxes overlap.  WHISKERS, if given, is a file of row labels, one a line:
each such row (a y tick label of a gnuplot chart) must have a horizontal
error bar at its height at least 3 px long.  One line per problem on
stdout; exit 1 if there was any.
"""
import math
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
EM = 0.6


def transform_of(s):
    """(tx, ty, degrees) of "translate(x,y) rotate(a)"."""
    tx = ty = a = 0.0
    m = re.search(r"translate\(\s*([-\d.]+)[ ,]+([-\d.]+)\s*\)", s or "")
    if m:
        tx, ty = float(m.group(1)), float(m.group(2))
    m = re.search(r"rotate\(\s*([-\d.]+)", s or "")
    if m:
        a = float(m.group(1))
    return tx, ty, a


def texts(root, font_px):
    """[(string, corners)] of every drawn text."""
    out = []

    def walk(el, tx, ty, a, fs, anchor):
        tag = el.tag.replace(NS, "")
        if tag in ("title", "desc", "defs"):
            return
        dx, dy, da = transform_of(el.get("transform"))
        tx, ty, a = tx + dx, ty + dy, a + da
        fs = float(el.get("font-size", "").replace("px", "") or fs)
        anchor = el.get("text-anchor", anchor)
        if tag == "text":
            s = "".join(el.itertext())
            x = tx + float(el.get("x", 0))
            y = ty + float(el.get("y", 0))
            w = len(s) * EM * fs
            x0 = {"end": -w, "middle": -w / 2}.get(anchor, 0.0)
            local = [(x0, -0.8 * fs), (x0 + w, -0.8 * fs),
                     (x0 + w, 0.2 * fs), (x0, 0.2 * fs)]
            r = math.radians(a)
            pts = [(x + u * math.cos(r) - v * math.sin(r),
                    y + u * math.sin(r) + v * math.cos(r)) for u, v in local]
            if s.strip():
                out.append((s, pts))
            return
        for c in el:
            walk(c, tx, ty, a, fs, anchor)

    walk(root, 0, 0, 0, font_px, "start")
    return out


def overlap(p, q):
    """Separating axes of two convex quadrilaterals."""
    for poly in (p, q):
        for i in range(4):
            (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % 4]
            nx, ny = y1 - y2, x2 - x1
            a = [nx * x + ny * y for x, y in p]
            b = [nx * x + ny * y for x, y in q]
            if max(a) <= min(b) + 0.5 or max(b) <= min(a) + 0.5:
                return False
    return True


def hsegments(root):
    """Horizontal segments (y, x1, x2) of every path's M/L pairs."""
    segs = []
    for el in root.iter(NS + "path"):
        pts = re.findall(r"([ML])\s*([-\d.]+),([-\d.]+)", el.get("d", ""))
        for (c1, x1, y1), (c2, x2, y2) in zip(pts, pts[1:]):
            if c2 == "L" and abs(float(y1) - float(y2)) < 0.01:
                segs.append((float(y1), float(x1), float(x2)))
    return segs


def main():
    root = ET.parse(sys.argv[1]).getroot()
    vb = [float(v) for v in root.get("viewBox").split()]
    W, H = vb[2], vb[3]
    ts = texts(root, float(sys.argv[2]))
    bad = []
    for s, pts in ts:
        if any(x < -0.5 or x > W + 0.5 or y < -0.5 or y > H + 0.5
               for x, y in pts):
            bad.append("outside the %gx%g canvas: %r at %.0f,%.0f"
                       % (W, H, s, pts[0][0], pts[0][1]))
    for i in range(len(ts)):
        for j in range(i + 1, len(ts)):
            if overlap(ts[i][1], ts[j][1]):
                bad.append("overlap: %r and %r" % (ts[i][0], ts[j][0]))
    if len(sys.argv) > 3:
        segs = hsegments(root)
        for want in open(sys.argv[3]).read().splitlines():
            ys = [(p[0][1] + p[3][1]) / 2 for s, p in ts if s == want]
            if not ys:
                bad.append("no row labelled %r" % want)
                continue
            # the label's box centre is the row's line, give or take
            y = ys[0]
            w = max([abs(x2 - x1) for sy, x1, x2 in segs
                     if abs(sy - y) < 3.5] or [0])
            if w < 3:
                bad.append("row %r: CI whisker %.1f px" % (want, w))
    for b in bad:
        print(b)
    print("%d texts, %d problems" % (len(ts), len(bad)), file=sys.stderr)
    return 1 if bad else 0


sys.exit(main())
