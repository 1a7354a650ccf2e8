// SPDX-License-Identifier: GPL-2.0
/*
 * costplot.c — `nsbench plot costs FILE`: the headline figure of the
 * check costs from `nsbench costs --json` (plots/costs.gp).  Rows are
 * grouped by family (a check under one LSM) into panels, each with its
 * own x range (costpanel.c), so a +3 row and a -30,435 row both show
 * their CI.  Labels and titles go to gnuplot as cleaned, quoted fields
 * of the data file, every path as a quoted string value: nothing from a
 * results file becomes gnuplot code.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/render/costplot.h"
#include "src/lib/render/gnuplot.h"
#include "src/lib/base/mem.h"
#include "src/lib/base/nsbench.h"
#include "src/lib/render/rowplot.h"


static double num(json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

/* o[key] is a finite number (json_number_value gave 0 for "x"). */
static bool finite_at(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) && isfinite(json_number_value(v));
}

/*
 * What a row draws: its instruction shift, or with a cache-model
 * quantity q its rows[].cache.q (NULL where the row has none).
 */
static json_t *shift_of(json_t *r, const char *q)
{
	return q ? json_object_get(json_object_get(r, "cache"), q) :
		   json_object_get(r, "shift");
}

static int verdict_of(const char *v);

/*
 * A cache quantity's verdict, as the table's rule for instructions
 * with half a unit for the band: slower is more, faster fewer.
 */
static void cache_verdict(struct nsb_cp_point *p)
{
	if (p->lo > 0.5)
		p->word = "slower";
	else if (p->hi < -0.5)
		p->word = "faster";
	else if (p->lo >= -0.5 && p->hi <= 0.5)
		p->word = "same";
	else
		p->word = "noisy";
	p->verdict = verdict_of(p->word);
}

/*
 * The rows as nsbench costs --json writes them: a string or a number
 * where a number is drawn became 0 and was plotted as a measurement.
 * Returns 0, or -1 after naming the first bad row.
 */
static int check_rows(const char *json, json_t *rows, const char *q)
{
	static const char *const nums[] = { "pct", "pct_lo", "pct_hi" };
	static const char *const ends[] = { "est", "lo", "hi" };
	json_t *r, *sh;
	size_t i, k;

	json_array_foreach(rows, i, r) {
		if (!json_is_object(r))
			return nsb_bad(json, "rows[%zu]: expected an object", i);
		sh = shift_of(r, q);
		if (!json_is_object(sh))
			continue;	/* skipped or failed: not drawn */
		for (k = 0; k < 3; k++) {
			if (!finite_at(sh, ends[k]))
				return nsb_bad(json, "rows[%zu].%s.%s: "
					       "expected a number", i,
					       q ? q : "shift", ends[k]);
			if (!q && !finite_at(r, nums[k]))
				return nsb_bad(json, "rows[%zu].%s: expected a "
					       "number", i, nums[k]);
		}
		for (k = 0; k < 2; k++)
			if (!nsb_json_str(r, k ? "label" : "seed"))
				return nsb_bad(json, "rows[%zu].%s: expected a "
					       "string", i, k ? "label" : "seed");
	}
	return 0;
}

/* The table's verdict word ("same*": same, its residual beyond). */
static int verdict_of(const char *v)
{
	static const char *const words[] = {
		[NSB_CP_SAME] = "same", [NSB_CP_FASTER] = "faster",
		[NSB_CP_SLOWER] = "slower", [NSB_CP_NOISY] = "noisy",
		[NSB_CP_DECIDES] = "decides",
	};
	size_t i, n = strcspn(v, "*");

	for (i = 0; i < NSB_ARRAY_SIZE(words); i++)
		if (strlen(words[i]) == n && !strncmp(v, words[i], n))
			return (int)i;
	return NSB_CP_NOISY;	/* neither a cost nor its absence shown */
}

static const char *str_or(json_t *r, const char *key, const char *dflt)
{
	return nsb_json_str(r, key) ?: dflt;
}

/* The family of row r: its check under its LSM, added if new. */
static size_t family_of(struct nsb_cp *cp, json_t *r)
{
	struct nsb_cp_family f = {
		.seed = str_or(r, "seed", "?"), .sw = str_or(r, "switch", ""),
		.check = str_or(r, "check", ""), .lsm = str_or(r, "lsm", ""),
	};
	size_t i;

	for (i = 0; i < cp->nfam; i++)
		if (!strcmp(cp->fam[i].seed, f.seed) &&
		    !strcmp(cp->fam[i].sw, f.sw) &&
		    !strcmp(cp->fam[i].lsm, f.lsm))
			return i;
	cp->fam[cp->nfam] = f;
	return cp->nfam++;
}

/* The rows with a shift (of quantity q) as points, each in its family. */
static int read_points(struct nsb_cp *cp, json_t *rows, const char *q)
{
	size_t n = json_array_size(rows), i;
	json_t *r, *sh;

	cp->pt = calloc(n + 1, sizeof(*cp->pt));
	cp->fam = calloc(n + 1, sizeof(*cp->fam));
	if (!cp->pt || !cp->fam)
		return -1;
	json_array_foreach(rows, i, r) {
		struct nsb_cp_point *p = &cp->pt[cp->npt];

		sh = shift_of(r, q);
		if (!json_is_object(sh))
			continue;	/* skipped or failed row */
		p->est = num(sh, "est");
		p->lo = fmin(num(sh, "lo"), p->est);
		p->hi = fmax(num(sh, "hi"), p->est);
		if (q) {
			/* % of the off state's count; none of 0 */
			p->pct = num(sh, "off") > 0 ?
				 100 * p->est / num(sh, "off") : 0;
			cache_verdict(p);
			p->label = str_or(r, "label", "?");
			p->fam = family_of(cp, r);
			cp->npt++;
			continue;
		}
		p->pct = num(r, "pct");
		p->word = str_or(r, "verdict", "?");
		p->verdict = json_is_true(json_object_get(r, "decides")) ?
			     NSB_CP_DECIDES : verdict_of(p->word);
		p->unreliable = json_is_true(json_object_get(r, "unreliable"));
		p->label = str_or(r, "label", "?");
		p->fam = family_of(cp, r);
		cp->npt++;
	}
	return 0;
}

/* Chart k: page k of the panels. */
static int costs_chart(FILE *f, int k, struct nsb_rowchart *ch, void *arg)
{
	const struct nsb_cp *cp = arg;

	ch->unit = cp->unit;
	if (cp->quantity)
		nsb_sb_addf(&ch->title, "What each userns mount check costs in "
			    "%s, cache model (on - off; slower: more)",
			    cp->unit);
	else
		nsb_sb_add(&ch->title, "What each userns mount check costs "
			   "(on - off, same boot)");
	if (cp->np > 1) {
		snprintf(ch->part, sizeof(ch->part), "-%d", k + 1);
		nsb_sb_addf(&ch->title, " (%d of %d)", k + 1, cp->np);
	}
	return nsb_cp_page(cp, k, f, ch);
}

static void cp_free(struct nsb_cp *cp)
{
	nsb_free_each(cp->pan, cp->npan, sizeof(*cp->pan),
		      offsetof(struct nsb_cp_panel, rows));
	free(cp->page);
	free(cp->pt);
	free(cp->fam);
}

/* Pages beyond NSB_GP_MAX_CHARTS left out, and said so. */
static void cap_pages(struct nsb_cp *cp, const char *json)
{
	size_t drawn = 0, i;

	if (cp->np <= NSB_GP_MAX_CHARTS)
		return;
	cp->np = NSB_GP_MAX_CHARTS;
	for (i = 0; i < cp->page[cp->np]; i++)
		drawn += cp->pan[i].n;
	nsb_err("%s: %zu rows; the first %zu in %d charts, "
		"%zu rows left out\n", json, cp->npt, drawn, cp->np,
		cp->npt - drawn);
}

/* The cache quantity named q (costs.json rows[].cache keys), or -1. */
static int quantity_of(const char *q)
{
	int m;

	for (m = 0; m < NSB_COST_NCS; m++)
		if (!strcmp(q, nsb_cost_cs[m].key))
			return m;
	return -1;
}

int nsb_costs_plot(const char *json, const char *out_dir, const char *stem,
		   const char *templates, const char *quantity)
{
	json_t *root = nsb_json_load(json), *rows;
	struct nsb_cp cp = { 0 };
	struct nsb_rowplot p = {
		.who = nsb_prog(), .kind = "costs", .tmp = "costplot",
		.chart = costs_chart, .arg = &cp,
	};
	int ret = 2;

	if (!root)
		return 2;
	rows = json_object_get(root, "rows");
	cp.unit = json_is_true(json_object_get(root, "icount")) ?
		  "instructions" : "ns";
	if (quantity) {
		int m = quantity_of(quantity);

		if (m < 0) {
			nsb_err("--quantity: not a quantity of "
				"the cache model (costs.json rows[].cache: "
				"loads, l1d_miss, ll_miss, cycles, "
				"l1d_miss_cold, ...)\n");
			goto out;
		}
		cp.quantity = nsb_cost_cs[m].key;
		cp.unit = nsb_cost_cs[m].unit;
	}
	if (!json_is_array(rows)) {
		nsb_err("%s: no 'rows' array (want the output "
			"of nsbench costs --json)\n", json);
		goto out;
	}
	if (check_rows(json, rows, cp.quantity))
		goto out;
	if (read_points(&cp, rows, cp.quantity) || nsb_cp_panels(&cp))
		goto oom;
	if (!cp.npt) {
		nsb_err("%s: no row with a %s\n", json,
			cp.quantity ? "cache-model shift (a run with "
			"NSB_CACHESIM=1?)" : "shift");
		goto out;
	}
	cap_pages(&cp, json);
	p.n = cp.np;
	ret = nsb_rowplot(&p, out_dir, stem, templates);
	goto out;
oom:
	nsb_err("%s: out of memory\n", json);
out:
	cp_free(&cp);
	json_decref(root);
	return ret;
}
