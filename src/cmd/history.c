// SPDX-License-Identifier: GPL-2.0
/*
 * history.c — `nsbench history append|accept|show|changes|plot|publish`:
 * the CI history of runs (format in history.h), its change points
 * (changepoint.h), its trend plots (trend.c) and its static site
 * (publish.c).
 */
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/stats/changepoint.h"
#include "src/lib/stats/compare.h"
#include "src/lib/history/histjudge.h"
#include "src/lib/history/history.h"
#include "src/lib/render/trend.h"
#include "src/lib/base/shquote.h"
#include "src/lib/base/nsbench.h"
#include "src/lib/base/options.h"
#include "src/lib/history/publish.h"
#include "src/cmd/cli.h"

enum sub { SUB_APPEND, SUB_ACCEPT, SUB_SHOW, SUB_CHANGES, SUB_PLOT,
	   SUB_PUBLISH };

struct hopts {
	enum sub sub;
	const char *history, *run_id, *note, *commit;
	bool have_re, json, no_changes, incomplete;
	regex_t re;
	struct nsb_cp_opts cp;
	struct nsb_trend_opts plot;
	struct nsb_publish_opts pub;
	const char *out_dir;	/* --out-dir: plot's or publish's DIR */
	long false_alarms;	/* series per noise kind, 0: off */
	char **args;		/* the operands after the options */
	int nargs;
};

static const char *const sub_names[] = {
	[SUB_APPEND] = "append", [SUB_ACCEPT] = "accept", [SUB_SHOW] = "show",
	[SUB_CHANGES] = "changes", [SUB_PLOT] = "plot",
	[SUB_PUBLISH] = "publish",
};

static const struct nsb_usage history_usage = {
	.who = "nsbench history",
	.synopsis =
"nsbench history append [--run-id=ID] [--kernel-commit=SHA] FILE...\n"
"nsbench history accept [--note=TEXT] RUN|latest\n"
"nsbench history show    [--benchmark=RE] [--no-changes]\n"
"nsbench history changes [--benchmark=RE] [--format=text|json]\n"
"nsbench history changes --false-alarms[=N]\n"
"nsbench history plot    [--benchmark=RE] [--out-dir=DIR] ...\n"
"nsbench history publish --out-dir=DIR [--benchmark=RE] [--costs=FILE] ...",
	.about =
"The CI history (default " NSB_HISTORY_DEFAULT ", --history=FILE):\n"
"one JSON line per benchmark per run, appended atomically; corrupt or\n"
"truncated lines are reported with their line number and skipped.  It\n"
"must be a regular file of at most 1 GiB (start a new one past that),\n"
"and results files regular files of at most 256 MiB.\n"
"\n"
"  append    one run per results file (or all files as one run with\n"
"            --run-id); a run already in the history is not appended\n"
"            twice; an interrupted run is refused (--allow-incomplete)\n"
"  accept    mark a run as the baseline of 'nsbench gate'\n"
"  show      each benchmark's series with its change points\n"
"  changes   change points only; --false-alarms measures how often\n"
"            noise-only series raise one with the current options\n"
"  plot      trend plots (plots/trend.gp) with change points marked\n"
"  publish   a static site in DIR (no script, opens from file://):\n"
"            an index of benchmark families with each benchmark's\n"
"            latest verdict (gate's rule), a page per benchmark with\n"
"            its trend chart (SVG), CIs and change points, the change\n"
"            points by commit range with links to the runs' reports,\n"
"            and the in-boot check-cost table; written beside DIR and\n"
"            renamed into place; at most 2000 benchmarks (pages):\n"
"            more are refused, narrow them with --benchmark=RE\n",
	.epilog =
"Measured false-alarm rate at the defaults (--false-alarms): 1.0 % of\n"
"Gaussian and 0.9 % of t(3) noise-only series (1000 each, also with\n"
"--threshold=0: the test sets the rate); 0.0 % with --sig=0.001\n"
"--perms=1999, 3.8 % and 4.9 % with --sig=0.05 --perms=199.\n",
};

/* --- options ---------------------------------------------------------- */

static int num_arg(const char *arg, double lo, double hi, double *v)
{
	char *end;

	*v = strtod(arg, &end);
	return *arg && !*end && *v >= lo && *v <= hi ? 0 : -1;
}

/* --format: text|json, but svg,png for plot. */
static int set_format(const struct nsb_option *opt, const char *arg)
{
	struct hopts *o = opt->value;

	if (o->sub == SUB_PLOT) {
		o->plot.svg = strstr(arg, "svg") != NULL;
		o->plot.png = strstr(arg, "png") != NULL;
		return o->plot.svg || o->plot.png ? 0 : -1;
	}
	o->json = !strcmp(arg, "json");
	return o->json || !strcmp(arg, "text") ? 0 : -1;
}

/* --benchmark=RE: an extended regex; the last one given counts. */
static int set_benchmark(const struct nsb_option *opt, const char *arg)
{
	struct hopts *o = opt->value;

	return nsb_opt_regex(&o->re, &o->have_re, arg);
}

static int set_sig(const struct nsb_option *opt, const char *arg)
{
	return num_arg(arg, 1e-6, 0.5, opt->value);
}

static int set_threshold(const struct nsb_option *opt, const char *arg)
{
	struct nsb_cp_opts *cp = opt->value;

	cp->threshold_given = true;
	return num_arg(arg, 0, 1000, &cp->threshold);
}

/* a count in [lo, hi]: a double as typed, truncated */
static int set_size(const struct nsb_option *opt, const char *arg,
		    double lo, double hi)
{
	double v;

	if (num_arg(arg, lo, hi, &v))
		return -1;
	*(size_t *)opt->value = (size_t)v;
	return 0;
}

static int set_perms(const struct nsb_option *opt, const char *arg)
{
	return set_size(opt, arg, 19, 1e6);
}

static int set_min_size(const struct nsb_option *opt, const char *arg)
{
	return set_size(opt, arg, 2, 1e6);
}

static int set_seed(const struct nsb_option *opt, const char *arg)
{
	double v;

	if (num_arg(arg, 0, 4294967295.0, &v))
		return -1;
	*(unsigned long *)opt->value = (unsigned long)v;
	return 0;
}

/* optional: --false-alarms (1000) or --false-alarms=N */
static int set_false_alarms(const struct nsb_option *opt, const char *arg)
{
	double v = 1000;

	if (arg && num_arg(arg, 1, 1e6, &v))
		return -1;
	*(long *)opt->value = (long)v;
	return 0;
}

/*
 * argv[1] the subcommand, then the options of them all.  0 with
 * o->args[0..o->nargs) the operands, NSB_PARSE_HELP or 2.
 */
static int parse(struct hopts *o, int argc, char **argv)
{
	char sig[64], perms[64], thr[160], min_size[64], seed[80];
	const struct nsb_option opts[] = {
		OPT_STRING("history", &o->history, "FILE",
			   "the history (default " NSB_HISTORY_DEFAULT ")"),
		OPT_GROUP("append:"),
		OPT_STRING("run-id", &o->run_id, "ID",
			   "all files as one run of this id (e.g. the rounds\n"
			   "of an A/B side)"),
		OPT_STRING("kernel-commit", &o->commit, "SHA",
			   "sets the kernel commit where the results' context\n"
			   "lacks it"),
		OPT_BOOL("allow-incomplete", &o->incomplete,
			 "append an interrupted run too (refused otherwise)"),
		OPT_GROUP("accept:"),
		OPT_STRING("note", &o->note, "TEXT",
			   "a note recorded with the acceptance"),
		OPT_GROUP("show, changes, plot, publish:"),
		OPT_CALLBACK("benchmark", o, "RE",
			     "only benchmarks matching the extended regex RE",
			     set_benchmark),
		OPT_BOOL("no-changes", &o->no_changes,
			 "leave out the change points (show: the series only)"),
		OPT_CALLBACK("format", o, "FMT",
			     "changes: text (default) or json; plot: svg, png\n"
			     "or svg,png (default)", set_format),
		OPT_CALLBACK_OPTARG("false-alarms", &o->false_alarms, "N",
				    "changes: how often noise-only series\n"
				    "(N per noise kind, default 1000,\n"
				    "lengths 30..50, Gaussian and Student\n"
				    "t(3) noise of 1 % CV, fixed seeds)\n"
				    "raise a change point with the current\n"
				    "options", set_false_alarms),
		OPT_GROUP("plot:"),
		OPT_STRING("out-dir", &o->out_dir, "DIR",
			   "where the plots go (default plots); publish: the\n"
			   "site's directory (required), an existing DIR\n"
			   "replaced only if publish wrote it"),
		OPT_STRING("templates", &o->plot.templates, "DIR",
			   "the .gp templates (default $NSB_PLOTS, else plots)"),
		OPT_STRING("stem", &o->plot.stem, "NAME",
			   "file name stem (default trend)"),
		OPT_GROUP("publish:"),
		OPT_STRING("out", &o->pub.out, "DIR",
			   "--out-dir=DIR, the old spelling (deprecated: --out\n"
			   "is a FILE in every other command)"),
		OPT_STRING("costs", &o->pub.costs, "FILE",
			   "the costs.json of 'nsbench costs --json' (default:\n"
			   "one beside the newest run's results files)"),
		OPT_STRING("title", &o->pub.title, "TEXT",
			   "the index page's title"),
		OPT_BOOL("skip-bad-lines", &o->pub.skip_bad,
			 "publish even if lines of the history are bad\n"
			 "(they are named and left out; refused otherwise)"),
		OPT_GROUP("Change points: E-divisive means (Matteson and James "
			  "2014, as Apache\nOtava and MongoDB use it), each "
			  "split kept if a permutation test says\nso, then "
			  "flagged only if the change is at least --threshold "
			  "and the\nHodges-Lehmann CI of the shift excludes "
			  "zero."),
		OPT_CALLBACK("sig", &o->cp.sig, "P", sig, set_sig),
		OPT_CALLBACK("perms", &o->cp.perms, "N", perms, set_perms),
		OPT_CALLBACK("threshold", &o->cp, "PCT", thr,
			     set_threshold),
		OPT_CALLBACK("min-size", &o->cp.min_size, "N", min_size,
			     set_min_size),
		OPT_CALLBACK("seed", &o->cp.seed, "N", seed, set_seed),
		OPT_END(),
	};
	size_t i;
	int r;

	snprintf(sig, sizeof(sig), "permutation test level (default %g)",
		 NSB_CP_SIG);
	snprintf(perms, sizeof(perms), "permutations per test (default %d)",
		 NSB_CP_PERMS);
	snprintf(thr, sizeof(thr), "smallest change flagged, %% (default %g;"
		 "\nicount series: flagged beyond +-1 insn, and PCT\nonly "
		 "filters when given)", NSB_CP_THRESHOLD);
	snprintf(min_size, sizeof(min_size), "runs on each side of a change "
		 "(default %d)", NSB_CP_MIN_SIZE);
	snprintf(seed, sizeof(seed), "generator seed (default %lu): results "
		 "are repeatable", NSB_CP_SEED);
	if (argc > 1 && !strcmp(argv[1], "--help")) {
		nsb_usage_with_options(stdout, &history_usage, opts);
		return NSB_PARSE_HELP;
	}
	for (i = 0; i < NSB_ARRAY_SIZE(sub_names); i++)
		if (argc > 1 && !strcmp(argv[1], sub_names[i]))
			break;
	if (i == NSB_ARRAY_SIZE(sub_names)) {
		if (argc > 1)
			fprintf(stderr, "nsbench history: unknown subcommand "
				"'%s'\n", argv[1]);
		else
			fprintf(stderr, "nsbench history: no subcommand\n");
		nsb_usage_hint(&history_usage);
		return 2;
	}
	o->sub = (enum sub)i;
	/* the subcommand is argv[0] of the options */
	argc--;
	r = nsb_parse_options(&argc, argv + 1, opts, &history_usage, 0);
	if (r)
		return r;
	o->args = argv + 2;
	o->nargs = argc - 1;
	return 0;
}

/* --- append and accept ------------------------------------------------ */

static int sub_append(struct hopts *o, struct nsb_history *h, int nargs,
		      char **args)
{
	const struct nsb_run_add add = {
		.run_id = o->run_id, .commit = o->commit,
		.incomplete = o->incomplete,
	};
	json_t *all = json_array();
	size_t i;
	int ret = 2;

	if (nargs < 1) {
		fprintf(stderr, "nsbench history append: no results file\n");
		nsb_usage_hint(&history_usage);
		goto out;
	}
	if (o->run_id) {
		if (nsb_history_run_records(h, args, (size_t)nargs, &add, all))
			goto out;
	} else {
		for (i = 0; i < (size_t)nargs; i++)
			if (nsb_history_run_records(h, args + i, 1, &add, all))
				goto out;
	}
	if (json_array_size(all) && nsb_history_append(o->history, all))
		goto out;
	printf("%s: %zu record(s) appended\n", o->history,
	       json_array_size(all));
	ret = 0;
out:
	json_decref(all);
	return ret;
}

static int sub_accept(struct hopts *o, struct nsb_history *h, int nargs,
		      char **args)
{
	const char *run;
	json_t *arr;
	int ret;

	if (nargs != 1) {
		fprintf(stderr, "nsbench history accept: need one run id\n");
		nsb_usage_hint(&history_usage);
		return 2;
	}
	run = !strcmp(args[0], "latest") && h->nruns ?
	      h->runs[h->nruns - 1] : args[0];
	if (!nsb_history_has_run(h, run)) {
		fprintf(stderr, "nsbench history accept: no run '%s' in %s\n",
			run, o->history);
		return 2;
	}
	arr = json_pack("[o]", nsb_history_accept_record(run, o->note));
	ret = arr && !nsb_history_append(o->history, arr) ? 0 : 2;
	json_decref(arr);
	if (!ret)
		printf("%s: accepted %s\n", o->history, run);
	return ret;
}

/* --- per benchmark: show, changes, plot ------------------------------- */

struct bench_view {
	const char *bench;
	const struct nsb_hrec **pts;
	size_t n;
	struct nsb_cp *cps;
	size_t ncp;
	int vkind;		/* enum nsb_vkind of its values */
};

/* "abc123..def456" when commits are known, else the kernels, else "". */
static void commit_range(const struct nsb_hrec *a, const struct nsb_hrec *b,
			 char *buf, size_t len)
{
	*buf = 0;
	if (a->kernel_commit && b->kernel_commit)
		snprintf(buf, len, "; commits %s..%s", a->kernel_commit,
			 b->kernel_commit);
	else if (a->kernel_release && b->kernel_release &&
		 strcmp(a->kernel_release, b->kernel_release))
		snprintf(buf, len, "; kernels %s -> %s", a->kernel_release,
			 b->kernel_release);
}

static void print_cp(const struct bench_view *bv, const struct nsb_cp *cp)
{
	const struct nsb_hrec *a = bv->pts[cp->index - 1], *b =
		bv->pts[cp->index];
	char v0[32], v1[32], s0[32], s1[32], range[160];

	nsb_fmt_value(v0, sizeof(v0), cp->before, bv->vkind);
	nsb_fmt_value(v1, sizeof(v1), cp->after, bv->vkind);
	nsb_fmt_value(s0, sizeof(s0), cp->shift.lo, bv->vkind);
	nsb_fmt_value(s1, sizeof(s1), cp->shift.hi, bv->vkind);
	commit_range(a, b, range, sizeof(range));
	printf("  change at #%zu: %s -> %s, %+.2f %% (shift %.0f%% CI %s.."
	       "%s, noise %.2f %%, p %.3f)\n    between runs %s and %s%s\n",
	       cp->index, v0, v1, cp->pct, 100 * cp->shift.level, s0, s1,
	       cp->noise_pct, cp->p, a->run, b->run, range);
	if (!a->kernel_commit || !b->kernel_commit ||
	    !strcmp(a->kernel_commit, b->kernel_commit))
		return;
	/* the command that finds the commit, pasteable: names are data */
	printf("    bisect: nsbench bisect --ksrc TREE");
	nsb_sh_arg(stdout, "--good=", a->kernel_commit);
	nsb_sh_arg(stdout, "--bad=", b->kernel_commit);
	nsb_sh_arg(stdout, "--workloads=^", bv->bench);
	putchar('\n');
}

/*
 * The column's intervals at the coverage they have: an order-statistic
 * CI of the median of 3 rounds covers 75 %, not 95 %.  "95% CI, % of it"
 * where each run's reaches 95 %, "75% CI, % of it" where all have 75 %,
 * "CI (75-95%)" for a mix.
 */
static void ci_header(const struct bench_view *bv, char *buf, size_t len)
{
	double lo, hi;

	if (nsb_history_ci_levels(bv->pts, bv->n, &lo, &hi))
		snprintf(buf, len, "%.0f%% CI, %% of it", 100 * lo);
	else
		snprintf(buf, len, "CI (%.0f-%.0f%%)", 100 * lo, 100 * hi);
}

static void print_series(const struct bench_view *bv)
{
	char med[32], hdr[32];
	size_t i, c = 0;

	ci_header(bv, hdr, sizeof(hdr));
	printf("  %4s  %-40s %14s  %-17s %3s  %s\n", "#", "run", "median",
	       hdr, "n", "kernel");
	for (i = 0; i < bv->n; i++) {
		const struct nsb_hrec *r = bv->pts[i];
		double m = r->median;

		if (c < bv->ncp && bv->cps[c].index == i)
			printf("  ---- change %+.2f %% ----\n",
			       bv->cps[c++].pct);
		nsb_fmt_value(med, sizeof(med), m, bv->vkind);
		printf("  %4zu  %-40.40s %14s  %+7.2f..%+-7.2f %3zu  %s\n", i,
		       r->run, med, 100 * (r->ci_lo - m) / m,
		       100 * (r->ci_hi - m) / m, r->n,
		       r->kernel_commit ? r->kernel_commit :
		       r->kernel_release ? r->kernel_release : "");
	}
}

static json_t *cp_json(const struct bench_view *bv, const struct nsb_cp *cp)
{
	const struct nsb_hrec *a = bv->pts[cp->index - 1], *b =
		bv->pts[cp->index];
	json_t *o = json_pack("{s:s, s:I, s:s, s:s, s:f, s:f, s:f, s:f, "
			      "s:{s:f, s:f, s:f, s:f}, s:f, s:f}",
			      "benchmark", bv->bench,
			      "index", (json_int_t)cp->index,
			      "run_before", a->run, "run_after", b->run,
			      "before", cp->before, "after", cp->after,
			      "pct", cp->pct, "noise_pct", cp->noise_pct,
			      "shift", "est", cp->shift.est, "lo",
			      cp->shift.lo, "hi", cp->shift.hi, "level",
			      cp->shift.level, "p", cp->p, "q", cp->q);

	if (o && a->kernel_commit && b->kernel_commit) {
		json_object_set_new(o, "commit_before",
				    json_string(a->kernel_commit));
		json_object_set_new(o, "commit_after",
				    json_string(b->kernel_commit));
	}
	return o;
}

static int view(struct hopts *o, const struct nsb_history *h,
		struct bench_view *bv, json_t *out)
{
	long k;
	size_t i;

	bv->vkind = nsb_history_vkind(bv->pts, bv->n);
	k = nsb_history_changes(bv->pts, bv->n, &o->cp, &bv->cps);
	if (k < 0)
		return -1;
	bv->ncp = (size_t)k;
	if (o->sub == SUB_PLOT)
		return nsb_trend_plot(&o->plot, bv->bench, bv->pts, bv->n,
				      bv->cps, bv->ncp);
	if (o->json) {
		for (i = 0; i < bv->ncp; i++)
			if (json_array_append_new(out, cp_json(bv,
							       &bv->cps[i])))
				return -1;
		return 0;
	}
	if (o->sub == SUB_CHANGES && !bv->ncp)
		return 0;
	printf("\n%s  (%s, %s; %zu runs)\n", bv->bench, bv->pts[0]->unit,
	       bv->pts[0]->mode ? bv->pts[0]->mode : "?", bv->n);
	if (o->sub == SUB_SHOW)
		print_series(bv);
	for (i = 0; i < bv->ncp && !o->no_changes; i++)
		print_cp(bv, &bv->cps[i]);
	return 0;
}

/* Is this the first record of its benchmark?  seen: names so far. */
static bool first_of(json_t *seen, const char *bench)
{
	if (json_object_get(seen, bench))
		return false;
	json_object_set_new(seen, bench, json_true());
	return true;
}

/*
 * A history too short for any change point to be flagged says so: "0
 * change points" over 8 runs with a clear +3 % step in them is no
 * evidence of no step, only of too few runs.
 */
static void too_short(const struct nsb_cp_opts *cp, size_t longest)
{
	size_t need = nsb_cp_min_runs(cp);

	if (!need)
		printf("too short: no change point can reach p <= %g with %zu "
		       "permutations (--perms)\n", cp->sig, cp->perms);
	else if (longest < need)
		printf("too short: %zu run(s) in the longest series; a change "
		       "point needs %zu (at least %zu on each side, p <= %g): "
		       "%zu more run(s)\n", longest, need, cp->min_size,
		       cp->sig, need - longest);
}

static int sub_views(struct hopts *o, const struct nsb_history *h)
{
	json_t *out = json_array(), *seen = json_object();
	struct bench_view bv;
	size_t i, shown = 0, changes = 0, longest = 0;
	bool icount = false;
	long n;
	int ret = 2;

	for (i = 0; out && seen && i < h->n; i++) {
		if (!first_of(seen, h->r[i].bench) || (o->have_re &&
		    regexec(&o->re, h->r[i].bench, 0, NULL, 0)))
			continue;
		memset(&bv, 0, sizeof(bv));
		bv.bench = h->r[i].bench;
		n = nsb_history_series(h, bv.bench, &bv.pts);
		bv.n = n > 0 ? (size_t)n : 0;
		if (n > 0 && view(o, h, &bv, out))
			n = -1;
		changes += bv.ncp;
		icount |= bv.vkind == NSB_V_INSN;
		free(bv.pts);
		free(bv.cps);
		if (n < 0)
			goto out;
		shown += n > 0;
		if (n > 0 && (size_t)n > longest)
			longest = (size_t)n;
	}
	if (o->json && json_dumpf(out, stdout, JSON_INDENT(2)) == 0)
		putchar('\n');
	if (shown && !o->json && o->sub != SUB_PLOT) {
		printf("\n%zu change point(s) in %zu benchmark(s) (sig %g, %zu "
		       "permutations, threshold %g %%)\n", changes, shown,
		       o->cp.sig, o->cp.perms, o->cp.threshold);
		too_short(&o->cp, longest);
		/* which rule flagged them, for icount series */
		if (icount)
			printf("rule: icount series flagged when the shift "
			       "lies beyond +-%g insn%s\n", NSB_ICOUNT_BAND,
			       o->cp.threshold_given ? ", and only at the "
			       "threshold or more" : "; the threshold only "
			       "filters when given");
	}
	if (!shown)
		fprintf(stderr, "nsbench history: no benchmark with results "
			"in %s%s\n", h->path, o->have_re ? " matching" : "");
	ret = shown ? 0 : 2;
out:
	json_decref(out);
	json_decref(seen);
	return ret;
}

/* The options `changes` takes decide the site's change points too. */
static int sub_publish(struct hopts *o, const struct nsb_history *h)
{
	if (o->pub.out && !o->out_dir)
		fprintf(stderr, "nsbench history publish: --out=DIR is "
			"deprecated; use --out-dir=DIR\n");
	if (o->out_dir)
		o->pub.out = o->out_dir;
	if (!o->pub.out || !*o->pub.out) {
		fprintf(stderr, "nsbench history publish: no --out-dir=DIR\n");
		nsb_usage_hint(&history_usage);
		return 2;
	}
	if (!o->pub.title)
		o->pub.title = "nsbench history";
	o->pub.cp = o->cp;
	o->pub.re = o->have_re ? &o->re : NULL;
	return nsb_history_publish(&o->pub, h);
}

static int sub_false_alarms(const struct hopts *o)
{
	static const char *const kind[] = { "Gaussian", "Student t(3)" };
	double r;
	int i;

	printf("noise-only series: %ld per kind, lengths 30..50, noise CV 1 "
	       "%%,\nsig %g, %zu permutations, threshold %g %%, min size "
	       "%zu, seed %lu\n", o->false_alarms, o->cp.sig, o->cp.perms,
	       o->cp.threshold, o->cp.min_size, o->cp.seed);
	for (i = 0; i < 2; i++) {
		r = nsb_cp_false_alarms(&o->cp, (size_t)o->false_alarms,
					(enum nsb_cp_noise)i, 0.01, 42 + i);
		if (r < 0)
			return 2;
		printf("  %-13s %.1f %% of series with a flagged change "
		       "point\n", kind[i], 100 * r);
	}
	return 0;
}

int cmd_history(int argc, char **argv)
{
	struct hopts o = {
		.history = NSB_HISTORY_DEFAULT,
		.plot = { .out_dir = "plots", .stem = "trend", .svg = true,
			  .png = true },
	};
	struct nsb_history h = { 0 };
	int ret = 2;

	nsb_cp_opts_default(&o.cp);
	o.plot.templates = getenv("NSB_PLOTS") ?: "plots";
	ret = parse(&o, argc, argv);
	if (ret)
		goto out_opts;
	if (o.out_dir && o.sub != SUB_PUBLISH)
		o.plot.out_dir = o.out_dir;
	/* libnsb's messages: the site's and the chart's speak for theirs */
	nsb_set_prog(o.sub == SUB_PUBLISH ? "nsbench history publish" :
		     o.sub == SUB_PLOT ? "nsbench history plot" :
		     "nsbench history");
	ret = 2;
	if (o.false_alarms) {
		ret = sub_false_alarms(&o);
		goto out_opts;
	}
	if (nsb_history_load(&h, o.history, stderr))
		goto out;
	if (o.sub == SUB_APPEND) {
		ret = sub_append(&o, &h, o.nargs, o.args);
	} else if (o.sub == SUB_ACCEPT) {
		ret = sub_accept(&o, &h, o.nargs, o.args);
	} else if (o.nargs) {
		fprintf(stderr, "nsbench history %s: unexpected '%s'\n",
			sub_names[o.sub], o.args[0]);
		nsb_usage_hint(&history_usage);
	} else if (o.sub == SUB_PUBLISH) {
		ret = sub_publish(&o, &h);
	} else {
		ret = sub_views(&o, &h);
	}
out:
	nsb_history_free(&h);
out_opts:
	if (o.have_re)
		regfree(&o.re);
	return ret == NSB_PARSE_HELP ? 0 : ret;
}
