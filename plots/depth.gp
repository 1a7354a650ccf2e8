# SPDX-License-Identifier: GPL-2.0
#
# depth.gp — cost against the user-namespace depth (depth:N in the name)
# for one family: a line per variant and side (colour: variant; base
# solid, patched dashed), median with its 95% CI as error bars.  The depth
# axis is log2 (0, 1, 2, 4 ... 32 evenly spaced; 0 one step left of 1).
# datafile: one block per line, blocks separated by two blank lines; the
# first row of a block is its title, then "x depth median ci_lo ci_hi"
# rows, x = 0 for depth 0, else log2(depth) + 1.
# Variables: nblocks, xlast (x of the deepest point), logy (0/1: the
# medians span more than 30x); extra names the x axis.

set xlabel extra
set ylabel "median ".unit_label." per operation (95% CI)"
# under the plot, a row per variant: base and patched side by side
set key outside below center horizontal maxcols 2 nobox
set bmargin 4 + (nblocks + 1) / 2
set xtics ("0" 0)
# no tic past the data: gnuplot would keep room for its label
do for [k=0:int(xlast) - 1] { set xtics add (sprintf("%d", 2**k) k + 1) }
set autoscale xfix
set offsets 0.3, 0.3, 0, 0
if (logy) {
	set logscale y
	set ylabel "median ".unit_label." per operation (95% CI, log scale)"
}
plot for [i=0:nblocks-1] datafile index i using 1:3:4:5 \
	with yerrorlines title columnheader(1) lt (i / 2 % 6 + 1) \
	dt i % 2 + 1 pt (i % 2 ? 6 : 7)
