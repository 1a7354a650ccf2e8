// SPDX-License-Identifier: GPL-2.0
/*
 * histjudge.c — change points and verdicts from the history's summaries
 * (see histjudge.h).  Moved here from history.c and gate.c so that the
 * published pages cannot drift from what `changes` and `gate` say.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "src/lib/history/histjudge.h"

int nsb_history_vkind(const struct nsb_hrec *const *pts, size_t n)
{
	if (!n || !strcmp(pts[0]->unit, NSB_UNIT_WALL))
		return NSB_V_TIME;
	return !strcmp(pts[0]->unit, NSB_UNIT_ICOUNT) ? NSB_V_INSN :
							NSB_V_COUNT;
}

bool nsb_history_icount(const struct nsb_hrec *const *pts, size_t n)
{
	return nsb_history_vkind(pts, n) == NSB_V_INSN;
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

/* A history record's samples as the series its results files gave. */
static int hrec_series(const struct nsb_hrec *r, struct nsb_series *s)
{
	json_t *v;
	size_t i;

	s->name = (char *)r->bench;
	s->v = calloc(r->n ?: 1, sizeof(*s->v));
	s->round = calloc(r->n ?: 1, sizeof(*s->round));
	if (!s->v || !s->round)
		return -1;
	json_array_foreach(r->samples, i, v) {
		s->v[i] = json_number_value(v);
		if (r->rounds)
			s->round[i] = (char *)json_string_value(
				json_array_get(r->rounds, i));
	}
	s->n = r->n;
	return 0;
}

static int effect_samples(const struct nsb_cmp_opts *o,
			  const struct nsb_hrec *a, const struct nsb_hrec *b,
			  struct nsb_effect *e)
{
	struct nsb_series sa = { 0 }, sb = { 0 };
	int ret = -1;

	if (!hrec_series(a, &sa) && !hrec_series(b, &sb))
		ret = nsb_effect(o, &sa, &sb, e);
	free(sa.v);
	free(sa.round);
	free(sb.v);
	free(sb.round);
	return ret;
}

/*
 * Records without samples (an older nsbench wrote them): the widest
 * interval the medians' CIs allow, at the lower of their levels, judged
 * by the same rule.  Two 95 % CIs apart are significant well beyond
 * p < 0.05, so apart counts as significant.
 */
static void effect_medians(const struct nsb_cmp_opts *o,
			   const struct nsb_hrec *a, const struct nsb_hrec *b,
			   struct nsb_effect *e)
{
	memset(e, 0, sizeof(*e));
	e->base = a->median;
	e->shift = (struct nsb_interval){
		b->median - a->median, b->ci_lo - a->ci_hi,
		b->ci_hi - a->ci_lo, fmin(a->ci_level, b->ci_level),
	};
	e->p = e->shift.lo > 0 || e->shift.hi < 0 ? 0 : 1;
	nsb_effect_verdict(e, o);
}

int nsb_history_effect(const struct nsb_cmp_opts *o, const struct nsb_hrec *a,
		       const struct nsb_hrec *b, struct nsb_effect *e)
{
	if (a->samples && b->samples)
		return effect_samples(o, a, b, e);
	effect_medians(o, a, b, e);
	return 0;
}

enum nsb_verdict nsb_history_verdict(const struct nsb_hrec *a,
				     const struct nsb_hrec *b, double thr,
				     double pct[3], struct nsb_interval *shift)
{
	struct nsb_cmp_opts o = nsb_cmp_defaults;
	struct nsb_effect e;

	o.threshold = thr;
	if (!strcmp(b->unit, NSB_UNIT_ICOUNT))
		o.abs_threshold = NSB_ICOUNT_BAND;
	if (nsb_history_effect(&o, a, b, &e))
		e.verdict = NSB_ERROR;
	*shift = e.shift;
	pct[0] = e.pct;
	pct[1] = e.lo_pct;
	pct[2] = e.hi_pct;
	return e.verdict;
}
