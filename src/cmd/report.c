// SPDX-License-Identifier: GPL-2.0
/*
 * report.c — `nsbench report BASE... -- PATCHED...`: the comparison as a
 * reviewer pastes it into an LKML reply (plain text, at most 72 columns)
 * or a web review (--markdown), followed by the provenance of both sides
 * and the commands that reproduce it.  A number without its kernel,
 * config, mode and host is not a result.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/abtable.h"
#include "src/lib/compare.h"
#include "src/lib/costs.h"
#include "src/lib/shquote.h"
#include "src/lib/xversion.h"
#include "src/lib/nsbench.h"
#include "src/lib/options.h"
#include "src/lib/perfdiff.h"
#include "src/lib/profile.h"
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

/* A context value as shown: as is, or shortened (see short_id). */
typedef void (*show_fn)(const char *v, char *buf, size_t len);

static void show_as_is(const char *v, char *buf, size_t len)
{
	snprintf(buf, len, "%s", v);
}

/*
 * Hashes and commits shortened to what identifies them (16 hex digits
 * of a sha256, 12 of a commit, as git's short ids do) so a value fits a
 * 72-column line: "tarball:<64 hex>" -> "tarball sha256:<16>",
 * "git-tree:<40>" -> "git tree <12>", "sha256:<64>" -> "sha256:<16>",
 * 40 hex digits -> 12.  Anything else as is.
 */
static void short_id(const char *v, char *buf, size_t len)
{
	size_t hex = strspn(v, "0123456789abcdef");

	if (!strncmp(v, "tarball:", 8))
		snprintf(buf, len, "tarball sha256:%.16s", v + 8);
	else if (!strncmp(v, "git-tree:", 9))
		snprintf(buf, len, "git tree %.12s", v + 9);
	else if (!strncmp(v, "sha256:", 7))
		snprintf(buf, len, "sha256:%.16s", v + 7);
	else if (hex == 40 && !v[hex])
		snprintf(buf, len, "%.12s", v);
	else
		snprintf(buf, len, "%s", v);
}

/*
 * Distinct values of a context key over a side's files, each as show
 * gives it, "a, b"; an empty buf when no file has the key.
 */
static void ctx_shown(const struct nsb_side *s, const char *key,
		      show_fn show, char *buf, size_t len)
{
	size_t i, used = 0;
	char one[512];

	*buf = 0;
	for (i = 0; i < s->nfiles; i++) {
		const char *v = nsb_json_str(s->ctx[i], key);

		if (!v || !*v)
			continue;
		show(v, one, sizeof(one));
		if (strstr(buf, one))
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 used ? ", " : "", one);
		if (used >= len)
			break;
	}
}

/* Distinct values of a context key over a side's files, "a, b". */
static void ctx_values(const struct nsb_side *s, const char *key,
		       char *buf, size_t len)
{
	ctx_shown(s, key, show_as_is, buf, len);
	if (!*buf)
		snprintf(buf, len, "unknown");
}

static size_t ctx_count(const struct nsb_side *s, const char *key)
{
	char buf[1024], *p;
	size_t n = 1;

	ctx_values(s, key, buf, sizeof(buf));
	if (!strcmp(buf, "unknown"))
		return 0;
	for (p = buf; (p = strstr(p, ", ")); p += 2)
		n++;
	return n;
}

/* "key: value", wrapped under the value, text or Markdown list item. */
static void field(FILE *f, bool md, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void field(FILE *f, bool md, const char *key, const char *fmt, ...)
{
	char val[1024], line[64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(val, sizeof(val), fmt, ap);
	va_end(ap);
	if (md) {
		/* values come from the results' context: no markup */
		fprintf(f, "- **%s**: ", key);
		nsb_md_put_text(f, val);
		fputc('\n', f);
		return;
	}
	snprintf(line, sizeof(line), "  %-10s", key);
	nsb_wrap_hang(f, line, "            ", val);
}

/*
 * The source a kernel was built from: git commit and `git describe`
 * (a --ksrc build), else the tarball's or tree's hash; "not recorded"
 * for results older than scripts/kernel/build.sh's meta fields.
 */
static void source_of(const struct nsb_side *s, show_fn show, char *buf,
		      size_t len)
{
	char commit[256], desc[256];

	ctx_shown(s, "kernel_source_commit", show, commit, sizeof(commit));
	ctx_shown(s, "kernel_source_describe", show_as_is, desc,
		  sizeof(desc));
	if (*commit)
		snprintf(buf, len, "git %s%s%s%s", commit, *desc ? " (" : "",
			 desc, *desc ? ")" : "");
	else
		ctx_shown(s, "kernel_source", show, buf, len);
	if (!*buf)
		snprintf(buf, len, "not recorded");
}

/*
 * Which kernel a side ran: release and build, source, series with the
 * hash of its patches, config.  Text: one item a line, hashes short,
 * within 72 columns; Markdown: one list item, hashes whole.
 */
static void side_fields(FILE *f, bool md, const struct nsb_side *s)
{
	show_fn show = md ? show_as_is : short_id;
	char rel[256], ver[256], series[256], src[640], pat[256];
	char cfg[512];

	ctx_values(s, "kernel_release", rel, sizeof(rel));
	ctx_values(s, "kernel_version", ver, sizeof(ver));
	ctx_values(s, "patch_series", series, sizeof(series));
	source_of(s, show, src, sizeof(src));
	ctx_shown(s, "patch_series_sha256", show, pat, sizeof(pat));
	ctx_shown(s, "kernel_config_hash", show, cfg, sizeof(cfg));
	if (!*cfg)
		snprintf(cfg, sizeof(cfg), "unknown");
	if (md) {
		field(f, md, s->label, "kernel %s (%s), source %s, series %s"
		      "%s%s%s, config %s", rel, ver, src, series,
		      *pat ? " (patches " : "", pat, *pat ? ")" : "", cfg);
		return;
	}
	field(f, md, s->label, "kernel %s (%s)", rel, ver);
	field(f, md, "", "source %s", src);
	field(f, md, "", "series %s", series);
	if (*pat)
		field(f, md, "", "patches %s", pat);
	field(f, md, "", "config %s", cfg);
}

/* Samples per benchmark, as "5" or "5-8". */
static void sample_range(const struct nsb_comparison *c, char *buf,
			 size_t len)
{
	size_t i, lo = (size_t)-1, hi = 0;

	for (i = 0; i < c->n; i++) {
		const struct nsb_row *r = &c->rows[i];
		size_t n[2] = { r->a->n, r->b->n };
		int k;

		if (r->e.verdict >= NSB_SKIP)
			continue;	/* no samples on a side */
		for (k = 0; k < 2; k++) {
			if (n[k] < lo)
				lo = n[k];
			if (n[k] > hi)
				hi = n[k];
		}
	}
	if (lo > hi)
		snprintf(buf, len, "no");
	else if (lo == hi)
		snprintf(buf, len, "%zu", lo);
	else
		snprintf(buf, len, "%zu-%zu", lo, hi);
}

static void mode_field(FILE *f, bool md, const struct nsb_comparison *c)
{
	char mode[256];

	ctx_values(&c->base, "nsbench_mode", mode, sizeof(mode));
	if (c->base.icount) {
		field(f, md, "mode", "%s: times are guest instructions. Under "
		      "QEMU -icount shift=0,sleep=off -smp 1 one virtual ns is "
		      "one retired guest instruction, kernel included, so "
		      "\"insn\" counts instructions per operation; small "
		      "costs on the open path read ~5%% high, treat them as "
		      "instruction counts, not exact", mode);
		return;
	}
	field(f, md, "mode", "%s (%s, metric %s)", mode, c->base.unit,
	      c->o.metric);
}

/* The CI job that ran it (contrib/nsbench-ci.sh's context), if any. */
static void ci_field(FILE *f, bool md, const struct nsb_side *s)
{
	show_fn show = md ? show_as_is : short_id;
	char run[256], base[256], head[256];

	ctx_shown(s, "nsbench_ci_run_id", show_as_is, run, sizeof(run));
	ctx_shown(s, "nsbench_ci_base", show, base, sizeof(base));
	ctx_shown(s, "nsbench_ci_head", show, head, sizeof(head));
	if (!*run && !*base && !*head)
		return;
	field(f, md, "ci", "run %s: base %s, head %s", *run ? run : "unknown",
	      *base ? base : "none (the head alone)",
	      *head ? head : "unknown");
}

static void run_fields(FILE *f, bool md, const struct nsb_comparison *c)
{
	const struct nsb_side *s[2] = { &c->base, &c->patched };
	char host[256], cpu[256], ver[256], ver2[256], bt[64], reps[32];
	char runs[2][96];
	int k;

	ctx_values(&c->base, "host_name", host, sizeof(host));
	ctx_values(&c->base, "cpu_model", cpu, sizeof(cpu));
	field(f, md, "host", "%s, %s, %lld CPUs", host, cpu,
	      (long long)json_integer_value(json_object_get(c->base.ctx[0],
							    "num_cpus")));
	ctx_values(s[0], "nsbench_version", ver, sizeof(ver));
	ctx_values(s[1], "nsbench_version", ver2, sizeof(ver2));
	field(f, md, "nsbench", "base results by %s, patched by %s, "
	      "this report by %s", ver, ver2, nsb_version());
	sample_range(c, reps, sizeof(reps));
	for (k = 0; k < 2; k++) {
		size_t boots = ctx_count(s[k], "nsbench_boot");
		size_t rounds = ctx_count(s[k], "nsbench_round");

		snprintf(runs[k], sizeof(runs[k]), "%s %zu file(s)",
			 k ? "patched" : "base", s[k]->nfiles);
		if (boots || rounds)
			snprintf(runs[k] + strlen(runs[k]), sizeof(runs[k]) -
				 strlen(runs[k]), ", %zu boot(s), %zu "
				 "round(s)", boots, rounds);
	}
	field(f, md, "runs", "%s; %s; %s samples (repetitions) per "
	      "benchmark and side", runs[0], runs[1], reps);
	ci_field(f, md, &c->patched);
	ctx_values(&c->base, "library_build_type", bt, sizeof(bt));
	if (!strcmp(bt, "debug"))
		field(f, md, "note", "Debian's libbenchmark 1.7.1 reports a "
		      "debug build; its timing loop is inline in the header, "
		      "so per-iteration costs are not distorted");
}

/*
 * Length of the shell word at s: up to the first blank outside quotes, so
 * a quoted argument with a blank in it is never split by a wrap.
 */
static size_t sh_word_len(const char *s)
{
	const char *p;
	char q = 0;

	for (p = s; *p; p++) {
		if (q == '\'') {
			if (*p == '\'')
				q = 0;
		} else if (*p == '\\' && p[1]) {
			p++;
		} else if (q) {
			if (*p == '"')
				q = 0;
		} else if (*p == '\'' || *p == '"') {
			q = *p;
		} else if (*p == ' ') {
			break;
		}
	}
	return (size_t)(p - s);
}

/*
 * Writes the shell word w[0..n) from column *col; one longer than a line
 * (a filter, a hash) is split at column 68: backslash-
 * newline continues it, inside single quotes closed before and reopened
 * after; the continuation starts at column 0, where a blank would end
 * the word.  Never after an escaping backslash.
 */
static void put_word(FILE *f, const char *w, size_t n, size_t *col)
{
	bool bs = false;	/* the character before escapes this one */
	char q = 0;
	size_t i;

	if (*col + n + 2 <= 72) {	/* fits, with a " \\" after it */
		fwrite(w, 1, n, f);
		*col += n;
		return;
	}
	for (i = 0; i < n; i++) {
		char ch = w[i];

		if (!bs && *col >= 68 && ch != '\n') {
			fputs(q == '\'' ? "'\\\n'" : "\\\n", f);
			*col = q == '\'';
		}
		fputc(ch, f);
		*col = ch == '\n' ? 0 : *col + 1;
		if (bs)
			bs = false;
		else if (q == '\'')
			q = ch == '\'' ? 0 : q;
		else if (ch == '\\')
			bs = true;
		else if (q == '"')
			q = ch == '"' ? 0 : q;
		else if (ch == '\'' || ch == '"')
			q = ch;
	}
}

/* A shell command, wrapped with backslashes at 72 columns. */
static void print_cmd(FILE *f, const char *ind, const char *cmd)
{
	size_t col = 0;

	while (*cmd) {
		size_t w = sh_word_len(cmd);

		if (col && col + 1 + w + 2 > 72) {
			fputs(" \\\n", f);
			col = 0;
		}
		if (!col) {
			fputs(ind, f);
			col = strlen(ind);
		} else {
			fputc(' ', f);
			col++;
		}
		put_word(f, cmd, w, &col);
		cmd += w;
		cmd += strspn(cmd, " ");
		ind = "    ";
	}
	fputc('\n', f);
}

/* The command line, shell-quoted where needed. */
static void print_argv(FILE *f, const char *ind, int argc, char **argv)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int i;

	if (!m)
		return;
	fputs("nsbench", m);
	for (i = 0; i < argc; i++)
		nsb_sh_arg(m, "", argv[i]);
	if (!fclose(m))
		print_cmd(f, ind, buf);
	free(buf);
}

/* The bench command from a side's context; its values quoted likewise. */
static void measure_cmd(FILE *f, const char *ind, const struct nsb_side *s)
{
	const char *cmd = nsb_side_ctx(s, "nsbench_command");
	const char *exe = nsb_side_ctx(s, "executable");
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	if (cmd) {
		print_cmd(f, ind, cmd);
		return;
	}
	if (!exe) {
		fprintf(f, "%s(not recorded in %s)\n", ind, s->files[0]);
		return;
	}
	m = open_memstream(&buf, &len);
	if (!m)
		return;
	/* a first word with '=' would be an assignment: quote it */
	if (strchr(exe, '=')) {
		fputc(' ', m);
		nsb_sh_quoted(m, "", exe);
	} else {
		nsb_sh_arg(m, "", exe);
	}
	nsb_sh_arg(m, "--mode=", nsb_side_ctx(s, "nsbench_mode") ?: "native");
	nsb_sh_arg(m, "--tier=", nsb_side_ctx(s, "nsbench_tier") ?: "quick");
	nsb_sh_arg(m, "--series=", nsb_side_ctx(s, "patch_series") ?: "none");
	if (!fclose(m))
		print_cmd(f, ind, buf + 1);
	free(buf);
}

/*
 * The host command that made the results (scripts/ab.sh records its own
 * command line as nsbench_host_command): each distinct one of the sides,
 * printed; false if no side has one.
 */
static bool host_cmds(FILE *f, const char *ind, const struct nsb_side **s,
		      int n)
{
	const char *seen[2] = { NULL, NULL };
	int k, nseen = 0;

	for (k = 0; k < n && nseen < 2; k++) {
		const char *cmd = nsb_side_ctx(s[k], "nsbench_host_command");

		if (!cmd || !*cmd || (nseen && !strcmp(cmd, seen[0])))
			continue;
		seen[nseen++] = cmd;
		print_cmd(f, ind, cmd);
	}
	return nseen;
}

static void reproduce(FILE *f, bool md, const struct nsb_comparison *c)
{
	const struct nsb_side *s[2] = { &c->base, &c->patched };
	const char *fence = md ? "```\n" : "";
	const char *ind = md ? "" : "  ";
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	fprintf(f, md ? "\n### Reproduce\n\nThis report:\n\n" :
		"\nReproduce\n  this report:\n");
	fprintf(f, "%s", fence);
	print_argv(f, ind, c->argc, c->argv);
	fprintf(f, "%s", fence);
	m = open_memstream(&buf, &len);
	if (m && host_cmds(m, ind, s, 2)) {
		fclose(m);
		fprintf(f, md ? "\nThe run, from the nsbench checkout:\n\n" :
			"  the run (host, from the nsbench checkout):\n");
		fprintf(f, "%s%s%s", fence, buf, fence);
		free(buf);
		return;
	}
	if (m)
		fclose(m);
	free(buf);
	fprintf(f, md ? "\nThe measurement (reconstructed from the results' "
		"context):\n\n" : "  the measurement (from the results' "
		"context):\n");
	fprintf(f, "%s", fence);
	measure_cmd(f, ind, &c->base);
	if (strcmp(nsb_side_ctx(&c->base, "patch_series") ?: "",
		   nsb_side_ctx(&c->patched, "patch_series") ?: ""))
		measure_cmd(f, ind, &c->patched);
	fprintf(f, "%s", fence);
}

static void report(FILE *f, const struct nsb_comparison *c, bool md,
		   const struct nsb_perf *perf,
		   const struct nsb_prof_sides *prof)
{
	char a[256], b[256], mode[64];

	ctx_values(&c->base, "patch_series", a, sizeof(a));
	ctx_values(&c->patched, "patch_series", b, sizeof(b));
	ctx_values(&c->base, "nsbench_mode", mode, sizeof(mode));
	if (md) {
		fputs("## nsbench: patched (", f);
		nsb_md_put_text(f, b);
		fputs(") vs base (", f);
		nsb_md_put_text(f, a);
		fputs("), ", f);
		nsb_md_put_text(f, mode);
		fputs("\n\n", f);
	}
	else {
		char line[1024];

		/* wrapped: a series name may be long */
		snprintf(line, sizeof(line), "nsbench: patched (series %s) vs "
			 "base (series %s), %s mode", b, a, mode);
		/* icount: a threshold is the user's filter, if any */
		if (!c->base.icount || c->o.threshold_given)
			snprintf(line + strlen(line), sizeof(line) -
				 strlen(line), ", %sthreshold %.1f%%",
				 c->base.icount ? "your " : "",
				 c->o.threshold);
		nsb_wrap(f, "", line);
		fputc('\n', f);
	}
	nsb_ab_table_where(f, c, md, prof);
	if (perf->n)
		nsb_perf_print(f, md, perf);
	fprintf(f, md ? "\n### Provenance\n\n" : "\nProvenance\n");
	side_fields(f, md, &c->base);
	side_fields(f, md, &c->patched);
	if (c->aa.nfiles)
		side_fields(f, md, &c->aa);
	mode_field(f, md, c);
	run_fields(f, md, c);
	reproduce(f, md, c);
}

static const struct nsb_usage report_usage = {
	.who = "nsbench report",
	.synopsis = "nsbench report [options] BASE... -- PATCHED...",
	.about = "The comparison as a posting-ready report: plain text of at "
		 "most 72\ncolumns for an LKML reply, or Markdown; then the "
		 "provenance of both\nsides and the commands that reproduce "
		 "it.\n",
};

/* --- the in-boot check costs (no "--": one kernel, switches on/off) --- */

struct costs_opts {
	bool markdown;
	const char *out, *json, *command;
};

static const struct nsb_usage costs_usage = {
	.who = "nsbench report",
	.synopsis = "nsbench report [options] FILE|DIR...",
	.about = "Without \"--\": the in-boot check A/B of the toggles kernel "
		 "(results\nwhose context names nsbench_check; a DIR gives its "
		 "*.json).  Opens\nwith what each check costs, then the 2015 "
		 "forms, the A/A residuals,\nthe toggles' own cost (from stock "
		 "files of the same plan, if given)\nand the provenance.\n",
	.epilog = "Exit: 0, or 2 on bad input.  (Two kernels: "
		  "nsbench report BASE... -- PATCHED...)\n",
};

static const char *cctx(json_t *ctx, const char *key)
{
	return nsb_json_str(ctx, key) ?: "unknown";
}

/* A side of one file's context: what side_fields and ci_field read. */
static struct nsb_side ctx_side(json_t **ctx, const char *label)
{
	struct nsb_side s = { .label = label, .ctx = ctx, .nfiles = 1 };

	return s;
}

static void costs_provenance(FILE *f, bool md, const struct nsb_costs *c,
			     const struct costs_opts *o)
{
	json_t *ctx = c->ctx, *stock_ctx = c->stock_ctx;
	struct nsb_side k = ctx_side(&ctx, "toggles");
	struct nsb_side st = ctx_side(&stock_ctx, "stock");
	const struct nsb_side *both[2] = { &k, &st };

	fprintf(f, md ? "\n### Provenance\n\n" : "\nProvenance\n");
	side_fields(f, md, &k);
	if (stock_ctx)
		side_fields(f, md, &st);
	if (c->icount)
		field(f, md, "mode", "%s: one virtual ns is one retired guest "
		      "instruction (QEMU -icount shift=0,sleep=off -smp 1), "
		      "kernel included", cctx(c->ctx, "nsbench_mode"));
	else
		field(f, md, "mode", "%s (%s)", cctx(c->ctx, "nsbench_mode"),
		      c->unit ? c->unit : "unknown unit");
	field(f, md, "runs", "%zu results file(s) of the toggles kernel, "
	      "%zu of stock", c->nfiles, c->nstock);
	field(f, md, "nsbench", "results by %s, this report by %s",
	      cctx(c->ctx, "nsbench_version"), nsb_version());
	ci_field(f, md, &k);
	if (!o->command && !nsb_side_ctx(&k, "nsbench_host_command"))
		return;
	/* --command (make run) names the run better than ab.sh's line */
	fprintf(f, md ? "\n### Reproduce\n\n```\n" : "\nReproduce\n");
	if (o->command)
		print_cmd(f, md ? "" : "  ", o->command);
	else
		host_cmds(f, md ? "" : "  ", both, stock_ctx ? 2 : 1);
	if (md)
		fprintf(f, "```\n");
}

/* The options, then argv[1..*argc) the files; 0, NSB_PARSE_HELP or 2. */
static int costs_parse(int *argc, char **argv, struct costs_opts *o)
{
	const struct nsb_option opts[] = {
		OPT_BOOL("markdown", &o->markdown,
			 "Markdown instead of plain text"),
		OPT_STRING("out", &o->out, "FILE",
			   "write FILE (atomically) instead of stdout"),
		OPT_STRING("json", &o->json, "FILE",
			   "also the rows as JSON (for plot --costs)"),
		OPT_STRING("command", &o->command, "CMD",
			   "the host command that reproduces the run"),
		OPT_END(),
	};
	int r = nsb_parse_options(argc, argv, opts, &costs_usage, 0);

	if (r)
		return r;
	if (*argc < 2) {
		fprintf(stderr, "nsbench report: no results files\n");
		nsb_usage_hint(&costs_usage);
		return 2;
	}
	return 0;
}

static int costs_write(const struct nsb_costs *c, const struct costs_opts *o)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = o->out ? open_memstream(&text, &len) : stdout;
	int ret = 0;

	if (!f)
		return 2;
	if (o->markdown)
		fprintf(f, "## nsbench: what each userns mount check costs\n\n");
	else
		fprintf(f, "nsbench: what each userns mount check costs\n\n");
	nsb_costs_print(f, c, o->markdown);
	costs_provenance(f, o->markdown, c, o);
	if (o->out) {
		fclose(f);
		ret = nsb_write_file_atomic(o->out, text, len) ? 2 : 0;
	}
	free(text);
	if (!ret && o->json) {
		json_t *j = nsb_costs_json(c);

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
			fprintf(stderr, "nsbench report: %s: more than %d "
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
static int xv_write(const struct nsb_xv_side *xv, size_t n,
		    const struct costs_opts *o)
{
	char *text = NULL;
	size_t len = 0, i;
	FILE *f = o->out ? open_memstream(&text, &len) : stdout;
	json_t *j = json_object(), *vers = json_object(), *cross = json_array();
	int ret = 2;

	if (!f || !j || !vers || !cross)
		goto out;
	fprintf(f, o->markdown ? "## nsbench: what each userns mount check "
		"costs, on %zu kernel releases\n\n" : "nsbench: what each "
		"userns mount check costs, on %zu kernel releases\n\n", n);
	for (i = 1; i < n; i++) {
		if (nsb_xv_print(f, &xv[0], &xv[i], o->markdown))
			goto out;
		json_array_append_new(cross, nsb_xv_json(&xv[0], &xv[i]));
		fputc('\n', f);
	}
	for (i = 0; i < n; i++) {
		fprintf(f, o->markdown ? "\n## Linux %s\n\n" :
			"\n== Linux %s ==\n\n", xv[i].release);
		nsb_costs_print(f, &xv[i].costs, o->markdown);
		costs_provenance(f, o->markdown, &xv[i].costs, o);
		json_object_set_new(vers, xv[i].version,
				    nsb_costs_json(&xv[i].costs));
	}
	ret = 0;
	if (o->out) {
		fclose(f);
		f = NULL;
		ret = nsb_write_file_atomic(o->out, text, len) ? 2 : 0;
	}
	json_object_set(j, "versions", vers);
	json_object_set(j, "cross_version", cross);
	if (!ret && o->json)
		ret = nsb_json_write_atomic(o->json, j) ? 2 : 0;
out:
	if (f && f != stdout)
		fclose(f);
	free(text);
	json_decref(vers);
	json_decref(cross);
	json_decref(j);
	return ret;
}

static int costs_report(int argc, char **argv)
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
	if (n == 1)
		ret = costs_write(&xv[0].costs, &o);
	else if (n > 1)
		ret = xv_write(xv, n, &o);
	else
		fprintf(stderr, "nsbench report: no results files\n");
out:
	for (i = 0; files && files[i]; i++)
		free(files[i]);
	free(files);
	for (k = 0; k < n; k++)
		nsb_costs_free(&xv[k].costs);
	return ret;
}

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

static bool has_separator(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--"))
			return true;
	return false;
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

	if (!has_separator(argc, argv))
		return costs_report(argc, argv);
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
