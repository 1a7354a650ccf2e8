// SPDX-License-Identifier: GPL-2.0
/*
 * cache.c — the one-entry worker cache of the benchmarks (fixture.h).
 */
#include <stdlib.h>
#include <string.h>

#include "workloads/fixture.h"

static struct nsb_worker cached;
static bool have_cached, registered;

bool nsb_scn_same(const struct nsb_scn *a, const struct nsb_scn *b)
{
	return a->depth == b->depth && a->owner == b->owner &&
	       a->nosuid == b->nosuid && a->nodev == b->nodev &&
	       a->unpriv == b->unpriv && a->nipc == b->nipc &&
	       a->newpid == b->newpid && a->nproc == b->nproc;
}

void nsb_worker_put_all(void)
{
	if (have_cached)
		nsb_worker_stop(&cached);
	have_cached = false;
}

struct nsb_worker *nsb_worker_get(const struct nsb_scn *scn,
				  const char **why, bool *skip)
{
	/* A failed scenario is remembered too: no retry per trial. */
	static struct nsb_scn failed;
	static char failed_why[sizeof(cached.err)];
	static bool failed_skip, have_failed;

	if (!registered) {
		atexit(nsb_worker_put_all);
		registered = true;
	}
	if (have_cached && nsb_scn_same(&cached.scn, scn))
		return &cached;
	if (have_failed && nsb_scn_same(&failed, scn)) {
		*why = failed_why;
		*skip = failed_skip;
		return NULL;
	}
	nsb_worker_put_all();
	if (!nsb_worker_start(&cached, scn)) {
		have_cached = true;
		return &cached;
	}
	failed = *scn;
	memcpy(failed_why, cached.err, sizeof(failed_why));
	failed_skip = cached.skip;
	have_failed = true;
	*why = failed_why;
	*skip = failed_skip;
	return NULL;
}
