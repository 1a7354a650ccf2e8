# SPDX-License-Identifier: GPL-2.0
#
# common.gp — shared look of nsbench's plots, loaded by plot.gp before the
# template.  Variables: outfile, fmt ("svg" or "png"), title_text, and the
# canvas in pixels, width and height: nsbench sizes each plot for a mail
# or a slide (at most ~1200 px wide) and splits a large family instead.
# Names of benchmarks contain '_': enhanced text would make subscripts.

if (!exists("width")) width = 1000
if (!exists("height")) height = 560
if (fmt eq "png") {
	set terminal pngcairo size width,height noenhanced font "Sans,10" \
		background rgb "white"
} else {
	set terminal svg size width,height dynamic noenhanced \
		font "Sans,11" background rgb "white"
}
set output outfile
set title title_text
set key outside right top box opaque
set grid ytics lc rgb "#dddddd"
set border 3
set tics nomirror
# base grey-blue, patched orange: distinguishable in grey print too
set linetype 1 lc rgb "#4c72b0" lw 2 pt 7 ps 0.8
set linetype 2 lc rgb "#dd8452" lw 2 pt 5 ps 0.8
set linetype 3 lc rgb "#55a868" lw 2 pt 9 ps 0.8
set linetype 4 lc rgb "#c44e52" lw 2 pt 11 ps 0.8
set linetype 5 lc rgb "#8172b3" lw 2 pt 13 ps 0.8
set linetype 6 lc rgb "#937860" lw 2 pt 3 ps 0.8
