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

#include "src/changepoint.h"
#include "src/compare.h"
#include "src/history.h"

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
 * b against a from the medians and their CIs: the change's interval is
 * the widest the two CIs allow, [b lo - a hi, b hi - a lo].  pct[0..2]
 * the change and that interval in % of a's median; *shift the same in
 * the unit (an icount row's verdict is taken on it against +-1 insn);
 * thr the band of a timed row in %.
 */
enum nsb_verdict nsb_history_verdict(const struct nsb_hrec *a,
				     const struct nsb_hrec *b, double thr,
				     double pct[3], struct nsb_interval *shift);

#endif /* NSB_HISTJUDGE_H */
