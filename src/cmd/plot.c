// SPDX-License-Identifier: GPL-2.0
/*
 * plot.c — `nsbench plot`: charts rendered by gnuplot.  Four
 * modes, each with its own options: `plot [ab]` (a comparison:
 * src/lib/render/plot.c), `plot costs FILE` (src/lib/render/costplot.c),
 * `plot profile FILE` (src/lib/render/profplot.c) and `plot trend FILE`
 * (src/lib/render/trend.c); their old spellings --costs=FILE, --profile=FILE
 * and --trend=FILE select them too, with a deprecation line on stderr.
 */
#include <stdlib.h>
#include <string.h>

#include "src/lib/stats/compare.h"
#include "src/lib/stats/costs.h"
#include "src/lib/render/gnuplot.h"
#include "src/lib/base/nsbench.h"
#include "src/lib/base/options.h"
#include "src/lib/render/plot.h"
#include "src/lib/stats/profile.h"
#include "src/lib/stats/stats.h"
#include "src/lib/render/trend.h"
#include "src/cmd/cli.h"

#define WHO		"nsbench plot"

struct plot_opts {
	struct nsb_plot p;
	const char *trend, *title, *unit;	/* plot trend */
	const char *quantity;			/* plot costs */
};

/* --- trend from a file ------------------------------------------------ */

/* plot trend FILE: no comparison, the rows of a file (lib/trend.c). */
static int plot_trend(struct plot_opts *o, const struct nsb_trend_pt *pts,
		      size_t n)
{
	char *base = NULL;
	struct nsb_trend_chart ch = {
		.who = WHO, .templates = o->p.templates, .tmp = o->p.tmp,
		.log = o->p.log, .svg = o->p.svg, .png = o->p.png,
		.title = o->title ?: "history of the median with its "
			 NSB_CI_S "% CI",
		.unit = o->unit ?: "ns", .extra = "run, oldest first",
		.label_max = 24,
	};
	int ret;

	if (asprintf(&base, "%s/%s-trend", o->p.out_dir, o->p.stem) < 0)
		return 2;
	ch.out_base = base;
	ret = nsb_trend_render(&ch, pts, n) ? 2 : 0;
	free(base);
	return ret;
}

/* --- command: one mode a chart kind, each with its options --------- */

/* --format=LIST: svg, png or both. */
static int set_format(const struct nsb_option *opt, const char *arg)
{
	struct nsb_plot *p = opt->value;

	p->svg = strstr(arg, "svg") != NULL;
	p->png = strstr(arg, "png") != NULL;
	return p->svg || p->png ? 0 : -1;
}

#define OPT_PLOT_OUT(o)							\
	OPT_STRING("out-dir", &(o)->p.out_dir, "DIR",			\
		   "where plots go (default plots)"),			\
	OPT_STRING("templates", &(o)->p.templates, "DIR",		\
		   "the .gp templates (default $NSB_PLOTS, else "	\
		   "beside the\nprogram: ../share/nsbench/plots, "	\
		   "../plots)"),					\
	OPT_STRING("stem", &(o)->p.stem, "NAME",			\
		   "file name stem (default nsbench)")
#define OPT_PLOT_GP(o)							\
	OPT_CALLBACK("format", &(o)->p, "LIST",				\
		     "svg, png or svg,png (default)", set_format),	\
	OPT_BOOL("keep-data", &(o)->p.keep,				\
		 "keep the data and variable files gnuplot read, and\n"	\
		 "gnuplot.sh to rerun it (their directory is printed)")

static const char modes_about[] =
"Modes (the first word; without one, ab):\n"
"  ab       BASE... -- PATCHED...: per benchmark family (sys/exec, ...)\n"
"           <stem>-ab-<family>, -depth-<family>, -dist-<family>\n"
"  costs    FILE of `nsbench costs --json`: <stem>-costs\n"
"  profile  FILE of `nsbench profile --json`: <stem>-profile-<name>\n"
"  trend    FILE of \"<UTC time> median ci_lo ci_hi [commit]\" rows:\n"
"           <stem>-trend\n"
"(`nsbench plot MODE --help`: its options.  The old spellings --costs=FILE,\n"
"--profile=FILE and --trend=FILE still select those modes; deprecated.)\n";

static const struct nsb_usage ab_usage = {
	.who = WHO,
	.synopsis = "nsbench plot ab [options] BASE... -- PATCHED...  "
		    "(ab: the default)\n"
		    "nsbench plot costs [options] FILE\n"
		    "nsbench plot profile [options] FILE\n"
		    "nsbench plot trend [options] FILE",
	.about =
"Render plots with gnuplot from the templates plots/*.gp.  ab: one chart\n"
"per benchmark family (sys/exec, models/in_userns, ...), at most ~1200 px\n"
"wide; a large family is split over <name>-1, <name>-2, ...:\n"
"  <stem>-ab-<family>     the shift of the median (patched vs base, %) per\n"
"                         benchmark with its " NSB_CI_S
"% CI, zero line, threshold band\n"
"  <stem>-depth-<family>  cost against depth:N (log2 axis), a line per variant\n"
"                         and side (variants with two or more depths)\n"
"  <stem>-dist-<family>   box plots of the samples, in % of the base median\n"
"(<family> with '/' as '_': sys_exec)\n",
	.epilog = modes_about,
};

enum plot_mode { MODE_AB, MODE_COSTS, MODE_PROFILE, MODE_TREND, NMODES };

static const char *const mode_names[NMODES] = {
	[MODE_AB] = "ab", [MODE_COSTS] = "costs", [MODE_PROFILE] = "profile",
	[MODE_TREND] = "trend",
};

/* A mode that reads one FILE, and its old spelling --MODE=FILE. */
#define FILE_MODE(m, text) {						\
	.who = WHO,							\
	.synopsis = "nsbench plot " m " [options] FILE\n"		\
		    "nsbench plot --" m "=FILE [options]  (deprecated)", \
	.about = text,							\
}

static const struct nsb_usage mode_usage[NMODES] = {
	[MODE_COSTS] = FILE_MODE("costs",
		"The check costs of `nsbench costs --json` (on - off, same "
		"boot), as\n<stem>-costs.svg and .png; 32 rows a chart, at "
		"most 64 charts (2048\nrows): the rest are left out, and "
		"said so in one line.\n"),
	[MODE_PROFILE] = FILE_MODE("profile",
		"Per benchmark of `nsbench profile --json`, each symbol's "
		"shift per op\n(" NSB_CI_S "% CI), as <stem>-profile-<name>.svg "
		"and "
		".png; at most 64 benchmarks\n(charts): the rest are left "
		"out, and said so in one line.\n"),
	[MODE_TREND] = FILE_MODE("trend",
		"A benchmark's history by run, as <stem>-trend: FILE has "
		"rows\n\"<UTC time> median ci_lo ci_hi [commit]\" (time as "
		"2026-12-03T08:30:00Z;\ntic labels: the commit, else the "
		"date; # starts a comment).\n"),
};

/*
 * The mode: a first word naming one (taken off argv), else the old
 * spelling --costs, --profile or --trend before any "--", else ab.
 */
static enum plot_mode plot_mode(int *argc, char **argv)
{
	int i, m;

	for (m = 0; *argc > 1 && m < NMODES; m++)
		if (!strcmp(argv[1], mode_names[m])) {
			memmove(argv + 1, argv + 2, (size_t)(*argc - 1) *
				sizeof(*argv));
			(*argc)--;
			return m;
		}
	for (i = 1; i < *argc && strcmp(argv[i], "--"); i++)
		for (m = MODE_COSTS; m < NMODES; m++) {
			size_t len = strlen(mode_names[m]);

			if (!strncmp(argv[i], "--", 2) &&
			    !strncmp(argv[i] + 2, mode_names[m], len) &&
			    (argv[i][len + 2] == '=' || !argv[i][len + 2]))
				return m;
		}
	return MODE_AB;
}

/*
 * The FILE of a mode that reads one: the operand, or the old --MODE=FILE
 * (*file already set, said to be deprecated); one of them, once.  0, or
 * 2 after why.
 */
static int one_file(int argc, char **argv, const char **file,
		    const char *mode, const struct nsb_usage *u)
{
	if (argc == 2 && !*file) {
		*file = argv[1];
		return 0;
	}
	if (argc == 1 && *file) {
		fprintf(stderr, WHO ": --%s=FILE is deprecated; use nsbench "
			"plot %s FILE\n", mode, mode);
		return 0;
	}
	if (argc > 2 || (argc == 2 && *file))
		fprintf(stderr, WHO ": unknown argument '%s' (one FILE, and "
			"plot options only)\n", argv[argc - 1]);
	else
		fprintf(stderr, WHO ": no FILE\n");
	nsb_usage_hint(u);
	return 2;
}

/* plot costs | plot profile: the chart of the check costs or a profile. */
static int cmd_plot_rows(struct plot_opts *o, int argc, char **argv,
			 bool profile)
{
	const char *file = NULL;
	const struct nsb_option opts[] = {
		OPT_PLOT_OUT(o),
		OPT_STRING(profile ? "profile" : "costs", &file, "FILE",
			   "FILE (deprecated: give it as the operand)"),
		OPT_STRING("quantity", &o->quantity, "KEY",
			   "costs: a cache-model quantity instead of the\n"
			   "instructions (rows[].cache.KEY: loads, l1d_miss,\n"
			   "ll_miss, cycles, l1d_miss_cold, ll_miss_cold,\n"
			   "cycles_cold, ...; NSB_CACHESIM=1 runs)"),
		OPT_END(),
	};
	const struct nsb_usage *u = &mode_usage[profile ? MODE_PROFILE :
						   MODE_COSTS];
	int ret = nsb_parse_options(&argc, argv, opts, u, 0);

	if (ret)
		return ret == NSB_PARSE_HELP ? 0 : ret;
	if (one_file(argc, argv, &file, profile ? "profile" : "costs", u))
		return 2;
	o->p.templates = nsb_gp_templates(o->p.templates, WHO);
	if (!o->p.templates)
		return 2;
	if (profile && o->quantity) {
		fprintf(stderr, WHO ": --quantity is plot costs' option\n");
		return 2;
	}
	if (profile)
		return nsb_prof_plot(file, o->p.out_dir, o->p.stem,
				     o->p.templates);
	return nsb_costs_plot(file, o->p.out_dir, o->p.stem, o->p.templates,
			      o->quantity);
}

static int cmd_plot_trend(struct plot_opts *o, int argc, char **argv)
{
	const struct nsb_option opts[] = {
		OPT_PLOT_OUT(o),
		OPT_PLOT_GP(o),
		OPT_STRING("title", &o->title, "TEXT", "title of the plot"),
		OPT_STRING("unit", &o->unit, "TEXT",
			   "unit of the values (default ns)"),
		OPT_STRING("trend", &o->trend, "FILE", "FILE (deprecated: give it as the operand)"),
		OPT_END(),
	};
	const struct nsb_usage *u = &mode_usage[MODE_TREND];
	int ret = nsb_parse_options(&argc, argv, opts, u, 0);
	struct nsb_trend_pt *pts;
	long n;

	if (ret)
		return ret == NSB_PARSE_HELP ? 0 : ret;
	if (one_file(argc, argv, &o->trend, "trend", u))
		return 2;
	/* read before the output directory is made: bad rows write nothing */
	n = nsb_trend_read(WHO, o->trend, &pts);
	if (n < 0)
		return 2;
	if (!n) {
		fprintf(stderr, WHO ": %s: no rows\n", o->trend);
		return 2;
	}
	ret = nsb_plot_start(&o->p) ?: plot_trend(o, pts, (size_t)n);
	nsb_plot_finish(&o->p);
	nsb_trend_pts_free(pts, (size_t)n);
	return ret;
}

static int cmd_plot_ab(struct plot_opts *o, int argc, char **argv)
{
	const struct nsb_option opts[] = {
		OPT_PLOT_OUT(o),
		OPT_PLOT_GP(o),
		OPT_END(),
	};
	struct nsb_comparison c;
	int ret = nsb_compare_main(&c, argc, argv, opts, &ab_usage);

	if (!ret)
		ret = nsb_plot_start(&o->p) ?: nsb_plot_comparison(&o->p, &c);
	nsb_comparison_free(&c);
	nsb_plot_finish(&o->p);
	return ret == NSB_PARSE_HELP ? 0 : ret;
}

int cmd_plot(int argc, char **argv)
{
	struct plot_opts o = {
		.p = {
			.out_dir = "plots", .templates = getenv("NSB_PLOTS"),
			.stem = "nsbench", .svg = true, .png = true,
		},
	};

	nsb_set_prog(WHO);	/* the plot engines' messages */
	switch (plot_mode(&argc, argv)) {
	case MODE_COSTS:
		return cmd_plot_rows(&o, argc, argv, false);
	case MODE_PROFILE:
		return cmd_plot_rows(&o, argc, argv, true);
	case MODE_TREND:
		return cmd_plot_trend(&o, argc, argv);
	default:
		return cmd_plot_ab(&o, argc, argv);
	}
}
