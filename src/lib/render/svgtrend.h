/* SPDX-License-Identifier: GPL-2.0 */
/*
 * svgtrend.h — the publish site's trend chart (svgtrend.c): SVG written
 * directly, not by gnuplot (the trend plots of nsbench plot trend and
 * history plot are trend.h's).
 */
#ifndef NSB_SVGTREND_H
#define NSB_SVGTREND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct nsb_cp;
struct nsb_hrec;

/*
 * A benchmark's series as an inline SVG chart: CI band, medians (each a
 * point with its run, commit and CI as a tooltip), change points dashed
 * with their size, segment medians.  No script, no external reference.
 */
void nsb_svg_trend(FILE *f, const struct nsb_hrec *const *pts, size_t n,
		   const struct nsb_cp *cps, size_t ncp, int vkind);

#endif /* NSB_SVGTREND_H */
