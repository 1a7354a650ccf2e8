// SPDX-License-Identifier: GPL-2.0
/*
 * table.c — the renderers of a table described once (table.h): text
 * with fixed-width columns, Markdown, HTML and JSON rows, from the same
 * column descriptions.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/render/html.h"
#include "src/lib/base/nsbench.h"
#include "src/lib/stats/stats.h"
#include "src/lib/render/table.h"

#define CELL 4096	/* a name from a results file fits whole */

/* --- cells --------------------------------------------------------------- */

/* Drops a prefix or an infix from buf, in place. */
static void drop(char *buf, const char *what)
{
	char *p = strstr(buf, what);

	if (p)
		memmove(p, p + strlen(what), strlen(p + strlen(what)) + 1);
}

void nsb_cost_label(char *buf, size_t len, const char *name)
{
	char *p;

	snprintf(buf, len < NSB_LABEL_MAX ? len : NSB_LABEL_MAX, "%s", name);
	if (!strncmp(buf, "sys/", 4))
		drop(buf, "sys/");
	drop(buf, "/manual_time");
	drop(buf, "vfork/");
	drop(buf, "fscreate/");
	while ((p = strstr(buf, "depth:"))) {
		*p = 'd';
		memmove(p + 1, p + 6, strlen(p + 6) + 1);
	}
}

/*
 * Per-op values in the run's unit (instructions under icount, else ns):
 * digits enough for a shift of a few units on ops of thousands.
 */
void nsb_fmt_insn(char *buf, size_t len, double v)
{
	double a = fabs(v);

	if (a >= 1000)
		snprintf(buf, len, "%.0f", v);
	else if (a >= 10)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.2f", v);
}

void nsb_fmt_shift(char *buf, size_t len, const struct nsb_interval *s)
{
	double a = fmax(fabs(s->lo), fabs(s->hi));

	/* tenths at most: 17 columns, and no more digits than it resolves */
	if (a >= 10)
		snprintf(buf, len, "%+.0f [%+.0f, %+.0f]", s->est, s->lo, s->hi);
	else
		snprintf(buf, len, "%+.1f [%+.1f, %+.1f]", s->est, s->lo, s->hi);
}

/* --- renderers ----------------------------------------------------------- */

static bool in(const struct nsb_col *c, enum nsb_tfmt fmt)
{
	return c->cell && (c->flags & (fmt == NSB_TEXT ? NSB_COL_TEXT :
				       NSB_COL_MD));
}

/* The next column fmt shows, from cols[*i] on (*i then past it), or NULL. */
static const struct nsb_col *next_col(const struct nsb_table *t, size_t *i,
				      enum nsb_tfmt fmt)
{
	while (*i < t->n) {
		const struct nsb_col *c = &t->cols[(*i)++];

		if (in(c, fmt))
			return c;
	}
	return NULL;
}

/* next_col(), with its cell for row in fmt rendered into buf */
static const struct nsb_col *next_cell(const struct nsb_table *t, size_t *i,
				       const void *row, enum nsb_tfmt fmt,
				       char *buf)
{
	const struct nsb_col *c = next_col(t, i, fmt);

	if (c)
		c->cell(buf, CELL, row, t->ctx, fmt);
	return c;
}

/* An HTML cell's opening tag: its class, a code span's <code>. */
static void html_open(FILE *f, const struct nsb_col *c, const void *row,
		      const void *ctx)
{
	const char *cls = c->html_class ? c->html_class(row, ctx) : NULL;

	if (!cls && (c->flags & NSB_COL_RIGHT))
		cls = "num";
	fputs("<td", f);
	if (cls) {
		fputs(" class=\"", f);
		nsb_html_put(f, cls);
		fputc('"', f);
	}
	fprintf(f, ">%s", c->flags & NSB_COL_CODE ? "<code>" : "");
}

static void html_close(FILE *f, const struct nsb_col *c, const char *tag)
{
	fprintf(f, "%s</%s>", c->flags & NSB_COL_CODE ? "</code>" : "", tag);
}

static void html_head(FILE *f, const struct nsb_table *t)
{
	const struct nsb_col *c;
	size_t i = 0;

	fputs("<table><thead><tr>", f);
	while ((c = next_col(t, &i, NSB_HTML))) {
		/* a header is words, never a code span */
		fprintf(f, "<th%s>", c->flags & NSB_COL_RIGHT ?
			" class=\"num\"" : "");
		nsb_html_put(f, c->md_head ? c->md_head : c->head);
		fputs("</th>", f);
	}
	fputs("</tr></thead><tbody>\n", f);
}

static void text_cell(FILE *f, const struct nsb_col *c, const char *s,
		      bool first)
{
	if (!first)
		fputc(' ', f);
	fprintf(f, c->flags & NSB_COL_RIGHT ? "%*s" : "%-*s", c->width, s);
}

void nsb_table_head(FILE *f, const struct nsb_table *t, enum nsb_tfmt fmt)
{
	const struct nsb_col *c;
	size_t i = 0;
	bool first = true;

	if (fmt == NSB_HTML) {
		html_head(f, t);
		return;
	}
	if (fmt == NSB_TEXT)
		fputs(t->indent, f);
	while ((c = next_col(t, &i, fmt))) {
		if (fmt == NSB_TEXT)
			text_cell(f, c, c->head, first);
		else
			fprintf(f, "| %s ", c->md_head ? c->md_head : c->head);
		first = false;
	}
	if (fmt == NSB_TEXT) {
		fputc('\n', f);
		return;
	}
	fputs("|\n", f);
	for (i = 0; (c = next_col(t, &i, fmt));)
		fputs(c->flags & NSB_COL_RIGHT ? "|---:" : "|---", f);
	fputs("|\n", f);
}

static void text_row(FILE *f, const struct nsb_table *t, const void *row,
		     char *buf)
{
	const struct nsb_col *c;
	size_t i = 0, at = strlen(t->indent), len;
	bool first = true;

	while ((c = next_cell(t, &i, row, NSB_TEXT, buf))) {
		if (first)
			fputs(t->indent, f);
		if ((c->flags & NSB_COL_OWN_LINE) &&
		    strlen(buf) > (size_t)c->width) {
			fprintf(f, "%s\n%s", buf, first ? t->indent : "");
			*buf = 0;
		}
		len = strlen(buf);
		if ((c->flags & NSB_COL_BELOW) && !first &&
		    at + 1 + len > NSB_COLS) {
			fprintf(f, "\n%s    %s", t->indent,
				buf + strspn(buf, " "));
			at = NSB_COLS;
			continue;
		}
		text_cell(f, c, buf, first);
		at += !first + (len > (size_t)c->width ? len :
				(size_t)c->width);
		first = false;
	}
	fputc('\n', f);
}

/* An empty cell is " |", as a table with holes reads in the source. */
static void md_cell(FILE *f, const struct nsb_col *c, const char *buf)
{
	fputc(' ', f);
	if (c->flags & NSB_COL_CODE)
		nsb_md_put_code(f, buf);
	else if (*buf)
		fputs(buf, f);
	fputs(*buf || (c->flags & NSB_COL_CODE) ? " |" : "|", f);
}

static void html_cell(FILE *f, const struct nsb_table *t,
		      const struct nsb_col *c, const void *row, const char *buf)
{
	html_open(f, c, row, t->ctx);
	nsb_html_put(f, buf);
	html_close(f, c, "td");
}

/* A Markdown or an HTML row: the same walk, another mark-up. */
static void markup_row(FILE *f, const struct nsb_table *t, const void *row,
		       char *buf, enum nsb_tfmt fmt)
{
	const struct nsb_col *c;
	size_t i = 0;

	fputs(fmt == NSB_MD ? "|" : "<tr>", f);
	while ((c = next_cell(t, &i, row, fmt, buf))) {
		if (fmt == NSB_MD)
			md_cell(f, c, buf);
		else
			html_cell(f, t, c, row, buf);
	}
	fputs(fmt == NSB_MD ? "\n" : "</tr>\n", f);
}

void nsb_table_row(FILE *f, const struct nsb_table *t, const void *row,
		   enum nsb_tfmt fmt)
{
	char *buf = malloc(CELL);

	if (!buf)
		return;
	if (fmt == NSB_TEXT)
		text_row(f, t, row, buf);
	else
		markup_row(f, t, row, buf, fmt);
	free(buf);
}

void nsb_table_end(FILE *f, const struct nsb_table *t, enum nsb_tfmt fmt)
{
	(void)t;
	if (fmt == NSB_HTML)
		fputs("</tbody></table>\n", f);
}

/* Sets c's key of row in o; -1 out of memory. */
static int json_col(json_t *o, const struct nsb_table *t,
		    const struct nsb_col *c, const void *row)
{
	json_t *v = c->json(c, row, t->ctx);
	int bad;

	if (!v)
		return 0;
	if (!(c->flags & NSB_COL_JSON_MERGE))
		return json_object_set_new(o, c->key, v);
	bad = json_object_update(o, v);
	json_decref(v);
	return bad;
}

static bool listed(const char *const *order, const char *key)
{
	for (; *order; order++)
		if (!strcmp(*order, key))
			return true;
	return false;
}

/*
 * The keys in t->json_order's order, then those it does not name in
 * column order (all of them, without a json_order).
 */
json_t *nsb_table_json(const struct nsb_table *t, const void *row)
{
	static const char *const none[] = { NULL };
	const char *const *order = t->json_order ? t->json_order : none;
	json_t *o = json_object();
	const char *const *k;
	size_t i;

	for (k = order; o && *k; k++)
		for (i = 0; i < t->n; i++) {
			const struct nsb_col *c = &t->cols[i];

			if (c->key && c->json && !strcmp(c->key, *k) &&
			    json_col(o, t, c, row))
				goto bad;
		}
	for (i = 0; o && i < t->n; i++) {
		const struct nsb_col *c = &t->cols[i];

		if (c->key && c->json && !listed(order, c->key) &&
		    json_col(o, t, c, row))
			goto bad;
	}
	return o;
bad:
	json_decref(o);
	return NULL;
}

json_t *nsb_cell_json(const struct nsb_col *c, const void *row,
		      const void *ctx)
{
	char buf[CELL];

	c->cell(buf, sizeof(buf), row, ctx, NSB_TEXT);
	return json_string(buf);
}

json_t *nsb_interval_json(const struct nsb_interval *i)
{
	return json_pack("{s:o,s:o,s:o,s:o}", "est", nsb_json_num(i->est),
			 "lo", nsb_json_num(i->lo), "hi", nsb_json_num(i->hi),
			 "level", nsb_json_num(i->level));
}
