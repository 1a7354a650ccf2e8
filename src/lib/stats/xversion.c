// SPDX-License-Identifier: GPL-2.0
/*
 * xversion.c — what each check costs on two kernel versions, and the
 * change.
 *
 * Each version's rows come from its own runs: per round, the shift on -
 * off of one boot.  The rounds of two versions are independent boots of
 * two kernels, so the change is not paired: it is the Hodges-Lehmann
 * shift of the second version's per-round shifts against the first's,
 * with the Moses CI and the exact Mann-Whitney p (6 rounds a version
 * reach a 95 % interval).  A row is judged against +-1 instruction or
 * the larger A/A residual of its two versions, as every icount row is.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/stats/compare.h"
#include "src/lib/base/nsbench.h"
#include "src/lib/stats/stats.h"
#include "src/lib/render/table.h"
#include "src/lib/stats/xversion.h"

int nsb_xv_file_version(const char *path, char *buf, size_t len)
{
	json_t *root = nsb_json_load(path);
	const char *rel;

	if (!root)
		return -1;
	rel = nsb_json_str(json_object_get(root, "context"), "kernel_release");
	snprintf(buf, len, "%s", rel && *rel ? rel : "unknown");
	json_decref(root);
	return 0;
}

/* One row of both versions. */
struct xv_row {
	const struct nsb_cost_family *fa;
	const struct nsb_cost_row *ra, *rb;
	struct nsb_interval change;
	double p, band;
	enum nsb_verdict verdict;
	bool decides;
};

/* The per-round shifts on - off of row r of family f into d; count. */
static long round_shifts(const struct nsb_cost_family *f,
			 const struct nsb_cost_row *r, double **d)
{
	struct nsb_series *on = nsb_side_find(&f->on, r->name);
	struct nsb_series *off = nsb_side_find(&f->off, r->name);
	struct nsb_round_pair *p;
	size_t dropped;
	long k, i;

	*d = NULL;
	if (!on || !off)
		return 0;
	k = nsb_round_pairs(off, on, &p, &dropped);
	if (k <= 0)
		return k;
	*d = malloc((size_t)k * sizeof(**d));
	for (i = 0; *d && i < k; i++)
		(*d)[i] = p[i].patched - p[i].base;
	free(p);
	return *d ? k : -1;
}

/* The row of f named name, or NULL. */
static const struct nsb_cost_row *find_row(const struct nsb_cost_family *f,
					   const char *name)
{
	size_t j = 0;

	while (j < f->n && strcmp(f->rows[j].name, name))
		j++;
	return j < f->n ? &f->rows[j] : NULL;
}

/* The change of x->rb against x->ra; -1 out of memory. */
static int xv_change(const struct nsb_cost_family *fb, struct xv_row *x)
{
	double *da = NULL, *db = NULL;
	long na = round_shifts(x->fa, x->ra, &da);
	long nb = round_shifts(fb, x->rb, &db);
	struct nsb_mwu mwu;
	int ret = -1;

	x->verdict = NSB_SKIP;
	x->decides = x->ra->decides || x->rb->decides;
	if (na < 0 || nb < 0)
		goto out;
	ret = 0;
	if (na < 2 || nb < 2)
		goto out;
	if (nsb_hodges_lehmann(da, (size_t)na, db, (size_t)nb, NSB_ALPHA,
			       &x->change) ||
	    nsb_mann_whitney(da, (size_t)na, db, (size_t)nb, NSB_AUTO, &mwu)) {
		ret = -1;
		goto out;
	}
	x->p = mwu.p;
	x->band = fmax(NSB_ICOUNT_BAND, fmax(fabs(x->ra->aa.shift.est),
					     fabs(x->rb->aa.shift.est)));
	x->verdict = nsb_band_verdict(&x->change, x->band, x->p < NSB_ALPHA);
	/* inside a residual beyond 1 insn: the run cannot tell (compare.h) */
	if (x->verdict == NSB_SAME && x->band > NSB_ICOUNT_BAND)
		x->verdict = NSB_NOISY;
out:
	free(da);
	free(db);
	return ret;
}

/*
 * Calls fn for every row both versions measured (family by family, in
 * the first version's order); stops at the first nonzero return.
 */
static int xv_each(const struct nsb_xv_side *a, const struct nsb_xv_side *b,
		   int (*fn)(const struct xv_row *x, void *arg), void *arg)
{
	size_t i, j;
	int ret;

	for (i = 0; i < a->costs.nfam && i < b->costs.nfam; i++) {
		const struct nsb_cost_family *fa = &a->costs.fam[i];
		const struct nsb_cost_family *fb = &b->costs.fam[i];

		for (j = 0; j < fa->n; j++) {
			struct xv_row x = { .fa = fa, .ra = &fa->rows[j] };

			x.rb = find_row(fb, x.ra->name);
			if (!x.rb)
				continue;
			if (xv_change(fb, &x))
				return -1;
			ret = fn(&x, arg);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/* --- the table ---------------------------------------------------------- */

#define XV(row)	((const struct xv_row *)(row))

static const char *xv_verdict(const struct xv_row *x)
{
	return x->decides ? "decides" : nsb_verdict_name(x->verdict);
}

static void check_cell(char *buf, size_t len, const void *row,
		       const void *ctx, enum nsb_tfmt fmt)
{
	(void)ctx, (void)fmt;
	nsb_cost_family_title(buf, len, XV(row)->fa);
}

static void label_cell(char *buf, size_t len, const void *row,
		       const void *ctx, enum nsb_tfmt fmt)
{
	(void)ctx, (void)fmt;
	nsb_cost_label(buf, len, XV(row)->ra->name);
}

static void a_cell(char *buf, size_t len, const void *row, const void *ctx,
		   enum nsb_tfmt fmt)
{
	(void)ctx, (void)fmt;
	nsb_fmt_shift(buf, len, &XV(row)->ra->cost.shift);
}

static void b_cell(char *buf, size_t len, const void *row, const void *ctx,
		   enum nsb_tfmt fmt)
{
	(void)ctx, (void)fmt;
	nsb_fmt_shift(buf, len, &XV(row)->rb->cost.shift);
}

static void change_cell(char *buf, size_t len, const void *row,
			const void *ctx, enum nsb_tfmt fmt)
{
	(void)ctx, (void)fmt;
	if (XV(row)->verdict < NSB_SKIP)
		nsb_fmt_shift(buf, len, &XV(row)->change);
	else
		snprintf(buf, len, "-");
}

/* '*' where the band is an A/A residual wider than 1 insn. */
static void verdict_cell(char *buf, size_t len, const void *row,
			 const void *ctx, enum nsb_tfmt fmt)
{
	(void)ctx;
	snprintf(buf, len, "%s%s", xv_verdict(XV(row)),
		 XV(row)->band <= NSB_ICOUNT_BAND ? "" :
		 fmt == NSB_MD ? " *" : "*");
}

NSB_ROW_JSON(switch_json, struct xv_row, json_string(r->fa->chk->sw))
NSB_ROW_JSON(lsm_json, struct xv_row, json_string(r->fa->lsm))
NSB_ROW_JSON(name_json, struct xv_row, json_string(r->ra->name))

/* Each version's shift: of the row of version A (ra) or B (rb). */
static json_t *shift_json(const struct nsb_col *c, const void *row,
			  const void *ctx)
{
	const struct nsb_cost_row *r = *(const struct nsb_cost_row *const *)
				       ((const char *)row + c->field);

	(void)ctx;
	return nsb_interval_json(&r->cost.shift);
}

NSB_ROW_JSON(verdict_json, struct xv_row, json_string(xv_verdict(r)))
NSB_ROW_JSON(decides_json, struct xv_row, json_boolean(r->decides))
NSB_ROW_JSON(change_json, struct xv_row,
	     r->verdict < NSB_SKIP ?
	     nsb_interval_json(&r->change) : NULL)
static json_t *change_num(const struct nsb_col *c, const void *row,
			  const void *ctx)
{
	(void)ctx;
	return XV(row)->verdict < NSB_SKIP ? json_real(*(const double *)
		((const char *)row + c->field)) : NULL;
}

#define BOTH	(NSB_COL_TEXT | NSB_COL_MD)

/* The heads of columns A and B are the versions: set per table. */
enum { COL_A = 5, COL_B = 6 };

static const struct nsb_col xv_cols[] = {
	{ .head = "check", .flags = NSB_COL_MD, .cell = check_cell },
	{ .key = "switch", .json = switch_json },
	{ .key = "lsm", .json = lsm_json },
	{ .head = "scenario", .width = 24, .flags = BOTH,
	  .cell = label_cell },
	{ .key = "name", .json = name_json },
	[COL_A] = { .width = 16, .flags = BOTH | NSB_COL_RIGHT,
		    .cell = a_cell, .key = "a", .json = shift_json,
		    .field = offsetof(struct xv_row, ra) },
	[COL_B] = { .width = 16, .flags = BOTH | NSB_COL_RIGHT,
		    .cell = b_cell, .key = "b", .json = shift_json,
		    .field = offsetof(struct xv_row, rb) },
	{ .head = "change", .md_head = "change [" NSB_CI_S "% CI]", .width = 16,
	  .flags = BOTH | NSB_COL_RIGHT, .cell = change_cell,
	  .key = "change", .json = change_json },
	{ .key = "p", .json = change_num,
	  .field = offsetof(struct xv_row, p) },
	{ .key = "band", .json = change_num,
	  .field = offsetof(struct xv_row, band) },
	{ .head = "verdict", .flags = BOTH, .cell = verdict_cell,
	  .key = "verdict", .json = verdict_json },
	{ .key = "decides", .json = decides_json },
};

#define NCOLS	(sizeof(xv_cols) / sizeof(*xv_cols))

/* A row of the cross-version JSON: who, the two sides, what it says. */
static const char *const xv_json_order[] = {
	"switch", "lsm", "name", "a", "b", "verdict", "decides", "change",
	"p", "band", NULL,
};

/* The table of b against a: cols holds the columns, headed by version. */
static struct nsb_table xv_table(struct nsb_col cols[NCOLS],
				 const struct nsb_xv_side *a,
				 const struct nsb_xv_side *b)
{
	memcpy(cols, xv_cols, sizeof(xv_cols));
	cols[COL_A].head = a->version;
	cols[COL_B].head = b->version;
	return (struct nsb_table){ .cols = cols, .n = NCOLS, .indent = "  ",
				   .json_order = xv_json_order };
}

struct xv_print {
	FILE *f;
	enum nsb_tfmt fmt;
	const struct nsb_table *t;
	const struct nsb_cost_family *last;
	size_t rows;
};

static int print_row(const struct xv_row *x, void *arg)
{
	struct xv_print *pr = arg;
	char head[256];

	/* the text table has the check above its rows */
	if (pr->fmt == NSB_TEXT && pr->last != x->fa) {
		nsb_cost_family_title(head, sizeof(head), x->fa);
		nsb_wrap_hang(pr->f, "", "    ", head);
	}
	nsb_table_row(pr->f, pr->t, x, pr->fmt);
	pr->last = x->fa;
	pr->rows++;
	return 0;
}

int nsb_xv_print(FILE *f, const struct nsb_xv_side *a,
		 const struct nsb_xv_side *b, bool markdown)
{
	struct nsb_col cols[NCOLS];
	struct nsb_table t = xv_table(cols, a, b);
	struct xv_print pr = { .f = f, .fmt = markdown ? NSB_MD : NSB_TEXT,
			       .t = &t };
	char intro[512];

	snprintf(intro, sizeof(intro), "What each check costs on Linux %s "
		 "and on Linux %s, and the change: each version's shift "
		 "(on - off, median of its rounds, " NSB_CI_S
		 "%% CI) and the change "
		 "between them (Hodges-Lehmann shift of the second version's "
		 "per-round shifts against the first's, Moses " NSB_CI_S
		 "%% CI; the "
		 "two versions' boots are not paired); verdict against +-1 "
		 "insn or, marked *, the larger A/A residual of the two.",
		 a->release, b->release);
	if (markdown) {
		fprintf(f, "### What each check costs on Linux %s and on "
			"Linux %s\n\n", a->release, b->release);
	} else {
		nsb_wrap(f, "", intro);
		fputc('\n', f);
	}
	nsb_table_head(f, &t, pr.fmt);
	if (xv_each(a, b, print_row, &pr))
		return -1;
	if (!pr.rows)
		fprintf(f, "%s(no scenario measured on both versions)\n",
			markdown ? "\n" : "  ");
	return 0;
}

/* Where json_row puts each row: the table's JSON rows. */
struct xv_json {
	const struct nsb_table *t;
	json_t *rows;
};

static int json_row(const struct xv_row *x, void *arg)
{
	const struct xv_json *j = arg;
	json_t *o = nsb_table_json(j->t, x);

	if (!o)
		return -1;
	return json_array_append_new(j->rows, o) ? -1 : 0;
}

json_t *nsb_xv_json(const struct nsb_xv_side *a, const struct nsb_xv_side *b)
{
	struct nsb_col cols[NCOLS];
	struct nsb_table t = xv_table(cols, a, b);
	json_t *rows = json_array();
	struct xv_json j = { &t, rows };

	if (!rows || xv_each(a, b, json_row, &j)) {
		json_decref(rows);
		return NULL;
	}
	return rows;
}
