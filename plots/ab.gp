# SPDX-License-Identifier: GPL-2.0
#
# ab.gp — A/B bars: median per benchmark and side with its 95% CI
# (order-statistic interval of the median) as whiskers.
# datafile columns: label base base_lo base_hi patched patched_lo patched_hi
# (the label carries the delta and verdict: "exec/plain  +1.2% same")
# Variables from nsbench plot: unit_label, logscale (0/1), plus common.gp's.

load dir."/common.gp"
set style data histogram
set style histogram errorbars gap 1.5 lw 1.5
set style fill solid 0.85 border -1
set boxwidth 0.9
if (exists("rmargin_chars")) { set rmargin rmargin_chars } else { set rmargin 14 }
set xtics rotate by -40 left
set ylabel "median ".unit_label." per operation (95% CI)"
set yrange [0:*]
if (logscale) {
	set logscale y
	set yrange [*:*]
	set ylabel "median ".unit_label." per operation (95% CI, log scale)"
}
if (exists("bmargin_lines")) { set bmargin bmargin_lines } else { set bmargin 13 }
plot datafile using 2:3:4:xtic(1) title "base" lt 1, \
     "" using 5:6:7 title "patched" lt 2
