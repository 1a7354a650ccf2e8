// SPDX-License-Identifier: GPL-2.0
/*
 * profile.c — `nsbench profile BASE... -- PATCHED...`: per benchmark
 * profiled on both sides, the per-symbol table of lib/profile.c (and its
 * JSON with --json).
 */
#include <stdlib.h>
#include <string.h>

#include "src/lib/base/nsbench.h"
#include "src/lib/base/options.h"
#include "src/lib/stats/profile.h"
#include "src/lib/stats/stats.h"
#include "src/cmd/cli.h"

/* --- nsbench profile -------------------------------------------------- */

#define TOP_DEFAULT	10

struct profile_opts {
	const char *json;
	size_t top;
	struct nsb_prof_set a, b;
	json_t *out;			/* --json: the benchmarks array */
};

#define STR(x)	#x
#define XSTR(x)	STR(x)

static const struct nsb_usage profile_usage = {
	.who = "nsbench profile",
	.synopsis = "nsbench profile [options] BASE... -- PATCHED...",
	.about = "Where each benchmark's instructions go, per symbol, patched "
		 "against base:\nprofiles (profile-import's *.profile.json; a "
		 "directory gives all of\nits own) paired by A/B round; per "
		 "symbol insn/op = samples * period /\nops, its median on each "
		 "side and the median of the per-round\ndifferences with the "
		 "sign-test " NSB_CI_S "% CI, as the report's rows.\n",
	.epilog = "A symbol is significant (*) when its CI excludes 0 and its "
		  "shift exceeds\nwhat counting noise alone gives (4 standard "
		  "errors of the median:\nwith hundreds of symbols tested, a CI "
		  "alone would flag a few by chance);\nwithout one the "
		  "benchmark says \"no symbol with a significant change\".  "
		  "Exit: 0, or 2\non bad input or when no benchmark is "
		  "profiled on both sides.\n",
};

/* The benchmarks of set a, each once, in first-seen order. */
static int one_benchmark_cmp(struct profile_opts *o, const char *name,
			     size_t *shown)
{
	struct nsb_prof_cmp c;
	int ret = nsb_prof_compare(&o->a, &o->b, name, &c);

	if (ret < 0)
		return -1;
	if (ret > 0) {
		fprintf(stderr, "nsbench profile: %s: %zu common round(s), "
			"need 2: left out\n", name, c.rounds);
		return 0;
	}
	nsb_prof_print(stdout, &c, o->top);
	if (o->out && json_array_append_new(o->out, nsb_prof_cmp_json(&c, o->top)))
		ret = -1;
	nsb_prof_cmp_free(&c);
	(*shown)++;
	return ret;
}

static int profile_all(struct profile_opts *o)
{
	size_t i, j, shown = 0;

	for (i = 0; i < o->a.n; i++) {
		const char *name = o->a.p[i].benchmark;

		for (j = 0; j < i && strcmp(o->a.p[j].benchmark, name); j++)
			;
		if (j < i || !nsb_prof_set_has(&o->b, name))
			continue;
		if (one_benchmark_cmp(o, name, &shown))
			return 2;
	}
	if (!shown) {
		fprintf(stderr, "nsbench profile: no benchmark profiled on "
			"both sides in 2 or more common rounds\n");
		return 2;
	}
	return 0;
}

/* --top=N: 1 to 100000. */
static int set_top(const struct nsb_option *opt, const char *arg)
{
	unsigned long top;
	char *end;

	if (*arg < '0' || *arg > '9')
		return -1;
	top = strtoul(arg, &end, 10);
	if (*end || !top || top > 100000)
		return -1;
	*(size_t *)opt->value = (size_t)top;
	return 0;
}

/* The options; then argv[1..*sep) BASE..., argv[*sep + 1..*argc) PATCHED... */
static int profile_parse(int *argc, char **argv, struct profile_opts *o,
			 int *sep)
{
	const struct nsb_option opts[] = {
		OPT_CALLBACK("top", &o->top, "N",
			     "symbols shown per benchmark, by |shift| (default "
			     XSTR(TOP_DEFAULT) ")", set_top),
		OPT_STRING("json", &o->json, "FILE",
			   "the same as JSON, written atomically"),
		OPT_END(),
	};
	int r = nsb_parse_options(argc, argv, opts, &profile_usage,
				  NSB_PARSE_KEEP_DASHDASH);

	if (r)
		return r;
	*sep = nsb_split_sides(&profile_usage, *argc, argv);
	return *sep < 0 ? 2 : 0;
}

int cmd_profile(int argc, char **argv)
{
	struct profile_opts o = { .top = TOP_DEFAULT };
	int sep, i, ret = profile_parse(&argc, argv, &o, &sep);

	if (ret)
		return ret == NSB_PARSE_HELP ? 0 : ret;
	nsb_prof_set_init(&o.a, "base");
	nsb_prof_set_init(&o.b, "patched");
	ret = 2;
	for (i = 1; i < sep; i++)
		if (nsb_prof_set_load(&o.a, argv[i]))
			goto out;
	for (i = sep + 1; i < argc; i++)
		if (nsb_prof_set_load(&o.b, argv[i]))
			goto out;
	if (o.json && !(o.out = json_array()))
		goto out;
	ret = profile_all(&o);
	if (!ret && o.json) {
		json_t *root = json_pack("{s:i, s:O}", "nsbench_profile_compare",
					 NSB_PROFILE_VERSION, "benchmarks",
					 o.out);

		if (!root || nsb_json_write_atomic(o.json, root))
			ret = 2;
		json_decref(root);
	}
out:
	json_decref(o.out);
	nsb_prof_set_free(&o.a);
	nsb_prof_set_free(&o.b);
	return ret;
}

