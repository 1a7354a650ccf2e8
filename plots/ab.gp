# SPDX-License-Identifier: GPL-2.0
#
# ab.gp — the A/B question for one family: by how much did each
# benchmark move?  A row per benchmark: the shift of the median, patched
# vs base in % of the base median, with its 95% CI; the zero line; the
# grey band is the +-threshold the verdict uses; the colour is the verdict.
# On the right: the numbers and the base median, so the scale is known.
# datafile columns: row "label" pct lo hi verdict "right label"
#   (verdict 0 same, 1 faster, 2 slower, 3 noisy; labels are data)
# Variables: nrows, xmax (the x range is +-xmax: a wider CI is cut at
# the edge, its numbers stay on the right), threshold (0: no band).

set yrange [nrows + 0.5:0.5]
set ytics scale 0 nomirror
set y2tics scale 0
set link y2
set xrange [-xmax:xmax]
unset grid
set grid xtics lc rgb "#dddddd"
set border 3
set xlabel "shift of the median, patched vs base, % of the base median (95% CI)"
set format x "%+g%%"
if (threshold > 0) {
	set object 1 rect from -threshold, graph 0 to threshold, graph 1 \
		fc rgb "#ececec" fs solid 1.0 noborder behind
}
set arrow 1 from 0, graph 0 to 0, graph 1 nohead lc rgb "#555555" lw 1 front
set key outside below center horizontal nobox
set bmargin 5
verdict_rgb(v) = v == 2 ? 0xc44e52 : v == 1 ? 0x55a868 : \
	v == 0 ? 0x4c72b0 : 0x999999
plot datafile using (NaN):1:ytic(2):y2tic(7) with points notitle, \
     "" using 3:1:4:5:(verdict_rgb($6)) with xerrorbars pt 7 ps 1 lw 1.5 \
	lc rgb variable notitle, \
     keyentry with points pt 7 lc rgb "#c44e52" title "slower", \
     keyentry with points pt 7 lc rgb "#55a868" title "faster", \
     keyentry with points pt 7 lc rgb "#4c72b0" title "same", \
     keyentry with points pt 7 lc rgb "#999999" title "noisy"
