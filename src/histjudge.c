// SPDX-License-Identifier: GPL-2.0
/*
 * histjudge.c — change points and verdicts from the history's summaries
 * (see histjudge.h).  Moved here from history.c and gate.c so that the
 * published pages cannot drift from what `changes` and `gate` say.
 */
#include <stdlib.h>
#include <string.h>

#include "src/histjudge.h"

bool nsb_history_icount(const struct nsb_hrec *const *pts, size_t n)
{
	return n && !strcmp(pts[0]->unit, NSB_UNIT_ICOUNT);
}

long nsb_history_changes(const struct nsb_hrec *const *pts, size_t n,
			 const struct nsb_cp_opts *o, struct nsb_cp **cps)
{
	struct nsb_cp_opts cp = *o;
	double *x;
	long k;
	size_t i;

	*cps = NULL;
	/* instructions: the band every icount table judges against */
	if (nsb_history_icount(pts, n))
		cp.band = NSB_ICOUNT_BAND;
	x = malloc((n + 1) * sizeof(*x));
	if (!x)
		return -1;
	for (i = 0; i < n; i++)
		x[i] = pts[i]->median;
	k = nsb_changepoints(x, n, &cp, cps);
	free(x);
	return k;
}

/*
 * Conservative on purpose: it says "noisy" more often than compare would
 * on the samples, the right side to err on for a gate that must not cry
 * wolf.
 */
enum nsb_verdict nsb_history_verdict(const struct nsb_hrec *a,
				     const struct nsb_hrec *b, double thr,
				     double pct[3], struct nsb_interval *shift)
{
	double base = a->median;
	enum nsb_verdict v = NSB_NOISY;

	*shift = (struct nsb_interval){ b->median - a->median,
					b->ci_lo - a->ci_hi,
					b->ci_hi - a->ci_lo, 0 };
	pct[0] = pct[1] = pct[2] = 0;
	if (!(base > 0))
		return NSB_NOISY;
	pct[0] = 100 * (b->median - base) / base;
	pct[1] = 100 * (b->ci_lo - a->ci_hi) / base;
	pct[2] = 100 * (b->ci_hi - a->ci_lo) / base;
	if (!strcmp(b->unit, NSB_UNIT_ICOUNT))
		return nsb_band_verdict(shift, NSB_ICOUNT_BAND, true);
	if (pct[1] >= -thr && pct[2] <= thr)
		v = NSB_SAME;
	else if (pct[1] > 0 && pct[0] > thr)
		v = NSB_SLOWER;
	else if (pct[2] < 0 && pct[0] < -thr)
		v = NSB_FASTER;
	return v;
}
