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

void nsb_ctx_values(const struct nsb_side *s, const char *key, char *buf,
		    size_t len)
{
	ctx_shown(s, key, show_as_is, buf, len);
	if (!*buf)
		snprintf(buf, len, "unknown");
}

static size_t ctx_count(const struct nsb_side *s, const char *key)
{
	char buf[1024], *p;
	size_t n = 1;

	nsb_ctx_values(s, key, buf, sizeof(buf));
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

	nsb_ctx_values(s, "kernel_release", rel, sizeof(rel));
	nsb_ctx_values(s, "kernel_version", ver, sizeof(ver));
	nsb_ctx_values(s, "patch_series", series, sizeof(series));
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

	nsb_ctx_values(&c->base, "nsbench_mode", mode, sizeof(mode));
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

	nsb_ctx_values(&c->base, "host_name", host, sizeof(host));
	nsb_ctx_values(&c->base, "cpu_model", cpu, sizeof(cpu));
	field(f, md, "host", "%s, %s, %lld CPUs", host, cpu,
	      (long long)json_integer_value(json_object_get(c->base.ctx[0],
							    "num_cpus")));
	nsb_ctx_values(s[0], "nsbench_version", ver, sizeof(ver));
	nsb_ctx_values(s[1], "nsbench_version", ver2, sizeof(ver2));
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
	nsb_ctx_values(&c->base, "library_build_type", bt, sizeof(bt));
	if (!strcmp(bt, "debug"))
		field(f, md, "note", "Debian's libbenchmark 1.7.1 reports a "
		      "debug build; its timing loop is inline in the header, "
		      "so per-iteration costs are not distorted");
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
