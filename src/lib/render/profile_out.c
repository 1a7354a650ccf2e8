// SPDX-License-Identifier: GPL-2.0
/*
 * profile_out.c — where a benchmark's instructions go, rendered from
 * what profile.c pooled: the per-symbol tables of `nsbench profile`
 * (text and JSON) and the "where it goes" blocks of the A/B report
 * (abtable.c), as compare.c computes and compare_out.c renders.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/stats/compare.h"
#include "src/lib/base/nsbench.h"
#include "src/lib/stats/profile.h"
#include "src/lib/render/table.h"

/* --- output ----------------------------------------------------------- */

/*
 * A name as a text table shows it: control characters (an ESC in a
 * symbol would drive the terminal) as '?', cut to width with "..." at
 * a character boundary.
 */
static void text_name(char *buf, size_t width, const char *s)
{
	size_t i, len = strlen(s), cut = len > width ? width - 3 : len;

	while (cut && cut < len && ((unsigned char)s[cut] & 0xc0) == 0x80)
		cut--;
	for (i = 0; i < cut; i++)
		buf[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' :
			 s[i];
	buf[i] = 0;
	if (cut < len)
		strcpy(buf + i, "...");
}

void nsb_prof_sym_label(char *buf, size_t len, const struct nsb_prof_row *r)
{
	const char *dso = strrchr(r->dso, '/');

	dso = dso ? dso + 1 : r->dso;
	if (r->kernel && !strcmp(r->dso, "[kernel.kallsyms]"))
		snprintf(buf, len, "%s", r->symbol);
	else
		snprintf(buf, len, "%s (%s)", r->symbol, dso);
}

/* A value of the tables: tenths below 10, whole numbers from there. */
static void fmt_num(char *buf, size_t len, double v, bool sign)
{
	v += 0.0;	/* -0 prints as 0 */
	if (fabs(v) >= 10 || v == 0)
		snprintf(buf, len, sign ? "%+.0f" : "%.0f", v);
	else
		snprintf(buf, len, sign ? "%+.1f" : "%.1f", v);
}

/*
 * "+4003 [+3990, +4015]", the estimate right-aligned in 6; one precision
 * for all three, as nsb_fmt_shift: tenths while the CI is within +-10.
 */
static void fmt_shift(char *buf, size_t len, const struct nsb_interval *s)
{
	double a = fmax(fabs(s->lo), fabs(s->hi));
	char e[24];

	if (a >= 10) {
		snprintf(e, sizeof(e), "%+.0f", s->est + 0.0);
		snprintf(buf, len, "%6s [%+.0f, %+.0f]", e, s->lo + 0.0,
			 s->hi + 0.0);
	} else {
		snprintf(e, sizeof(e), "%+.1f", s->est + 0.0);
		snprintf(buf, len, "%6s [%+.1f, %+.1f]", e, s->lo + 0.0,
			 s->hi + 0.0);
	}
}

static const char *unit_of(const struct nsb_prof_cmp *c)
{
	return c->icount ? "insn" : "ns";
}

/* "perf cpu-clock, 1 sample per 10007 insn, 6 rounds" */
static void fmt_source(char *buf, size_t len, const struct nsb_prof_cmp *c)
{
	if (c->period > 0)
		snprintf(buf, len, "perf %s, 1 sample per %.0f %s, %zu rounds",
			 c->event, c->period, c->icount ? "insn" : "events",
			 c->rounds);
	else
		snprintf(buf, len, "perf %s, periods differ, %zu rounds",
			 c->event, c->rounds);
}

/* The significant symbols by |shift|, at most max, into top[]. */
static size_t top_significant(const struct nsb_prof_cmp *c, size_t max,
			      const struct nsb_prof_row **top)
{
	size_t i, n = 0;

	for (i = 0; i < c->nsym && n < max; i++)
		if (c->sym[i].significant)
			top[n++] = &c->sym[i];
	return n;
}

static void where_line(FILE *f, bool md, const char *name,
		       const struct nsb_interval *s)
{
	char label[64], sh[96];

	fmt_shift(sh, sizeof(sh), s);
	if (md) {
		fprintf(f, "| %s | %s |\n", name, sh + strspn(sh, " "));
		return;
	}
	text_name(label, 30, name);
	fprintf(f, "      %-30s %s\n", label, sh);
}

static void where_tail(FILE *f, bool md, const struct nsb_prof_cmp *c,
		       double measured)
{
	char tot[96], ms[32], un[32];
	double unattr = measured - c->total.shift.est;
	double pct = measured ? 100 * unattr / measured : 0;

	fmt_shift(tot, sizeof(tot), &c->total.shift);
	fmt_num(ms, sizeof(ms), measured, true);
	fmt_num(un, sizeof(un), unattr, true);
	if (md)
		fprintf(f, "| **profile total** | %s |\n| measured | %s |\n"
			"| unattributed | %s (%.1f %%) |\n",
			tot + strspn(tot, " "), ms, un, pct);
	else
		fprintf(f, "      profile total %s; measured %s:\n"
			"      unattributed %s (%.1f %% of the shift)\n",
			tot + strspn(tot, " "), ms, un, pct);
}

/*
 * No symbol listed: always the same sentence (scripts grep for it), and
 * why when the rounds are too few for the sign test's 95 % CI to exist
 * at all (fewer than 6): then none could have been significant.
 */
static void none_line(FILE *f, const struct nsb_prof_cmp *c,
		      const char *pre, const char *post)
{
	if (c->total.shift.level < 1 - NSB_ALPHA - 1e-9)
		fprintf(f, "%sno symbol with a significant change (%zu rounds "
			"give a %.0f %% CI only)%s\n", pre, c->rounds,
			100 * c->total.shift.level, post);
	else
		fprintf(f, "%sno symbol with a significant change%s\n", pre,
			post);
}

void nsb_prof_where(FILE *f, const struct nsb_prof_cmp *c, double measured,
		    const char *row, bool md)
{
	const struct nsb_prof_row *top[NSB_PROF_WHERE_TOP];
	char src[160], label[512], name[600];
	struct nsb_interval rest;
	size_t i, n = top_significant(c, NSB_PROF_WHERE_TOP, top);

	fmt_source(src, sizeof(src), c);
	if (md) {
		fputs("\n**where it goes**: ", f);
		nsb_md_put_code(f, row);
		fprintf(f, " (%s, %s per op)\n\n| symbol | shift [" NSB_CI_S
			"%% CI] "
			"|\n|---|---:|\n", src, unit_of(c));
	} else {
		fprintf(f, "    where it goes (%s):\n", src);
	}
	if (!n)
		none_line(f, c, md ? "| " : "      ", md ? " | |" : "");
	for (i = 0; i < n; i++) {
		nsb_prof_sym_label(label, sizeof(label), top[i]);
		if (md)
			nsb_md_code(name, sizeof(name), label);
		where_line(f, md, md ? name : label, &top[i]->shift);
	}
	if (n && !nsb_prof_rest(c, top, n, &rest)) {
		snprintf(label, sizeof(label), "rest (%zu symbols)",
			 c->nsym - n);
		where_line(f, md, label, &rest);
	}
	where_tail(f, md, c, measured);
}

/* --- the symbol table: one description of its columns ---------------- */

/* A row of the table: a symbol's (or the total's) shift, and its label. */
struct sym_row {
	const struct nsb_prof_row *r;
	const char *label;
};

#define SROW(row)	(((const struct sym_row *)(row))->r)

/* text: cut to the column (a long C++ name), no control character */
static void label_cell(char *buf, size_t len, const void *row,
		       const void *ctx, enum nsb_tfmt fmt)
{
	const char *label = ((const struct sym_row *)row)->label;

	(void)ctx;
	if (fmt == NSB_TEXT && len > 28)
		text_name(buf, 28, label);
	else
		snprintf(buf, len, "%s", label);
}

static void base_cell(char *buf, size_t len, const void *row,
		      const void *ctx, enum nsb_tfmt fmt)
{
	(void)ctx, (void)fmt;
	fmt_num(buf, len, SROW(row)->base, false);
}

static void patched_cell(char *buf, size_t len, const void *row,
			 const void *ctx, enum nsb_tfmt fmt)
{
	(void)ctx, (void)fmt;
	fmt_num(buf, len, SROW(row)->patched, false);
}

/* "* significant" is the table's legend */
static void shift_cell(char *buf, size_t len, const void *row,
		       const void *ctx, enum nsb_tfmt fmt)
{
	size_t n;

	(void)ctx, (void)fmt;
	fmt_shift(buf, len, &SROW(row)->shift);
	n = strlen(buf);
	if (SROW(row)->significant && n + 3 <= len)
		strcpy(buf + n, " *");
}

#define SYM_JSON(name, expr)						\
static json_t *name(const struct nsb_col *c, const void *row,		\
		    const void *ctx)					\
{									\
	const struct nsb_prof_row *r = SROW(row);			\
									\
	(void)c, (void)ctx;						\
	return expr;							\
}
SYM_JSON(symbol_json, json_string(r->symbol))
SYM_JSON(dso_json, json_string(r->dso))
SYM_JSON(kernel_json, json_boolean(r->kernel))
SYM_JSON(base_json, json_real(r->base))
SYM_JSON(patched_json, json_real(r->patched))
SYM_JSON(shift_json, nsb_interval_json(&r->shift))
SYM_JSON(significant_json, json_boolean(r->significant))
SYM_JSON(floor_json, json_real(r->floor))

#define BOTH	(NSB_COL_TEXT | NSB_COL_MD)

/* nsbench profile's table; JSON keys in column order */
static const struct nsb_col sym_cols[] = {
	{ .head = "symbol", .width = 28, .flags = BOTH | NSB_COL_CODE,
	  .cell = label_cell },
	{ .key = "symbol", .json = symbol_json },
	{ .key = "dso", .json = dso_json },
	{ .key = "kernel", .json = kernel_json },
	{ .head = "base", .width = 7, .flags = BOTH | NSB_COL_RIGHT,
	  .cell = base_cell, .key = "base", .json = base_json },
	{ .head = "patch", .width = 7, .flags = BOTH | NSB_COL_RIGHT,
	  .cell = patched_cell, .key = "patched", .json = patched_json },
	{ .head = "shift [" NSB_CI_S "% CI]", .flags = BOTH,
	  .cell = shift_cell, .key = "shift", .json = shift_json },
	{ .key = "significant", .json = significant_json },
	{ .key = "noise_floor", .json = floor_json },
};

static const struct nsb_table sym_table = {
	.cols = sym_cols, .n = NSB_ARRAY_SIZE(sym_cols), .indent = "  ",
};

static json_t *row_json(const struct nsb_prof_row *r)
{
	struct sym_row row = { r, r->symbol };

	return nsb_table_json(&sym_table, &row);
}

json_t *nsb_prof_cmp_json(const struct nsb_prof_cmp *c, size_t top)
{
	json_t *syms = json_array(), *j;
	size_t i;

	for (i = 0; syms && i < c->nsym && i < top; i++)
		json_array_append_new(syms, row_json(&c->sym[i]));
	j = json_pack("{s:s, s:s, s:f, s:s, s:I, s:I, s:I, s:o, s:o}",
		      "benchmark", c->benchmark, "event", c->event,
		      "period", c->period, "unit", unit_of(c),
		      "rounds", (json_int_t)c->rounds,
		      "symbols_total", (json_int_t)c->nsym,
		      "significant", (json_int_t)c->nsig,
		      "total", row_json(&c->total), "symbols", syms);
	return j;
}

static void table_row(FILE *f, const struct nsb_prof_row *r,
		      const char *label)
{
	struct sym_row row = { r, label };

	nsb_table_row(f, &sym_table, &row, NSB_TEXT);
}

void nsb_prof_print(FILE *f, const struct nsb_prof_cmp *c, size_t top)
{
	char src[160], label[512], line[400];
	size_t i;

	fmt_source(src, sizeof(src), c);
	fprintf(f, "%s\n", c->benchmark);
	snprintf(line, sizeof(line), "%s paired; %s per op, shift = patched "
		 "- base, median and sign-test " NSB_CI_S
		 "%% CI:", src, unit_of(c));
	nsb_wrap(f, "  ", line);
	nsb_table_head(f, &sym_table, NSB_TEXT);
	for (i = 0; i < c->nsym && i < top; i++) {
		nsb_prof_sym_label(label, sizeof(label), &c->sym[i]);
		table_row(f, &c->sym[i], label);
	}
	table_row(f, &c->total, "total (all samples)");
	if (!c->nsig) {
		none_line(f, c, "  ", "");
	} else {
		snprintf(line, sizeof(line), "* significant (CI excludes 0, "
			 "above noise): %zu of %zu symbols",
			 c->nsig, c->nsym);
		nsb_wrap(f, "  ", line);
	}
	if (c->dropped)
		fprintf(f, "  (%zu profile(s) without a partner round left "
			"out)\n", c->dropped);
	fputc('\n', f);
}

void nsb_prof_sides_where(FILE *f, const struct nsb_prof_sides *p,
			  const struct nsb_comparison *c, size_t i, bool md)
{
	const struct nsb_row *r = &c->rows[i];
	char line[200];

	if (!p || i >= p->n || p->state[i] == NSB_PROF_NONE)
		return;
	if (p->state[i] == NSB_PROF_DONE) {
		nsb_prof_where(f, &p->cmp[i], r->e.shift.est, r->name, md);
		return;
	}
	snprintf(line, sizeof(line), "where it goes: the profiles pair in "
		 "%zu round(s), 2 needed", p->cmp[i].rounds);
	if (md) {
		fprintf(f, "\n**%s**: ", line);
		nsb_md_put_code(f, r->name);
		fputc('\n', f);
	} else {
		nsb_wrap(f, "    ", line);
	}
}
