# SPDX-License-Identifier: GPL-2.0
#
# costs.gp — the headline figure of `make run`: what each check costs, a
# row per check and scenario, the shift (on - off) with its 95% CI in
# instructions (left) and in % of the operation (right), zero marked.
# datafile columns: row shift lo hi pct pct_lo pct_hi "label" reliable
# (labels are data, read from the file: never code).
# Variables from nsbench plot: nrows, unit_label, plus common.gp's.

# An A/A's shifts are all zero: an axis gnuplot need not warn of.
stats datafile using 3 name "LO" nooutput
stats datafile using 4 name "HI" nooutput
PLO = LO_min
PHI = HI_max
stats datafile using 6 name "LO" nooutput
stats datafile using 7 name "HI" nooutput

set multiplot layout 1,2 title title_text
unset title
set key off
set ytics nomirror
set yrange [nrows + 0.5:0.5]
set grid xtics lc rgb "#dddddd"
set style line 10 lc rgb "#888888" lw 1 dt 2
set lmargin 30
set rmargin 2
set xlabel "shift per op, ".unit_label." (95% CI)"
set arrow 1 from 0, graph 0 to 0, graph 1 nohead ls 10
if (PLO == PHI) set xrange [PLO - 1:PLO + 1]
plot datafile using 2:1:3:4:ytic(8) with xerrorbars lt 1 pt 7, \
     "" using ($9 == 0 ? $2 : 1/0):1 with points lt 4 pt 6 ps 1.6
set lmargin 2
set rmargin 3
set format y ""
set xlabel "shift, % of the op (95% CI)"
set xrange [*:*]
if (LO_min == HI_max) set xrange [LO_min - 1:LO_min + 1]
plot datafile using 5:1:6:7 with xerrorbars lt 2 pt 7
unset multiplot
