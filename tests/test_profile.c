// SPDX-License-Identifier: GPL-2.0
/*
 * test_profile.c — src/lib/stats/profile.c's pooling on profiles with a
 * known answer: symbol X costs exactly 4001 more instructions per op on the
 * patched side in each of 6 rounds, Y moves by a jitter of median 0; an
 * A/A (the same profiles on both sides) has no significant symbol.
 * Period and ops are chosen so samples * period / ops is exact.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/tap.h"
#include "src/lib/base/nsbench.h"
#include "src/lib/stats/profile.h"

#define ROUNDS	6
#define PERIOD	10007
#define OPS	(2 * PERIOD)	/* insn/op = samples / 2 */

static char dir[] = "/tmp/nsb-test-profile-XXXXXX";

/* Y's per-round change on B: median 0, CI [-3, +4] contains it. */
static const int jitter[ROUNDS] = { 2, -3, 1, -1, 4, -2 };

/* One profile: insn/op x of X, y of Y, 100 of an unresolved kernel bin. */
static int write_profile(const char *side, int round, double x, double y)
{
	char path[256], r[16], seed[16];
	json_t *root;
	int ret;

	snprintf(path, sizeof(path), "%s/%s/r%02d-stat.profile.json", dir,
		 side, round);
	snprintf(r, sizeof(r), "%d", round);
	snprintf(seed, sizeof(seed), "%d", 1000 + round);
	root = json_pack("{s:i, s:s, s:s, s:s, s:i, s:i, s:I,"
			 " s:{s:s, s:s, s:s, s:s},"
			 " s:[{s:s, s:s, s:b, s:I}, {s:s, s:s, s:b, s:I},"
			 " {s:s, s:s, s:b, s:i}]}",
			 "nsbench_profile", 1, "label", "stat",
			 "benchmark", "sys/stat/x", "event", "cpu-clock",
			 "period", PERIOD, "ops", OPS,
			 "samples", (json_int_t)(2 * (x + y) + 200),
			 "context", "nsbench_round", r, "nsbench_seed", seed,
			 "nsbench_mode", "icount", "nsbench_time_unit_meaning",
			 "virtual ns = guest instructions",
			 "symbols",
			 "symbol", "X", "dso", "[kernel.kallsyms]", "kernel", 1,
			 "samples", (json_int_t)(2 * x),
			 "symbol", "Y", "dso", "[kernel.kallsyms]", "kernel", 1,
			 "samples", (json_int_t)(2 * y),
			 "symbol", NSB_PROF_UNRESOLVED, "dso",
			 "[kernel.kallsyms]", "kernel", 1, "samples", 200);
	ret = root ? nsb_json_write_atomic(path, root) : -1;
	json_decref(root);
	return ret;
}

static int make_side(const char *side, bool patched)
{
	char path[256];
	int r;

	snprintf(path, sizeof(path), "%s/%s", dir, side);
	if (mkdir(path, 0700))
		return -1;
	for (r = 1; r <= ROUNDS; r++) {
		double x = 1000 + 37 * r, y = 2000 + 11 * (r % 3);

		if (patched) {
			x += 4001;
			y += jitter[r - 1];
		}
		if (write_profile(side, r, x, y))
			return -1;
	}
	return 0;
}

static const struct nsb_prof_row *find(const struct nsb_prof_cmp *c,
				       const char *sym)
{
	size_t i;

	for (i = 0; i < c->nsym; i++)
		if (!strcmp(c->sym[i].symbol, sym))
			return &c->sym[i];
	return NULL;
}

static int load(struct nsb_prof_set *s, const char *label, const char *sub)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	nsb_prof_set_init(s, label);
	return nsb_prof_set_load(s, path);
}

static void test_ab(void)
{
	struct nsb_prof_set a, b;
	struct nsb_prof_cmp c;
	const struct nsb_prof_row *x, *y, *top[1];
	struct nsb_interval rest;

	ok(!load(&a, "base", "A") && !load(&b, "patched", "B"),
	   "A/B: profiles load");
	is_int(a.n, ROUNDS, "A/B: %d base profiles", ROUNDS);
	is_int(nsb_prof_compare(&a, &b, "sys/stat/x", &c), 0,
	       "A/B: compared");
	is_int(c.rounds, ROUNDS, "A/B: %d rounds paired", ROUNDS);
	is_int(c.nsym, 3, "A/B: 3 symbols");
	ok(c.nsym && !strcmp(c.sym[0].symbol, "X"), "A/B: X first");
	x = find(&c, "X");
	y = find(&c, "Y");
	ok(x && y, "A/B: X and Y found");
	if (!x || !y)
		goto out;
	is_near(x->shift.est, 4001, 1e-9, "A/B: X shift +4001 insn/op");
	ok(x->shift.lo <= 4001 && x->shift.hi >= 4001,
	   "A/B: X's CI [%g, %g] contains 4001", x->shift.lo, x->shift.hi);
	ok(x->significant, "A/B: X significant");
	is_near(x->base, 1000 + 37 * 3.5, 1e-9, "A/B: X base median");
	is_near(y->shift.est, 0, 1e-9, "A/B: Y shift 0");
	ok(!y->significant, "A/B: Y not significant (CI [%g, %g])",
	   y->shift.lo, y->shift.hi);
	is_near(c.total.shift.est, 4001, 1e-9, "A/B: total +4001");
	ok(c.total.significant, "A/B: total significant");
	is_int(c.nsig, 1, "A/B: one significant symbol");
	top[0] = x;
	ok(!nsb_prof_rest(&c, top, 1, &rest), "A/B: rest computed");
	is_near(rest.est, 0, 1e-9, "A/B: rest = total - X = 0");
out:
	nsb_prof_cmp_free(&c);
	nsb_prof_set_free(&a);
	nsb_prof_set_free(&b);
}

static void test_aa(void)
{
	struct nsb_prof_set a, b;
	struct nsb_prof_cmp c;
	size_t i, sig = 0;

	ok(!load(&a, "base", "A") && !load(&b, "patched", "A"),
	   "A/A: profiles load");
	is_int(nsb_prof_compare(&a, &b, "sys/stat/x", &c), 0, "A/A: compared");
	for (i = 0; i < c.nsym; i++)
		sig += c.sym[i].significant;
	is_int(sig, 0, "A/A: no significant symbol");
	is_int(c.nsig, 0, "A/A: nsig 0");
	is_near(c.total.shift.est, 0, 1e-9, "A/A: total 0");
	nsb_prof_cmp_free(&c);
	nsb_prof_set_free(&a);
	nsb_prof_set_free(&b);
}

/* Too few common rounds: 1, not a CI of nothing. */
static void test_unpaired(void)
{
	struct nsb_prof_set a, b;
	struct nsb_prof_cmp c;
	char path[256];

	snprintf(path, sizeof(path), "%s/A/r01-stat.profile.json", dir);
	nsb_prof_set_init(&a, "base");
	ok(!nsb_prof_set_load(&a, path), "one file loads");
	ok(!load(&b, "patched", "B"), "B loads");
	is_int(nsb_prof_compare(&a, &b, "sys/stat/x", &c), 1,
	       "1 common round: not compared");
	is_int(c.rounds, 1, "1 common round counted");
	is_int(nsb_prof_compare(&a, &b, "no/such", &c), 1,
	       "unprofiled benchmark: not compared");
	nsb_prof_set_free(&a);
	nsb_prof_set_free(&b);
}

static void cleanup(void)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		diag("could not remove %s", dir);
}

int main(void)
{
	plan_no_plan();
	if (!mkdtemp(dir) || make_side("A", false) || make_side("B", true))
		return cannot_start("fixtures written in %s", dir);
	test_ab();
	test_aa();
	test_unpaired();
	cleanup();
	return done_testing();
}
