# SPDX-License-Identifier: GPL-2.0
#
# trend.gp — history of one benchmark: median and its 95% CI per run.
# datafile columns: time (UTC, 2026-12-03T08:30:00Z) median ci_lo ci_hi,
# as written by the CI history; unit_label names the unit.

load dir."/common.gp"
set xdata time
set timefmt "%Y-%m-%dT%H:%M:%S"
set format x "%m-%d\n%H:%M"
set xlabel "run (UTC)"
set ylabel "median ".unit_label." per operation"
plot datafile using 1:3:4 with filledcurves lc rgb "#c6d4ea" \
	title "95% CI", \
     "" using 1:2 with linespoints lt 1 title "median"
