// SPDX-License-Identifier: GPL-2.0
/*
 * compare.c — the command line of the comparing commands (compare,
 * report, plot): the options they share, BASE... -- PATCHED..., and
 * `nsbench compare` itself.  The engine is src/lib/stats/compare.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/stats/compare.h"
#include "src/lib/stats/expect.h"
#include "src/lib/stats/stats.h"
#include "src/lib/base/nsbench.h"
#include "src/lib/base/options.h"
#include "src/cmd/cli.h"

/* --- command line ----------------------------------------------------- */

/* The help's epilog of the comparing commands (report, plot) ... */
#define COMPARE_EPILOG \
"Samples are run_type \"iteration\" entries (aggregates are ignored) of\n" \
"Google Benchmark / nsbench JSON, or the runs of hyperfine --export-json\n" \
"files; several files per side pool by benchmark name.  When every sample\n" \
"of both sides carries nsbench_round (and nsbench_seed) the comparison is\n" \
"paired by round: the per-round median differences, their median with a\n" \
"sign-test CI and the Wilcoxon signed-rank p.  Otherwise: Hodges-Lehmann\n" \
"shift with its Moses CI and the Mann-Whitney U p, and a bootstrap ratio\n" \
"of medians.\n" \
"\n" \
"Verdicts: in native, KVM and TCG runs against +-PCT of the base median\n" \
"(--threshold, default 2): slower/faster when p < " NSB_ALPHA_S \
" and the estimate\n" \
"lies beyond it, same when the whole " NSB_CI_S \
"% CI lies inside it, noisy\n" \
"otherwise (with the MDE and the samples needed).  In icount runs (one\n" \
"virtual ns is one guest instruction) against +-1 instruction, what the\n" \
"instrument resolves, or against the row's A/A residual (--aa) where that\n" \
"is larger (then a CI inside it is noisy, not same): the rule of the\n" \
"in-boot check-cost table.  There --threshold is not the verdict's band\n" \
"but a filter you choose: a slower or faster row whose change is under\n" \
"it says so beside its verdict ('slower, +1.8 %, under your 2 %\n" \
"threshold') and does not fail the exit status.\n" \
"\n" \
"Exit: 0 no regression, 1 regression (a 'slower' row; in icount runs\n" \
"one not under a --threshold you gave), 2 usage or input error.  Rows\n" \
"that failed or were skipped are reported, not gated.\n"

static const char compare_epilog[] = COMPARE_EPILOG;

/* ... and of nsbench compare, which adds --expect. */
static const char compare_expect_epilog[] = COMPARE_EPILOG "\n"
"--expect=FILE: lines NAME PREDICTED GATE SUM ('#' comments), PREDICTED\n"
"the shift per operation in instructions, GATE yes or no (as in\n"
"kernel-patches/VERSION/calibration/predictions).  A table follows the rows: in\n"
"icount units the ratio measured / predicted, 'ok' within 0.5%\n"
"(--expect-tolerance; at least 1 instruction), else 'OFF', and with --aa\n"
"the A/A residual, at most +-1 per op; in wall-clock units the MDE and\n"
"whether the shift was detected (CI above 0), not gated.  Exit 1 then\n"
"when an icount row with GATE yes is off, beyond its A/A bound or\n"
"without a result (on a side, not measured), or a row without a\n"
"prediction is slower (a predicted row's 'slower' is expected; one under\n"
"a --threshold you gave passes, as above); exit 2 when FILE is bad or\n"
"no predicted benchmark was measured.\n";

static const char *const metrics[] = { "real_time", "cpu_time", "nsb_on",
				       NULL };

/* --aa=FILE, repeatable: value is the list, sized for every argument. */
struct aa_list {
	const char **file;
	size_t n;
};

static int add_aa(const struct nsb_option *opt, const char *arg)
{
	struct aa_list *aa = opt->value;

	aa->file[aa->n++] = arg;
	return 0;
}

int nsb_compare_main(struct nsb_comparison *c, int argc, char **argv,
		     const struct nsb_option *extra, const struct nsb_usage *u)
{
	struct aa_list aa = { calloc((size_t)argc + 1, sizeof(*aa.file)), 0 };
	char **args = calloc((size_t)argc + 1, sizeof(*args));
	struct nsb_usage help = *u;
	struct nsb_cmp_files files;
	int metric = 0, ret = 2, sep;
	const struct nsb_option opts[] = {
		OPT_INCLUDE(extra),
		OPT_DOUBLE("threshold", &c->o.threshold, "PCT",
			   "native/KVM/TCG: the verdict's band in percent of\n"
			   "the base median (default 2).  icount: a filter\n"
			   "beside the verdict, which is taken against +-1\n"
			   "instruction (see below); without it every slower\n"
			   "row fails the exit status"),
		OPT_CALLBACK("aa", &aa, "FILE",
			     "a second run of the base (an A/A pair; repeatable):\n"
			     "its residual against BASE is reported per benchmark\n"
			     "(and checked with --expect)",
			     add_aa),
		OPT_BOOL("unpaired", &c->o.unpaired,
			 "ignore A/B rounds even where both sides have them"),
		OPT_BOOL("strict", &c->o.strict,
			 "a benchmark on one side only is an error (exit 2)\n"
			 "instead of a warning and a skipped row"),
		OPT_CHOICE("metric", &metric, metrics, "FIELD",
			   "real_time (default), cpu_time, or nsb_on: an\n"
			   "interleaved run's cost per op over its central\n"
			   "chunks (nsbench-bench --interleave; make run's\n"
			   "estimator), the 'on' state's, which on a kernel\n"
			   "without the switch is every chunk's operation"),
		OPT_STRING("filter", &c->o.filter, "REGEX",
			   "only benchmarks whose name matches (extended regex)"),
		OPT_ULONG("seed", &c->o.seed, "N",
			  "bootstrap seed (default 20150204)"),
		OPT_END(),
	};

	nsb_comparison_init(c, NULL);
	/* NAN: not typed (OPT_DOUBLE takes finite numbers only) */
	c->o.threshold = NAN;
	/* the command line as typed, for the report's "reproduce" */
	c->argc = argc;
	c->argv = argv;
	if (!help.epilog)
		help.epilog = compare_epilog;
	if (!aa.file || !args)
		goto out;
	memcpy(args, argv, (size_t)argc * sizeof(*args));
	ret = nsb_parse_options(&argc, args, opts, &help,
				NSB_PARSE_KEEP_DASHDASH);
	if (ret)
		goto out;
	c->o.metric = metrics[metric];
	c->o.threshold_given = !isnan(c->o.threshold);
	if (!c->o.threshold_given)
		c->o.threshold = nsb_cmp_defaults.threshold;
	sep = nsb_split_sides(u, argc, args);
	if (sep < 0) {
		ret = NSB_PARSE_ERROR;
		goto out;
	}
	files = (struct nsb_cmp_files){
		.base = args + 1, .nbase = (size_t)(sep - 1),
		.patched = args + sep + 1, .npatched = (size_t)(argc - sep - 1),
		.aa = (char **)aa.file, .naa = aa.n,
	};
	ret = nsb_compare_load(c, &files) ? 2 : 0;
out:
	free(aa.file);
	free(args);
	return ret;
}

/* --- nsbench compare -------------------------------------------------- */

enum fmt { FMT_TEXT, FMT_MARKDOWN, FMT_JSON };

static const char *const formats[] = { "text", "markdown", "json", NULL };

static const struct nsb_usage compare_usage = {
	.who = "nsbench compare",
	.synopsis = "nsbench compare [options] BASE... -- PATCHED...",
	.about = "Compare results files benchmark by benchmark: summaries, "
		 "tests, CIs\nand a verdict per row.\n",
	.epilog = compare_expect_epilog,
};

/* Loads FILE's predictions into x and checks them; -1 after saying why. */
static int expect_check(struct nsb_expect *x, const char *file,
			double tol_pct, const struct nsb_comparison *c)
{
	if (nsb_expect_load(x, file))
		return -1;
	x->tol = tol_pct / 100;
	return nsb_expect_check(x, c);
}

int cmd_compare(int argc, char **argv)
{
	struct nsb_comparison c;
	struct nsb_expect x = { 0 };
	const char *expect = NULL;
	double tol_pct = 100 * NSB_EXPECT_TOL;
	int fmt = FMT_TEXT;
	bool rounds = false;
	const struct nsb_option opts[] = {
		OPT_CHOICE("format", &fmt, formats, "FMT",
			   "text (default), markdown or json (one object per row\n"
			   "with every statistic, for CI history)"),
		OPT_BOOL("rounds", &rounds,
			 "text: under each paired row, every round's median on\n"
			 "both sides and their difference"),
		OPT_STRING("expect", &expect, "FILE",
			   "predicted shifts (NAME PREDICTED GATE SUM a line):\n"
			   "each predicted row's ratio, tolerance and verdict\n"
			   "(see below)"),
		OPT_DOUBLE("expect-tolerance", &tol_pct, "PCT",
			   "with --expect: how far off a shift may be, in % of\n"
			   "its prediction (default 0.5; above 0, at most 100;\n"
			   "never less than 1 instruction)"),
		OPT_END(),
	};
	json_t *j;
	int ret;

	ret = nsb_compare_main(&c, argc, argv, opts, &compare_usage);
	if (!ret && !(tol_pct > 0 && tol_pct <= 100)) {
		fprintf(stderr, "nsbench compare: --expect-tolerance must be "
			"above 0 and at most 100, not %g\n", tol_pct);
		ret = 2;
	}
	if (!ret && expect && expect_check(&x, expect, tol_pct, &c)) {
		fprintf(stderr, "nsbench compare: --expect=%s: refusing\n",
			expect);
		ret = 2;
	}
	if (ret) {
		nsb_expect_free(&x);
		nsb_comparison_free(&c);
		return ret == NSB_PARSE_HELP ? 0 : ret;
	}
	c.o.show_rounds = rounds;
	if (fmt == FMT_JSON) {
		j = nsb_compare_json(&c);
		if (j && expect && nsb_expect_json(j, &x)) {
			json_decref(j);
			j = NULL;
		}
		if (!j || json_dumpf(j, stdout, JSON_INDENT(2) |
				     JSON_PRESERVE_ORDER)) {
			fprintf(stderr, "nsbench: cannot encode JSON\n");
			ret = 2;
		}
		putchar('\n');
		json_decref(j);
	} else if (fmt == FMT_MARKDOWN) {
		nsb_print_markdown(stdout, &c);
		if (expect)
			nsb_expect_print_markdown(stdout, &x);
	} else {
		nsb_print_text(stdout, &c);
		if (expect)
			nsb_expect_print_text(stdout, &x);
	}
	/* the verdict after the table, and a lost table is no verdict */
	if (nsb_flush_stdout())
		ret = 2;
	if (!ret)
		ret = expect ? nsb_expect_status(&x, &c) :
		      nsb_compare_status(&c);
	nsb_expect_free(&x);
	nsb_comparison_free(&c);
	return ret;
}
