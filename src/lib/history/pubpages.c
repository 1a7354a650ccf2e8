// SPDX-License-Identifier: GPL-2.0
/*
 * pubpages.c — the pages of `nsbench history publish` (publish.h): plain
 * HTML with one inline style sheet and inline SVG, no script, so a page
 * opens the same from file:// as from any web server.  Every string from
 * the history or a costs.json reaches a page through html.c's escapes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "src/lib/stats/costs.h"
#include "src/lib/render/html.h"
#include "src/lib/render/svgtrend.h"
#include "src/lib/base/nsbench.h"
#include "src/lib/history/publish_internal.h"


static const char css[] =
"body{font:14px/1.4 system-ui,sans-serif;margin:1.5em auto;max-width:72em;"
"padding:0 1em;color:#222}\n"
"nav a{margin-right:1em}h1{font-size:1.4em;word-break:break-all}"
"h2{font-size:1.15em;margin-top:1.6em}\n"
"table{border-collapse:collapse;margin:.5em 0;width:100%}"
"td,th{border-bottom:1px solid #ddd;padding:2px 6px;text-align:left;"
"vertical-align:top}\n"
"td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;"
"white-space:nowrap}\n"
"code,td.name{font-family:ui-monospace,monospace}"
"td.name{word-break:break-all}\n"
".meta{color:#555}.regression{color:#b00;font-weight:bold}"
".improvement{color:#070;font-weight:bold}.noisy{color:#a60}"
".skip,.error{color:#777}.error{font-weight:bold}\n"
"svg.trend{width:100%;height:auto;max-width:960px;font-size:11px}\n"
".ci{fill:#c6d4ea}.median{fill:none;stroke:#4c72b0;stroke-width:1.5}"
".pts circle{fill:#4c72b0}.grid{stroke:#eee}.frame{stroke:#999}\n"
".cp{stroke:#c44e52;stroke-width:2;stroke-dasharray:6 4}"
".cpl{fill:#c44e52}.seg{stroke:#dd8452;stroke-width:3}\n";

/* --- a page ----------------------------------------------------------- */

/* Opens rel (a path under the site) in the directory being written. */
static FILE *page_open(struct nsb_pub *p, const char *rel,
		       const char *title, const char *up)
{
	char *path = NULL;
	FILE *f;

	if (asprintf(&path, "%s/%s", p->tmp, rel) < 0)
		return NULL;
	f = fopen(path, "w");
	if (!f)
		nsb_err("%s: cannot write\n", path);
	free(path);
	if (!f || json_array_append_new(p->pages, json_string(rel))) {
		if (f)
			fclose(f);
		return NULL;
	}
	/*
	 * No script is meant to run, so none may: should a name ever slip
	 * past the escapes, the browser refuses it (and says so on the
	 * console, where the browser test looks).
	 */
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8"
	      "\">\n<meta http-equiv=\"Content-Security-Policy\" content=\""
	      "default-src 'none'; style-src 'unsafe-inline'\">\n<meta name="
	      "\"viewport\" content=\"width=device-width\">\n<title>", f);
	nsb_html_put(f, title);
	fprintf(f, "</title>\n<style>\n%s</style></head>\n<body>\n<nav><a "
		"href=\"%sindex.html\">Benchmarks</a><a href=\"%sregressions"
		".html\">Regressions</a>", css, up, up);
	if (p->costs)
		fprintf(f, "<a href=\"%scosts.html\">Check costs</a>", up);
	fputs("</nav>\n", f);
	return f;
}

static int page_close(FILE *f)
{
	int bad;

	fputs("</body></html>\n", f);
	bad = ferror(f);
	if (fclose(f) || bad) {
		nsb_err("a page could not be written\n");
		return -1;
	}
	return 0;
}

/* --- shared pieces ----------------------------------------------------- */

/* A run's id, linked to its report (or results file) where one is. */
static void run_cell(FILE *f, const struct nsb_pub *p, const char *run,
		     const char *up)
{
	const char *what;
	char *link = nsb_pub_run_link(p, run, &what);

	nsb_html_put(f, run);
	if (link) {
		fprintf(f, " <a href=\"%s", up);
		nsb_html_put_href(f, link);
		fprintf(f, "\">%s</a>", what);
	}
	free(link);
}

static void bench_link(FILE *f, const struct nsb_pub_bench *b,
		       const char *up)
{
	if (b->n) {
		fprintf(f, "<a href=\"%sb/", up);
		nsb_html_put_href(f, b->stem);
		fputs(".html\">", f);
	}
	nsb_html_put(f, b->name);
	if (b->n)
		fputs("</a>", f);
}

/* "abc123..def456", else "runs R1..R2", of a change between two points. */
static void range_text(FILE *f, const struct nsb_hrec *a,
		       const struct nsb_hrec *b)
{
	if (a->kernel_commit && b->kernel_commit)
		nsb_html_printf(f, "commits %s..%s", a->kernel_commit,
				b->kernel_commit);
	else
		nsb_html_printf(f, "runs %s..%s", a->run, b->run);
}

static void latest_cells(FILE *f, const struct nsb_pub_bench *b)
{
	char v[32];

	if (!b->n || strcmp(b->last->status, "ok")) {
		fprintf(f, "<td class=\"num\">-</td><td class=\"%s\">%s</td>"
			"<td>", nsb_verdict_change(b->verdict),
			nsb_verdict_name(b->verdict));
		nsb_html_put(f, b->last->why ? b->last->why :
			     b->last->status);
		fputs("</td>", f);
		return;
	}
	nsb_fmt_value(v, sizeof(v), b->last->median, b->vkind);
	fprintf(f, "<td class=\"num\">%s</td><td class=\"%s\">%s</td><td>",
		v, nsb_verdict_change(b->verdict), nsb_verdict_change(b->verdict));
	if (b->base) {
		fprintf(f, "%+.2f %% [%+.2f, %+.2f] against ", b->pct[0],
			b->pct[1], b->pct[2]);
		nsb_html_put(f, b->base->run);
	} else {
		fputs("no baseline yet", f);
	}
	fputs("</td>", f);
}

/* --- index.html -------------------------------------------------------- */

static void index_rule(FILE *f, const struct nsb_pub *p)
{
	const struct nsb_cp_opts *cp = &p->o->cp;

	fputs("<p class=\"meta\">Latest verdict: each benchmark's newest run "
	      "against the last accepted run (<code>nsbench history accept"
	      "</code>), else the run before it, by <code>nsbench gate</code>"
	      "'s rule on the history's medians and CIs (the change's "
	      "interval the widest the two CIs allow): ", f);
	fprintf(f, "timed rows against &plusmn;%g %%, icount rows against "
		"&plusmn;%g instruction. Change points: E-divisive means as "
		"<code>nsbench history changes</code> finds them (sig %g, %zu "
		"permutations, threshold %g %%%s).</p>\n", cp->threshold,
		NSB_ICOUNT_BAND, cp->sig, cp->perms, cp->threshold,
		cp->threshold_given ? "" : "; icount series flagged beyond "
		"&plusmn;1 insn");
}

static void index_head(FILE *f, const struct nsb_pub *p)
{
	const struct nsb_history *h = p->h;
	size_t k[NSB_ERROR + 1] = { 0 }, i;

	for (i = 0; i < p->n; i++)
		k[p->b[i].verdict]++;
	fputs("<h1>", f);
	nsb_html_put(f, p->o->title);
	fputs("</h1>\n<p class=\"meta\">History <code>", f);
	nsb_html_put(f, h->path);
	fprintf(f, "</code>: %zu benchmark(s), %zu run(s); newest run <code>",
		p->n, h->nruns);
	nsb_html_put(f, h->nruns ? h->runs[h->nruns - 1] : "-");
	fputs("</code>; accepted <code>", f);
	nsb_html_put(f, h->accepted ? h->accepted : "none");
	fputs("</code>; nsbench ", f);
	nsb_html_put(f, nsb_version());
	if (h->bad_lines)
		fprintf(f, "; %zu bad line(s) of the history left out",
			h->bad_lines);
	fprintf(f, ".</p>\n<p id=\"summary\"><span class=\"regression\">%zu "
		"regression(s)</span>, <span class=\"improvement\">%zu "
		"improvement(s)</span>, %zu same, %zu noisy, %zu error(s), %zu "
		"without a verdict.</p>\n", k[NSB_SLOWER], k[NSB_FASTER],
		k[NSB_SAME], k[NSB_NOISY], k[NSB_ERROR], k[NSB_SKIP]);
	index_rule(f, p);
}

static void index_row(FILE *f, const struct nsb_pub_bench *b)
{
	const struct nsb_cp *c = b->ncp ? &b->cps[b->ncp - 1] : NULL;

	fputs("<tr><td class=\"name\">", f);
	bench_link(f, b, "");
	fprintf(f, "</td><td class=\"num\">%zu</td>", b->n);
	latest_cells(f, b);
	if (c) {
		fprintf(f, "<td>%zu; last %+.2f %% at ", b->ncp, c->pct);
		nsb_html_put(f, b->pts[c->index]->run);
		fputs("</td></tr>\n", f);
	} else {
		fputs("<td>none</td></tr>\n", f);
	}
}

/* Families in name order: the benchmarks are sorted, so each is a run. */
int nsb_pub_index(struct nsb_pub *p)
{
	FILE *f = page_open(p, "index.html", p->o->title, "");
	size_t i;

	if (!f)
		return -1;
	index_head(f, p);
	for (i = 0; i < p->n; i++) {
		const struct nsb_pub_bench *b = &p->b[i];

		if (!i || b->family_len != p->b[i - 1].family_len ||
		    strncmp(b->name, p->b[i - 1].name, b->family_len)) {
			if (i)
				fputs("</tbody></table>\n", f);
			fputs("<h2 class=\"family\">", f);
			nsb_html_printf(f, "%.*s", (int)b->family_len, b->name);
			fputs("</h2>\n<table><thead><tr><th>benchmark</th><th "
			      "class=\"num\">runs</th><th class=\"num\">latest"
			      "</th><th>verdict</th><th>change [CI]</th><th>"
			      "change points</th></tr></thead><tbody>\n", f);
		}
		index_row(f, b);
	}
	if (p->n)
		fputs("</tbody></table>\n", f);
	return page_close(f);
}

/* --- b/<stem>.html ------------------------------------------------------ */

static void cp_rows(FILE *f, const struct nsb_pub *p,
		   const struct nsb_pub_bench *b)
{
	char v0[32], v1[32], s0[32], s1[32];
	size_t i;

	fputs("<h2>Change points</h2>\n", f);
	if (!b->ncp) {
		fputs("<p>None flagged.</p>\n", f);
		return;
	}
	fputs("<table><thead><tr><th class=\"num\">#</th><th>between</th>"
	      "<th class=\"num\">before</th><th class=\"num\">after</th><th "
	      "class=\"num\">change</th><th class=\"num\">shift CI</th><th "
	      "class=\"num\">p</th><th>runs (reports)</th></tr></thead>"
	      "<tbody>\n", f);
	for (i = 0; i < b->ncp; i++) {
		const struct nsb_cp *c = &b->cps[i];
		const struct nsb_hrec *x = b->pts[c->index - 1];
		const struct nsb_hrec *y = b->pts[c->index];

		nsb_fmt_value(v0, sizeof(v0), c->before, b->vkind);
		nsb_fmt_value(v1, sizeof(v1), c->after, b->vkind);
		nsb_fmt_value(s0, sizeof(s0), c->shift.lo, b->vkind);
		nsb_fmt_value(s1, sizeof(s1), c->shift.hi, b->vkind);
		fprintf(f, "<tr><td class=\"num\">%zu</td><td>", c->index);
		range_text(f, x, y);
		fprintf(f, "</td><td class=\"num\">%s</td><td class=\"num\">%s"
			"</td><td class=\"num %s\">%+.2f %%</td><td class=\""
			"num\">%.0f%% %s..%s</td><td class=\"num\">%.3f</td>"
			"<td>", v0, v1, c->pct > 0 ? "regression" :
			"improvement", c->pct, 100 * c->shift.level, s0, s1,
			c->p);
		run_cell(f, p, x->run, "../");
		fputs("<br>", f);
		run_cell(f, p, y->run, "../");
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

/* Newest first: the run a reader came for is at the top. */
static void run_rows(FILE *f, const struct nsb_pub_bench *b)
{
	char m[32], lo[32], hi[32];
	size_t i;

	fputs("<h2>Runs</h2>\n<table><thead><tr><th class=\"num\">#</th><th>"
	      "run</th><th class=\"num\">median</th><th class=\"num\">CI</th>"
	      "<th class=\"num\">n</th><th>kernel</th><th>time</th></tr>"
	      "</thead><tbody>\n", f);
	for (i = b->n; i-- > 0;) {
		const struct nsb_hrec *r = b->pts[i];

		nsb_fmt_value(m, sizeof(m), r->median, b->vkind);
		nsb_fmt_value(lo, sizeof(lo), r->ci_lo, b->vkind);
		nsb_fmt_value(hi, sizeof(hi), r->ci_hi, b->vkind);
		fprintf(f, "<tr><td class=\"num\">%zu</td><td class=\"name\">",
			i);
		nsb_html_put(f, r->run);
		fprintf(f, "</td><td class=\"num\">%s</td><td class=\"num\">"
			"%.0f%% %s..%s</td><td class=\"num\">%zu</td><td>", m,
			100 * r->ci_level, lo, hi, r->n);
		nsb_html_put(f, r->kernel_commit ? r->kernel_commit :
			     r->kernel_release ? r->kernel_release : "");
		fputs("</td><td>", f);
		nsb_html_put(f, r->timestamp ? r->timestamp : "");
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

int nsb_pub_bench_page(struct nsb_pub *p, const struct nsb_pub_bench *b)
{
	char rel[128];
	FILE *f;

	snprintf(rel, sizeof(rel), "b/%s.html", b->stem);
	f = page_open(p, rel, b->name, "../");
	if (!f)
		return -1;
	fputs("<h1>", f);
	nsb_html_put(f, b->name);
	fputs("</h1>\n<p class=\"meta\">", f);
	nsb_html_printf(f, "%s, %s; %zu usable run(s), %zu change point(s)",
			b->pts[0]->unit, b->pts[0]->mode ? b->pts[0]->mode :
			"?", b->n, b->ncp);
	fputs("</p>\n<table><thead><tr><th class=\"num\">latest</th><th>"
	      "verdict</th><th>change [CI]</th></tr></thead><tbody><tr>", f);
	latest_cells(f, b);
	fputs("</tr></tbody></table>\n<p class=\"meta\">Median and CI per "
	      "run, oldest first (labels: kernel commit, else date); change "
	      "points dashed, segment medians orange.</p>\n", f);
	nsb_svg_trend(f, b->pts, b->n, b->cps, b->ncp, b->vkind);
	cp_rows(f, p, b);
	run_rows(f, b);
	return page_close(f);
}

/* --- regressions.html ------------------------------------------------- */

struct change {
	const struct nsb_pub_bench *b;
	const struct nsb_cp *c;
	size_t before, after;	/* run indexes of the points around it */
};

/* Newest range first, then by benchmark name. */
static int cmp_change(const void *x, const void *y)
{
	const struct change *a = x, *b = y;

	if (a->after != b->after)
		return a->after < b->after ? 1 : -1;
	if (a->before != b->before)
		return a->before < b->before ? 1 : -1;
	return strcmp(a->b->name, b->b->name);
}

/* The change points going one way (sign > 0: slower), sorted. */
static struct change *changes_of(const struct nsb_pub *p, int sign,
				 size_t *n)
{
	struct change *ch;
	size_t i, j, k = 0;

	for (i = 0; i < p->n; i++)
		k += p->b[i].ncp;
	ch = calloc(k + 1, sizeof(*ch));
	if (!ch)
		return NULL;
	for (*n = 0, i = 0; i < p->n; i++) {
		for (j = 0; j < p->b[i].ncp; j++) {
			const struct nsb_cp *c = &p->b[i].cps[j];

			if ((sign > 0) != (c->pct > 0))
				continue;
			ch[*n] = (struct change){ &p->b[i], c,
				p->b[i].pts[c->index - 1]->run_index,
				p->b[i].pts[c->index]->run_index };
			(*n)++;
		}
	}
	qsort(ch, *n, sizeof(*ch), cmp_change);
	return ch;
}

static void group_head(FILE *f, const struct nsb_pub *p,
		       const struct change *c)
{
	const struct nsb_hrec *x = c->b->pts[c->c->index - 1];
	const struct nsb_hrec *y = c->b->pts[c->c->index];

	fputs("<h3 class=\"range\">", f);
	range_text(f, x, y);
	fputs("</h3>\n<p class=\"meta\">before: ", f);
	run_cell(f, p, x->run, "");
	fputs("; after: ", f);
	run_cell(f, p, y->run, "");
	fputs("</p>\n<table><thead><tr><th>benchmark</th><th class=\"num\">"
	      "before</th><th class=\"num\">after</th><th class=\"num\">"
	      "change</th><th class=\"num\">noise</th></tr></thead><tbody>\n",
	      f);
}

static int change_list(FILE *f, const struct nsb_pub *p, int sign)
{
	size_t n, i;
	struct change *ch = changes_of(p, sign, &n);
	char v0[32], v1[32];

	if (!ch)
		return -1;
	fprintf(f, "<h2>%s: %zu change point(s)</h2>\n", sign > 0 ?
		"Regressions" : "Improvements", n);
	for (i = 0; i < n; i++) {
		const struct change *c = &ch[i];

		if (!i || c->after != ch[i - 1].after ||
		    c->before != ch[i - 1].before) {
			if (i)
				fputs("</tbody></table>\n", f);
			group_head(f, p, c);
		}
		nsb_fmt_value(v0, sizeof(v0), c->c->before, c->b->vkind);
		nsb_fmt_value(v1, sizeof(v1), c->c->after, c->b->vkind);
		fputs("<tr><td class=\"name\">", f);
		bench_link(f, c->b, "");
		fprintf(f, "</td><td class=\"num\">%s</td><td class=\"num\">"
			"%s</td><td class=\"num %s\">%+.2f %%</td><td class=\""
			"num\">%.2f %%</td></tr>\n", v0, v1, sign > 0 ?
			"regression" : "improvement", c->c->pct,
			c->c->noise_pct);
	}
	if (n)
		fputs("</tbody></table>\n", f);
	free(ch);
	return 0;
}

int nsb_pub_regressions(struct nsb_pub *p)
{
	FILE *f = page_open(p, "regressions.html", "Regressions", "");

	if (!f)
		return -1;
	fputs("<h1>Change points by commit range</h1>\n<p class=\"meta\">"
	      "Flagged change points of every benchmark, grouped by the two "
	      "runs they lie between, newest first; each run links its report "
	      "(or results file) where the history's paths still reach one."
	      "</p>\n", f);
	if (change_list(f, p, 1) || change_list(f, p, -1)) {
		fclose(f);
		return -1;
	}
	return page_close(f);
}

/* --- costs.html ---------------------------------------------------------- */

static double num_of(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *str_of(json_t *o, const char *key)
{
	const char *s = nsb_json_str(o, key);

	return s ? s : "";
}

/*
 * The table as `nsbench costs` prints it (off, shift [CI], %, verdict),
 * its rows those of costs.json: one column description (table.h), drawn
 * by the table model's HTML renderer.  It is a second list, not
 * costs_out.c's cost_cols: those cells read a struct nsb_cost_row and the
 * struct nsb_costs of a run of this build, while the site has only the
 * published costs.json, maybe of another build, whose rows would have to
 * be parsed back into cost rows (families, effects, A/A) to share them.
 * The file's keys are the contract between the two; a column here reads
 * one of them by name.
 */
#define JROW(row)	((json_t *)(row))

static void sw_cell(char *buf, size_t len, const void *row, const void *ctx,
		    enum nsb_tfmt fmt)
{
	(void)ctx, (void)fmt;
	snprintf(buf, len, "%s (%s)", str_of(JROW(row), "switch"),
		 str_of(JROW(row), "seed"));
}

static void lsm_cell(char *buf, size_t len, const void *row,
		     const void *ctx, enum nsb_tfmt fmt)
{
	(void)ctx, (void)fmt;
	snprintf(buf, len, "%s", str_of(JROW(row), "lsm"));
}

static void label_cell(char *buf, size_t len, const void *row,
		       const void *ctx, enum nsb_tfmt fmt)
{
	(void)ctx, (void)fmt;
	snprintf(buf, len, "%s", str_of(JROW(row), "label"));
}

static void off_cell(char *buf, size_t len, const void *row,
		     const void *ctx, enum nsb_tfmt fmt)
{
	double off = num_of(JROW(row), "off");

	(void)ctx, (void)fmt;
	snprintf(buf, len, "-");
	if (isfinite(off))
		nsb_fmt_insn(buf, len, off);
}

static void shift_cell(char *buf, size_t len, const void *row,
		       const void *ctx, enum nsb_tfmt fmt)
{
	json_t *sh = json_object_get(JROW(row), "shift");
	struct nsb_interval s = { num_of(sh, "est"), num_of(sh, "lo"),
				  num_of(sh, "hi"), num_of(sh, "level") };

	(void)ctx, (void)fmt;
	snprintf(buf, len, "-");
	if (json_is_object(sh) && isfinite(s.est))
		nsb_fmt_shift(buf, len, &s);
}

static void pct_cell(char *buf, size_t len, const void *row,
		     const void *ctx, enum nsb_tfmt fmt)
{
	double pct = num_of(JROW(row), "pct");

	(void)ctx, (void)fmt;
	if (isfinite(pct))
		snprintf(buf, len, "%+.2f", pct);
	else
		snprintf(buf, len, "-");
}

static void cost_verdict_cell(char *buf, size_t len, const void *row,
			      const void *ctx, enum nsb_tfmt fmt)
{
	(void)ctx, (void)fmt;
	snprintf(buf, len, "%s%s", str_of(JROW(row), "verdict"),
		 json_is_true(json_object_get(JROW(row), "unreliable")) ?
		 " (A/A beyond the limit)" : "");
}

static const char *name_class(const void *row, const void *ctx)
{
	(void)row, (void)ctx;
	return "name";
}

static const char *verdict_class(const void *row, const void *ctx)
{
	(void)ctx;
	return nsb_verdict_change(nsb_verdict_of(str_of(JROW(row),
							"verdict")));
}

static const struct nsb_col site_cost_cols[] = {
	{ .head = "switch", .flags = NSB_COL_MD, .cell = sw_cell },
	{ .head = "LSM", .flags = NSB_COL_MD, .cell = lsm_cell },
	{ .head = "row", .flags = NSB_COL_MD, .cell = label_cell,
	  .html_class = name_class },
	{ .head = "off", .flags = NSB_COL_MD | NSB_COL_RIGHT,
	  .cell = off_cell },
	{ .head = "shift [CI]", .flags = NSB_COL_MD | NSB_COL_RIGHT,
	  .cell = shift_cell },
	{ .head = "%", .flags = NSB_COL_MD | NSB_COL_RIGHT, .cell = pct_cell },
	{ .head = "verdict", .flags = NSB_COL_MD, .cell = cost_verdict_cell,
	  .html_class = verdict_class },
};

static void cost_provenance(FILE *f, json_t *prov)
{
	const char *key;
	json_t *v;

	fputs("<h2>Provenance</h2>\n<table><tbody>\n", f);
	json_object_foreach(prov, key, v) {
		if (!json_is_string(v))
			continue;
		fputs("<tr><td><code>", f);
		nsb_html_put(f, key);
		fputs("</code></td><td>", f);
		nsb_html_put(f, json_string_value(v));
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

int nsb_pub_costs(struct nsb_pub *p)
{
	FILE *f = page_open(p, "costs.html", "Check costs", "");
	struct nsb_table t = { .cols = site_cost_cols,
			       .n = NSB_ARRAY_SIZE(site_cost_cols),
			       .indent = "" };
	json_t *r;
	size_t i;

	if (!f)
		return -1;
	fputs("<h1>In-boot check-cost table</h1>\n<p class=\"meta\">From <code>",
	      f);
	nsb_html_put(f, p->costs_path);
	fputs("</code> (<code>nsbench costs --json</code>): each check's "
	      "cost per operation, switch on against off in the same boot; "
	      "unit: ", f);
	nsb_html_put(f, str_of(p->costs, "unit"));
	fputs(". Verdicts as the report gives them.</p>\n", f);
	nsb_table_head(f, &t, NSB_HTML);
	json_array_foreach(json_object_get(p->costs, "rows"), i, r)
		if (json_is_object(r))
			nsb_table_row(f, &t, r, NSB_HTML);
	nsb_table_end(f, &t, NSB_HTML);
	cost_provenance(f, json_object_get(p->costs, "provenance"));
	return page_close(f);
}
