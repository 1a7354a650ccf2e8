# SPDX-License-Identifier: GPL-2.0
#
# plot.gp — how nsbench runs every template:
#   gnuplot -c plots/plot.gp KIND VARS DIR OUTFILE DATAFILE TITLE UNIT EXTRA
# Each string arrives as an argument and stays a string value: nothing
# from a results file or a command line is read as gnuplot code.  VARS is
# a file nsbench wrote of numbers it computed (fmt, width, height, ...).
# gnuplot empties ARG1..ARG9 in a loaded file, so they get names here.

kind = ARG1
dir = ARG3
outfile = ARG4
datafile = ARG5
title_text = ARG6
unit_label = ARG7
extra = ARG8
load ARG2
load dir."/common.gp"
load dir."/".kind.".gp"
