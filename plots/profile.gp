# SPDX-License-Identifier: GPL-2.0
#
# profile.gp — where a benchmark's instructions go (nsbench plot
# --profile): a row per symbol, the shift per op (patched - base) with its
# 95% CI, orange where the CI excludes 0; the profile's total last.
# datafile columns: row shift lo hi significant "label"
# (labels are data, read from the file: never code).
# Variables from nsbench plot: nrows, unit_label, plus common.gp's.

# An A/A's shifts are all zero: an axis gnuplot need not warn of.
stats datafile using 3 name "LO" nooutput
stats datafile using 4 name "HI" nooutput
set key off
set ytics nomirror
set yrange [nrows + 0.5:0.5]
set grid xtics lc rgb "#dddddd"
set style line 10 lc rgb "#888888" lw 1 dt 2
set lmargin 42
set rmargin 3
set xlabel "shift per op, ".unit_label." (95% CI; orange: the CI excludes 0)"
set arrow 1 from 0, graph 0 to 0, graph 1 nohead ls 10
if (LO_min == HI_max) set xrange [LO_min - 1:LO_min + 1]
plot datafile using 2:1:3:4:ytic(6) with xerrorbars lt 1 pt 6, \
     "" using ($5 > 0 ? $2 : 1/0):1 with points lt 2 pt 7 ps 1.2
