// SPDX-License-Identifier: GPL-2.0
/*
 * compare_cli.c — the command line of the comparing commands (compare,
 * report, plot): the options they share, BASE... -- PATCHED..., and
 * `nsbench compare` itself.  The engine is compare.c.
 */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/compare.h"
#include "src/nsbench.h"
#include "src/cli.h"

/* --- command line ----------------------------------------------------- */

const char nsb_compare_opts_help[] =
"  --threshold=PCT   noise threshold in percent of the base median\n"
"                    (default 2).  Verdicts: slower/faster when p < 0.05\n"
"                    and the estimate lies beyond +-PCT; same when the\n"
"                    whole 95% CI lies inside +-PCT; else noisy\n"
"  --aa=FILE         a second run of the base (an A/A pair; repeatable):\n"
"                    its residual against BASE is reported per benchmark\n"
"  --unpaired        ignore A/B rounds even where both sides have them\n"
"  --strict          a benchmark on one side only is an error (exit 2)\n"
"                    instead of a warning and a skipped row\n"
"  --metric=FIELD    real_time (default) or cpu_time\n"
"  --filter=REGEX    only benchmarks whose name matches (extended regex)\n"
"  --seed=N          bootstrap seed (default 20150204)\n"
"\n"
"Samples are run_type \"iteration\" entries (aggregates are ignored) of\n"
"Google Benchmark / nsbench JSON, or the runs of hyperfine --export-json\n"
"files; several files per side pool by benchmark name.  When every sample\n"
"of both sides carries nsbench_round (and nsbench_seed) the comparison is\n"
"paired by round: the per-round median differences, their median with a\n"
"sign-test CI and the Wilcoxon signed-rank p.  Otherwise: Hodges-Lehmann\n"
"shift with its Moses CI and the Mann-Whitney U p, and a bootstrap ratio\n"
"of medians.  Exit: 0 no regression beyond the threshold, 1 regression\n"
"(a 'slower' row), 2 usage or input error.  Rows that failed or were\n"
"skipped are reported, not gated.\n";

enum { OPT_THRESHOLD = 256, OPT_AA, OPT_UNPAIRED, OPT_STRICT, OPT_METRIC,
	OPT_SEED, OPT_FILTER, OPT_HELP };

static const struct option common_opts[] = {
	{ "threshold", required_argument, NULL, OPT_THRESHOLD },
	{ "aa", required_argument, NULL, OPT_AA },
	{ "unpaired", no_argument, NULL, OPT_UNPAIRED },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "filter", required_argument, NULL, OPT_FILTER },
	{ "help", no_argument, NULL, OPT_HELP },
};

#define N_COMMON (NSB_ARRAY_SIZE(common_opts))

static int parse_double(const char *arg, double *v)
{
	char *end;

	*v = strtod(arg, &end);
	return *arg && !*end && isfinite(*v) && *v >= 0 ? 0 : -1;
}

static int common_opt(struct nsb_comparison *c, int key, const char *arg,
		      const char **aa, size_t *naa)
{
	char *end;

	switch (key) {
	case OPT_THRESHOLD:
		if (parse_double(arg, &c->o.threshold))
			goto bad;
		return 0;
	case OPT_AA:
		aa[(*naa)++] = arg;
		return 0;
	case OPT_UNPAIRED:
		c->o.unpaired = true;
		return 0;
	case OPT_STRICT:
		c->o.strict = true;
		return 0;
	case OPT_METRIC:
		if (strcmp(arg, "real_time") && strcmp(arg, "cpu_time"))
			goto bad;
		c->o.metric = !strcmp(arg, "cpu_time") ? "cpu_time" :
			      "real_time";
		return 0;
	case OPT_FILTER:
		c->o.filter = arg;
		return 0;
	case OPT_SEED:
		c->o.seed = strtoul(arg, &end, 0);
		if (!*arg || *end)
			goto bad;
		return 0;
	}
	return 1;
bad:
	return 2;	/* the caller names the option */
}

/* "nsbench compare: --threshold: bad value 'abc'": which option. */
static void bad_value(const char *cmd, const struct option *all, int idx,
		      int key, const char *arg)
{
	const char *name = idx >= 0 ? all[idx].name : NULL;
	size_t i;

	for (i = 0; !name && all[i].name; i++)
		if (all[i].val == key && !all[i].flag)
			name = all[i].name;
	fprintf(stderr, "nsbench %s: --%s: bad value '%s'\n", cmd,
		name ? name : "?", arg ? arg : "");
}

/* getopt_long table: the common options, the caller's, the terminator. */
static struct option *merge_opts(const struct option *extra)
{
	size_t n = 0;
	struct option *all;

	while (extra && extra[n].name)
		n++;
	all = calloc(N_COMMON + n + 1, sizeof(*all));
	if (!all)
		return NULL;
	memcpy(all, common_opts, sizeof(common_opts));
	if (n)
		memcpy(all + N_COMMON, extra, n * sizeof(*all));
	return all;
}

int nsb_compare_main(struct nsb_comparison *c, int argc, char **argv,
		     const struct option *extra, const char *extra_short,
		     int (*opt)(int key, const char *arg, void *data),
		     void *data, void (*usage)(FILE *f))
{
	const char **aa = calloc((size_t)argc, sizeof(*aa));
	struct option *all = merge_opts(extra);
	int sep, key, ret = 2, r, idx = -1;
	size_t naa = 0;

	nsb_comparison_init(c, NULL);
	c->argc = argc;
	c->argv = argv;
	if (!aa || !all)
		goto out;
	/* Options before "--" only: getopt would swallow the separator. */
	for (sep = 1; sep < argc && strcmp(argv[sep], "--"); sep++)
		;
	optind = 0;
	while ((key = getopt_long(sep, argv, extra_short ? extra_short : "",
				  all, &idx)) != -1) {
		if (key == OPT_HELP) {
			usage(stdout);
			ret = 3;	/* help shown: exit 0 */
			goto out;
		}
		r = common_opt(c, key, optarg, aa, &naa);
		if (r == 1 && opt)
			r = opt(key, optarg, data);
		if (r == 2)
			bad_value(argv[0], all, idx, key, optarg);
		idx = -1;	/* a short option leaves it as it was */
		if (r) {
			usage(stderr);
			goto out;
		}
	}
	if (sep >= argc || optind >= sep || sep + 1 >= argc) {
		fprintf(stderr, "nsbench %s: need BASE... -- PATCHED...\n",
			argv[0]);
		usage(stderr);
		goto out;
	}
	ret = nsb_compare_load(c, &(struct nsb_cmp_files){
		.base = argv + optind, .nbase = (size_t)(sep - optind),
		.patched = argv + sep + 1, .npatched = (size_t)(argc - sep - 1),
		.aa = (char **)aa, .naa = naa,
	}) ? 2 : 0;
out:
	free(aa);
	free(all);
	return ret;
}

/* --- nsbench compare -------------------------------------------------- */

enum fmt { FMT_TEXT, FMT_MARKDOWN, FMT_JSON };

struct compare_out {
	enum fmt fmt;
	bool rounds;
};

static void compare_usage(FILE *f)
{
	fprintf(f, "usage: nsbench compare [options] BASE... -- PATCHED...\n"
		"\n"
		"Compare results files benchmark by benchmark: summaries, "
		"tests, CIs\nand a verdict per row.\n\n"
		"  --format=FMT      text (default), markdown or json (one "
		"object per row\n"
		"                    with every statistic, for CI history)\n"
		"  --rounds          text: under each paired row, every round's "
		"median on\n"
		"                    both sides and their difference\n"
		"%s", nsb_compare_opts_help);
}

static int compare_opt(int key, const char *arg, void *data)
{
	struct compare_out *out = data;

	if (key == 'r') {
		out->rounds = true;
		return 0;
	}
	if (key != 'f')
		return 1;
	if (!strcmp(arg, "text"))
		out->fmt = FMT_TEXT;
	else if (!strcmp(arg, "markdown"))
		out->fmt = FMT_MARKDOWN;
	else if (!strcmp(arg, "json"))
		out->fmt = FMT_JSON;
	else
		return 2;
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "rounds", no_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	struct nsb_comparison c;
	struct compare_out out = { FMT_TEXT, false };
	json_t *j;
	int ret;

	ret = nsb_compare_main(&c, argc, argv, opts, NULL, compare_opt, &out,
			       compare_usage);
	if (ret) {
		nsb_comparison_free(&c);
		return ret == 3 ? 0 : ret;
	}
	c.o.show_rounds = out.rounds;
	if (out.fmt == FMT_JSON) {
		j = nsb_compare_json(&c);
		if (!j || json_dumpf(j, stdout, JSON_INDENT(2) |
				     JSON_PRESERVE_ORDER)) {
			fprintf(stderr, "nsbench: cannot encode JSON\n");
			ret = 2;
		}
		putchar('\n');
		json_decref(j);
	} else if (out.fmt == FMT_MARKDOWN) {
		nsb_print_markdown(stdout, &c);
	} else {
		nsb_print_text(stdout, &c);
	}
	if (!ret)
		ret = nsb_compare_status(&c);
	nsb_comparison_free(&c);
	return ret;
}
