/* SPDX-License-Identifier: GPL-2.0 */
/*
 * histjudge.h — the two rules a history is judged by, in one place for
 * every reader of it: the change points of a benchmark's series (`nsbench
 * history show|changes|plot|publish`) and the verdict of one run against
 * a baseline from the history's summaries alone (`nsbench gate` without
 * results files, and `history publish`'s latest verdict).
 */
#ifndef NSB_HISTJUDGE_H
#define NSB_HISTJUDGE_H

#include <stdbool.h>
#include <stddef.h>

#include "src/lib/stats/changepoint.h"
#include "src/lib/stats/compare.h"
#include "src/lib/history/history.h"

/* What the series' values are (enum nsb_vkind), from its unit. */
int nsb_history_vkind(const struct nsb_hrec *const *pts, size_t n);
/*
 * Is this series in guest instructions?  Then its change points and
 * verdicts are judged against +-NSB_ICOUNT_BAND instructions.
 */
bool nsb_history_icount(const struct nsb_hrec *const *pts, size_t n);

/*
 * The flagged change points of the points' medians (nsb_changepoints),
 * with the icount band set for an icount series.  Returns their number
 * into a malloc'd *cps, or -1.
 */
long nsb_history_changes(const struct nsb_hrec *const *pts, size_t n,
			 const struct nsb_cp_opts *o, struct nsb_cp **cps);

/*
 * b against a, as gate judges it from the history and publish shows it:
 * from the samples both records keep, the comparison engine's test on
 * them (nsb_effect: the same numbers as from the results files); from
 * records without samples (an older nsbench), the widest interval the
 * medians' CIs allow, at the lower of their levels.  0, or -1 out of
 * memory.
 */
int nsb_history_effect(const struct nsb_cmp_opts *o, const struct nsb_hrec *a,
		       const struct nsb_hrec *b, struct nsb_effect *e);

/*
 * The same with the default options and a timed row's band thr (in %):
 * the verdict, pct[0..2] the change and its CI in % of a's median, and
 * *shift in the unit.
 */
enum nsb_verdict nsb_history_verdict(const struct nsb_hrec *a,
				     const struct nsb_hrec *b, double thr,
				     double pct[3], struct nsb_interval *shift);

#endif /* NSB_HISTJUDGE_H */
