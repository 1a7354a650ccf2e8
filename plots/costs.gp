# SPDX-License-Identifier: GPL-2.0
#
# costs.gp — the headline figure of `make run`: what each check costs, a
# panel per check and LSM (a family's rows of very different size in
# panels apart), each on its own x scale so every row's 95% CI shows; a
# row per scenario, the shift (on - off) marked by its verdict, the
# table's numbers and verdict on the right.
# datafile: per panel a block of rows
#   row shift lo hi verdict reliable "label" "right text" "panel title"
# (verdict 0 same, 1 faster, 2 slower, 3 noisy, 4 decides), then per
# panel a block of ticks `x "label"`; strings are data, never code.
# Variables from nsbench plot (numbers nsbench measured and computed):
# npanels; lmf, rmf: the axis's left and right edge (screen); keyy: the
# legend's line; arrays pn (rows), ptop, pbot (screen), xlo, xhi.

set multiplot title title_text
unset title
set ytics scale 0 nomirror
set y2tics scale 0
set link y2
set border 3
unset grid
set grid xtics lc rgb "#dddddd"
set xtics nomirror scale 0.5
set style line 10 lc rgb "#555555" lw 1
# The legend: one line above the first panel, the table's words.  A key
# would wrap into rows within the 560 px of an axis.
set key off
lx(i) = lmf + i * 84.0 / width
set label 11 "slower" at screen lx(0), screen keyy left front \
	point pt 9 ps 1.3 lc rgb "#c44e52" offset 1.2, 0
set label 12 "faster" at screen lx(1), screen keyy left front \
	point pt 11 ps 1.3 lc rgb "#55a868" offset 1.2, 0
set label 13 "same" at screen lx(2), screen keyy left front \
	point pt 7 ps 1 lc rgb "#4c72b0" offset 1.2, 0
set label 14 "noisy" at screen lx(3), screen keyy left front \
	point pt 12 ps 1.3 lc rgb "#999999" offset 1.2, 0
set label 15 "decides" at screen lx(4), screen keyy left front \
	point pt 5 ps 1 lc rgb "#8172b3" offset 1.2, 0
set label 16 "* judged against its A/A residual" at screen lx(5), \
	screen keyy left front point pt 6 ps 2 lc rgb "#333333" offset 1.6, 0
set lmargin at screen lmf
set rmargin at screen rmf
vrgb(v) = v == 2 ? 0xc44e52 : v == 1 ? 0x55a868 : v == 0 ? 0x4c72b0 : \
	v == 4 ? 0x8172b3 : 0x999999
is(v, want) = v == want ? 1 : NaN
do for [k = 1:npanels] {
	# the title as a value read from the data, never as code (stats
	# heeds the last panel's ranges: none yet)
	set autoscale xy
	stats datafile index (k - 1) every ::0::0 \
		using (ptitle = strcol(9), 0) nooutput
	set label 1 ptitle at graph 0, graph 1 offset 0, 0.8 left front
	set tmargin at screen ptop[k]
	set bmargin at screen pbot[k]
	set yrange [pn[k] + 0.5:0.5]
	set xrange [xlo[k]:xhi[k]]
	unset arrow
	if (xlo[k] < 0 && xhi[k] > 0) {
		set arrow 1 from 0, graph 0 to 0, graph 1 nohead ls 10 back
	}
	if (k == npanels) {
		set xlabel "shift per op, ".unit_label.", 95% CI: each panel on its own scale"
	} else {
		unset xlabel
	}
	if (k == 2) {
		unset label 11; unset label 12; unset label 13
		unset label 14; unset label 15; unset label 16
	}
	plot datafile index (k - 1) using (NaN):1:ytic(7):y2tic(8) notitle, \
	     "" index (npanels + k - 1) using 1:(NaN):xtic(2) notitle, \
	     "" index (k - 1) using 2:1:3:4:(vrgb($5)) with xerrorbars \
		pt -1 lw 1.5 lc rgb variable notitle, \
	     "" index (k - 1) using ($2 * is($5, 2)):1 with points \
		pt 9 ps 1.3 lc rgb "#c44e52" notitle, \
	     "" index (k - 1) using ($2 * is($5, 1)):1 with points \
		pt 11 ps 1.3 lc rgb "#55a868" notitle, \
	     "" index (k - 1) using ($2 * is($5, 0)):1 with points \
		pt 7 ps 1 lc rgb "#4c72b0" notitle, \
	     "" index (k - 1) using ($2 * is($5, 3)):1 with points \
		pt 12 ps 1.3 lc rgb "#999999" notitle, \
	     "" index (k - 1) using ($2 * is($5, 4)):1 with points \
		pt 5 ps 1 lc rgb "#8172b3" notitle, \
	     "" index (k - 1) using ($2 * is($6, 0)):1 with points \
		pt 6 ps 2 lc rgb "#333333" notitle
}
unset multiplot
