/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ticks.h — axis ticks whose labels do not collide, for the charts
 * nsbench lays out itself (the cost panels of costplot.c, the history
 * site's svgtrend.c): a step of 1, 2 or 5 times a power of ten, chosen
 * from the axis range, the room on screen and the widest label, and
 * labels in k units where a step is a whole hundred (-30k, +2.5k).
 */
#ifndef NSB_TICKS_H
#define NSB_TICKS_H

#include <stddef.h>

/*
 * Pixels a line of text takes in a sans font of font_px: 0.64 em a
 * character, the width of a digit in DejaVu Sans (gnuplot's and most
 * browsers' "Sans"), so an estimate errs wide, never narrow.
 */
double nsb_text_px(const char *s, double font_px);

/*
 * The tick step of an axis from lo to hi (lo < hi) drawn over px
 * pixels: the finest 1, 2 or 5 x 10^k whose labels (in a font of
 * font_px) keep gap pixels apart, and at most max_ticks of them.
 */
double nsb_tick_step(double lo, double hi, double px, double font_px,
		     double gap, int max_ticks);

/*
 * The label of tick v for a given step on an axis reaching amax from
 * zero: "0", "+3", "-0.5", "-30k", "+2.5k" (k units on the whole axis
 * where amax >= 10,000 and the step is a multiple of 100, so no digit
 * is lost).
 */
void nsb_tick_label(char *buf, size_t len, double v, double step,
		    double amax);

/* The widest label (nsb_text_px) of the ticks of step in [lo, hi]. */
double nsb_ticks_px(double lo, double hi, double step, double font_px);

#endif /* NSB_TICKS_H */
