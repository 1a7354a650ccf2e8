// SPDX-License-Identifier: GPL-2.0
/*
 * provenance.c — what a report says about where its numbers come from
 * (provenance.h): each side's kernel, source, series and config, the
 * mode, host and runs, the CI job, and the commands that reproduce it,
 * all read from the results' context (results/README.md).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/stats/compare.h"
#include "src/lib/stats/costs.h"
#include "src/lib/base/nsbench.h"
#include "src/lib/render/provenance.h"
#include "src/lib/base/shquote.h"

/*
 * A context value as shown, added to sb: as is, or shortened (see
 * short_id).  Values come from results files: the text grows to hold
 * them (strbuf.h), none is cut.
 */
typedef void (*show_fn)(const char *v, struct nsb_sb *sb);

static void show_as_is(const char *v, struct nsb_sb *sb)
{
	nsb_sb_add(sb, v);
}

/*
 * Hashes and commits shortened to what identifies them (16 hex digits
 * of a sha256, 12 of a commit, as git's short ids do) so a value fits a
 * 72-column line: "tarball:<64 hex>" -> "tarball sha256:<16>",
 * "git-tree:<40>" -> "git tree <12>", "sha256:<64>" -> "sha256:<16>",
 * 40 hex digits -> 12.  Anything else as is.
 */
static void short_id(const char *v, struct nsb_sb *sb)
{
	size_t hex = strspn(v, "0123456789abcdef");

	if (!strncmp(v, "tarball:", 8))
		nsb_sb_addf(sb, "tarball sha256:%.16s", v + 8);
	else if (!strncmp(v, "git-tree:", 9))
		nsb_sb_addf(sb, "git tree %.12s", v + 9);
	else if (!strncmp(v, "sha256:", 7))
		nsb_sb_addf(sb, "sha256:%.16s", v + 7);
	else if (hex == 40 && !v[hex])
		nsb_sb_addf(sb, "%.12s", v);
	else
		nsb_sb_add(sb, v);
}

/*
 * Distinct values of a context key over a side's files, each as show
 * gives it, "a, b", added to out; nothing when no file has the key.
 */
static void ctx_shown(const struct nsb_side *s, const char *key,
		      show_fn show, struct nsb_sb *out)
{
	struct nsb_sb one = NSB_SB_INIT;
	size_t i, start = out->len;

	for (i = 0; i < s->nfiles; i++) {
		const char *v = nsb_json_str(s->ctx[i], key);

		if (!v || !*v)
			continue;
		nsb_sb_reset(&one);
		show(v, &one);
		if (strstr(nsb_sb_str(out) + start, nsb_sb_str(&one)))
			continue;
		if (out->len > start)
			nsb_sb_add(out, ", ");
		nsb_sb_add(out, nsb_sb_str(&one));
	}
	nsb_sb_release(&one);
}

void nsb_ctx_values(const struct nsb_side *s, const char *key,
		    struct nsb_sb *out)
{
	size_t start = out->len;

	ctx_shown(s, key, show_as_is, out);
	if (out->len == start)
		nsb_sb_add(out, "unknown");
}

static size_t ctx_count(const struct nsb_side *s, const char *key)
{
	struct nsb_sb vals = NSB_SB_INIT;
	const char *p;
	size_t n = 0;

	nsb_ctx_values(s, key, &vals);
	if (strcmp(nsb_sb_str(&vals), "unknown"))
		for (n = 1, p = nsb_sb_str(&vals); (p = strstr(p, ", ")); p += 2)
			n++;
	nsb_sb_release(&vals);
	return n;
}

/* "key: value", wrapped under the value, text or Markdown list item. */
static void field(FILE *f, bool md, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void field(FILE *f, bool md, const char *key, const char *fmt, ...)
{
	struct nsb_sb val = NSB_SB_INIT;
	char line[64];		/* "  " and a key: a short word of this file */
	va_list ap;

	va_start(ap, fmt);
	nsb_sb_vaddf(&val, fmt, ap);
	va_end(ap);
	if (md) {
		/* values come from the results' context: no markup */
		fprintf(f, "- **%s**: ", key);
		nsb_md_put_text(f, nsb_sb_str(&val));
		fputc('\n', f);
	} else {
		snprintf(line, sizeof(line), "  %-10s", key);
		nsb_wrap_hang(f, line, "            ", nsb_sb_str(&val));
	}
	nsb_sb_release(&val);
}

/*
 * The source a kernel was built from: git commit and `git describe`
 * (a --ksrc build), else the tarball's or tree's hash; "not recorded"
 * for results older than scripts/kernel/build.sh's meta fields.
 */
static void source_of(const struct nsb_side *s, show_fn show,
		      struct nsb_sb *out)
{
	struct nsb_sb commit = NSB_SB_INIT, desc = NSB_SB_INIT;

	ctx_shown(s, "kernel_source_commit", show, &commit);
	ctx_shown(s, "kernel_source_describe", show_as_is, &desc);
	if (commit.len)
		nsb_sb_addf(out, "git %s%s%s%s", nsb_sb_str(&commit),
			    desc.len ? " (" : "", nsb_sb_str(&desc),
			    desc.len ? ")" : "");
	else
		ctx_shown(s, "kernel_source", show, out);
	if (!out->len)
		nsb_sb_add(out, "not recorded");
	nsb_sb_release(&commit);
	nsb_sb_release(&desc);
}

/*
 * Which kernel a side ran: release and build, source, series with the
 * hash of its patches, config.  Text: one item a line, hashes short,
 * within 72 columns; Markdown: one list item, hashes whole.
 */
static void side_fields(FILE *f, bool md, const struct nsb_side *s)
{
	show_fn show = md ? show_as_is : short_id;
	struct nsb_sb rel = NSB_SB_INIT, ver = NSB_SB_INIT;
	struct nsb_sb series = NSB_SB_INIT, src = NSB_SB_INIT;
	struct nsb_sb pat = NSB_SB_INIT, cfg = NSB_SB_INIT;
	const char *p;

	nsb_ctx_values(s, "kernel_release", &rel);
	nsb_ctx_values(s, "kernel_version", &ver);
	nsb_ctx_values(s, "patch_series", &series);
	source_of(s, show, &src);
	ctx_shown(s, "patch_series_sha256", show, &pat);
	ctx_shown(s, "kernel_config_hash", show, &cfg);
	if (!cfg.len)
		nsb_sb_add(&cfg, "unknown");
	p = nsb_sb_str(&pat);
	if (md) {
		field(f, md, s->label, "kernel %s (%s), source %s, series %s"
		      "%s%s%s, config %s", nsb_sb_str(&rel), nsb_sb_str(&ver),
		      nsb_sb_str(&src), nsb_sb_str(&series),
		      *p ? " (patches " : "", p, *p ? ")" : "",
		      nsb_sb_str(&cfg));
	} else {
		field(f, md, s->label, "kernel %s (%s)", nsb_sb_str(&rel),
		      nsb_sb_str(&ver));
		field(f, md, "", "source %s", nsb_sb_str(&src));
		field(f, md, "", "series %s", nsb_sb_str(&series));
		if (*p)
			field(f, md, "", "patches %s", p);
		field(f, md, "", "config %s", nsb_sb_str(&cfg));
	}
	nsb_sb_release(&rel);
	nsb_sb_release(&ver);
	nsb_sb_release(&series);
	nsb_sb_release(&src);
	nsb_sb_release(&pat);
	nsb_sb_release(&cfg);
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
	struct nsb_sb sb = NSB_SB_INIT;
	const char *mode;

	nsb_ctx_values(&c->base, "nsbench_mode", &sb);
	mode = nsb_sb_str(&sb);
	if (c->base.icount)
		field(f, md, "mode", "%s: times are guest instructions. Under "
		      "QEMU -icount shift=0,sleep=off -smp 1 one virtual ns is "
		      "one retired guest instruction, kernel included, so "
		      "\"insn\" counts instructions per operation; small "
		      "costs on the open path read ~5%% high, treat them as "
		      "instruction counts, not exact", mode);
	else
		field(f, md, "mode", "%s (%s, metric %s)", mode, c->base.unit,
		      c->o.metric);
	nsb_sb_release(&sb);
}

/* The CI job that ran it (contrib/nsbench-ci.sh's context), if any. */
static void ci_field(FILE *f, bool md, const struct nsb_side *s)
{
	show_fn show = md ? show_as_is : short_id;
	struct nsb_sb run = NSB_SB_INIT, base = NSB_SB_INIT;
	struct nsb_sb head = NSB_SB_INIT;

	ctx_shown(s, "nsbench_ci_run_id", show_as_is, &run);
	ctx_shown(s, "nsbench_ci_base", show, &base);
	ctx_shown(s, "nsbench_ci_head", show, &head);
	if (run.len || base.len || head.len)
		field(f, md, "ci", "run %s: base %s, head %s",
		      run.len ? run.buf : "unknown",
		      base.len ? base.buf : "none (the head alone)",
		      head.len ? head.buf : "unknown");
	nsb_sb_release(&run);
	nsb_sb_release(&base);
	nsb_sb_release(&head);
}

static void run_fields(FILE *f, bool md, const struct nsb_comparison *c)
{
	const struct nsb_side *s[2] = { &c->base, &c->patched };
	struct nsb_sb host = NSB_SB_INIT, cpu = NSB_SB_INIT;
	struct nsb_sb ver = NSB_SB_INIT, ver2 = NSB_SB_INIT;
	struct nsb_sb bt = NSB_SB_INIT;
	/* numbers only: "%zu-%zu"; "patched %zu file(s), %zu boot(s), ..." */
	char reps[48], runs[2][96];
	int k;

	nsb_ctx_values(&c->base, "host_name", &host);
	nsb_ctx_values(&c->base, "cpu_model", &cpu);
	field(f, md, "host", "%s, %s, %lld CPUs", nsb_sb_str(&host),
	      nsb_sb_str(&cpu),
	      (long long)json_integer_value(json_object_get(c->base.ctx[0],
							    "num_cpus")));
	nsb_ctx_values(s[0], "nsbench_version", &ver);
	nsb_ctx_values(s[1], "nsbench_version", &ver2);
	field(f, md, "nsbench", "base results by %s, patched by %s, "
	      "this report by %s", nsb_sb_str(&ver), nsb_sb_str(&ver2),
	      nsb_version());
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
	nsb_ctx_values(&c->base, "library_build_type", &bt);
	if (!strcmp(nsb_sb_str(&bt), "debug"))
		field(f, md, "note", "Debian's libbenchmark 1.7.1 reports a "
		      "debug build; its timing loop is inline in the header, "
		      "so per-iteration costs are not distorted");
	nsb_sb_release(&host);
	nsb_sb_release(&cpu);
	nsb_sb_release(&ver);
	nsb_sb_release(&ver2);
	nsb_sb_release(&bt);
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
		nsb_sh_print_cmd(f, ind, cmd);
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
		nsb_sh_print_cmd(f, ind, buf + 1);
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
		nsb_sh_print_cmd(f, ind, cmd);
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
	nsb_sh_print_argv(f, ind, c->argc, c->argv);
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

void nsb_prov_comparison(FILE *f, bool md, const struct nsb_comparison *c)
{
	fprintf(f, md ? "\n### Provenance\n\n" : "\nProvenance\n");
	side_fields(f, md, &c->base);
	side_fields(f, md, &c->patched);
	if (c->aa.nfiles)
		side_fields(f, md, &c->aa);
	mode_field(f, md, c);
	run_fields(f, md, c);
	reproduce(f, md, c);
}

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

void nsb_prov_costs(FILE *f, bool md, const struct nsb_costs *c,
		    const char *command)
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
	if (!command && !nsb_side_ctx(&k, "nsbench_host_command"))
		return;
	/* --command (make run) names the run better than ab.sh's line */
	fprintf(f, md ? "\n### Reproduce\n\n```\n" : "\nReproduce\n");
	if (command)
		nsb_sh_print_cmd(f, md ? "" : "  ", command);
	else
		host_cmds(f, md ? "" : "  ", both, stock_ctx ? 2 : 1);
	if (md)
		fprintf(f, "```\n");
}
