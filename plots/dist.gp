# SPDX-License-Identifier: GPL-2.0
#
# dist.gp — distribution of the samples per benchmark and side as box
# plots, in % of the base median, for one family (or part of one).
# datafile: one block per (benchmark, side), base then patched, each a
# column of values in %; blocks separated by two blank lines.
# extra: the labels file, rows of: position "label" (labels are data).
# Variables: nbench, bmargin_lines, rmargin_chars (room for the rotated
# labels).

set style fill solid 0.5 border -1
set style boxplot outliers pointtype 7
set style data boxplot
set boxwidth 0.35
set pointsize 0.5
set xtics rotate by -40 left
set xrange [-0.7:nbench - 0.3]
set ylabel "sample, % of the base median"
set bmargin bmargin_lines
set rmargin rmargin_chars
# 100 % is the base median: where a side sits against it is the change
set arrow from graph 0, first 100 to graph 1, first 100 nohead dt 2 \
	lc rgb "#888888"
plot for [i=0:2*nbench-1] datafile index i \
	using (int(i / 2) + (i % 2 ? 0.2 : -0.2)):1 \
	lt (i % 2 + 1) title (i < 2 ? (i ? "patched" : "base") : ""), \
     extra using 1:(NaN):xtic(2) with points notitle
