// SPDX-License-Identifier: GPL-2.0
/*
 * in_userns — the user-namespace parent walk behind get_file_caps() and
 * mnt_may_suid(): the 2015 form walks to NULL, today's form walks only
 * while the namespace is deeper than the target.
 *
 *	models/in_userns/<2015|now>/<hot|cold>/<hit|miss>/depth:N
 *
 * hit:  the caller at depth N asks about init_user_ns (a file on an
 *       init-owned mount: the common case), both forms walk N steps;
 * miss: the target is a level-1 namespace in another branch (a foreign
 *       container's mount): the 2015 form walks N + 1 steps to NULL, the
 *       current one N - 1 and stops.
 * hot:  one chain, walked again and again (cache-resident);
 * cold: COLD_CHAINS chains with one node per page, every line a walk
 *       reads flushed before the timed walks (manual time, see gbench.h).
 */
#include <stdio.h>
#include <time.h>

#include "bench/gbench.h"
#include "bench/registry.h"
#include "bench/models/nstree.h"

#define COLD_CHAINS	64
#define COLD_ITERATIONS	400

enum form { FORM_2015, FORM_NOW };
enum outcome { HIT, MISS };

static const char *const form_names[] = { "2015", "now" };

static inline bool walk(enum form form, const struct user_namespace *leaf,
			const struct user_namespace *target)
{
	/* Both answer "is leaf at or below target?" (argument orders differ). */
	if (form == FORM_2015)
		return in_userns_2015(leaf, target);
	return in_userns_now(target, leaf);
}

/* A level-1 namespace beside the chain: the target of a miss. */
static struct user_namespace sibling = { .parent = &init_user_ns, .level = 1 };

static const struct user_namespace *target_of(enum outcome outcome)
{
	return outcome == HIT ? &init_user_ns : &sibling;
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void run_hot(struct gb_state *s, enum form form, enum outcome outcome)
{
	const struct user_namespace *target = target_of(outcome);
	struct ns_chain chain;
	struct user_namespace *leaf;

	if (ns_chain_build(&chain, &init_user_ns, gb_range(s, 0), false, 1)) {
		gb_error(s, "out of memory building the namespace chain");
		return;
	}
	leaf = ns_chain_leaf(&chain);
	if (walk(form, leaf, target) != (outcome == HIT)) {
		gb_error(s, "fixture: walk gives the wrong answer");
		ns_chain_free(&chain);
		return;
	}
	gb_for_each_iteration(s) {
		gb_do_not_optimize(leaf);
		gb_do_not_optimize(walk(form, leaf, target));
	}
	ns_chain_free(&chain);
}

static void run_cold(struct gb_state *s, enum form form, enum outcome outcome)
{
	const struct user_namespace *target = target_of(outcome);
	struct ns_chain chains[COLD_CHAINS];
	int depth = gb_range(s, 0), built = 0;

	for (; built < COLD_CHAINS; built++)
		if (ns_chain_build(&chains[built], &init_user_ns, depth, true,
				   built + 1))
			break;
	if (built < COLD_CHAINS) {
		gb_error(s, "cannot map the spread namespace chains");
		goto out;
	}
	gb_for_each_iteration(s) {
		int64_t t0, t1;
		int found = 0;

		for (int i = 0; i < COLD_CHAINS; i++)
			ns_chain_flush(&chains[i]);
		t0 = now_ns();
		for (int i = 0; i < COLD_CHAINS; i++)
			found += walk(form, ns_chain_leaf(&chains[i]), target);
		t1 = now_ns();
		gb_do_not_optimize(found);
		gb_set_iteration_time(s, (t1 - t0) * 1e-9 / COLD_CHAINS);
	}
out:
	while (built--)
		ns_chain_free(&chains[built]);
}

/*
 * The family as data: one list of variants gives each its function and
 * its table row.  The walks take ~1 ns a level, so every variant keeps a
 * function of its own with form and outcome constant (folded into the
 * loop, as a kernel build folds them), not a test per walk.
 */
#define IN_USERNS_VARIANTS(X)						\
	X(2015, hot, HIT) X(2015, hot, MISS)				\
	X(2015, cold, HIT) X(2015, cold, MISS)				\
	X(NOW, hot, HIT) X(NOW, hot, MISS)				\
	X(NOW, cold, HIT) X(NOW, cold, MISS)

#define FUNCTION(f, c, o)						\
static void bm_##f##_##c##_##o(struct gb_state *s)			\
{									\
	run_##c(s, FORM_##f, o);					\
}
IN_USERNS_VARIANTS(FUNCTION)
#undef FUNCTION

static const struct {
	enum form form;
	const char *cache;
	enum outcome outcome;
	gb_fn fn;
} variants[] = {
#define ROW(f, c, o) { FORM_##f, #c, o, bm_##f##_##c##_##o },
	IN_USERNS_VARIANTS(ROW)
#undef ROW
};

void nsb_register_in_userns(enum nsb_tier tier)
{
	/* Models cost nanoseconds: every power of two even in quick. */
	struct nsb_sweep depths = nsb_depths(NSB_TIER_FULL);

	for (size_t i = 0; i < NSB_ARRAY_SIZE(variants); i++) {
		char name[96];
		struct gb_bench *b;
		bool cold = variants[i].cache[0] == 'c';

		snprintf(name, sizeof(name), "models/in_userns/%s/%s/%s",
			 form_names[variants[i].form], variants[i].cache,
			 variants[i].outcome == HIT ? "hit" : "miss");
		b = gb_register(name, variants[i].fn);
		gb_arg_names(b, "depth", NULL);
		if (tier == NSB_TIER_FULL)
			gb_dense_range(b, 0, 32, 1);
		else
			for (size_t d = 0; d < depths.n; d++)
				gb_arg(b, depths.v[d]);
		if (cold) {
			gb_use_manual_time(b);
			gb_fixed_iterations(b, COLD_ITERATIONS);
		}
	}
}
