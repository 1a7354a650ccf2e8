// SPDX-License-Identifier: GPL-2.0
/*
 * costcache.c — the cache model's share of the check costs (costs.h):
 * where a run's boots loaded the cache-model plugin (ab.sh --cachesim;
 * src/lib/io/cachesim.c put its counters into the results), each row also
 * gets the shift on - off per op in loads, in L1d and last-level misses
 * warm and cold, and in estimated cycles, pooled over the rounds as the
 * instructions are (median of the per-round differences, sign-test CI).
 * Warm is the measured loop as it runs, its lines cached by the loop
 * itself; cold is the same loop with every simulated cache emptied as
 * each operation starts: what the check pays when nothing it reads is
 * cached.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/stats/costs.h"
#include "src/lib/base/jsonio.h"
#include "src/lib/base/nsbench.h"
#include "src/lib/base/strbuf.h"

#define CS(k)	"nsb_on_cs_" k, "nsb_off1_cs_" k, "nsb_off2_cs_" k

const struct nsb_cost_cs_metric nsb_cost_cs[NSB_COST_NCS] = {
	[NSB_COST_CS_INSN] = { "insn", CS("insn"), "insn", "instructions" },
	[NSB_COST_CS_LOADS] = { "loads", CS("loads"), "loads", "loads" },
	[NSB_COST_CS_D1] = { "l1d_miss", CS("d1_miss"), "L1d", "L1d misses" },
	[NSB_COST_CS_LL] = { "ll_miss", CS("ll_miss"), "LL", "LL misses" },
	[NSB_COST_CS_CYCLES] = { "cycles", CS("cycles"), "cycles",
				 "estimated cycles" },
	[NSB_COST_CS_D1_COLD] = { "l1d_miss_cold", CS("d1_miss_cold"), "L1d",
				  "L1d misses, caches cold" },
	[NSB_COST_CS_LL_COLD] = { "ll_miss_cold", CS("ll_miss_cold"), "LL",
				  "LL misses, caches cold" },
	[NSB_COST_CS_CYCLES_COLD] = { "cycles_cold", CS("cycles_cold"),
				      "cycles", "estimated cycles, caches cold" },
	[NSB_COST_CS_I1] = { "l1i_miss", CS("i1_miss"), "L1i", "L1i misses" },
	[NSB_COST_CS_I1_COLD] = { "l1i_miss_cold", CS("i1_miss_cold"), "L1i",
				  "L1i misses, caches cold" },
};

void nsb_costs_cs_init(struct nsb_cost_family *f)
{
	int m;

	for (m = 0; m < NSB_COST_NCS; m++) {
		nsb_side_init(&f->cs_on[m], "on (cache model)");
		nsb_side_init(&f->cs_off[m], "off (cache model)");
		f->cs_on[m].zero_ok = f->cs_off[m].zero_ok = true;
		/* a run the plugin has no record of: that round goes without */
		f->cs_on[m].optional = f->cs_off[m].optional = true;
	}
	f->cs_funcs = NULL;
}

void nsb_costs_cs_free(struct nsb_cost_family *f)
{
	int m;

	for (m = 0; m < NSB_COST_NCS; m++) {
		nsb_side_free(&f->cs_on[m]);
		nsb_side_free(&f->cs_off[m]);
	}
	json_decref(f->cs_funcs);
	f->cs_funcs = NULL;
}

/* The four deltas (on - off) of a "#fn" entry's eight counts. */
static json_t *func_deltas(json_t *v)
{
	json_t *d = json_array();
	int k;

	for (k = 0; k < 8; k += 2)
		json_array_append_new(d, json_real(
			json_number_value(json_array_get(v, k)) -
			json_number_value(json_array_get(v, k + 1))));
	return d;
}

/*
 * Each entry's nsb_cs_funcs into f->cs_funcs: row name -> { "rounds":
 * [the files' count], function -> [[4 deltas] per file that named it] }.
 */
static void add_funcs(struct nsb_cost_family *f, json_t *root)
{
	json_t *b, *funcs, *row, *v;
	const char *name, *fn;
	size_t i;

	json_array_foreach(json_object_get(root, "benchmarks"), i, b) {
		name = nsb_json_str(b, "name");
		funcs = json_object_get(b, "nsb_cs_funcs");
		if (!name || !json_is_object(funcs))
			continue;
		if (!f->cs_funcs)
			f->cs_funcs = json_object();
		row = json_object_get(f->cs_funcs, name);
		if (!row) {
			row = json_pack("{s:i}", "rounds", 0);
			json_object_set_new(f->cs_funcs, name, row);
		}
		json_object_set_new(row, "rounds", json_integer(
			json_integer_value(json_object_get(row, "rounds")) + 1));
		json_object_foreach(funcs, fn, v) {
			json_t *list;

			if (!strcmp(fn, "rounds") || !json_is_array(v) ||
			    json_array_size(v) != 8)
				continue;
			list = json_object_get(row, fn);
			if (!list) {
				list = json_array();
				json_object_set_new(row, fn, list);
			}
			json_array_append_new(list, func_deltas(v));
		}
	}
}

int nsb_costs_cs_load(struct nsb_costs *c, struct nsb_cost_family *f,
		      json_t *root, const char *path)
{
	json_t *ctx = json_object_get(root, "context");
	const char *model = nsb_json_str(ctx, "nsbench_cachesim");
	const char *complete = nsb_json_str(ctx, "nsbench_cachesim_complete");
	int m;

	if (!model)
		return 0;
	/*
	 * Some runs unmodelled (a state none of whose chunks the central
	 * mean kept): those entries have no counters, and a row is in the
	 * table only where every round has them (nsb_costs_cs_row).
	 */
	if (!complete || strcmp(complete, "yes"))
		c->cs_partial++;
	if (!c->cs_model) {
		c->cs_model = strdup(model);
		if (!c->cs_model)
			return -1;
	}
	for (m = 0; m < NSB_COST_NCS; m++) {
		const struct nsb_cost_cs_metric *k = &nsb_cost_cs[m];

		f->cs_on[m].metric = k->on;
		if (nsb_side_load(&f->cs_on[m], path))
			return -1;
		/* "off" pools both off states, as the instructions do */
		f->cs_off[m].metric = k->off1;
		if (nsb_side_load(&f->cs_off[m], path))
			return -1;
		f->cs_off[m].metric = k->off2;
		if (nsb_side_load(&f->cs_off[m], path))
			return -1;
	}
	add_funcs(f, root);
	c->cs_files++;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * The median over rounds of delta k of a function: a round whose file
 * did not name it moved it by less than half a unit, counted as 0.
 */
static double func_median(json_t *list, size_t rounds, int k)
{
	double v[64] = { 0 };
	size_t i, n = rounds < 64 ? rounds : 64;
	json_t *d;

	json_array_foreach(list, i, d)
		if (i < n)
			v[i] = json_number_value(json_array_get(d, k));
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#define TOP_FUNCS 4

/* The functions that move most (|d insn| + |d loads|), medians. */
static json_t *top_funcs(const struct nsb_cost_family *f, const char *name)
{
	static const char *const keys[4] = {
		"insn", "loads", "l1d_miss", "l1d_miss_cold",
	};
	json_t *row = json_object_get(f->cs_funcs, name), *list, *out, *v;
	struct { const char *fn; double d[4], w; } top[TOP_FUNCS] = { 0 };
	size_t rounds, i;
	const char *fn;
	int k;

	rounds = (size_t)json_integer_value(json_object_get(row, "rounds"));
	if (!row || !rounds)
		return NULL;
	json_object_foreach(row, fn, list) {
		double d[4], w;

		if (!json_is_array(list))
			continue;
		for (k = 0; k < 4; k++)
			d[k] = func_median(list, rounds, k);
		w = fabs(d[0]) + fabs(d[1]) + fabs(d[3]);
		if (w < 0.5 || w <= top[TOP_FUNCS - 1].w)
			continue;
		for (i = TOP_FUNCS - 1; i > 0 && top[i - 1].w < w; i--)
			top[i] = top[i - 1];
		top[i].fn = fn;
		top[i].w = w;
		memcpy(top[i].d, d, sizeof(d));
	}
	out = json_object();
	for (i = 0; i < TOP_FUNCS && top[i].fn; i++) {
		v = json_object();
		for (k = 0; k < 4; k++)
			json_object_set_new(v, keys[k], json_real(top[i].d[k]));
		json_object_set_new(out, top[i].fn, v);
	}
	return out;
}

int nsb_costs_cs_row(struct nsb_costs *c, struct nsb_cost_family *f,
		     const struct nsb_series *on, struct nsb_cost_row *r)
{
	int m;

	r->has_cs = false;
	r->cs_funcs = NULL;
	/* a row the check decides times two operations: no cost of it */
	if (r->cost.verdict >= NSB_SKIP || r->decides)
		return 0;
	for (m = 0; m < NSB_COST_NCS; m++) {
		struct nsb_series *son = nsb_side_find(&f->cs_on[m], on->name);
		struct nsb_series *soff = nsb_side_find(&f->cs_off[m],
							on->name);

		/* every round of the row, or the row goes without */
		if (!son || !soff || son->n != on->n)
			return 0;
		if (nsb_effect(&c->o, soff, son, &r->cs[m]))
			return -1;
		if (r->cs[m].verdict >= NSB_SKIP)
			return 0;
	}
	r->has_cs = true;
	r->cs_funcs = top_funcs(f, on->name);
	return 0;
}

json_t *nsb_costs_cs_json(const struct nsb_cost_row *r)
{
	json_t *o;
	int m;

	if (!r->has_cs)
		return NULL;
	o = json_object();
	for (m = 0; m < NSB_COST_NCS; m++) {
		json_t *v = nsb_interval_json(&r->cs[m].shift);

		json_object_set_new(v, "off", nsb_json_num(r->cs[m].base));
		json_object_set_new(v, "unit",
				    json_string(nsb_cost_cs[m].unit));
		json_object_set_new(o, nsb_cost_cs[m].key, v);
	}
	if (r->cs_funcs)
		json_object_set(o, "functions", r->cs_funcs);
	return o;
}

/* --- the table ------------------------------------------------------------ */

/*
 * Text cells give the estimate; '~' marks a CI wider than a tenth of it
 * (and than 0.5): the Markdown and costs.json give every CI.
 */
static void cs_value(char *buf, size_t len, const struct nsb_interval *s,
		     enum nsb_tfmt fmt)
{
	double w = fmax(s->est - s->lo, s->hi - s->est);
	bool wide = w > fmax(0.5, 0.1 * fabs(s->est));

	if (fmt == NSB_MD) {
		nsb_fmt_shift(buf, len, s);
		return;
	}
	snprintf(buf, len, fabs(s->est) >= 100 ? "%+.0f%s" : "%+.1f%s",
		 s->est, wide ? "~" : "");
}

static void cs_cell(char *buf, size_t len, const void *row, int m,
		    enum nsb_tfmt fmt)
{
	const struct nsb_cost_row *r = row;

	*buf = 0;
	if (r->has_cs)
		cs_value(buf, len, &r->cs[m].shift, fmt);
}

#define CS_CELL(name, m)						\
static void name(char *buf, size_t len, const void *row,		\
		 const void *ctx, enum nsb_tfmt fmt)			\
{									\
	(void)ctx;							\
	cs_cell(buf, len, row, m, fmt);					\
}

CS_CELL(loads_cell, NSB_COST_CS_LOADS)
CS_CELL(d1_cell, NSB_COST_CS_D1)
CS_CELL(ll_cell, NSB_COST_CS_LL)
CS_CELL(cycles_cell, NSB_COST_CS_CYCLES)
CS_CELL(d1_cold_cell, NSB_COST_CS_D1_COLD)
CS_CELL(ll_cold_cell, NSB_COST_CS_LL_COLD)
CS_CELL(cycles_cold_cell, NSB_COST_CS_CYCLES_COLD)

static void label_cell(char *buf, size_t len, const void *row,
		       const void *ctx, enum nsb_tfmt fmt)
{
	(void)ctx, (void)fmt;
	nsb_cost_label(buf, len, ((const struct nsb_cost_row *)row)->name);
}

#define BOTH	(NSB_COL_TEXT | NSB_COL_MD)
#define NUM	(BOTH | NSB_COL_RIGHT)

/* The L1d, LL and cycles columns, once warm and once cold (temp). */
#define CS_COLS(temp, d1, ll, cycles)					\
	{ .head = "L1d", .md_head = "L1d misses " temp, .width = 6,	\
	  .flags = NUM, .cell = d1 },					\
	{ .head = "LL", .md_head = "LL misses " temp, .width = 5,	\
	  .flags = NUM, .cell = ll },					\
	{ .head = "cycles", .md_head = "cycles " temp, .width = 7,	\
	  .flags = NUM, .cell = cycles }

static const struct nsb_col cs_cols[] = {
	{ .head = "scenario", .width = 17, .flags = BOTH | NSB_COL_CODE |
	  NSB_COL_OWN_LINE, .cell = label_cell },
	{ .head = "loads", .width = 6, .flags = NUM, .cell = loads_cell },
	CS_COLS("warm", d1_cell, ll_cell, cycles_cell),
	CS_COLS("cold", d1_cold_cell, ll_cold_cell, cycles_cold_cell),
};

static bool family_has_cs(const struct nsb_cost_family *fam)
{
	size_t j;

	for (j = 0; j < fam->n; j++)
		if (fam->rows[j].has_cs)
			return true;
	return false;
}

static void cs_intro(FILE *f, const struct nsb_costs *c, bool markdown)
{
	/* the model's geometry comes from the results: as long as it is */
	struct nsb_sb line = NSB_SB_INIT;

	nsb_sb_addf(&line, "What each check costs in the cache "
		    "model: shift on - off per op, median of the per-round "
		    "differences%s. warm: the measured loop as it runs, its "
		    "lines cached by the loop itself; cold: I1, D1 and LL "
		    "emptied as each op starts. Estimated cycles = "
		    "instructions + 10 per L1 miss + 100 per LL miss "
		    "(Cachegrind's estimate). Model (QEMU plugin "
		    "nsb-cachesim, %zu results file(s)): %s. Not modelled: "
		    "prefetchers, TLBs, out-of-order overlap, other cores. "
		    "Rows the check decides (another operation) are left "
		    "out.", markdown ? " [" NSB_CI_S "% CI]" : "; ~ marks a "
		    NSB_CI_S "% CI wider than a tenth (report.md and costs.json give "
		    "every CI)", c->cs_files, c->cs_model);
	nsb_wrap(f, "", nsb_sb_str(&line));
	if (c->cs_partial) {
		nsb_sb_reset(&line);
		nsb_sb_addf(&line, "%zu results file(s) had runs the plugin "
			    "did not record (nsbench_cachesim_complete: a "
			    "state none of whose chunks the central mean "
			    "kept): a row is here only where every round has "
			    "the model.", c->cs_partial);
		nsb_wrap(f, "", nsb_sb_str(&line));
	}
	fputc('\n', f);
	nsb_sb_release(&line);
}

/* "where: in_userns +206 insn +134 loads +0.0 L1d cold; ..." */
static void print_funcs(FILE *f, const struct nsb_cost_row *r)
{
	struct nsb_sb line = NSB_SB_INIT;
	const char *fn;
	json_t *v;

	if (!r->cs_funcs || !json_object_size(r->cs_funcs))
		return;
	nsb_sb_add(&line, "where:");
	json_object_foreach(r->cs_funcs, fn, v) {
		nsb_sb_addf(&line,
			"%s %.60s %+.0f insn %+.0f loads %+.1f L1d %+.1f cold",
			line.len > 6 ? ";" : "", fn,
			json_number_value(json_object_get(v, "insn")),
			json_number_value(json_object_get(v, "loads")),
			json_number_value(json_object_get(v, "l1d_miss")),
			json_number_value(json_object_get(v, "l1d_miss_cold")));
	}
	nsb_wrap_hang(f, "    ", "      ", nsb_sb_str(&line));
	nsb_sb_release(&line);
}

void nsb_costs_cs_print(FILE *f, const struct nsb_costs *c, bool markdown)
{
	struct nsb_table t = { .cols = cs_cols, .n = NSB_ARRAY_SIZE(cs_cols),
			       .ctx = c, .indent = "  " };
	enum nsb_tfmt fmt = markdown ? NSB_MD : NSB_TEXT;
	char head[256];
	size_t i, j;

	if (!c->cs_files)
		return;
	if (markdown)
		fprintf(f, "### What each check costs in the cache model\n\n");
	else
		fputc('\n', f);
	cs_intro(f, c, markdown);
	if (!markdown)
		fprintf(f, "%*s%s\n", 21, "", "----------- warm ----------- "
			"------- cold -------");
	nsb_table_head(f, &t, fmt);
	for (i = 0; i < c->nfam; i++) {
		const struct nsb_cost_family *fam = &c->fam[i];

		if (!family_has_cs(fam))
			continue;
		nsb_cost_family_title(head, sizeof(head), fam);
		if (markdown)
			fprintf(f, "| **%s** |%s\n", head,
				" | | | | | | |");
		else
			nsb_wrap_hang(f, "", "    ", head);
		for (j = 0; j < fam->n; j++) {
			if (!fam->rows[j].has_cs)
				continue;
			nsb_table_row(f, &t, &fam->rows[j], fmt);
			if (!markdown)
				print_funcs(f, &fam->rows[j]);
		}
	}
	if (markdown)
		fputc('\n', f);
}
