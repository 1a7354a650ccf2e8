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

/*
 * The walks take ~1 ns a level: the form is folded into each loop
 * (always_inline with a constant) rather than tested per walk.
 */
#define WITH_FORM(form, call)						\
	do {								\
		if ((form) == FORM_2015)				\
			call(FORM_2015);				\
		else							\
			call(FORM_NOW);					\
	} while (0)

static __attribute__((always_inline)) inline void
hot_loop(struct gb_state *s, enum form form,
	 const struct user_namespace *leaf,
	 const struct user_namespace *target)
{
	gb_for_each_iteration(s) {
		gb_do_not_optimize(leaf);
		gb_do_not_optimize(walk(form, leaf, target));
	}
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
#define HOT(f) hot_loop(s, f, leaf, target)
	WITH_FORM(form, HOT);
#undef HOT
	ns_chain_free(&chain);
}

static __attribute__((always_inline)) inline void
cold_loop(struct gb_state *s, enum form form, struct ns_chain *chains,
	  const struct user_namespace *target)
{
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
#define COLD(f) cold_loop(s, f, chains, target)
	WITH_FORM(form, COLD);
#undef COLD
out:
	while (built--)
		ns_chain_free(&chains[built]);
}

/* The family as data: every form x cache x outcome. */
struct variant {
	enum form form;
	bool cold;
	enum outcome outcome;
};

static const struct variant variants[] = {
	{ FORM_2015, false, HIT }, { FORM_2015, false, MISS },
	{ FORM_2015, true, HIT }, { FORM_2015, true, MISS },
	{ FORM_NOW, false, HIT }, { FORM_NOW, false, MISS },
	{ FORM_NOW, true, HIT }, { FORM_NOW, true, MISS },
};

static void bm(struct gb_state *s)
{
	const struct variant *v = gb_data(s);

	if (v->cold)
		run_cold(s, v->form, v->outcome);
	else
		run_hot(s, v->form, v->outcome);
}

void nsb_register_in_userns(enum nsb_tier tier)
{
	/* Models cost nanoseconds: every power of two even in quick. */
	struct nsb_sweep depths = nsb_depths(NSB_TIER_FULL);

	for (size_t i = 0; i < NSB_ARRAY_SIZE(variants); i++) {
		const struct variant *v = &variants[i];
		char name[96];
		struct gb_bench *b;

		snprintf(name, sizeof(name), "models/in_userns/%s/%s/%s",
			 form_names[v->form], v->cold ? "cold" : "hot",
			 v->outcome == HIT ? "hit" : "miss");
		b = gb_register_data(name, bm, v);
		gb_arg_names(b, "depth", NULL);
		if (tier == NSB_TIER_FULL)
			gb_dense_range(b, 0, 32, 1);
		else
			for (size_t d = 0; d < depths.n; d++)
				gb_arg(b, depths.v[d]);
		if (v->cold) {
			gb_use_manual_time(b);
			gb_fixed_iterations(b, COLD_ITERATIONS);
		}
	}
}
