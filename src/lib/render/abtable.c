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

#include "src/lib/render/abtable.h"
#include "src/lib/stats/compare.h"
#include "src/lib/base/nsbench.h"
#include "src/lib/stats/profile.h"
#include "src/lib/render/table.h"

/*
 * Length of the family prefix of name with its '/': "sys/exec/" of
 * "sys/exec/vfork/...", 0 for a name of fewer than three parts.
 */
static size_t family_prefix(const char *name)
{
	const char *p = strchr(name, '/');

	if (!p)
		return 0;
	p = strchr(p + 1, '/');
	return p ? (size_t)(p - name + 1) : 0;
}

static bool same_family(const char *a, const char *b)
{
	size_t n = family_prefix(a);

	return n && n == family_prefix(b) && !strncmp(a, b, n);
}

/* --- the columns --------------------------------------------------------- */

static bool measured(const struct nsb_row *r)
{
	return r->e.verdict < NSB_SKIP;
}

static void family_cell(char *buf, size_t len, const void *row,
			const void *ctx, enum nsb_tfmt fmt)
{
	const char *name = ((const struct nsb_row *)row)->name;
	size_t n = family_prefix(name);

	(void)ctx, (void)fmt;
	snprintf(buf, len, "%.*s", n ? (int)n - 1 : 0, name);
}

/* The text table has the family above its rows: the rest of the name. */
static void scenario_cell(char *buf, size_t len, const void *row,
			  const void *ctx, enum nsb_tfmt fmt)
{
	const char *name = ((const struct nsb_row *)row)->name;

	(void)ctx;
	nsb_cost_label(buf, len, name + (fmt == NSB_TEXT ?
					 family_prefix(name) : 0));
}

static void side_cell(char *buf, size_t len, const struct nsb_row *r,
		      bool patched)
{
	const struct nsb_effect *e = &r->e;

	*buf = 0;
	if (!measured(r))
		return;
	if (patched)
		nsb_fmt_insn(buf, len, e->paired ? e->base + e->shift.est :
			     r->sb.median);
	else
		nsb_fmt_insn(buf, len, e->paired ? e->base : r->sa.median);
}

static void base_cell(char *buf, size_t len, const void *row,
		      const void *ctx, enum nsb_tfmt fmt)
{
	(void)ctx, (void)fmt;
	side_cell(buf, len, row, false);
}

static void patched_cell(char *buf, size_t len, const void *row,
			 const void *ctx, enum nsb_tfmt fmt)
{
	(void)ctx, (void)fmt;
	side_cell(buf, len, row, true);
}

static void shift_cell(char *buf, size_t len, const void *row,
		       const void *ctx, enum nsb_tfmt fmt)
{
	const struct nsb_row *r = row;

	(void)ctx, (void)fmt;
	*buf = 0;
	if (measured(r))
		nsb_fmt_shift(buf, len, &r->e.shift);
}

static void pct_cell(char *buf, size_t len, const void *row,
		     const void *ctx, enum nsb_tfmt fmt)
{
	const struct nsb_row *r = row;

	(void)ctx;
	*buf = 0;
	if (measured(r))
		snprintf(buf, len, fmt == NSB_TEXT ? "%+.2f" : "%+.3f%%",
			 r->e.pct);
}

/* The verdict, '*' where the A/A residual set the band; in Markdown the
 * user's threshold beside it (text: a line under the row). */
static void verdict_cell(char *buf, size_t len, const void *row,
			 const void *ctx, enum nsb_tfmt fmt)
{
	const struct nsb_row *r = row;
	const struct nsb_effect *e = &r->e;
	char under[96];

	if (!measured(r)) {
		snprintf(buf, len, "%s", nsb_verdict_name(e->verdict));
		return;
	}
	nsb_fmt_under(under, sizeof(under), ctx, e);
	if (fmt == NSB_TEXT)
		*under = 0;
	snprintf(buf, len, "%s%s%s%s%s", nsb_verdict_name(e->verdict),
		 e->band > NSB_ICOUNT_BAND ? fmt == NSB_TEXT ? "*" : "\\*" :
		 "", *under ? " (" : "", under, *under ? ")" : "");
}

static void aa_cell(char *buf, size_t len, const void *row,
		    const void *ctx, enum nsb_tfmt fmt)
{
	const struct nsb_row *r = row;

	(void)ctx, (void)fmt;
	*buf = 0;
	if (!measured(r))
		return;
	if (r->has_aa && r->aa.verdict < NSB_SKIP)
		nsb_fmt_shift(buf, len, &r->aa.shift);
	else
		snprintf(buf, len, "not measured");
}

#define BOTH	(NSB_COL_TEXT | NSB_COL_MD)

static const struct nsb_col ab_cols[] = {
	{ .head = "family", .flags = NSB_COL_MD | NSB_COL_CODE,
	  .cell = family_cell },
	{ .head = "scenario", .width = 20, .flags = BOTH | NSB_COL_CODE |
	  NSB_COL_OWN_LINE, .cell = scenario_cell },
	{ .head = "base", .width = 6, .flags = BOTH | NSB_COL_RIGHT,
	  .cell = base_cell },
	{ .head = "patch", .md_head = "patched", .width = 6,
	  .flags = BOTH | NSB_COL_RIGHT, .cell = patched_cell },
	{ .head = "shift [" NSB_CI_S "% CI]", .width = 20, .flags = BOTH,
	  .cell = shift_cell },
	{ .head = "% op", .md_head = "% of op", .width = 6,
	  .flags = BOTH | NSB_COL_RIGHT, .cell = pct_cell },
	{ .head = "verdict", .flags = BOTH, .cell = verdict_cell },
	{ .head = "A/A residual", .flags = NSB_COL_MD, .cell = aa_cell },
};

static void text_row(FILE *f, const struct nsb_table *t,
		     const struct nsb_row *r)
{
	char label[NSB_LABEL_MAX], line[400], under[96];
	const struct nsb_effect *e = &r->e;

	if (!measured(r)) {
		scenario_cell(label, sizeof(label), r, t->ctx, NSB_TEXT);
		snprintf(line, sizeof(line), "%s: %s (%s)", label,
			 nsb_verdict_name(e->verdict), e->note);
		nsb_wrap_hang(f, "  ", "      ", line);
		return;
	}
	nsb_table_row(f, t, r, NSB_TEXT);
	/* the user's threshold beside the verdict, never instead of it */
	nsb_fmt_under(under, sizeof(under), t->ctx, e);
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

static void text_table(FILE *f, const struct nsb_table *t,
		       const struct nsb_prof_sides *p)
{
	const struct nsb_comparison *c = t->ctx;
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
		 NSB_CI_S "%% CI; unpaired: Hodges-Lehmann, Moses " NSB_CI_S
		 "%% CI); %% of "
		 "the op; verdict against %s.", c->base.icount ?
		 "instructions" : "ns", band);
	nsb_wrap(f, "", line);
	fputc('\n', f);
	nsb_table_head(f, t, NSB_TEXT);
	for (start = 0; start < c->n; start = i) {
		const char *name = c->rows[start].name;
		size_t n = family_prefix(name);

		fprintf(f, "%.*s\n", n ? (int)n - 1 : (int)strlen(name), name);
		for (i = start; i < c->n && (i == start ||
		     same_family(name, c->rows[i].name)); i++) {
			text_row(f, t, &c->rows[i]);
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

static void md_table(FILE *f, const struct nsb_table *t,
		     const struct nsb_prof_sides *p)
{
	const struct nsb_comparison *c = t->ctx;
	size_t i;

	nsb_table_head(f, t, NSB_MD);
	for (i = 0; i < c->n; i++)
		nsb_table_row(f, t, &c->rows[i], NSB_MD);
	/* a table cannot hold a block under a row: each after the table */
	for (i = 0; i < c->n; i++)
		nsb_prof_sides_where(f, p, c, i, true);
}

void nsb_ab_table_where(FILE *f, const struct nsb_comparison *c,
			bool markdown, const struct nsb_prof_sides *p)
{
	struct nsb_table t = { .cols = ab_cols, .n = NSB_ARRAY_SIZE(ab_cols),
			       .ctx = c, .indent = "  " };
	char line[400];

	if (markdown)
		md_table(f, &t, p);
	else
		text_table(f, &t, p);
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
