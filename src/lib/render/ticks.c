// SPDX-License-Identifier: GPL-2.0
/*
 * ticks.c — axis ticks whose labels do not collide (ticks.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "src/lib/render/ticks.h"

#define EM_PER_CHAR	0.64

double nsb_text_px(const char *s, double font_px)
{
	size_t n = 0;

	/* characters, not bytes: a UTF-8 continuation byte adds nothing */
	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return (double)n * EM_PER_CHAR * font_px;
}

void nsb_tick_label(char *buf, size_t len, double v, double step,
		    double amax)
{
	double r = fabs(v);

	if (r < step * 1e-9) {
		snprintf(buf, len, "0");	/* never "-0" or "+1e-17" */
		return;
	}
	if (amax >= 10000 && fmod(step, 100) == 0)
		snprintf(buf, len, "%+.*fk", fmod(step, 1000) ? 1 : 0,
			 v / 1000);
	else
		snprintf(buf, len, "%+.*f", step >= 1 ? 0 :
			 (int)ceil(-log10(step) - 1e-9), v);
}

double nsb_ticks_px(double lo, double hi, double step, double font_px)
{
	double k, w = 0, amax = fmax(fabs(lo), fabs(hi));
	char buf[48];

	/* counted, not summed: a step under v's precision cannot stall it */
	for (k = ceil(lo / step); k * step <= hi && k - ceil(lo / step) < 64;
	     k++) {
		nsb_tick_label(buf, sizeof(buf), k * step, step, amax);
		w = fmax(w, nsb_text_px(buf, font_px));
	}
	return w;
}

double nsb_tick_step(double lo, double hi, double px, double font_px,
		     double gap, int max_ticks)
{
	static const double mant[] = { 1, 2, 5 };
	double range = hi - lo, p, step = range;
	int i;

	if (!(range > 0) || !(px > 0))
		return 1;
	p = pow(10, floor(log10(range / (max_ticks > 1 ? max_ticks : 2))));
	for (i = 0; i < 48; i++) {
		step = mant[i % 3] * p * pow(10, i / 3);
		if (range / step > max_ticks)
			continue;
		if (step / range * px >= nsb_ticks_px(lo, hi, step, font_px) +
		    gap)
			break;
	}
	return step;
}
