// SPDX-License-Identifier: GPL-2.0
/*
 * nsbench-bench — runs the registered benchmark families through Google
 * Benchmark and writes one results file (results/README.md).
 *
 * nsbench's own flags come first and are removed; everything else
 * (--benchmark_filter, --benchmark_repetitions, --benchmark_min_time,
 * --benchmark_format, ...) passes to Google Benchmark unchanged.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/gbench.h"
#include "bench/registry.h"
#include "bench/sys/interleave.h"
#include "src/nsbench.h"

struct options {
	struct nsb_run_info info;
	enum nsb_tier tier;
	const char *out;	/* results file; NULL: results/<UTC>-<host>-<label> */
	const char *results_dir;
	bool list;
	bool no_results;
	const char *interleave;	/* --interleave=SWITCH */
	const char *context[16];	/* --context=KEY=VALUE, in order */
	int ncontext;
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: nsbench-bench [nsbench options] [--benchmark_* options]\n"
"\n"
"nsbench options:\n"
"  --tier=quick|full     which sweep to register (default quick)\n"
"  --label=NAME          results file label (default <mode>-<tier>)\n"
"  --out=FILE            results file (default results/<UTC>-<host>-<label>.json)\n"
"  --results-dir=DIR     where the default results file goes (default results)\n"
"  --no-results          write no results file\n"
"  --mode=MODE           native | kvm | tcg | icount (default native)\n"
"  --series=NAME         kernel patch series under test (default none)\n"
"  --config-hash=HASH    kernel config hash (default: from /proc/config.gz)\n"
"  --round=N --seed=N --boot=N --side=A|B   A/B provenance\n"
"  --context=KEY=VALUE   one more context string (KEY: [a-z0-9_]; up to 16)\n"
"  --interleave=SWITCH   the in-boot check A/B: every sys/ benchmark alternates\n"
"                        kernel.userns_checks.SWITCH in chunks, on/off/off/on,\n"
"                        and reports the counters nsb_on, nsb_off1, nsb_off2\n"
"                        (userns-checks-toggles kernel; elsewhere the same\n"
"                        chunks run unswitched, for the stock side)\n"
"  --list                list the benchmark families and exit\n"
"\n"
"Google Benchmark options pass through, e.g. --benchmark_filter=in_userns\n"
"--benchmark_repetitions=5 --benchmark_min_time=0.1 (see --help below).\n");
}

/* --context=KEY=VALUE: a plain key, so results files stay greppable. */
static int add_context(struct options *o, const char *arg)
{
	size_t klen = strspn(arg, "abcdefghijklmnopqrstuvwxyz0123456789_");

	if (!klen || arg[klen] != '=') {
		fprintf(stderr, "nsbench-bench: --context: bad value '%s' "
			"(want KEY=VALUE, KEY of a-z 0-9 _)\n", arg);
		return -1;
	}
	if (o->ncontext == (int)(sizeof(o->context) / sizeof(o->context[0]))) {
		fprintf(stderr, "nsbench-bench: --context: more than %zu\n",
			sizeof(o->context) / sizeof(o->context[0]));
		return -1;
	}
	o->context[o->ncontext++] = arg;
	return 0;
}

/* Our options are long-only and must be written --name=value. */
static int parse_options(int *argc, char **argv, struct options *o)
{
	enum { O_TIER = 256, O_LABEL, O_OUT, O_DIR, O_NORES, O_MODE, O_SERIES,
	       O_CONFIG, O_ROUND, O_SEED, O_BOOT, O_SIDE, O_CONTEXT, O_ILV,
	       O_LIST, O_HELP };
	static const struct option longopts[] = {
		{ "tier", required_argument, NULL, O_TIER },
		{ "label", required_argument, NULL, O_LABEL },
		{ "out", required_argument, NULL, O_OUT },
		{ "results-dir", required_argument, NULL, O_DIR },
		{ "no-results", no_argument, NULL, O_NORES },
		{ "mode", required_argument, NULL, O_MODE },
		{ "series", required_argument, NULL, O_SERIES },
		{ "config-hash", required_argument, NULL, O_CONFIG },
		{ "round", required_argument, NULL, O_ROUND },
		{ "seed", required_argument, NULL, O_SEED },
		{ "boot", required_argument, NULL, O_BOOT },
		{ "side", required_argument, NULL, O_SIDE },
		{ "context", required_argument, NULL, O_CONTEXT },
		{ "interleave", required_argument, NULL, O_ILV },
		{ "list", no_argument, NULL, O_LIST },
		{ "help", no_argument, NULL, O_HELP },
		{ NULL, 0, NULL, 0 },
	};
	int kept = 1, i;

	for (i = 1; i < *argc; i++) {
		char *arg = argv[i];
		int idx = -1, c;
		char *fake[3] = { argv[0], arg, NULL };

		if (!strncmp(arg, "--benchmark_", 12) || !strncmp(arg, "--v=", 4)) {
			argv[kept++] = arg;	/* Google Benchmark's */
			continue;
		}
		optind = 1;
		opterr = 0;
		c = getopt_long(2, fake, "", longopts, &idx);
		if (c == '?' || c == ':' || c == -1) {
			fprintf(stderr, "nsbench-bench: unknown or malformed option '%s' "
				"(see --help)\n", arg);
			return -1;
		}
		switch (c) {
		case O_TIER:
			if (!strcmp(optarg, "quick"))
				o->tier = NSB_TIER_QUICK;
			else if (!strcmp(optarg, "full"))
				o->tier = NSB_TIER_FULL;
			else {
				fprintf(stderr, "nsbench-bench: --tier must be quick or full, not '%s'\n",
					optarg);
				return -1;
			}
			o->info.tier = optarg;
			break;
		case O_LABEL: o->info.label = optarg; break;
		case O_OUT: o->out = optarg; break;
		case O_DIR: o->results_dir = optarg; break;
		case O_NORES: o->no_results = true; break;
		case O_MODE: o->info.mode = optarg; break;
		case O_SERIES: o->info.series = optarg; break;
		case O_CONFIG: o->info.config_hash = optarg; break;
		case O_ROUND: o->info.round = optarg; break;
		case O_SEED: o->info.seed = optarg; break;
		case O_BOOT: o->info.boot = optarg; break;
		case O_SIDE: o->info.side = optarg; break;
		case O_CONTEXT:
			if (add_context(o, optarg))
				return -1;
			break;
		case O_ILV: o->interleave = optarg; break;
		case O_LIST: o->list = true; break;
		case O_HELP:
			usage(stdout);
			argv[kept++] = "--help";	/* and libbenchmark's */
			break;
		}
	}
	argv[kept] = NULL;
	*argc = kept;
	return 0;
}

static void list_benchmarks(void)
{
	const struct nsb_bench *b;

	for (b = nsb_benchmarks; b->name; b++)
		printf("%-7s %-14s %s\n", b->group, b->name, b->summary);
}

/* The command line as typed (for "reproduce" in reports), shell-quoted. */
static char *command_line(int argc, char **argv)
{
	size_t len = 1;
	char *cmd, *p;

	for (int i = 0; i < argc; i++)
		len += 3 + 4 * strlen(argv[i]);
	cmd = p = calloc(1, len);
	if (!cmd)
		return NULL;
	for (int i = 0; i < argc; i++) {
		bool plain = argv[i][0] && !argv[i][strcspn(argv[i],
				" \t\n'\"\\$`*?[]()|&;<>{}!#~")];

		if (i)
			*p++ = ' ';
		if (plain) {
			p = stpcpy(p, argv[i]);
			continue;
		}
		*p++ = '\'';
		for (const char *c = argv[i]; *c; c++)
			p = *c == '\'' ? stpcpy(p, "'\\''") : (*p++ = *c, p);
		*p++ = '\'';
	}
	*p = 0;
	return cmd;
}

static void on_signal(int sig)
{
	gb_interrupt();
}

static void install_signal_handlers(void)
{
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/*
 * Google Benchmark writes the file at the end of the run; we then mark it
 * complete or not and move it into place atomically.
 */
static int finish_results(const char *partial, const char *out, int ran)
{
	json_t *root = nsb_json_load(partial);
	json_t *ctx;
	bool interrupted = gb_was_interrupted();
	int ret;

	if (!root)
		return -1;
	ctx = json_object_get(root, "context");
	if (!json_is_object(ctx)) {
		fprintf(stderr, "%s: no context object\n", partial);
		json_decref(root);
		return -1;
	}
	json_object_set_new(ctx, "nsbench_complete",
			    json_string(interrupted || !ran ? "false" : "true"));
	json_object_set_new(ctx, "nsbench_end_reason",
			    json_string(interrupted ? "interrupted" :
					ran ? "finished" : "no benchmark matched"));
	ret = nsb_json_write_atomic(out, root);
	json_decref(root);
	if (!ret)
		unlink(partial);
	return ret;
}

static char *default_label(const struct options *o)
{
	char *label = NULL;

	if (asprintf(&label, "%s-%s", o->info.mode ? o->info.mode : "native",
		     o->tier == NSB_TIER_FULL ? "full" : "quick") < 0)
		return NULL;
	return label;
}

int main(int argc, char **argv)
{
	struct options o = { .results_dir = "results" };
	const struct nsb_bench *b;
	char *label = NULL, *out = NULL, *partial = NULL, *outflag = NULL;
	char **gargv = NULL, *command = command_line(argc, argv);
	int gargc, ran, ret = 2, i;

	if (parse_options(&argc, argv, &o))
		goto out;
	if (o.list) {
		list_benchmarks();
		ret = 0;
		goto out;
	}
	label = o.info.label ? strdup(o.info.label) : default_label(&o);
	o.info.label = label;
	if (!o.info.tier)
		o.info.tier = "quick";

	/* argv for libbenchmark: ours first so the user's flags win. */
	gargv = calloc(argc + 4, sizeof(*gargv));
	gargc = 0;
	gargv[gargc++] = argv[0];
	if (o.tier == NSB_TIER_QUICK)
		gargv[gargc++] = "--benchmark_min_time=0.05";
	/* Listing or help runs no benchmark: no results file to write. */
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") ||
		    !strncmp(argv[i], "--benchmark_list_tests", 22))
			o.no_results = true;
	if (!o.no_results) {
		if (o.out)
			out = strdup(o.out);
		else {
			mkdir(o.results_dir, 0755);
			out = nsb_results_path(o.results_dir, label);
		}
		if (!out || asprintf(&partial, "%s.partial", out) < 0 ||
		    asprintf(&outflag, "--benchmark_out=%s", partial) < 0)
			goto out;
		gargv[gargc++] = outflag;
		gargv[gargc++] = "--benchmark_out_format=json";
	}
	for (i = 1; i < argc; i++)
		gargv[gargc++] = argv[i];
	gargv[gargc] = NULL;

	gb_initialize(&gargc, gargv);
	if (gb_report_unrecognized(gargc, gargv))
		goto out;

	nsb_context_collect(&o.info, gb_add_context);
	gb_add_context("nsbench_command", command ? command : "");
	for (i = 0; i < o.ncontext; i++) {
		char *key = strndup(o.context[i], strcspn(o.context[i], "="));

		if (!key)
			goto out;
		gb_add_context(key, o.context[i] + strlen(key) + 1);
		free(key);
	}
	if (o.interleave) {
		bool applied;

		if (nsb_interleave_init(o.interleave, o.info.seed ?
					strtoull(o.info.seed, NULL, 10) : 1,
					&applied))
			goto out;
		gb_add_context("nsbench_check", o.interleave);
		gb_add_context("nsbench_check_applied", applied ? "yes" : "no");
	}
	for (b = nsb_benchmarks; b->name; b++)
		b->reg(o.tier);

	install_signal_handlers();
	ran = gb_run_specified();
	nsb_interleave_restore();
	ret = 0;
	if (!o.no_results) {
		if (finish_results(partial, out, ran))
			ret = 2;
		else
			fprintf(stderr, "nsbench-bench: results in %s%s\n", out,
				gb_was_interrupted() ? " (incomplete: interrupted)" : "");
	}
	if (!ran) {
		fprintf(stderr, "nsbench-bench: no benchmark matched the filter\n");
		ret = 2;
	}
	if (gb_was_interrupted())
		ret = 130;
out:
	free(command);
	free(label);
	free(out);
	free(partial);
	free(outflag);
	free(gargv);
	return ret;
}
