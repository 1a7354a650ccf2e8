# SPDX-License-Identifier: GPL-2.0
#
# depth.gp — cost against a numeric argument of the benchmark name
# (depth:N — the user-namespace depth): one line per variant and side,
# 95% CI of the median as error bars.
# datafile: one block per line, blocks separated by two blank lines; the
# first row of a block is its title, then "N median ci_lo ci_hi" rows.
# Variables: nblocks, xname, unit_label, plus common.gp's.

load dir."/common.gp"
set xlabel xname
set ylabel "median ".unit_label." per operation (95% CI)"
set key outside right top box opaque
set autoscale xfix
set offsets 0.5, 0.5, 0, 0
plot for [i=0:nblocks-1] datafile index i using 1:2:3:4 \
	with yerrorlines title columnheader(1) lt (i + 1)
