// SPDX-License-Identifier: GPL-2.0
/*
 * test_control.c — nsb_control_verdict() on known values: a control row
 * (the check cannot act there, its truth is 0) reads slower or faster
 * only where its estimate clears its noise, the largest of the band, the
 * A/A residual and half its CI's width.  The first case is the README's
 * lsm/selinux/open/fuse/self/d0 of issue 35: -1 [-25, -1] read faster.
 */
#include <string.h>

#include "src/lib/stats/compare.h"
#include "tests/tap.h"

struct ref {
	const char *what;
	double est, lo, hi;	/* the shift and its CI, insn */
	double band, residual;
	enum nsb_verdict in, out;
	double noise;
};

static const struct ref refs[] = {
	{ "README's open/fuse/self/d0: -1.35 [-25, -1.2] within half its CI",
	  -1.35, -25, -1.2, 1, 0.1, NSB_FASTER, NSB_NOISY, 11.9 },
	{ "Smack's stat control -4361 [-4362, -4357]: far beyond, stays",
	  -4361, -4362, -4357, 1, 0.1, NSB_FASTER, NSB_FASTER, 2.5 },
	{ "+2.0 [+2.0, +2.0]: every round +2, beyond the band, stays",
	  2, 2, 2, 1, 0, NSB_SLOWER, NSB_SLOWER, 1 },
	{ "+3 [+2.5, +3.5] inside an A/A residual of 4",
	  3, 2.5, 3.5, 1, 4, NSB_SLOWER, NSB_NOISY, 4 },
	{ "-12 [-24.5, -0.5]: on its noise (12) is within",
	  -12, -24.5, -0.5, 1, 0, NSB_FASTER, NSB_NOISY, 12 },
	{ "-12.1 [-24.5, -0.5]: just beyond, stays",
	  -12.1, -24.5, -0.5, 1, 0, NSB_FASTER, NSB_FASTER, 12 },
	{ "same stays same", 0.1, -0.2, 0.3, 1, 0, NSB_SAME, NSB_SAME, 1 },
	{ "noisy stays noisy", -0.2, -0.3, 7.7, 1, 0.1, NSB_NOISY,
	  NSB_NOISY, 4 },
	{ "a percent-band row (band 0): half the CI alone",
	  5, 1, 7, 0, 0, NSB_SLOWER, NSB_SLOWER, 3 },
};

int main(void)
{
	plan_no_plan();
	for (size_t i = 0; i < NSB_ARRAY_SIZE(refs); i++) {
		const struct ref *r = &refs[i];
		struct nsb_effect e;
		double noise;

		memset(&e, 0, sizeof(e));
		e.shift = (struct nsb_interval){ .est = r->est, .lo = r->lo,
						 .hi = r->hi, .level = 0.97 };
		e.band = r->band;
		e.verdict = r->in;
		noise = nsb_control_verdict(&e, r->residual);
		ok(e.verdict == r->out && fabs(noise - r->noise) < 1e-9,
		   "%s: %s, noise %g", r->what, nsb_verdict_name(e.verdict),
		   noise);
		ok((e.verdict != r->in) == (strstr(e.note, "control: ") != NULL),
		   "... a note exactly where the verdict changed: '%s'",
		   e.note);
	}
	return done_testing();
}
