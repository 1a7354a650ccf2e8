// SPDX-License-Identifier: GPL-2.0
/*
 * report.c — `nsbench report BASE... -- PATCHED...`: the comparison as a
 * reviewer pastes it into an LKML reply (plain text, at most 72 columns)
 * or a web review (--markdown), followed by the provenance of both sides
 * and the commands that reproduce it.  A number without its kernel,
 * config, mode and host is not a result.
 */
#include <stdlib.h>
#include <string.h>

#include "src/lib/render/abtable.h"
#include "src/lib/stats/compare.h"
#include "src/lib/base/nsbench.h"
#include "src/lib/base/options.h"
#include "src/lib/stats/perfdiff.h"
#include "src/lib/stats/profile.h"
#include "src/lib/render/provenance.h"
#include "src/cmd/cli.h"

struct report_opts {
	bool markdown;
	bool gate;		/* exit 1 on a slower row, as compare does */
	const char *out;
	const char *perf_base, *perf_patched;	/* perf.data files */
	struct nsb_perf perf;
	const char *prof_base, *prof_patched;	/* profile dirs */
	struct nsb_prof_sides prof;
};

static void report(FILE *f, const struct nsb_comparison *c, bool md,
		   const struct nsb_perf *perf,
		   const struct nsb_prof_sides *prof)
{
	struct nsb_sb a = NSB_SB_INIT, b = NSB_SB_INIT, mode = NSB_SB_INIT;

	nsb_ctx_values(&c->base, "patch_series", &a);
	nsb_ctx_values(&c->patched, "patch_series", &b);
	nsb_ctx_values(&c->base, "nsbench_mode", &mode);
	if (md) {
		fputs("## nsbench: patched (", f);
		nsb_md_put_text(f, nsb_sb_str(&b));
		fputs(") vs base (", f);
		nsb_md_put_text(f, nsb_sb_str(&a));
		fputs("), ", f);
		nsb_md_put_text(f, nsb_sb_str(&mode));
		fputs("\n\n", f);
	}
	else {
		struct nsb_sb line = NSB_SB_INIT;

		/* wrapped: a series name may be long */
		nsb_sb_addf(&line, "nsbench: patched (series %s) vs base "
			    "(series %s), %s mode", nsb_sb_str(&b),
			    nsb_sb_str(&a), nsb_sb_str(&mode));
		/* icount: a threshold is the user's filter, if any */
		if (!c->base.icount || c->o.threshold_given)
			nsb_sb_addf(&line, ", %sthreshold %.1f%%",
				    c->base.icount ? "your " : "",
				    c->o.threshold);
		nsb_wrap(f, "", nsb_sb_str(&line));
		fputc('\n', f);
		nsb_sb_release(&line);
	}
	nsb_sb_release(&a);
	nsb_sb_release(&b);
	nsb_sb_release(&mode);
	nsb_ab_table_where(f, c, md, prof);
	if (perf->n)
		nsb_perf_print(f, md, perf);
	nsb_prov_comparison(f, md, c);
}

static const struct nsb_usage report_usage = {
	.who = "nsbench report",
	.synopsis = "nsbench report [options] BASE... -- PATCHED...\n"
		    "nsbench report [options] FILE|DIR...  (no \"--\": "
		    "nsbench costs; deprecated)",
	.about = "The comparison as a posting-ready report: plain text of at "
		 "most 72\ncolumns for an LKML reply, or Markdown; then the "
		 "provenance of both\nsides and the commands that reproduce "
		 "it.\n",
};

/* --profile-base/--profile-patched: loaded, and the rows compared. */
static int load_profiles(struct report_opts *ro,
			 const struct nsb_comparison *c)
{
	if (!ro->prof_base != !ro->prof_patched) {
		fprintf(stderr, "nsbench report: --profile-base and "
			"--profile-patched go together\n");
		return -1;
	}
	if (!ro->prof_base)
		return 0;
	return nsb_prof_sides_load(&ro->prof, ro->prof_base,
				   ro->prof_patched) ||
	       nsb_prof_sides_prepare(&ro->prof, c) ? -1 : 0;
}

/*
 * Files without "--": the check costs of one toggles kernel, the old
 * spelling of nsbench costs, kept for scripts written against it and
 * said to be old on stderr (stdout stays what costs writes).  No file at
 * all (--help): report's own.
 */
static bool costs_args(int argc, char **argv)
{
	bool files = false;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return false;
		files |= argv[i][0] != '-';
	}
	return files;
}

int cmd_report(int argc, char **argv)
{
	struct report_opts ro = { 0 };
	const struct nsb_option opts[] = {
		OPT_BOOL("markdown", &ro.markdown,
			 "Markdown instead of plain text"),
		OPT_STRING("out", &ro.out, "FILE",
			   "write FILE (atomically) instead of stdout"),
		OPT_BOOL("gate", &ro.gate,
			 "exit 1 when a row is slower (compare's exit status);\n"
			 "without it the report exits 0 unless the input is bad"),
		OPT_STRING("perf-base", &ro.perf_base, "FILE",
			   "perf.data of the base: with --perf-patched, adds\n"
			   "the perf diff share of the check functions and the\n"
			   "largest changes"),
		OPT_STRING("perf-patched", &ro.perf_patched, "FILE",
			   "perf.data of the patched side"),
		OPT_STRING("profile-base", &ro.prof_base, "DIR",
			   "the base's profiles (a directory of nsbench\n"
			   "profile-import's *.profile.json, or one file): with\n"
			   "--profile-patched, under each slower or faster row,\n"
			   "where its instructions go"),
		OPT_STRING("profile-patched", &ro.prof_patched, "DIR",
			   "the patched side's profiles"),
		OPT_END(),
	};
	struct nsb_comparison c;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	if (costs_args(argc, argv)) {
		fputs("nsbench report: FILE|DIR... without \"--\" is deprecated; "
		      "use nsbench costs\n", stderr);
		return cmd_costs(argc, argv);
	}
	ret = nsb_compare_main(&c, argc, argv, opts, &report_usage);
	if (ret) {
		ret = ret == NSB_PARSE_HELP ? 0 : ret;
		goto out;
	}
	if (!ro.perf_base != !ro.perf_patched) {
		fprintf(stderr, "nsbench report: --perf-base and "
			"--perf-patched go together\n");
		ret = 2;
		goto out;
	}
	if (ro.perf_base &&
	    nsb_perf_diff(&ro.perf, ro.perf_base, ro.perf_patched)) {
		ret = 2;
		goto out;
	}
	if (load_profiles(&ro, &c)) {
		ret = 2;
		goto out;
	}
	f = ro.out ? open_memstream(&text, &len) : stdout;
	if (!f) {
		ret = 2;
		goto out;
	}
	report(f, &c, ro.markdown, &ro.perf, &ro.prof);
	if (ro.out) {
		fclose(f);
		if (nsb_write_file_atomic(ro.out, text, len))
			ret = 2;
	}
	if (!ret && ro.gate)
		ret = nsb_compare_status(&c);
out:
	free(text);
	nsb_perf_free(&ro.perf);
	nsb_prof_sides_free(&ro.prof);
	nsb_comparison_free(&c);
	return ret;
}
