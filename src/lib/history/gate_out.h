/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gate_out.h — the gate's internals, private to gate.c, which computes
 * them, and gate_out.c, which renders them (as git's
 * refs/refs-internal.h is to its room); no other file includes it.
 */
#ifndef NSB_GATE_OUT_H
#define NSB_GATE_OUT_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "src/lib/stats/compare.h"
#include "src/lib/history/gate.h"
#include "src/lib/history/history.h"
#include "src/lib/render/ktap.h"

/* One run as the gate sees it: summaries, and its results files if any. */
struct side {
	const char *run;
	char *own_run;
	const char *how;	/* "last accepted", "previous", ... */
	char **files;
	size_t nfiles;
	bool own_files;
	json_t *json;		/* records made from files */
	struct nsb_hrec *r;
	size_t n;
	json_t *index;		/* benchmark -> position in r[] */
	json_t *seen_files;	/* files[] as a set */
};

struct nsb_gate {
	struct nsb_gate_opts o;
	bool icount, native;	/* the units of the rows gated */
	struct nsb_history h;
	struct side base, cur;
	char method[200], why_none[200];
	/* noisy rows: what the runs could have detected (detectable()) */
	size_t nshort, short_n;		/* under 95 %: their fewest samples */
	size_t legacy;			/* history rows without samples */
	bool short_paired;
	double *mde;			/* the others' MDE, % */
	size_t *need, nmde;
	struct nsb_tpoint *t;
	enum nsb_verdict *v;
	size_t n, cap;
};

#endif /* NSB_GATE_OUT_H */
