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
#include <stdlib.h>
#include <string.h>

#include "src/lib/compare.h"
#include "src/lib/nsbench.h"
#include "src/lib/stats.h"
#include "src/lib/xversion.h"

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

static const struct nsb_cost_row *find_row(const struct nsb_cost_family *f,
					   const char *name)
{
	size_t j;

	for (j = 0; j < f->n; j++)
		if (!strcmp(f->rows[j].name, name))
			return &f->rows[j];
	return NULL;
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

struct xv_print {
	FILE *f;
	bool md;
	const struct nsb_cost_family *last;
	size_t rows;
};

static const char *xv_verdict(const struct xv_row *x)
{
	return x->decides ? "decides" : nsb_verdict_name(x->verdict);
}

static int print_row(const struct xv_row *x, void *arg)
{
	struct xv_print *pr = arg;
	char label[96], sa[64], sb[64], ch[64], head[256];

	nsb_cost_label(label, sizeof(label), x->ra->name);
	nsb_fmt_shift(sa, sizeof(sa), &x->ra->cost.shift);
	nsb_fmt_shift(sb, sizeof(sb), &x->rb->cost.shift);
	if (x->verdict < NSB_SKIP)
		nsb_fmt_shift(ch, sizeof(ch), &x->change);
	else
		snprintf(ch, sizeof(ch), "-");
	if (pr->md) {
		nsb_cost_family_title(head, sizeof(head), x->fa);
		fprintf(pr->f, "| %s | %s | %s | %s | %s | %s%s |\n", head,
			label, sa, sb, ch, xv_verdict(x),
			x->band > NSB_ICOUNT_BAND ? " *" : "");
	} else {
		if (pr->last != x->fa) {
			nsb_cost_family_title(head, sizeof(head), x->fa);
			nsb_wrap_hang(pr->f, "", "    ", head);
		}
		fprintf(pr->f, "  %-24s %16s %16s %16s %s%s\n", label, sa, sb,
			ch, xv_verdict(x),
			x->band > NSB_ICOUNT_BAND ? "*" : "");
	}
	pr->last = x->fa;
	pr->rows++;
	return 0;
}

int nsb_xv_print(FILE *f, const struct nsb_xv_side *a,
		 const struct nsb_xv_side *b, bool markdown)
{
	struct xv_print pr = { .f = f, .md = markdown };
	char intro[512];

	snprintf(intro, sizeof(intro), "What each check costs on Linux %s "
		 "and on Linux %s, and the change: each version's shift "
		 "(on - off, median of its rounds, 95%% CI) and the change "
		 "between them (Hodges-Lehmann shift of the second version's "
		 "per-round shifts against the first's, Moses 95%% CI; the "
		 "two versions' boots are not paired); verdict against +-1 "
		 "insn or, marked *, the larger A/A residual of the two.",
		 a->release, b->release);
	if (markdown) {
		fprintf(f, "### What each check costs on Linux %s and on "
			"Linux %s\n\n", a->release, b->release);
		fprintf(f, "| check | scenario | %s | %s | change [95%% CI] "
			"| verdict |\n|---|---|---:|---:|---:|---|\n",
			a->version, b->version);
	} else {
		nsb_wrap(f, "", intro);
		fprintf(f, "\n  %-24s %16s %16s %16s verdict\n", "scenario",
			a->version, b->version, "change");
	}
	if (xv_each(a, b, print_row, &pr))
		return -1;
	if (!pr.rows)
		fprintf(f, "%s(no scenario measured on both versions)\n",
			markdown ? "\n" : "  ");
	return 0;
}

static json_t *interval(const struct nsb_interval *i)
{
	return json_pack("{s:f,s:f,s:f}", "est", i->est, "lo", i->lo, "hi",
			 i->hi);
}

static int json_row(const struct xv_row *x, void *arg)
{
	json_t *o = json_pack("{s:s,s:s,s:s,s:o,s:o,s:s,s:b}",
			      "switch", x->fa->chk->sw, "lsm", x->fa->lsm,
			      "name", x->ra->name,
			      "a", interval(&x->ra->cost.shift),
			      "b", interval(&x->rb->cost.shift),
			      "verdict", xv_verdict(x), "decides", x->decides);

	if (!o)
		return -1;
	if (x->verdict < NSB_SKIP) {
		json_object_set_new(o, "change", interval(&x->change));
		json_object_set_new(o, "p", json_real(x->p));
		json_object_set_new(o, "band", json_real(x->band));
	}
	return json_array_append_new(arg, o) ? -1 : 0;
}

json_t *nsb_xv_json(const struct nsb_xv_side *a, const struct nsb_xv_side *b)
{
	json_t *rows = json_array();

	if (!rows || xv_each(a, b, json_row, rows)) {
		json_decref(rows);
		return NULL;
	}
	return rows;
}
