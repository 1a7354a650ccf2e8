// SPDX-License-Identifier: GPL-2.0
/*
 * profile_import.c — `nsbench profile-import`: one boot's perf profile of
 * a benchmark's timed region as a profile JSON, by
 * src/lib/io/profile_import.c: its options and their checks.
 */
#include <stdio.h>
#include <string.h>

#include "src/lib/base/nsbench.h"
#include "src/lib/base/options.h"
#include "src/lib/stats/profile.h"
#include "src/lib/io/profile_import.h"
#include "src/cmd/cli.h"

static const struct nsb_usage import_usage = {
	.who = "nsbench profile-import",
	.synopsis = "nsbench profile-import [options] --symbols=TSV "
		    "--bench=FILE --out=FILE",
	.about = "One boot's perf profile of a benchmark's timed region as a "
		 "profile JSON\n(the input of 'nsbench profile' and of report's "
		 "--profile-base/-patched).\nOne of --period, --probes and "
		 "one of --ops, --ops-file are required too.\n",
	.epilog = "The same symbol of the same dso is summed; addresses perf "
		  "could not\nresolve (0x...) pool per dso as \""
		  NSB_PROF_UNRESOLVED "\".  Exit: 0, or 2 on bad input\n"
		  "(naming file and line; nothing is written).\n",
};

/* The value of --NAME as a count > 0 into *v; 0, or -2 after why. */
static int count_arg(const char *name, const char *arg, unsigned long long *v)
{
	if (!nsb_prof_count(arg, NSB_PROF_MAX_SAMPLES, v) || !*v) {
		fprintf(stderr, "nsbench profile-import: --%s: expected a "
			"count > 0, got '%s'\n", name, arg);
		return -2;
	}
	return 0;
}

/* --period=P */
static int set_count(const struct nsb_option *opt, const char *arg)
{
	return count_arg(opt->name, arg, opt->value);
}

/* --ops=N and --ops-file=FILE: the last one given counts. */
static int set_ops(const struct nsb_option *opt, const char *arg)
{
	struct nsb_prof_import_opts *o = opt->value;

	o->ops_file = NULL;
	return count_arg(opt->name, arg, &o->ops);
}

static int set_ops_file(const struct nsb_option *opt, const char *arg)
{
	struct nsb_prof_import_opts *o = opt->value;

	o->ops_file = arg;
	o->ops = 0;
	return 0;
}

static int import_parse(int argc, char **argv, struct nsb_prof_import_opts *o)
{
	const struct nsb_option opts[] = {
		OPT_STRING("symbols", &o->symbols, "TSV",
			   "perf report --stdio -q -t $'\\t' --sort dso,sym\n"
			   "-F sample,dso,sym: samples, dso, '[k] symbol' a line"),
		OPT_STRING("bench", &o->bench, "FILE",
			   "the run's results JSON: exactly one benchmark; its\n"
			   "name and context go into the profile"),
		OPT_CALLBACK("ops", o, "N",
			     "operations run while perf sampled", set_ops),
		OPT_CALLBACK("ops-file", o, "FILE",
			     "the same from a file of one line (the last of\n"
			     "--ops and --ops-file counts)", set_ops_file),
		OPT_CALLBACK("period", &o->period, "P",
			     "perf record -c P: events per sample (under icount:\n"
			     "guest instructions, for cpu-clock)", set_count),
		OPT_STRING("probes", &o->probes, "FILE",
			   "instead of --period: the boot's probes.txt; its line\n"
			   "profile.LABEL period=P spin_insn=N spin_ns=T gives\n"
			   "P x N / T (what sampling leaves of a period)"),
		OPT_STRING("event", &o->event, "NAME",
			   "the sampled event (default cpu-clock)"),
		OPT_STRING("label", &o->label, "L",
			   "the profile step's label (default: BENCH's file name\n"
			   "without .bench.json or .json)"),
		OPT_STRING("out", &o->out, "FILE",
			   "the profile JSON, written atomically"),
		OPT_END(),
	};
	int r = nsb_parse_options(&argc, argv, opts, &import_usage, 0);

	if (r)
		return r;
	if (argc > 1) {
		fprintf(stderr, "nsbench profile-import: unexpected argument "
			"'%s'\n", argv[1]);
		return 2;
	}
	if (!o->symbols || !o->bench || !o->out || !o->period == !o->probes ||
	    !o->ops == !o->ops_file || (o->event && !*o->event)) {
		fprintf(stderr, "nsbench profile-import: need --symbols, "
			"--bench, --out, one of --period, --probes and one of "
			"--ops, --ops-file\n");
		nsb_usage_hint(&import_usage);
		return 2;
	}
	return 0;
}

int cmd_profile_import(int argc, char **argv)
{
	struct nsb_prof_import_opts o = { 0 };
	int ret = import_parse(argc, argv, &o);

	if (ret)
		return ret == NSB_PARSE_HELP ? 0 : ret;
	return nsb_prof_import(&o);
}
