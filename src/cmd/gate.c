// SPDX-License-Identifier: GPL-2.0
/*
 * gate.c — `nsbench gate [NEW.json...]`: the command line of the CI gate
 * (src/lib/history/gate.c judges): the newest run against a baseline, the
 * verdicts as text, KTAP or JUnit, exit 1 on a regression.
 */
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/history/gate.h"
#include "src/lib/history/history.h"
#include "src/lib/stats/stats.h"
#include "src/lib/base/options.h"
#include "src/lib/base/prog.h"
#include "src/cmd/cli.h"

/* What the command line gives besides the gate's own options. */
struct gate_cmd {
	struct nsb_gate_opts o;
	const char *ktap_out, *junit_out;
	enum nsb_gate_fmt fmt;
};

#define STR(x)	#x
#define XSTR(x)	STR(x)

static const struct nsb_usage gate_usage = {
	.who = "nsbench gate",
	.synopsis = "nsbench gate [options] [NEW.json...]",
	.about =
"Compare the newest run of the history (or the run made of NEW.json...)\n"
"with a baseline, benchmark by benchmark; exit 1 if any is a regression\n"
"(or failed in the new run), 0 otherwise, 2 on error.\n",
	.epilog =
"The verdicts are those of 'nsbench compare' (" NSB_CI_S " % CI, p < "
NSB_ALPHA_S "), on the\n"
"results files of both runs where they are (the history records where\n"
"they were; or NEW.json and a results-file baseline), else on the samples\n"
"the history keeps of them: the same test, the same verdict.  Records of\n"
"an older nsbench, without samples, compare the medians' CIs.  Noisy rows\n"
"are followed by what the runs could detect ('detectable:').  A run\n"
"without a baseline yet gives skips and exit 0; an accepted baseline the\n"
"history does not hold is an error (exit 2).\n"
"\n"
"The rule, stated in the output's 'rule:' line: timed rows (native, KVM,\n"
"TCG) are a regression when p < " NSB_ALPHA_S
" and the change lies beyond\n"
"+-threshold %.  icount rows (guest instructions) are judged as the\n"
"in-boot check-cost table judges them without an A/A side: against +-1\n"
"instruction, what the instrument resolves; every regression fails the\n"
"gate unless you give --threshold, which then lets through regressions\n"
"smaller than it, each reported as 'under your threshold, not gated'.\n",
};

/* --baseline=WHICH: the last one given; given more than once, files. */
static int set_baseline(const struct nsb_option *opt, const char *arg)
{
	struct nsb_gate_opts *o = opt->value;

	o->baseline = arg;
	o->bases[o->nbases++] = (char *)arg;
	return 0;
}

/* --threshold=PCT: a number >= 0; inf too, unlike OPT_DOUBLE (as before). */
static int set_threshold(const struct nsb_option *opt, const char *arg)
{
	double *v = opt->value;
	char *end;

	*v = strtod(arg, &end);
	return *arg && !*end && *v >= 0 ? 0 : -1;
}

/* --format=FMT: text, ktap (or tap) or junit. */
static int set_format(const struct nsb_option *opt, const char *arg)
{
	enum nsb_gate_fmt *fmt = opt->value;

	if (!strcmp(arg, "text"))
		*fmt = NSB_GATE_TEXT;
	else if (!strcmp(arg, "ktap") || !strcmp(arg, "tap"))
		*fmt = NSB_GATE_KTAP;
	else if (!strcmp(arg, "junit"))
		*fmt = NSB_GATE_JUNIT;
	else
		return -1;
	return 0;
}

/* --benchmark=RE: an extended regex; the last one given counts. */
static int set_benchmark(const struct nsb_option *opt, const char *arg)
{
	struct nsb_gate_opts *o = opt->value;

	return nsb_opt_regex(&o->re, &o->have_re, arg);
}

/* 0, NSB_PARSE_HELP or 2; then g->o.files are the operands. */
static int parse_args(struct gate_cmd *g, int argc, char **argv)
{
	struct nsb_gate_opts *o = &g->o;
	const struct nsb_option opts[] = {
		OPT_STRING("history", &o->history, "FILE",
			   "the history (default " NSB_HISTORY_DEFAULT ")"),
		OPT_CALLBACK("baseline", o, "WHICH",
			     "last-accepted (default; see 'nsbench history\n"
			     "accept'), previous (the run before), a run id of\n"
			     "the history, or results files (repeat the\n"
			     "option: e.g. side A of an A/B, NEW.json side B)",
			     set_baseline),
		OPT_CALLBACK("threshold", &o->threshold, "PCT",
			     "timed rows: the regression band in %\n"
			     "(default " XSTR(NSB_GATE_THRESHOLD) "; native "
			     "timing needs more).\nicount rows: not the band (+-1 "
			     "insn) but a filter,\nonly when given",
			     set_threshold),
		OPT_CALLBACK("format", &g->fmt, "text|ktap|junit",
			     "text (default), ktap (KTAP version 1, for prove,\n"
			     "kselftest runners, KernelCI, LAVA) or junit (XML)",
			     set_format),
		OPT_STRING("ktap", &g->ktap_out, "FILE",
			   "also write the ktap format to FILE"),
		OPT_STRING("junit", &g->junit_out, "FILE",
			   "also write the junit format to FILE"),
		OPT_CALLBACK("benchmark", o, "RE",
			     "only benchmarks matching the extended regex RE",
			     set_benchmark),
		OPT_STRING("results-dir", &o->results_dir, "DIR",
			   "look for results files as DIR/<run>.json"),
		OPT_STRING("run-id", &o->run_id, "ID",
			   "the run id of NEW.json... (default: first name)"),
		OPT_END(),
	};
	int r;

	o->bases = calloc((size_t)argc + 1, sizeof(*o->bases));
	if (!o->bases)
		return 2;
	r = nsb_parse_options(&argc, argv, opts, &gate_usage, 0);
	if (r)
		return r;
	o->files = argv + 1;
	o->nfiles = (size_t)(argc - 1);
	for (size_t i = 0; o->nbases > 1 && i < o->nbases; i++) {
		size_t len = strlen(o->bases[i]);

		if (len < 5 || strcmp(o->bases[i] + len - 5, ".json")) {
			fprintf(stderr, "nsbench gate: --baseline more than "
				"once: results files only ('%s')\n",
				o->bases[i]);
			nsb_usage_hint(&gate_usage);
			return 2;
		}
	}
	return 0;
}

int cmd_gate(int argc, char **argv)
{
	struct gate_cmd g = {
		.o = {
			.history = NSB_HISTORY_DEFAULT,
			.baseline = "last-accepted",
			/* NAN: not typed (set_threshold refuses a NaN) */
			.threshold = NAN,
		},
	};
	struct nsb_gate *gate = NULL;
	int ret;

	nsb_set_prog("nsbench gate");	/* libnsb's messages, gate.c's */
	ret = parse_args(&g, argc, argv);

	g.o.threshold_given = !isnan(g.o.threshold);
	if (!g.o.threshold_given)
		g.o.threshold = NSB_GATE_THRESHOLD;
	if (ret) {
		ret = ret == NSB_PARSE_HELP ? 0 : ret;
		goto out;
	}
	ret = 2;
	gate = nsb_gate_run(&g.o);
	if (!gate)
		goto out;
	nsb_gate_print(stdout, gate, g.fmt);
	if (nsb_gate_write(gate, g.ktap_out, NSB_GATE_KTAP) ||
	    nsb_gate_write(gate, g.junit_out, NSB_GATE_JUNIT))
		goto out;
	ret = nsb_gate_failures(gate) ? 1 : 0;
out:
	nsb_gate_free(gate);
	free(g.o.bases);
	if (g.o.have_re)
		regfree(&g.o.re);
	return ret;
}
