// SPDX-License-Identifier: GPL-2.0
/*
 * compare_out.c — a comparison's rows as a 72-column text table,
 * Markdown, HTML and JSON (nsbench compare, report), all from one
 * description of its columns (table.h); the text table adds under each
 * row the lines a cell cannot hold (its name, the icount shift, why it is
 * noisy, its A/A residual, its rounds).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/stats/compare.h"
#include "src/lib/base/nsbench.h"
#include "src/lib/render/table.h"

/* --- formatting ------------------------------------------------------- */

void nsb_fmt_value(char *buf, size_t len, double v, int kind)
{
	static const struct { double f; const char *unit; } scale[] = {
		{ 1e9, "s" }, { 1e6, "ms" }, { 1e3, "us" }, { 1, "ns" },
	};
	size_t i;

	if (kind == NSB_V_INSN) {
		snprintf(buf, len, v >= 1000 ? "%.0f insn" : "%.1f insn", v);
		return;
	}
	if (kind == NSB_V_COUNT) {
		snprintf(buf, len, v >= 1000 ? "%.0f" : "%.1f", v);
		return;
	}
	for (i = 0; i < 3 && fabs(v) < scale[i].f; i++)
		;
	snprintf(buf, len, "%#.4g %s", v / scale[i].f, scale[i].unit);
}

void nsb_fmt_p(char *buf, size_t len, double p)
{
	if (p < 0.001)
		snprintf(buf, len, "<0.001");
	else
		snprintf(buf, len, "%.3f", p);
}

static void fmt_ci(char *buf, size_t len, const struct nsb_effect *e)
{
	snprintf(buf, len, "[%+.1f%%, %+.1f%%]", e->lo_pct, e->hi_pct);
}

void nsb_rule_text(char *buf, size_t len, const struct nsb_comparison *c)
{
	const char *mode = nsb_side_ctx(&c->base, "nsbench_mode");

	if (c->base.icount) {
		snprintf(buf, len, "Rule (icount): verdicts against +-%g insn, "
			 "what the instrument resolves, or the row's A/A "
			 "residual where that is larger (marked *); %s",
			 NSB_ICOUNT_BAND, c->o.threshold_given ?
			 "" : "no --threshold given: every slower row fails "
			 "the exit status.");
		if (c->o.threshold_given)
			snprintf(buf + strlen(buf), len - strlen(buf),
				 "--threshold %g%% is your filter, shown "
				 "beside the verdict: a slower row under it "
				 "does not fail the exit status.",
				 c->o.threshold);
		return;
	}
	snprintf(buf, len, "Rule (%s): verdicts against +-%g%% of the base "
		 "median (--threshold): slower/faster when p < " NSB_ALPHA_S
		 " and the "
		 "shift lies beyond it, same when the whole CI lies inside "
		 "it, noisy otherwise (with the MDE).", mode ? mode : "native",
		 c->o.threshold);
}

void nsb_fmt_under(char *buf, size_t len, const struct nsb_comparison *c,
		   const struct nsb_effect *e)
{
	*buf = 0;
	if (e->under_thr)
		snprintf(buf, len, "%+.1f%%, under your %g%% threshold",
			 e->pct, c->o.threshold);
}

/* " (2 under your 2% threshold)" after a count, or "". */
static void count_under(char *buf, size_t len, const struct nsb_comparison *c,
			enum nsb_verdict v)
{
	*buf = 0;
	if (c->under_thr[v])
		snprintf(buf, len, " (%zu under your %g%% threshold)",
			 c->under_thr[v], c->o.threshold);
}

void nsb_fmt_counts(char *buf, size_t len, const struct nsb_comparison *c)
{
	char slow[64], fast[64];

	count_under(slow, sizeof(slow), c, NSB_SLOWER);
	count_under(fast, sizeof(fast), c, NSB_FASTER);
	snprintf(buf, len, "%zu slower%s, %zu faster%s, %zu same, %zu noisy, "
		 "%zu skipped, %zu failed", c->count[NSB_SLOWER], slow,
		 c->count[NSB_FASTER], fast, c->count[NSB_SAME],
		 c->count[NSB_NOISY], c->count[NSB_SKIP], c->count[NSB_ERROR]);
}

/* Length of the "dir/" prefix all row names share (0 for one row). */
static size_t common_prefix(const struct nsb_comparison *c)
{
	size_t len, i, j;

	if (c->n < 2)
		return 0;
	len = strlen(c->rows[0].name);
	for (i = 1; i < c->n; i++) {
		for (j = 0; j < len && c->rows[i].name[j] ==
		     c->rows[0].name[j]; j++)
			;
		len = j;
	}
	while (len && c->rows[0].name[len - 1] != '/')
		len--;
	return len;
}

void nsb_wrap_hang(FILE *f, const char *first, const char *rest,
		   const char *text)
{
	const char *p = text, *pre = first;
	size_t col = 0;

	while (*p) {
		size_t w = strcspn(p, " ");

		if (col && col + 1 + w > NSB_COLS) {
			fputc('\n', f);
			col = 0;
		}
		if (!col) {
			fputs(pre, f);
			col = strlen(pre);
			pre = rest;
		} else {
			fputc(' ', f);
			col++;
		}
		fwrite(p, 1, w, f);
		col += w;
		p += w;
		p += strspn(p, " ");
	}
	if (col)
		fputc('\n', f);
}

void nsb_wrap(FILE *f, const char *indent, const char *text)
{
	nsb_wrap_hang(f, indent, indent, text);
}

static void text_name(FILE *f, const struct nsb_row *r, size_t skip)
{
	const char *name = r->name + skip;
	char tag[40] = "";
	size_t len, room;

	if (r->e.paired)
		snprintf(tag, sizeof(tag), "  (paired, %zu rounds)",
			 r->e.rounds);
	len = strlen(name);
	room = NSB_COLS - strlen(tag);
	if (len > room)
		fprintf(f, "...%s%s\n", name + len - (room - 3), tag);
	else
		fprintf(f, "%s%s\n", name, tag);
}

/* --- the table: one description of its columns ------------------------ */

#define CROW(row)	((const struct nsb_row *)(row))
#define CMP(ctx)	((const struct nsb_comparison *)(ctx))

/* A skipped or failed row has no value but its name and verdict. */
static bool has_value(const struct nsb_row *r)
{
	return r->e.verdict < NSB_SKIP;
}

static void name_cell(char *buf, size_t len, const void *row,
		      const void *ctx, enum nsb_tfmt fmt)
{
	(void)ctx, (void)fmt;
	snprintf(buf, len, "%s", CROW(row)->name);
}

static void n_cell(char *buf, size_t len, const void *row, const void *ctx,
		   enum nsb_tfmt fmt)
{
	const struct nsb_row *r = row;

	(void)ctx, (void)fmt;
	*buf = 0;
	if (!has_value(r))
		return;
	if (r->e.paired)
		snprintf(buf, len, "%zu rounds", r->e.rounds);
	else
		snprintf(buf, len, "%zu / %zu", r->sa.n, r->sb.n);
}

/* paired: the per-round base median and base + shift */
static void base_cell(char *buf, size_t len, const void *row,
		      const void *ctx, enum nsb_tfmt fmt)
{
	const struct nsb_row *r = row;

	(void)fmt;
	*buf = 0;
	if (has_value(r))
		nsb_fmt_value(buf, len, r->e.paired ? r->e.base :
			      r->sa.median, CMP(ctx)->base.icount);
}

static void patched_cell(char *buf, size_t len, const void *row,
			 const void *ctx, enum nsb_tfmt fmt)
{
	const struct nsb_row *r = row;

	(void)fmt;
	*buf = 0;
	if (has_value(r))
		nsb_fmt_value(buf, len, r->e.paired ? r->e.base +
			      r->e.shift.est : r->sb.median,
			      CMP(ctx)->base.icount);
}

static void delta_cell(char *buf, size_t len, const void *row,
		       const void *ctx, enum nsb_tfmt fmt)
{
	const struct nsb_row *r = row;

	*buf = 0;
	if (!has_value(r))
		return;
	if (fmt == NSB_TEXT)
		snprintf(buf, len, "%+.1f%%", r->e.pct);
	else if (CMP(ctx)->base.icount)
		/* icount resolves single instructions: show them */
		snprintf(buf, len, "%+.1f insn (%+.2f %%)", r->e.shift.est,
			 r->e.pct);
	else
		snprintf(buf, len, "%+.1f %%", r->e.pct);
}

/* text: two blanks before it, as before the verdict */
static void ci_cell(char *buf, size_t len, const void *row, const void *ctx,
		    enum nsb_tfmt fmt)
{
	const struct nsb_row *r = row;
	bool text = fmt == NSB_TEXT;

	(void)ctx;
	*buf = 0;
	if (!has_value(r))
		return;
	if (text)
		*buf = ' ';
	fmt_ci(buf + text, len - text, &r->e);
}

static void p_cell(char *buf, size_t len, const void *row, const void *ctx,
		   enum nsb_tfmt fmt)
{
	(void)ctx, (void)fmt;
	*buf = 0;
	if (has_value(CROW(row)))
		nsb_fmt_p(buf, len, CROW(row)->e.p);
}

static void mde_cell(char *buf, size_t len, const void *row,
		     const void *ctx, enum nsb_tfmt fmt)
{
	(void)ctx, (void)fmt;
	*buf = 0;
	if (has_value(CROW(row)))
		snprintf(buf, len, "%.1f %%", CROW(row)->e.mde_pct);
}

/*
 * The verdict; in Markdown and HTML with what qualifies it (the A/A
 * band, under the threshold, the note), the text table's lines below.
 */
static void verdict_cell(char *buf, size_t len, const void *row,
			 const void *ctx, enum nsb_tfmt fmt)
{
	const struct nsb_row *r = row;
	const char *v = nsb_verdict_name(r->e.verdict);
	char under[96];
	bool md = fmt == NSB_MD;

	if (fmt == NSB_TEXT) {
		snprintf(buf, len, " %s", v);
		return;
	}
	if (!has_value(r)) {
		snprintf(buf, len, "%s: %s", v, r->e.note);
		return;
	}
	nsb_fmt_under(under, sizeof(under), ctx, &r->e);
	snprintf(buf, len, "%s%s%s%s%s%s%s%s%s", md ? "**" : "", v,
		 md ? "**" : "", r->e.band > NSB_ICOUNT_BAND ? md ? " \\*" :
		 " *" : "", *under ? " (" : "", under, *under ? ")" : "",
		 *r->e.note ? ": " : "", r->e.note);
}

static json_t *summary_json(const struct nsb_summary *s);
static json_t *effect_json(const struct nsb_effect *e);

NSB_ROW_JSON(verdict_json, struct nsb_row,
	     json_string(nsb_verdict_name(r->e.verdict)))
NSB_ROW_JSON(skipped_json, struct nsb_row,
	     json_pack("{s:I,s:I}", "base", (json_int_t)r->a->skipped,
		       "patched", (json_int_t)r->b->skipped))
NSB_ROW_JSON(errors_json, struct nsb_row,
	     json_pack("{s:I,s:I}", "base", (json_int_t)r->a->errors,
		       "patched", (json_int_t)r->b->errors))
NSB_ROW_JSON(note_json, struct nsb_row,
	     has_value(r) ? NULL : json_string(r->e.note))
NSB_ROW_JSON(sa_json, struct nsb_row,
	     has_value(r) ? summary_json(&r->sa) : NULL)
NSB_ROW_JSON(sb_json, struct nsb_row,
	     has_value(r) ? summary_json(&r->sb) : NULL)
NSB_ROW_JSON(effect_row_json, struct nsb_row,
	     has_value(r) ? effect_json(&r->e) : NULL)
NSB_ROW_JSON(holm_json, struct nsb_row,
	     has_value(r) ? nsb_json_num(r->p_holm) : NULL)
NSB_ROW_JSON(aa_json, struct nsb_row,
	     has_value(r) && r->has_aa ? effect_json(&r->aa) : NULL)

#define BOTH	(NSB_COL_TEXT | NSB_COL_MD)

/*
 * The columns of nsbench compare's table.  The text table's "delta" is
 * the % alone; the verdict's qualifiers go on lines of their own there.
 * JSON: the keys in column order, the effect's keys (test, shift, p,
 * ...) in the row itself.
 */
static const struct nsb_col compare_cols[] = {
	{ .head = "benchmark", .flags = NSB_COL_MD | NSB_COL_CODE,
	  .cell = name_cell, .key = "name", .json = nsb_cell_json },
	{ .head = "n", .flags = NSB_COL_MD | NSB_COL_RIGHT, .cell = n_cell },
	{ .head = "base", .width = 12, .flags = BOTH | NSB_COL_RIGHT,
	  .cell = base_cell },
	{ .head = "patched", .width = 12, .flags = BOTH | NSB_COL_RIGHT,
	  .cell = patched_cell },
	{ .head = "delta", .width = 8, .flags = BOTH | NSB_COL_RIGHT,
	  .cell = delta_cell },
	{ .head = " " NSB_CI_S "% CI", .md_head = NSB_CI_S " % CI",
	  .width = 17, .flags = BOTH, .cell = ci_cell },
	{ .head = "p", .width = 6, .flags = BOTH | NSB_COL_RIGHT,
	  .cell = p_cell },
	{ .head = "MDE", .flags = NSB_COL_MD | NSB_COL_RIGHT,
	  .cell = mde_cell },
	{ .head = " verdict", .md_head = "verdict", .flags = BOTH,
	  .cell = verdict_cell, .key = "verdict", .json = verdict_json },
	{ .key = "skipped", .json = skipped_json },
	{ .key = "errors", .json = errors_json },
	{ .key = "note", .json = note_json },
	{ .key = "base", .json = sa_json },
	{ .key = "patched", .json = sb_json },
	{ .key = "effect", .json = effect_row_json,
	  .flags = NSB_COL_JSON_MERGE },
	{ .key = "p_holm", .json = holm_json },
	{ .key = "aa", .json = aa_json },
};

static struct nsb_table compare_table(const struct nsb_comparison *c)
{
	return (struct nsb_table){ .cols = compare_cols,
				   .n = NSB_ARRAY_SIZE(compare_cols),
				   .ctx = c, .indent = "  " };
}

static void text_row(FILE *f, const struct nsb_comparison *c,
		     const struct nsb_row *r, size_t skip)
{
	struct nsb_table t = compare_table(c);
	char ci[40], line[400];
	bool ic = c->base.icount;

	text_name(f, r, skip);
	if (r->e.verdict >= NSB_SKIP) {
		snprintf(line, sizeof(line), "%s (%s)",
			 nsb_verdict_name(r->e.verdict), r->e.note);
		nsb_wrap(f, "    ", line);
		return;
	}
	nsb_table_row(f, &t, r, NSB_TEXT);
	if (ic) {
		char under[96];

		/* a +101-instruction change is what icount is for */
		nsb_fmt_under(under, sizeof(under), c, &r->e);
		snprintf(line, sizeof(line), "shift %+.1f insn [%+.1f, %+.1f] "
			 "against +-%.1f insn%s%s%s%s", r->e.shift.est,
			 r->e.shift.lo, r->e.shift.hi, r->e.band,
			 r->e.band > NSB_ICOUNT_BAND ? " (A/A residual) *" :
			 "", *under ? "; " : "",
			 *under ? nsb_verdict_name(r->e.verdict) : "",
			 *under ? ", " : "");
		if (*under)
			strcat(line, under);
		nsb_wrap(f, "    ", line);
	}
	if (r->e.verdict == NSB_NOISY && r->e.band > NSB_ICOUNT_BAND) {
		/* more rounds narrow the CI, not the residual */
		nsb_wrap(f, "    ", "noisy: the CI lies inside the A/A "
			 "residual, where the run cannot tell a change from "
			 "none");
	} else if (r->e.verdict == NSB_NOISY) {
		char res[32];

		if (ic)
			snprintf(res, sizeof(res), "+-%.1f insn", r->e.band);
		else
			snprintf(res, sizeof(res), "%.1f%%", c->o.threshold);
		snprintf(line, sizeof(line), "noisy: MDE %.1f%%; ~%zu %s "
			 "needed to resolve %s%s%s", r->e.mde_pct,
			 r->e.n_needed, r->e.paired ? "rounds" :
			 "samples per side", res,
			 *r->e.note ? "; " : "", r->e.note);
		nsb_wrap(f, "    ", line);
	} else if (*r->e.note) {
		nsb_wrap(f, "    ", r->e.note);
	}
	if (r->has_aa && ic) {
		snprintf(line, sizeof(line), "A/A residual %+.1f insn [%+.1f, "
			 "%+.1f]: %s", r->aa.shift.est, r->aa.shift.lo,
			 r->aa.shift.hi, nsb_verdict_name(r->aa.verdict));
		nsb_wrap(f, "    ", line);
	} else if (r->has_aa) {
		fmt_ci(ci, sizeof(ci), &r->aa);
		snprintf(line, sizeof(line), "A/A residual %+.1f%% %s: %s",
			 r->aa.pct, ci, nsb_verdict_name(r->aa.verdict));
		nsb_wrap(f, "    ", line);
	}
}

static void text_notes(FILE *f, const struct nsb_comparison *c)
{
	char line[600];
	size_t tested = c->n - c->count[NSB_SKIP] - c->count[NSB_ERROR];

	nsb_fmt_counts(line, sizeof(line), c);
	if (!c->base.icount)
		snprintf(line + strlen(line), sizeof(line) - strlen(line),
			 " (threshold %.1f%%)", c->o.threshold);
	strcat(line, ".");
	nsb_wrap(f, "", line);
	nsb_rule_text(line, sizeof(line), c);
	nsb_wrap(f, "", line);
	nsb_wrap(f, "", "delta: patched vs base in % of the base median; "
		 "unpaired rows: Hodges-Lehmann shift, Moses " NSB_CI_S "% CI, "
		 "Mann-Whitney U p; paired rows: median of per-round "
		 "differences, sign-test " NSB_CI_S
		 "% CI, Wilcoxon signed-rank p. "
		 "MDE: minimum detectable effect (alpha " NSB_ALPHA_S ", power "
		 NSB_POWER_S ").");
	if (tested > 1) {
		snprintf(line, sizeof(line), "p-values are per row, not "
			 "adjusted for the %zu comparisons; with Holm's "
			 "adjustment %zu of %zu slower/faster verdicts keep "
			 "p < " NSB_ALPHA_S ".", tested, c->holm_kept,
			 c->count[NSB_SLOWER] + c->count[NSB_FASTER]);
		nsb_wrap(f, "", line);
	}
}

/* --rounds: each round's medians under a paired row. */
static void text_rounds(FILE *f, const struct nsb_comparison *c,
			const struct nsb_row *r)
{
	struct nsb_round_pair *p;
	char va[32], vb[32], vd[32];
	size_t dropped;
	long k;

	if (!r->e.paired || !r->a || !r->b)
		return;
	k = nsb_round_pairs(r->a, r->b, &p, &dropped);
	for (long i = 0; i < k; i++) {
		nsb_fmt_value(va, sizeof(va), p[i].base, c->base.icount);
		nsb_fmt_value(vb, sizeof(vb), p[i].patched, c->base.icount);
		nsb_fmt_value(vd, sizeof(vd), p[i].patched - p[i].base,
			      c->base.icount);
		fprintf(f, "      round %-14s %12s %12s  %s%s\n", p[i].round,
			va, vb, p[i].patched >= p[i].base ? "+" : "", vd);
	}
	if (k >= 0)
		free(p);
}

void nsb_print_text(FILE *f, const struct nsb_comparison *c)
{
	struct nsb_table t = compare_table(c);
	size_t skip = common_prefix(c), i;

	if (skip)
		fprintf(f, "Benchmarks under %.*s\n", (int)skip,
			c->rows[0].name);
	nsb_table_head(f, &t, NSB_TEXT);
	for (i = 0; i < c->n; i++) {
		text_row(f, c, &c->rows[i], skip);
		if (c->o.show_rounds)
			text_rounds(f, c, &c->rows[i]);
	}
	fputc('\n', f);
	text_notes(f, c);
}

/* The table alone, in Markdown or HTML: the same columns either way. */
void nsb_compare_table(FILE *f, const struct nsb_comparison *c,
		       enum nsb_tfmt fmt)
{
	struct nsb_table t = compare_table(c);
	size_t i;

	nsb_table_head(f, &t, fmt);
	for (i = 0; i < c->n; i++)
		nsb_table_row(f, &t, &c->rows[i], fmt);
	nsb_table_end(f, &t, fmt);
}

void nsb_print_markdown(FILE *f, const struct nsb_comparison *c)
{
	char ci[40], d[160], rule[400];
	size_t i;

	nsb_compare_table(f, c, NSB_MD);
	nsb_fmt_counts(d, sizeof(d), c);
	fprintf(f, "\n%s", d);
	if (!c->base.icount)
		fprintf(f, "; threshold %.1f %%", c->o.threshold);
	nsb_rule_text(rule, sizeof(rule), c);
	fprintf(f, ".\n%s\n", rule);
	fprintf(f, "Delta: patched vs base in %% of the base median; unpaired "
		"rows: Hodges-Lehmann shift, Moses CI, Mann-Whitney U p; "
		"paired rows: median of per-round differences, sign-test CI, "
		"Wilcoxon signed-rank p.  p-values are not adjusted for "
		"multiple comparisons; with Holm, %zu slower/faster verdicts "
		"keep p < " NSB_ALPHA_S ".\n", c->holm_kept);
	for (i = 0; i < c->n; i++) {
		const struct nsb_row *r = &c->rows[i];

		if (!r->has_aa)
			continue;
		fmt_ci(ci, sizeof(ci), &r->aa);
		fputs("\n- A/A residual of ", f);
		nsb_md_put_code(f, r->name);
		fprintf(f, ": %+.1f %% %s, %s", r->aa.pct, ci,
			nsb_verdict_name(r->aa.verdict));
	}
	fputc('\n', f);
}

/* --- JSON ------------------------------------------------------------- */

static json_t *summary_json(const struct nsb_summary *s)
{
	return json_pack("{s:I,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}",
			 "n", (json_int_t)s->n,
			 "median", nsb_json_num(s->median),
			 "mean", nsb_json_num(s->mean),
			 "sd", nsb_json_num(s->sd),
			 "cv", nsb_json_num(s->cv),
			 "min", nsb_json_num(s->min),
			 "max", nsb_json_num(s->max),
			 "ci_lo", nsb_json_num(s->ci_lo),
			 "ci_hi", nsb_json_num(s->ci_hi),
			 "ci_level", nsb_json_num(s->ci_level));
}

static json_t *effect_json(const struct nsb_effect *e)
{
	json_t *j = json_pack("{s:s,s:b,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:I,s:s}",
		"verdict", nsb_verdict_name(e->verdict), "paired", e->paired,
		"base_ref", nsb_json_num(e->base),
		"shift", nsb_interval_json(&e->shift),
		"delta_pct", nsb_json_num(e->pct),
		"delta_lo_pct", nsb_json_num(e->lo_pct),
		"delta_hi_pct", nsb_json_num(e->hi_pct),
		"p", nsb_json_num(e->p),
		"mde_pct", nsb_json_num(e->mde_pct),
		"n_needed", (json_int_t)e->n_needed,
		"note", e->note);

	if (!j)
		return NULL;
	if (e->band > 0)
		json_object_set_new(j, "band", nsb_json_num(e->band));
	json_object_set_new(j, "under_threshold", json_boolean(e->under_thr));
	if (e->paired) {
		json_object_set_new(j, "test", json_string("wilcoxon"));
		json_object_set_new(j, "rounds", json_integer((json_int_t)
							      e->rounds));
		json_object_set_new(j, "signed_rank", json_pack(
			"{s:I,s:o,s:o,s:o,s:b}", "n", (json_int_t)e->wsr.n,
			"t_plus", nsb_json_num(e->wsr.t_plus),
			"t", nsb_json_num(e->wsr.t),
			"p", nsb_json_num(e->wsr.p), "exact", e->wsr.exact));
		json_object_set_new(j, "median_diff",
				    nsb_interval_json(&e->dmed));
		json_object_set_new(j, "walsh", nsb_interval_json(&e->walsh));
	} else {
		json_object_set_new(j, "test", json_string("mann-whitney"));
		json_object_set_new(j, "mann_whitney", json_pack(
			"{s:o,s:o,s:b}", "u", nsb_json_num(e->mwu.u), "p",
			nsb_json_num(e->mwu.p), "exact", e->mwu.exact));
		json_object_set_new(j, "hodges_lehmann",
				    nsb_interval_json(&e->hl));
		json_object_set_new(j, "ratio", nsb_interval_json(&e->ratio));
	}
	return j;
}


static json_t *files_json(const struct nsb_side *s)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < s->nfiles; i++)
		json_array_append_new(a, json_string(s->files[i]));
	return a;
}

json_t *nsb_compare_json(const struct nsb_comparison *c)
{
	struct nsb_table t = compare_table(c);
	json_t *rows = json_array(), *root;
	size_t i;

	for (i = 0; i < c->n; i++)
		json_array_append_new(rows, nsb_table_json(&t, &c->rows[i]));
	root = json_pack("{s:i,s:s,s:f,s:f,s:s,s:s,s:o,s:o,s:o,s:o}",
		"nsbench_compare", 1, "nsbench_version", nsb_version(),
		"threshold_pct", c->o.threshold, "alpha", NSB_ALPHA,
		"metric", c->o.metric, "unit", c->base.unit,
		"base_files", files_json(&c->base),
		"patched_files", files_json(&c->patched),
		"aa_files", files_json(&c->aa), "rows", rows);
	if (!root)
		return NULL;
	json_object_set_new(root, "rule", json_string(c->base.icount ?
			    "icount-band" : "threshold"));
	json_object_set_new(root, "threshold_given",
			    json_boolean(c->o.threshold_given));
	json_object_set_new(root, "summary", json_pack(
		"{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}",
		"slower_under_threshold",
		(json_int_t)c->under_thr[NSB_SLOWER],
		"slower", (json_int_t)c->count[NSB_SLOWER],
		"faster", (json_int_t)c->count[NSB_FASTER],
		"same", (json_int_t)c->count[NSB_SAME],
		"noisy", (json_int_t)c->count[NSB_NOISY],
		"skip", (json_int_t)c->count[NSB_SKIP],
		"error", (json_int_t)c->count[NSB_ERROR],
		"holm_kept", (json_int_t)c->holm_kept));
	return root;
}
