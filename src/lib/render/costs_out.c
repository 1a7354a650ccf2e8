// SPDX-License-Identifier: GPL-2.0
/*
 * costs_out.c — the in-boot check-cost tables (costs.h) rendered from
 * what costs.c computed: the text and Markdown report and the rows of
 * costs.json from one column description (table.h; the cache model's
 * table is costcache.c's), as compare.c computes and compare_out.c
 * renders.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/stats/costs.h"
#include "src/lib/base/nsbench.h"

/* --- the table ---------------------------------------------------------- */

/* A row of the table: a benchmark of a check under an LSM. */
struct fam_row {
	const struct nsb_cost_family *fam;
	const struct nsb_cost_row *r;
};

#define ROW(row)	((const struct fam_row *)(row))
#define COST(row)	(&ROW(row)->r->cost)

static bool row_measured(const void *row)
{
	return COST(row)->verdict < NSB_SKIP;
}

static void seed_cell(char *buf, size_t len, const void *row,
		      const void *ctx, enum nsb_tfmt fmt)
{
	(void)ctx, (void)fmt;
	snprintf(buf, len, "%s", ROW(row)->fam->chk->seed);
}

static void switch_cell(char *buf, size_t len, const void *row,
			const void *ctx, enum nsb_tfmt fmt)
{
	(void)ctx, (void)fmt;
	snprintf(buf, len, "%s", ROW(row)->fam->chk->sw);
}

static void lsm_cell(char *buf, size_t len, const void *row,
		     const void *ctx, enum nsb_tfmt fmt)
{
	(void)ctx, (void)fmt;
	snprintf(buf, len, "%s", nsb_cost_lsm_title(ROW(row)->fam->lsm));
}

static void label_cell(char *buf, size_t len, const void *row,
		       const void *ctx, enum nsb_tfmt fmt)
{
	(void)ctx, (void)fmt;
	nsb_cost_label(buf, len, ROW(row)->r->name);
}

static void off_cell(char *buf, size_t len, const void *row,
		     const void *ctx, enum nsb_tfmt fmt)
{
	(void)ctx, (void)fmt;
	*buf = 0;
	if (row_measured(row))
		nsb_fmt_insn(buf, len, COST(row)->base);
}

static void on_cell(char *buf, size_t len, const void *row,
		    const void *ctx, enum nsb_tfmt fmt)
{
	(void)ctx, (void)fmt;
	*buf = 0;
	if (row_measured(row))
		nsb_fmt_insn(buf, len, COST(row)->base + COST(row)->shift.est);
}

static void shift_cell(char *buf, size_t len, const void *row,
		       const void *ctx, enum nsb_tfmt fmt)
{
	(void)ctx, (void)fmt;
	*buf = 0;
	if (row_measured(row))
		nsb_fmt_shift(buf, len, &COST(row)->shift);
}

static void pct_cell(char *buf, size_t len, const void *row,
		     const void *ctx, enum nsb_tfmt fmt)
{
	(void)ctx;
	*buf = 0;
	if (row_measured(row))
		snprintf(buf, len, fmt == NSB_TEXT ? "%+.2f" : "%+.3f%%",
			 COST(row)->pct);
}

/* The verdict; '*' where the row's A/A residual exceeds the limit. */
static void verdict_cell(char *buf, size_t len, const void *row,
			 const void *ctx, enum nsb_tfmt fmt)
{
	const struct nsb_cost_row *r = ROW(row)->r;

	(void)ctx, (void)fmt;
	if (r->decides && row_measured(row))
		snprintf(buf, len, "decides");
	else
		snprintf(buf, len, "%s%s", nsb_verdict_name(r->cost.verdict),
			 row_measured(row) && r->unreliable ? "*" : "");
}

static void aa_cell(char *buf, size_t len, const void *row,
		    const void *ctx, enum nsb_tfmt fmt)
{
	(void)ctx, (void)fmt;
	*buf = 0;
	if (!row_measured(row))
		return;
	if (ROW(row)->r->has_aa)
		nsb_fmt_shift(buf, len, &ROW(row)->r->aa.shift);
	else
		snprintf(buf, len, "none");
}

NSB_ROW_JSON(lsm_json, struct fam_row, json_string(r->fam->lsm))
NSB_ROW_JSON(check_json, struct fam_row, json_string(r->fam->chk->what))
NSB_ROW_JSON(form_json, struct fam_row, json_boolean(r->fam->chk->form))
NSB_ROW_JSON(name_json, struct fam_row, json_string(r->r->name))
NSB_ROW_JSON(unreliable_json, struct fam_row, json_boolean(r->r->unreliable))
NSB_ROW_JSON(decides_json, struct fam_row, json_boolean(r->r->decides))
NSB_ROW_JSON(control_json, struct fam_row, json_boolean(r->r->control))

/* A number of the cost (struct nsb_effect) at c->field, if measured. */
static json_t *cost_num(const struct nsb_col *c, const void *row,
			const void *ctx)
{
	(void)ctx;
	return row_measured(row) ? json_real(*(const double *)
			       ((const char *)COST(row) + c->field)) : NULL;
}

NSB_ROW_JSON(rounds_json, struct fam_row,
	     row_measured(r) ?
	     json_integer((json_int_t)r->r->cost.rounds) : NULL)
NSB_ROW_JSON(shift_json, struct fam_row,
	     row_measured(r) ?
	     nsb_interval_json(&r->r->cost.shift) : NULL)
NSB_ROW_JSON(states_json, struct fam_row,
	     r->r->has_states ?
	     json_boolean(r->r->states_differ) : NULL)
NSB_ROW_JSON(net_json, struct fam_row,
	     r->r->has_net ? nsb_interval_json(&r->r->net) : NULL)
NSB_ROW_JSON(aa_json, struct fam_row,
	     r->r->has_aa ? nsb_interval_json(&r->r->aa.shift) : NULL)
NSB_ROW_JSON(toggles_json, struct fam_row,
	     r->r->has_stock ?
	     nsb_interval_json(&r->r->toggles.shift) : NULL)
NSB_ROW_JSON(cache_json, struct fam_row, nsb_costs_cs_json(r->r))

#define BOTH	(NSB_COL_TEXT | NSB_COL_MD)

/*
 * The check-cost table: text, Markdown and the rows of costs.json.
 * Columns without a cell are JSON only; cost_json_order below keeps
 * costs.json's order of keys.
 */
static const struct nsb_col cost_cols[] = {
	{ .head = "patch", .flags = NSB_COL_MD, .cell = seed_cell,
	  .key = "seed", .json = nsb_cell_json },
	{ .head = "check", .flags = NSB_COL_MD | NSB_COL_CODE,
	  .cell = switch_cell, .key = "switch", .json = nsb_cell_json },
	{ .key = "check", .json = check_json },
	{ .key = "form", .json = form_json },
	{ .head = "LSM", .flags = NSB_COL_MD, .cell = lsm_cell,
	  .key = "lsm", .json = lsm_json },
	{ .head = "scenario", .width = 23, .flags = BOTH | NSB_COL_CODE |
	  NSB_COL_OWN_LINE, .cell = label_cell, .key = "label",
	  .json = nsb_cell_json },
	{ .key = "name", .json = name_json },
	{ .head = "off", .width = 6, .flags = BOTH | NSB_COL_RIGHT,
	  .cell = off_cell, .key = "off", .json = cost_num,
	  .field = offsetof(struct nsb_effect, base) },
	{ .head = "on", .width = 6, .flags = BOTH | NSB_COL_RIGHT,
	  .cell = on_cell },
	{ .head = "shift [" NSB_CI_S "% CI]", .width = 17, .flags = BOTH,
	  .cell = shift_cell, .key = "shift", .json = shift_json },
	{ .head = "% op", .md_head = "% of op", .width = 6,
	  .flags = BOTH | NSB_COL_RIGHT, .cell = pct_cell, .key = "pct",
	  .json = cost_num,
	  .field = offsetof(struct nsb_effect, pct) },
	{ .key = "pct_lo", .json = cost_num,
	  .field = offsetof(struct nsb_effect, lo_pct) },
	{ .key = "pct_hi", .json = cost_num,
	  .field = offsetof(struct nsb_effect, hi_pct) },
	{ .key = "rounds", .json = rounds_json },
	{ .key = "p", .json = cost_num,
	  .field = offsetof(struct nsb_effect, p) },
	{ .head = "verdict", .flags = BOTH, .cell = verdict_cell,
	  .key = "verdict", .json = nsb_cell_json },
	{ .key = "unreliable", .json = unreliable_json },
	{ .key = "decides", .json = decides_json },
	{ .head = "A/A residual", .flags = NSB_COL_MD, .cell = aa_cell,
	  .key = "aa", .json = aa_json },
	{ .key = "states_differ", .json = states_json },
	{ .key = "net_of_control", .json = net_json },
	{ .key = "toggles", .json = toggles_json },
	{ .key = "control", .json = control_json },
	{ .key = "cache", .json = cache_json },
};

/*
 * A row of costs.json, its keys in the order the file has always had
 * them (plot costs, the site and scripts read them by name): who, what
 * it says, then the numbers.  A column's key not named here comes last.
 */
static const char *const cost_json_order[] = {
	"switch", "seed", "check", "form", "name", "label", "verdict",
	"unreliable", "decides", "lsm", "states_differ", "net_of_control",
	"off", "shift", "pct", "pct_lo", "pct_hi", "rounds", "p", "aa",
	"toggles", "control", "cache", NULL,
};

static struct nsb_table cost_table(const struct nsb_costs *c)
{
	return (struct nsb_table){ .cols = cost_cols,
				   .n = NSB_ARRAY_SIZE(cost_cols), .ctx = c,
				   .indent = "  ",
				   .json_order = cost_json_order };
}

static void text_row(FILE *f, const struct nsb_costs *c,
		     const struct nsb_cost_family *fam,
		     const struct nsb_cost_row *r)
{
	struct nsb_table t = cost_table(c);
	struct fam_row row = { fam, r };
	char label[96], line[400];

	if (!row_measured(&row)) {
		nsb_cost_label(label, sizeof(label), r->name);
		snprintf(line, sizeof(line), "%s: %s (%s)", label,
			 nsb_verdict_name(r->cost.verdict), r->cost.note);
		nsb_wrap_hang(f, "  ", "      ", line);
		return;
	}
	nsb_table_row(f, &t, &row, NSB_TEXT);
}

/* "WHAT: LABEL SHIFT insn" and tail, hung under the family's line */
static void row_note(FILE *f, const struct nsb_cost_row *r,
		     const struct nsb_interval *shift, const char *what,
		     const char *tail)
{
	char label[96], sh[96], line[600];

	nsb_cost_label(label, sizeof(label), r->name);
	nsb_fmt_shift(sh, sizeof(sh), shift);
	snprintf(line, sizeof(line), "%s: %s %s insn%s", what, label, sh, tail);
	nsb_wrap_hang(f, "    ", "      ", line);
}

/*
 * Rows with a mount made in each state: whether the two mounts behaved
 * apart (the proof, taken before the clock in every round), naming the
 * rows where they did not: controls, where the check lets both alike.
 */
static void text_states(FILE *f, const struct nsb_cost_family *fam)
{
	size_t j, with = 0, differ = 0, used, controls = 0;
	char line[600];

	for (j = 0; j < fam->n; j++) {
		with += fam->rows[j].has_states;
		differ += fam->rows[j].states_differ;
	}
	if (!with)
		return;
	used = (size_t)snprintf(line, sizeof(line), "mounts made with the "
				"check on and off, compared (it acts at mount "
				"time); before the clock they behaved apart in "
				"%zu of %zu row(s)", differ, with);
	for (j = 0; j < fam->n && used < sizeof(line); j++) {
		char label[96];

		if (!fam->rows[j].has_states || fam->rows[j].states_differ)
			continue;
		nsb_cost_label(label, sizeof(label), fam->rows[j].name);
		used += (size_t)snprintf(line + used, sizeof(line) - used,
					 "%s%s", controls++ ? ", " :
					 "; alike (control): ", label);
	}
	nsb_wrap(f, "    ", line);
	for (j = 0; j < fam->n; j++) {
		const struct nsb_cost_row *r = &fam->rows[j];
		char tail[128];

		if (!r->within_noise)
			continue;
		snprintf(tail, sizeof(tail), ", |shift| <= %.1f (band, A/A or "
			 "half its CI): noisy, not a difference", r->noise);
		row_note(f, r, &r->cost.shift, "control within its noise", tail);
	}
	for (j = 0; j < fam->n; j++)
		if (fam->rows[j].has_net)
			row_note(f, &fam->rows[j], &fam->rows[j].net,
				 "net of its control", "");
}

static void text_residual(FILE *f, const struct nsb_costs *c,
			  const struct nsb_cost_family *fam)
{
	size_t j, bad_rows = 0, with = 0;
	char line[400], tail[96] = "";

	for (j = 0; j < fam->n; j++) {
		with += fam->rows[j].has_aa;
		/* a row the check decides is no cost: its residual neither */
		bad_rows += fam->rows[j].unreliable && !fam->rows[j].decides;
	}
	if (!with) {
		nsb_wrap(f, "    ", "A/A residual: none (one off block per "
			 "boot, or one round): every row is unreliable");
		return;
	}
	if (bad_rows)
		snprintf(tail, sizeof(tail), "; %zu row(s) beyond it (*)",
			 bad_rows);
	if (c->icount)
		snprintf(line, sizeof(line), "A/A residual (off vs off, same "
			 "boot, median over rounds): within +-%.1f insn over "
			 "%zu row(s), limit %.0f%s", fam->aa_max, with,
			 c->aa_limit, tail);
	else
		snprintf(line, sizeof(line), "A/A residual (off vs off, same "
			 "boot): %zu of %zu row(s) not \"same\"%s", bad_rows,
			 with, tail);
	nsb_wrap(f, "    ", line);
	text_states(f, fam);
	for (j = 0; j < fam->n; j++)
		if (fam->rows[j].decides)
			break;
	if (j < fam->n)
		nsb_wrap(f, "    ", "decides: the check changes the "
			 "operation's outcome there (refused with it on, "
			 "done with it off): the shift is a different "
			 "operation, not what the check costs");
}

static size_t family_rounds(const struct nsb_cost_family *fam)
{
	size_t j, k = 0;

	for (j = 0; j < fam->n; j++)
		if (fam->rows[j].cost.rounds > k)
			k = fam->rows[j].cost.rounds;
	return k;
}

void nsb_cost_family_title(char *buf, size_t len,
			   const struct nsb_cost_family *fam)
{
	snprintf(buf, len, "%s %s (%s)%s%s", fam->chk->seed, fam->chk->what,
		 fam->chk->path, strcmp(fam->lsm, "none") ? ", under " : "",
		 strcmp(fam->lsm, "none") ? nsb_cost_lsm_title(fam->lsm) : "");
}

static void text_family(FILE *f, const struct nsb_costs *c,
			const struct nsb_cost_family *fam)
{
	char head[256];
	size_t j;

	nsb_cost_family_title(head, sizeof(head), fam);
	nsb_wrap_hang(f, "", "    ", head);
	for (j = 0; j < fam->n; j++)
		text_row(f, c, fam, &fam->rows[j]);
	text_residual(f, c, fam);
}

static bool any(const struct nsb_costs *c, bool form)
{
	size_t i;

	for (i = 0; i < c->nfam; i++)
		if (c->fam[i].n && c->fam[i].chk->form == form)
			return true;
	return false;
}

static void text_table(FILE *f, const struct nsb_costs *c, bool form)
{
	struct nsb_table t = cost_table(c);
	size_t i, rounds = 0;
	char line[400];

	for (i = 0; i < c->nfam; i++)
		if (c->fam[i].chk->form == form &&
		    family_rounds(&c->fam[i]) > rounds)
			rounds = family_rounds(&c->fam[i]);
	if (!form)
		snprintf(line, sizeof(line), "What each check costs: %s per "
			 "op with the check off and on, alternated in chunks "
			 "in the same boot (toggles kernel); shift = on - off, "
			 "median of %zu per-round differences with its "
			 NSB_CI_S "%% "
			 "CI (sign test); %% of the op; verdict against +-%s "
			 "or, marked *, against the row's A/A residual where "
			 "that is larger.", c->icount ? "instructions" :
			 "time", rounds, c->icount ? "1 insn" : "2%");
	else
		snprintf(line, sizeof(line), "2015 forms against today's: "
			 "the same blocks, with the 2015 form as \"on\".");
	nsb_wrap(f, "", line);
	fputc('\n', f);
	nsb_table_head(f, &t, NSB_TEXT);
	for (i = 0; i < c->nfam; i++)
		if (c->fam[i].n && c->fam[i].chk->form == form)
			text_family(f, c, &c->fam[i]);
}

/* Has any family of check k (under any LSM) a row? */
static bool measured(const struct nsb_costs *c, const struct nsb_check *k)
{
	size_t i;

	for (i = 0; i < c->nfam; i++)
		if (c->fam[i].chk == k && c->fam[i].n)
			return true;
	return false;
}

/* The switches of the first table the run did not measure, one line. */
static void text_missing(FILE *f, const struct nsb_costs *c)
{
	char line[600];
	size_t i, used = 0;
	bool lsm = false;

	line[0] = 0;
	for (i = 0; i < c->nfam; i += c->nlsm) {
		const struct nsb_check *k = c->fam[i].chk;

		if (k->form || measured(c, k))
			continue;
		if (strcmp(k->lsm, "none"))
			lsm = true;
		used += (size_t)snprintf(line + used, sizeof(line) - used,
					 "%s%s %s", used ? ", " : "", k->seed,
					 k->sw);
		if (used >= sizeof(line))
			break;
	}
	if (!*line)
		return;
	fputc('\n', f);
	snprintf(line + strlen(line), sizeof(line) - strlen(line),
		 ": not measured in this run%s.", lsm ? " (they need a boot "
		 "with that LSM active: make run has them unless NSB_LSM=0)" :
		 "");
	nsb_wrap_hang(f, "Not here: ", "  ", line);
}

/* "Linux 6.12.118": the kernel a context names, as the results say it. */
static const char *ctx_release(json_t *ctx)
{
	static char buf[80];
	const char *r = json_string_value(json_object_get(ctx,
							  "kernel_release"));

	if (!r || !*r)
		return "Linux";
	snprintf(buf, sizeof(buf), "Linux %.60s", r);
	return buf;
}

static void text_provenance(FILE *f, const struct nsb_costs *c)
{
	double lo = INFINITY, hi = -INFINITY, emin = INFINITY, emax = -INFINITY;
	size_t i, j, n = 0, same = 0;
	const char *rel;
	char line[600];

	for (i = 0; i < c->nfam; i++)
		for (j = 0; j < c->fam[i].n; j++) {
			const struct nsb_cost_row *r = &c->fam[i].rows[j];

			if (!r->has_stock)
				continue;
			n++;
			same += r->toggles.verdict == NSB_SAME;
			lo = fmin(lo, r->toggles.shift.lo);
			hi = fmax(hi, r->toggles.shift.hi);
			emin = fmin(emin, r->toggles.shift.est);
			emax = fmax(emax, r->toggles.shift.est);
		}
	fputc('\n', f);
	rel = ctx_release(c->stock_ctx ? c->stock_ctx : c->ctx);
	if (!n) {
		snprintf(line, sizeof(line), "Toggles' own cost (unpatched "
			 "%s against the toggles kernel, every check on): not "
			 "measured in this run; NSB_STOCK=1 make run boots the "
			 "unpatched kernel with the same plan and adds it.",
			 rel);
		nsb_wrap(f, "", line);
		return;
	}
	snprintf(line, sizeof(line), "Toggles' own cost (unpatched %s "
		 "against the toggles kernel, every check on, same plan and "
		 "seeds): %+.1f to %+.1f %s per op over %zu scenarios, CIs "
		 "within [%+.1f, %+.1f]; %zu of %zu same. Not part of any "
		 "check's cost above: both sides of each row ran the toggles "
		 "kernel.", rel, emin, emax, c->icount ? "insn" : "ns", n, lo,
		 hi, same, n);
	nsb_wrap(f, "", line);
}

/* --- Markdown ------------------------------------------------------------ */

static void md_table(FILE *f, const struct nsb_costs *c, bool form)
{
	struct nsb_table t = cost_table(c);
	size_t i, j;

	nsb_table_head(f, &t, NSB_MD);
	for (i = 0; i < c->nfam; i++) {
		const struct nsb_cost_family *fam = &c->fam[i];

		if (!fam->n || fam->chk->form != form)
			continue;
		for (j = 0; j < fam->n; j++) {
			struct fam_row row = { fam, &fam->rows[j] };

			nsb_table_row(f, &t, &row, NSB_MD);
		}
	}
}

void nsb_costs_print(FILE *f, const struct nsb_costs *c, bool markdown)
{
	if (markdown) {
		fprintf(f, "### What each check costs\n\n");
		md_table(f, c, false);
		if (any(c, true)) {
			fprintf(f, "\n### 2015 forms against today's\n\n");
			md_table(f, c, true);
		}
		fputc('\n', f);
		nsb_costs_cs_print(f, c, true);
		text_missing(f, c);
		text_provenance(f, c);
		return;
	}
	text_table(f, c, false);
	if (any(c, true)) {
		fputc('\n', f);
		text_table(f, c, true);
	}
	nsb_costs_cs_print(f, c, false);
	text_missing(f, c);
	text_provenance(f, c);
}

/*
 * What a consumer of costs.json needs to know where the numbers come
 * from, without the results files: the kernel (release, source, series,
 * config), the mode and QEMU, the date (the host's; guest_date is the
 * guest's fixed clock), the nsbench that measured, and the LSMs the
 * boots had active; from the first toggles file's context.
 */
static json_t *provenance(const struct nsb_costs *c)
{
	static const char *const prefixes[] = { "kernel_", "patch_", NULL };
	static const char *const keys[] = {
		"nsbench_mode", "nsbench_qemu", "nsbench_version", "date",
		"guest_date", "nsbench_host_command",
		"nsbench_time_unit_meaning", NULL,
	};
	json_t *p = json_object(), *lsms = json_array(), *v;
	const char *key;
	size_t i;

	json_object_foreach(c->ctx, key, v) {
		bool take = false;

		for (i = 0; prefixes[i]; i++)
			take |= !strncmp(key, prefixes[i], strlen(prefixes[i]));
		for (i = 0; keys[i]; i++)
			take |= !strcmp(key, keys[i]);
		if (take && json_is_string(v))
			json_object_set(p, key, v);
	}
	for (i = 0; i < c->nlsm; i++) {
		size_t j;

		for (j = i; j < c->nfam; j += c->nlsm)
			if (c->fam[j].n)
				break;
		if (j < c->nfam)
			json_array_append_new(lsms, json_string(
					      c->lsm[i]));
	}
	json_object_set_new(p, "lsm_boots", lsms);
	return p;
}

json_t *nsb_costs_json(const struct nsb_costs *c)
{
	struct nsb_table t = cost_table(c);
	json_t *rows = json_array();
	size_t i, j;

	for (i = 0; i < c->nfam; i++) {
		const struct nsb_cost_family *fam = &c->fam[i];

		for (j = 0; j < fam->n; j++) {
			struct fam_row row = { fam, &fam->rows[j] };

			json_array_append_new(rows, nsb_table_json(&t, &row));
		}
	}
	return json_pack("{s:s,s:b,s:f,s:o,s:o,s:o}", "unit",
			 c->unit ? c->unit : "", "icount", c->icount,
			 "aa_limit", c->aa_limit, "provenance", provenance(c),
			 "cache_model", c->cs_model && c->cs_files ?
			 json_string(c->cs_model) : json_null(),
			 "rows", rows);
}
