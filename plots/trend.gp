# SPDX-License-Identifier: GPL-2.0
#
# trend.gp — history of one benchmark: median and its 95% CI per run,
# runs evenly spaced, oldest first.
# datafile columns: run (0 = oldest) median ci_lo ci_hi "label" (the
# kernel commit, else the run's date; labels are data).
# Variables: nruns, label_every (a tic label every N runs); extra names
# the x axis.  nsbench history plot adds the change points (arrows and
# labels) to the variables.

set xlabel extra
set ylabel "median ".unit_label." per operation"
set xrange [-0.5:nruns - 0.5]
set xtics rotate by -30 left
set bmargin 6
plot datafile using 1:3:4 with filledcurves lc rgb "#c6d4ea" \
	title "95% CI", \
     "" using 1:2:xtic(int($1) % label_every ? "" : strcol(5)) \
	with linespoints lt 1 title "median"
