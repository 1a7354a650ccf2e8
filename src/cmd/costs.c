// SPDX-License-Identifier: GPL-2.0
/*
 * costs.c — `nsbench costs FILE|DIR...`: what each userns mount check
 * costs, from the in-boot check A/B of one toggles kernel (results whose
 * context names nsbench_check; src/lib/stats/costs.h computes the
 * tables), with the provenance; runs of several kernel releases give each
 * release's tables, then the change of each later one against the first.
 * `nsbench report FILE|DIR...` (no "--") is its old spelling.
 */
#include <stdlib.h>
#include <string.h>

#include "src/lib/stats/costs.h"
#include "src/lib/base/nsbench.h"
#include "src/lib/base/options.h"
#include "src/lib/render/provenance.h"
#include "src/lib/stats/xversion.h"
#include "src/cmd/cli.h"

struct costs_opts {
	bool markdown;
	const char *out, *json, *command;
	const char *md_file;	/* --markdown=FILE */
};

static const struct nsb_usage costs_usage = {
	.who = "nsbench costs",
	.synopsis = "nsbench costs [options] FILE|DIR...\n"
		    "nsbench report [options] FILE|DIR...  (the old spelling)",
	.about = "The in-boot check A/B of the toggles kernel (results whose "
		 "context\nnames nsbench_check; a DIR gives its *.json).  Opens "
		 "with what each\ncheck costs, then the 2015 forms, the A/A "
		 "residuals, the cache model's\ntable (results of boots with "
		 "the cache-model plugin: loads, L1d and\nLL misses warm and "
		 "cold, estimated cycles, the functions that move),\nthe "
		 "toggles' own cost (from stock files of the same plan, if "
		 "given)\nand the provenance.  Runs of several kernel releases: "
		 "each release's\ntables, then the change of each later one "
		 "against the first.\n",
	.epilog = "Exit: 0, or 2 on bad input.  (Two kernels: "
		  "nsbench report BASE... -- PATCHED...)\n",
};

/* --markdown: --out (or stdout) in Markdown; --markdown=FILE: FILE too. */
static int markdown_cb(const struct nsb_option *opt, const char *arg)
{
	struct costs_opts *o = opt->value;

	if (arg)
		o->md_file = arg;
	else
		o->markdown = true;
	return 0;
}

/* The options, then argv[1..*argc) the files; 0, NSB_PARSE_HELP or 2. */
static int costs_parse(int *argc, char **argv, struct costs_opts *o)
{
	const struct nsb_option opts[] = {
		OPT_CALLBACK_OPTARG("markdown", o, "FILE",
				    "Markdown instead of plain text; with "
				    "FILE,\nalso the Markdown report in FILE",
				    markdown_cb),
		OPT_STRING("out", &o->out, "FILE",
			   "write FILE (atomically) instead of stdout"),
		OPT_STRING("json", &o->json, "FILE",
			   "also the rows as JSON (for plot costs)"),
		OPT_STRING("command", &o->command, "CMD",
			   "the host command that reproduces the run"),
		OPT_END(),
	};
	int r = nsb_parse_options(argc, argv, opts, &costs_usage, 0);

	if (r)
		return r;
	if (*argc < 2) {
		fprintf(stderr, "nsbench costs: no results files\n");
		nsb_usage_hint(&costs_usage);
		return 2;
	}
	return 0;
}

static void costs_report(FILE *f, const struct nsb_costs *c,
			 const struct costs_opts *o, bool markdown)
{
	if (markdown)
		fprintf(f, "## nsbench: what each userns mount check costs\n\n");
	else
		fprintf(f, "nsbench: what each userns mount check costs\n\n");
	nsb_costs_print(f, c, markdown);
	nsb_prov_costs(f, markdown, c, o->command);
}

/* --- one call, every format -------------------------------------------- */

struct costs_input {
	const struct nsb_xv_side *xv;
	size_t n;
};

static int xv_report(FILE *f, const struct nsb_xv_side *xv, size_t n,
		     const struct costs_opts *o, bool markdown);

/* The report in one format, to path (atomically) or, if NULL, stdout. */
static int emit(const struct costs_input *in, const struct costs_opts *o,
		const char *path, bool markdown)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = path ? open_memstream(&text, &len) : stdout;
	int ret = 0;

	if (!f)
		return 2;
	if (in->n == 1)
		costs_report(f, &in->xv[0].costs, o, markdown);
	else
		ret = xv_report(f, in->xv, in->n, o, markdown);
	if (path) {
		fclose(f);
		if (!ret)
			ret = nsb_write_file_atomic(path, text, len) ? 2 : 0;
	}
	free(text);
	return ret;
}

/* One release's rows, or each release's and the changes between them. */
static json_t *costs_json(const struct costs_input *in)
{
	json_t *j, *vers, *cross;
	size_t i;

	if (in->n == 1)
		return nsb_costs_json(&in->xv[0].costs);
	j = json_object();
	vers = json_object();
	cross = json_array();
	for (i = 1; j && vers && cross && i < in->n; i++)
		json_array_append_new(cross, nsb_xv_json(&in->xv[0],
							 &in->xv[i]));
	for (i = 0; j && vers && cross && i < in->n; i++)
		json_object_set_new(vers, in->xv[i].version,
				    nsb_costs_json(&in->xv[i].costs));
	if (j && vers && cross) {
		json_object_set(j, "versions", vers);
		json_object_set(j, "cross_version", cross);
	}
	json_decref(vers);
	json_decref(cross);
	return j;
}

/*
 * Every format from one load and one computation: --out (or stdout),
 * --markdown=FILE, --json, as ab.sh writes report.txt, report.md and
 * costs.json in one call.
 */
static int costs_write(const struct costs_input *in,
		       const struct costs_opts *o)
{
	int ret = emit(in, o, o->out, o->markdown);

	if (!ret && o->md_file)
		ret = emit(in, o, o->md_file, true);
	if (!ret && o->json) {
		json_t *j = costs_json(in);

		ret = !j || nsb_json_write_atomic(o->json, j) ? 2 : 0;
		json_decref(j);
	}
	return ret;
}

/* --- several kernel versions: each one's tables, then the change ------ */

#define XV_MAX	4

/* The side of version v, a new one if there is room; NULL if not. */
static struct nsb_xv_side *xv_side(struct nsb_xv_side *xv, size_t *n,
				   const char *v)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp(xv[i].version, v))
			return &xv[i];
	if (*n == XV_MAX)
		return NULL;
	snprintf(xv[*n].version, sizeof(xv[*n].version), "%s", v);
	nsb_costs_init(&xv[*n].costs);
	/* counted even when init failed: the caller frees what it holds */
	return xv[(*n)++].costs.fam ? &xv[*n - 1] : NULL;
}

/* Release order: 6.1.192 before 6.12.118 before 7.0 ("unknown" last). */
static int cmp_version(const void *pa, const void *pb)
{
	const struct nsb_xv_side *a = pa, *b = pb;
	int ua = !strcmp(a->version, "unknown");
	int ub = !strcmp(b->version, "unknown");

	return ua != ub ? ua - ub : strverscmp(a->version, b->version);
}

/* Each file into the tables of its kernel version; -1 on bad input. */
static int xv_load(struct nsb_xv_side *xv, size_t *n, char **files)
{
	char v[64];
	size_t i;

	for (i = 0; files[i]; i++) {
		struct nsb_xv_side *s;

		if (nsb_xv_file_version(files[i], v, sizeof(v)))
			return -1;
		s = xv_side(xv, n, v);
		if (!s) {
			fprintf(stderr, "nsbench costs: %s: more than %d "
				"kernel releases (or out of memory)\n",
				files[i], XV_MAX);
			return -1;
		}
		if (nsb_costs_load(&s->costs, files[i]))
			return -1;
	}
	qsort(xv, *n, sizeof(*xv), cmp_version);
	for (i = 0; i < *n; i++) {
		const char *rel = nsb_json_str(xv[i].costs.ctx,
					       "kernel_release");

		snprintf(xv[i].release, sizeof(xv[i].release), "%.63s",
			 rel ? rel : xv[i].version);
		if (nsb_costs_compute(&xv[i].costs))
			return -1;
	}
	return 0;
}

/*
 * Runs of several kernel versions: each version's report, one after
 * the other, then the change of each later version against the first.
 */
static int xv_report(FILE *f, const struct nsb_xv_side *xv, size_t n,
		     const struct costs_opts *o, bool markdown)
{
	size_t i;

	fprintf(f, markdown ? "## nsbench: what each userns mount check "
		"costs, on %zu kernel releases\n\n" : "nsbench: what each "
		"userns mount check costs, on %zu kernel releases\n\n", n);
	for (i = 1; i < n; i++) {
		if (nsb_xv_print(f, &xv[0], &xv[i], markdown))
			return 2;
		fputc('\n', f);
	}
	for (i = 0; i < n; i++) {
		fprintf(f, markdown ? "\n## Linux %s\n\n" :
			"\n== Linux %s ==\n\n", xv[i].release);
		nsb_costs_print(f, &xv[i].costs, markdown);
		nsb_prov_costs(f, markdown, &xv[i].costs, o->command);
	}
	return 0;
}

int cmd_costs(int argc, char **argv)
{
	struct costs_opts o = { 0 };
	struct nsb_xv_side xv[XV_MAX];
	char **files = NULL;
	size_t n = 0, k;
	int ret = costs_parse(&argc, argv, &o), i;

	if (ret)
		return ret == NSB_PARSE_HELP ? 0 : ret;
	files = nsb_costs_expand(argv + 1, argc - 1);
	ret = 2;
	if (!files || xv_load(xv, &n, files))
		goto out;
	if (n) {
		struct costs_input in = { xv, n };

		ret = costs_write(&in, &o);
	} else {
		fprintf(stderr, "nsbench costs: no results files\n");
	}
out:
	for (i = 0; files && files[i]; i++)
		free(files[i]);
	free(files);
	for (k = 0; k < n; k++)
		nsb_costs_free(&xv[k].costs);
	return ret;
}
