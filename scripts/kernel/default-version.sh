#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# default-version.sh [TOP] — the kernel version `make run` builds when no
# KERNEL is given: the one line of TOP/kernel-patches/default-version
# (6.1, 6.12), TOP the checkout (default: this script's).  Nothing if the
# line is not a version (the caller says what is wrong).  The one reader
# of that file: the Makefile, the scripts and the tests ask this script
# rather than each parsing the file its own way.

top=${1:-$(dirname "$0")/../..}
exec sed -n 's/^\([0-9][0-9.]*\)$/\1/p' "$top/kernel-patches/default-version"
