# SPDX-License-Identifier: GPL-2.0
#
# dist.gp — distribution of the samples per benchmark and side as box
# plots, in % of the base median so benchmarks of any size share an axis.
# datafile: one block per (benchmark, side), base then patched, each a
# column of values in %; blocks separated by two blank lines.
# Variables: nbench, xtics_cmd ("set xtics (...)"), plus common.gp's.

load dir."/common.gp"
set style fill solid 0.5 border -1
set style boxplot outliers pointtype 7
set style data boxplot
set boxwidth 0.35
set pointsize 0.5
eval xtics_cmd
set xtics rotate by -40 left
set xrange [-0.7:nbench - 0.3]
set ylabel "sample, % of the base median"
set bmargin 13
# 100 % is the base median: where a side sits against it is the change
set arrow from graph 0, first 100 to graph 1, first 100 nohead dt 2 \
	lc rgb "#888888"
plot for [i=0:2*nbench-1] datafile index i \
	using (int(i / 2) + (i % 2 ? 0.2 : -0.2)):1 \
	lt (i % 2 + 1) title (i < 2 ? (i ? "patched" : "base") : "")
