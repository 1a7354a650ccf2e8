// SPDX-License-Identifier: GPL-2.0
/*
 * abtable.c — a two-kernel A/B (`nsbench report BASE... -- PATCHED...`)
 * in the shape of the check-cost table: the question is the same ("what
 * does this patch cost on each hot path?"), so the answer reads the same
 * way.  One block per benchmark family (sys/exec, sys/open, ...), one
 * row per scenario: base and patched per op, the shift with its 95 % CI,
 * % of the op, the verdict; under each family the A/A residual when an
 * A/A side was given (--aa), else a line saying it was not measured.
 * With perf profiles of both sides (report's --profile-base/-patched)
 * each slower or faster row is followed by where its instructions go
 * (profile.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/abtable.h"
#include "src/lib/compare.h"
#include "src/lib/costs.h"
#include "src/lib/nsbench.h"
#include "src/lib/profile.h"

#define LABEL_W 20
#define SHIFT_W 20

/* Length of the family prefix of name: "sys/exec/", "models/sget/". */
static size_t family_len(const char *name)
{
	const char *p = strchr(name, '/');

	if (!p)
		return 0;
	p = strchr(p + 1, '/');
	return p ? (size_t)(p - name + 1) : 0;
}

static bool same_family(const char *a, const char *b)
{
	size_t n = family_len(a);

	return n && n == family_len(b) && !strncmp(a, b, n);
}

static void text_row(FILE *f, const struct nsb_comparison *c,
		     const struct nsb_row *r)
{
	char label[96], a[32], b[32], sh[96], pct[32], line[400], under[96];
	const struct nsb_effect *e = &r->e;

	nsb_cost_label(label, sizeof(label), r->name + family_len(r->name));
	if (e->verdict >= NSB_SKIP) {
		snprintf(line, sizeof(line), "%s: %s (%s)", label,
			 nsb_verdict_name(e->verdict), e->note);
		nsb_wrap_hang(f, "  ", "      ", line);
		return;
	}
	nsb_fmt_insn(a, sizeof(a), e->paired ? e->base : r->sa.median);
	nsb_fmt_insn(b, sizeof(b), e->paired ? e->base + e->shift.est :
		     r->sb.median);
	nsb_fmt_shift(sh, sizeof(sh), &e->shift);
	snprintf(pct, sizeof(pct), "%+.2f", e->pct);
	if (strlen(label) > LABEL_W) {
		fprintf(f, "  %s\n", label);
		*label = 0;
	}
	fprintf(f, "  %-*s %6s %6s %-*s %6s %s%s\n", LABEL_W, label, a, b,
		SHIFT_W, sh, pct, nsb_verdict_name(e->verdict),
		e->band > NSB_ICOUNT_BAND ? "*" : "");
	/* the user's threshold beside the verdict, never instead of it */
	nsb_fmt_under(under, sizeof(under), c, e);
	if (*under) {
		snprintf(line, sizeof(line), "%s, %s", nsb_verdict_name(
			 e->verdict), under);
		nsb_wrap(f, "      ", line);
	}
}

/* The A/A line under a family: rows [from, to). */
static void text_residual(FILE *f, const struct nsb_comparison *c,
			  size_t from, size_t to)
{
	char line[300];
	size_t i, with = 0, moved = 0;
	double worst = 0;

	for (i = from; i < to; i++) {
		const struct nsb_row *r = &c->rows[i];
		double v = r->aa.shift.est < 0 ? -r->aa.shift.est :
			   r->aa.shift.est;

		if (!r->has_aa || r->aa.verdict >= NSB_SKIP)
			continue;
		with++;
		moved += r->aa.verdict != NSB_SAME;
		if (v > worst)
			worst = v;
	}
	if (!c->aa.nfiles)
		return;
	if (!with) {
		nsb_wrap(f, "    ", "A/A residual: no row of the A/A side "
			 "matches");
		return;
	}
	snprintf(line, sizeof(line), "A/A residual (base against its A/A "
		 "side): within +-%.1f%s over %zu row(s); %zu not \"same\"",
		 worst, c->base.icount ? " insn" : " ns", with, moved);
	nsb_wrap(f, "    ", line);
}

static void text_table(FILE *f, const struct nsb_comparison *c,
		       const struct nsb_prof_sides *p)
{
	char line[400];
	size_t i, start;

	char band[120];

	if (c->base.icount)
		snprintf(band, sizeof(band), "+-%g insn or, marked *, against "
			 "the row's A/A residual where that is larger",
			 NSB_ICOUNT_BAND);
	else
		snprintf(band, sizeof(band), "+-%.1f%%", c->o.threshold);
	snprintf(line, sizeof(line), "What the patch costs: %s per op on "
		 "the base and the patched kernel; shift = patched - base "
		 "(paired rows: median of per-round differences, sign-test "
		 "95%% CI; unpaired: Hodges-Lehmann, Moses 95%% CI); %% of "
		 "the op; verdict against %s.", c->base.icount ?
		 "instructions" : "ns", band);
	nsb_wrap(f, "", line);
	fprintf(f, "\n  %-*s %6s %6s %-*s %6s %s\n", LABEL_W, "scenario",
		"base", "patch", SHIFT_W, "shift [95% CI]", "% op", "verdict");
	for (start = 0; start < c->n; start = i) {
		const char *name = c->rows[start].name;
		size_t n = family_len(name);

		fprintf(f, "%.*s\n", n ? (int)n - 1 : (int)strlen(name), name);
		for (i = start; i < c->n && (i == start ||
		     same_family(name, c->rows[i].name)); i++) {
			text_row(f, c, &c->rows[i]);
			nsb_prof_sides_where(f, p, c, i, false);
		}
		text_residual(f, c, start, i);
	}
	if (!c->aa.nfiles) {
		fputc('\n', f);
		nsb_wrap(f, "", "A/A residual: not measured (scripts/ab.sh "
			 "--aa boots a separate build of the base; pass its "
			 "results with --aa=FILE to compare against it).");
	}
}

/* "| `family` | `scenario`": the family is the name's first n - 1 bytes. */
static void md_names(FILE *f, const char *name, size_t n, const char *label)
{
	char *family = strndup(name, n ? n - 1 : 0);

	fputs("| ", f);
	nsb_md_put_code(f, family ? family : "");
	fputs(" | ", f);
	nsb_md_put_code(f, label);
	free(family);
}

static void md_table(FILE *f, const struct nsb_comparison *c,
		     const struct nsb_prof_sides *p)
{
	size_t i;

	fprintf(f, "| family | scenario | base | patched | shift [95%% CI] | "
		"%% of op | verdict | A/A residual |\n"
		"|---|---|---:|---:|---|---:|---|---|\n");
	for (i = 0; i < c->n; i++) {
		const struct nsb_row *r = &c->rows[i];
		const struct nsb_effect *e = &r->e;
		size_t n = family_len(r->name);
		char label[96], a[32], b[32], sh[96], aa[96], under[96];

		nsb_cost_label(label, sizeof(label), r->name);
		md_names(f, r->name, n, label);
		if (e->verdict >= NSB_SKIP) {
			fprintf(f, " | | | | | %s | |\n",
				nsb_verdict_name(e->verdict));
			continue;
		}
		nsb_fmt_insn(a, sizeof(a), e->paired ? e->base : r->sa.median);
		nsb_fmt_insn(b, sizeof(b), e->paired ? e->base + e->shift.est
			     : r->sb.median);
		nsb_fmt_shift(sh, sizeof(sh), &e->shift);
		if (r->has_aa && r->aa.verdict < NSB_SKIP)
			nsb_fmt_shift(aa, sizeof(aa), &r->aa.shift);
		else
			snprintf(aa, sizeof(aa), "not measured");
		nsb_fmt_under(under, sizeof(under), c, e);
		fprintf(f, " | %s | %s | %s | %+.3f%% | %s%s%s%s%s | %s |\n",
			a, b, sh, e->pct, nsb_verdict_name(e->verdict),
			e->band > NSB_ICOUNT_BAND ? "\\*" : "",
			*under ? " (" : "", under, *under ? ")" : "", aa);
	}
	/* a table cannot hold a block under a row: each after the table */
	for (i = 0; i < c->n; i++)
		nsb_prof_sides_where(f, p, c, i, true);
}

void nsb_ab_table(FILE *f, const struct nsb_comparison *c, bool markdown)
{
	nsb_ab_table_where(f, c, markdown, NULL);
}

void nsb_ab_table_where(FILE *f, const struct nsb_comparison *c,
			bool markdown, const struct nsb_prof_sides *p)
{
	char line[400];

	if (markdown)
		md_table(f, c, p);
	else
		text_table(f, c, p);
	fputc('\n', f);
	nsb_fmt_counts(line, sizeof(line), c);
	strcat(line, ".");
	if (markdown)
		fprintf(f, "%s\n", line);
	else
		nsb_wrap(f, "", line);
	/* which rule decided, in one line (a paragraph in Markdown) */
	nsb_rule_text(line, sizeof(line), c);
	if (markdown)
		fprintf(f, "\n%s\n", line);
	else
		nsb_wrap(f, "", line);
}
