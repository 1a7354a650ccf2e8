/* SPDX-License-Identifier: GPL-2.0 */
/*
 * registry.h — the table of benchmark families.
 *
 * One benchmark family = one small C file that defines
 *
 *	void nsb_register_<name>(enum nsb_tier tier)
 *
 * (registering its variants with gb_register() and friends) plus one line
 * in bench/models/list.h or bench/sys/list.h:
 *
 *	NSB_BENCH(<name>, "<one-line summary>")
 *
 * Benchmark names are "<group>/<name>/<variant...>", e.g.
 * "models/in_userns/2015/hot/hit/depth:8", so --benchmark_filter can pick
 * a group, a family or one variant.
 */
#ifndef NSB_REGISTRY_H
#define NSB_REGISTRY_H

#include <stddef.h>
#include <stdint.h>

#include "bench/gbench.h"
#include "src/lib/base/base.h"

/* quick: what `make bench` and `make run` use; full: the whole sweep. */
enum nsb_tier { NSB_TIER_QUICK, NSB_TIER_FULL };

/*
 * The user-namespace depths the scenarios name (0, 1, 8, 32 quick; every
 * power of two to 32 full), the one sweep of every family with a depth.
 */
struct nsb_sweep {
	const int64_t *v;
	size_t n;
};
#define NSB_SWEEP(a) ((struct nsb_sweep){ (a), NSB_ARRAY_SIZE(a) })
struct nsb_sweep nsb_depths(enum nsb_tier tier);

struct nsb_bench {
	const char *group;	/* "models" or "sys" */
	const char *name;
	const char *summary;
	void (*reg)(enum nsb_tier tier);
};

#define NSB_BENCH(name, summary) void nsb_register_##name(enum nsb_tier tier);
#include "bench/models/list.h"
#include "bench/sys/list.h"
#undef NSB_BENCH

/* NULL-terminated. */
extern const struct nsb_bench nsb_benchmarks[];

/*
 * A model family's variant "models/<family>/<form>", registered with data
 * for fn (gb_register_data()); the caller names its arguments.
 */
struct gb_bench *nsb_register_model(const char *family, const char *form,
				    gb_fn fn, const void *data);

/*
 * A model family of a check's three forms (bench/models/kmodel.h), as
 * data: struct variant, a form's name and its check (of type type), and
 * variants[], the forms prefix_stock, prefix_2015 and prefix_now.
 */
#define NSB_MODEL_FORMS(type, prefix)					\
struct variant {							\
	const char *form;						\
	type check;							\
};									\
static const struct variant variants[] = {				\
	{ "stock", prefix##_stock },					\
	{ "2015", prefix##_2015 },					\
	{ "now", prefix##_now },					\
}

#endif /* NSB_REGISTRY_H */
