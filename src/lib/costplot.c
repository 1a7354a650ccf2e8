// SPDX-License-Identifier: GPL-2.0
/*
 * costplot.c — `nsbench plot --costs=FILE`: the headline figure of the
 * check costs from `nsbench report --json` (plots/costs.gp).  Labels go
 * to gnuplot in the data file, cleaned to a plain alphabet, and every
 * path as a quoted string value: nothing from a results file becomes
 * gnuplot code.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/costs.h"
#include "src/lib/gnuplot.h"
#include "src/lib/nsbench.h"
#include "src/lib/rowplot.h"

#define WHO "nsbench plot"
#define COST_ROWS 32	/* rows of one chart: ~900 px high */

/* A label for the data file: letters, digits and / : . _ + - only. */
static void clean_label(char *buf, size_t len, const char *seed,
			const char *label, const char *lsm)
{
	size_t i;

	/* the LSM the boot had active, where there was one */
	if (lsm && strcmp(lsm, "none"))
		snprintf(buf, len, "%s %s %s", seed, lsm, label);
	else
		snprintf(buf, len, "%s %s", seed, label);
	for (i = 0; buf[i]; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789/:._+- ", buf[i]))
			buf[i] = '_';
}

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
 * The rows as nsbench report --json writes them: a string or a number
 * where a number is drawn became 0 and was plotted as a measurement.
 * Returns 0, or -1 after naming the first bad row.
 */
static int check_rows(const char *json, json_t *rows)
{
	static const char *const nums[] = { "pct", "pct_lo", "pct_hi" };
	static const char *const ends[] = { "est", "lo", "hi" };
	json_t *r, *sh;
	size_t i, k;

	json_array_foreach(rows, i, r) {
		if (!json_is_object(r))
			return nsb_bad(json, "rows[%zu]: expected an object", i);
		sh = json_object_get(r, "shift");
		if (!json_is_object(sh))
			continue;	/* skipped or failed: not drawn */
		for (k = 0; k < 3; k++) {
			if (!finite_at(sh, ends[k]))
				return nsb_bad(json, "rows[%zu].shift.%s: "
					       "expected a number", i, ends[k]);
			if (!finite_at(r, nums[k]))
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

/*
 * The rows drawn, by index into rows: those with a shift, but not a
 * refused op (its -800 would flatten the axis).  Found once: each chart
 * walking the whole array to its own rows made 64 charts of 100,000
 * rows 6.4 million lookups.  Returns the count, or -1 (no memory).
 */
static long drawn_rows(json_t *rows, size_t **idx)
{
	json_t *r;
	size_t i;
	long n = 0;

	*idx = malloc((json_array_size(rows) + 1) * sizeof(**idx));
	if (!*idx)
		return -1;
	json_array_foreach(rows, i, r)
		if (json_is_object(json_object_get(r, "shift")) &&
		    !json_is_true(json_object_get(r, "decides")))
			(*idx)[n++] = i;
	return n;
}

/* Drawn rows from..to as the template's data. */
static void write_data(FILE *f, json_t *rows, const size_t *idx, int from,
		       int to)
{
	char label[160];
	json_t *r, *sh;
	int n;

	for (n = from; n < to; n++) {
		r = json_array_get(rows, idx[n]);
		sh = json_object_get(r, "shift");
		clean_label(label, sizeof(label),
			    nsb_json_str(r, "seed") ?: "?",
			    nsb_json_str(r, "label") ?: "?",
			    nsb_json_str(r, "lsm"));
		fprintf(f, "%d %.6g %.6g %.6g %.6g %.6g %.6g \"%s\" %d\n",
			n - from + 1, num(sh, "est"), num(sh, "lo"),
			num(sh, "hi"), num(r, "pct"), num(r, "pct_lo"),
			num(r, "pct_hi"), label,
			!json_is_true(json_object_get(r, "unreliable")));
	}
}

struct costs_plot {
	json_t *rows;
	size_t *idx;		/* the drawn rows (drawn_rows) */
	const char *unit;
	int n, per, np;		/* rows to draw, per chart, charts */
};

/* Chart k of np: rows k * per.. */
static int costs_chart(FILE *f, int k, struct nsb_rowchart *ch, void *arg)
{
	const struct costs_plot *cp = arg;
	int rows = cp->n - k * cp->per;

	if (rows > cp->per)
		rows = cp->per;
	write_data(f, cp->rows, cp->idx, k * cp->per, k * cp->per + rows);
	ch->unit = cp->unit;
	snprintf(ch->title, sizeof(ch->title), "What each userns mount check "
		 "costs (on - off, same boot)");
	if (cp->np > 1) {
		snprintf(ch->part, sizeof(ch->part), "-%d", k + 1);
		snprintf(ch->title + strlen(ch->title), sizeof(ch->title) -
			 strlen(ch->title), " (%d of %d)", k + 1, cp->np);
	}
	return rows;
}

int nsb_costs_plot(const char *json, const char *out_dir, const char *stem,
		   const char *templates)
{
	json_t *root = nsb_json_load(json);
	struct costs_plot cp = { 0 };
	struct nsb_rowplot p = {
		.who = WHO, .kind = "costs", .tmp = "costplot", .top = 120,
		.chart = costs_chart, .arg = &cp,
	};
	int ret = 2;
	long n;

	if (!root)
		return 2;
	cp.rows = json_object_get(root, "rows");
	cp.unit = json_is_true(json_object_get(root, "icount")) ?
		  "instructions" : "ns";
	if (!json_is_array(cp.rows)) {
		fprintf(stderr, WHO ": %s: no 'rows' array (want the output "
			"of nsbench report --json)\n", json);
		goto out;
	}
	if (check_rows(json, cp.rows))
		goto out;
	n = drawn_rows(cp.rows, &cp.idx);
	if (n < 0)
		goto out;
	cp.n = (int)n;	/* a 256 MiB input holds far fewer than INT_MAX */
	if (!cp.n) {
		fprintf(stderr, WHO ": %s: no row with a shift\n", json);
		goto out;
	}
	/* as few charts as COST_ROWS allows, their rows shared out evenly */
	cp.np = (cp.n + COST_ROWS - 1) / COST_ROWS;
	if (cp.np > NSB_GP_MAX_CHARTS) {
		fprintf(stderr, WHO ": %s: %d rows; the first %d in %d charts, "
			"%d rows left out\n", json, cp.n,
			NSB_GP_MAX_CHARTS * COST_ROWS, NSB_GP_MAX_CHARTS,
			cp.n - NSB_GP_MAX_CHARTS * COST_ROWS);
		cp.np = NSB_GP_MAX_CHARTS;
		cp.n = NSB_GP_MAX_CHARTS * COST_ROWS;
	}
	cp.per = (cp.n + cp.np - 1) / cp.np;
	p.n = cp.np;
	ret = nsb_rowplot(&p, out_dir, stem, templates);
out:
	free(cp.idx);
	json_decref(root);
	return ret;
}
