// SPDX-License-Identifier: GPL-2.0
/*
 * test_table.c — the table model (src/lib/render/table.c): one description of a
 * table's columns gives the text header and rows (widths, alignment, an
 * overlong cell on a line of its own), the Markdown table (alignment row,
 * code spans, empty cells), the HTML table (escaped cells, a number's
 * class, code spans) and the JSON rows (keys in json_order's order, a key
 * left out where the column has no value); one column added to the
 * description shows in all four; nsb_interval_json writes a NaN bound as
 * null.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/stats/stats.h"
#include "src/lib/render/table.h"
#include "tests/tap.h"

struct fruit {
	const char *name;
	double kg;	/* NAN: not weighed */
};

static void name_cell(char *buf, size_t len, const void *row,
		      const void *ctx, enum nsb_tfmt fmt)
{
	(void)ctx, (void)fmt;
	snprintf(buf, len, "%s", ((const struct fruit *)row)->name);
}

/* ctx is the unit; text and Markdown may differ in a cell */
static void kg_cell(char *buf, size_t len, const void *row,
		    const void *ctx, enum nsb_tfmt fmt)
{
	double kg = ((const struct fruit *)row)->kg;

	*buf = 0;
	if (!isnan(kg))
		snprintf(buf, len, fmt == NSB_MD ? "%.2f %s" : "%.1f", kg,
			 (const char *)ctx);
}

static json_t *kg_json(const struct nsb_col *c, const void *row,
		       const void *ctx)
{
	double kg = ((const struct fruit *)row)->kg;

	(void)c, (void)ctx;
	return isnan(kg) ? NULL : json_real(kg);
}

static const struct nsb_col cols[] = {
	{ .head = "fruit", .width = 8, .flags = NSB_COL_TEXT | NSB_COL_MD |
	  NSB_COL_CODE | NSB_COL_OWN_LINE, .cell = name_cell, .key = "name",
	  .json = nsb_cell_json },
	{ .head = "kg", .md_head = "weight", .width = 5, .flags =
	  NSB_COL_TEXT | NSB_COL_MD | NSB_COL_RIGHT, .cell = kg_cell,
	  .key = "kg", .json = kg_json },
	{ .head = "note", .flags = NSB_COL_MD, .cell = name_cell },
};

/* JSON: kg first, out of column order; a key it does not name comes after */
static const char *const kg_first[] = { "kg", "name", NULL };

static const struct nsb_table table = { .cols = cols,
					.n = NSB_ARRAY_SIZE(cols),
					.ctx = "kg", .indent = "  ",
					.json_order = kg_first };

static void check(const char *got, const char *want, const char *what)
{
	ok(!strcmp(got, want), "%s", what);
	if (strcmp(got, want))
		diag("got:\n%s\nwant:\n%s", got, want);
}

/* The column a test adds: one description, nothing else. */
static void origin_cell(char *buf, size_t len, const void *row,
			const void *ctx, enum nsb_tfmt fmt)
{
	(void)ctx, (void)fmt;
	snprintf(buf, len, "from-%s", ((const struct fruit *)row)->name);
}

static const struct nsb_col origin = {
	.head = "origin", .width = 16, .flags = NSB_COL_TEXT | NSB_COL_MD,
	.cell = origin_cell, .key = "origin", .json = nsb_cell_json,
};

/* what the table renders to JSON for row, against want */
static void check_json(const struct nsb_table *t, const struct fruit *row,
		       const char *want, const char *what)
{
	json_t *j = nsb_table_json(t, row);
	char *s = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);

	check(s, want, what);
	free(s);
	json_decref(j);
}

/* t with the columns and origin after them, in more */
static void with_origin(struct nsb_table *t,
			struct nsb_col more[NSB_ARRAY_SIZE(cols) + 1])
{
	memcpy(more, cols, sizeof(cols));
	more[NSB_ARRAY_SIZE(cols)] = origin;
	t->cols = more;
	t->n = NSB_ARRAY_SIZE(cols) + 1;
}

static char *render_t(const struct nsb_table *t, const struct fruit *rows,
		      size_t n, enum nsb_tfmt fmt)
{
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len);

	nsb_table_head(f, t, fmt);
	for (i = 0; i < n; i++)
		nsb_table_row(f, t, &rows[i], fmt);
	nsb_table_end(f, t, fmt);
	fclose(f);
	return buf;
}

static char *render(const struct fruit *rows, size_t n, enum nsb_tfmt fmt)
{
	return render_t(&table, rows, n, fmt);
}

/* The table with one column more shows it in text, Markdown, HTML, JSON. */
static void added_column(const struct fruit *rows)
{
	struct nsb_col more[NSB_ARRAY_SIZE(cols) + 1];
	struct nsb_table t = table;
	static const char *const fmts[] = { "text", "Markdown", "HTML" };
	static const enum nsb_tfmt fmt[] = { NSB_TEXT, NSB_MD, NSB_HTML };
	size_t i;
	char *s, *plain;

	with_origin(&t, more);
	for (i = 0; i < NSB_ARRAY_SIZE(fmt); i++) {
		plain = render(rows, 1, fmt[i]);
		s = render_t(&t, rows, 1, fmt[i]);
		ok(!strstr(plain, "origin") && strstr(s, "origin") &&
		   strstr(s, "from-fig"), "added column: %s shows its header "
		   "and cell", fmts[i]);
		free(plain);
		free(s);
	}
	check_json(&t, &rows[0],
		   "{\"kg\":1.25,\"name\":\"fig\",\"origin\":\"from-fig\"}",
		   "added column: JSON has its key");
}

int main(void)
{
	static const struct fruit rows[] = {
		{ "fig", 1.25 }, { "pomegranate", 0.5 }, { "a|b", NAN },
	};
	struct nsb_interval iv = { .est = 1, .lo = NAN, .hi = 3,
				   .level = 0.5 };
	char *s;
	json_t *j;

	plan_no_plan();
	s = render(rows, 3, NSB_TEXT);
	check(s, "  fruit       kg\n"
		 "  fig        1.2\n"
		 "  pomegranate\n"
		 "             0.5\n"
		 "  a|b           \n",
	      "text: widths, right alignment, an overlong cell above its row, "
	      "no Markdown-only column");
	free(s);
	s = render(rows, 3, NSB_MD);
	check(s, "| fruit | weight | note |\n"
		 "|---|---:|---|\n"
		 "| `fig` | 1.25 kg | fig |\n"
		 "| `pomegranate` | 0.50 kg | pomegranate |\n"
		 "| `a\\|b` | | a|b |\n",
	      "Markdown: its header, alignment row, code spans, empty cell");
	free(s);
	s = render(rows, 3, NSB_HTML);
	check(s, "<table><thead><tr><th>fruit</th><th class=\"num\">weight"
		 "</th><th>note</th></tr></thead><tbody>\n"
		 "<tr><td><code>fig</code></td><td class=\"num\">1.2</td>"
		 "<td>fig</td></tr>\n"
		 "<tr><td><code>pomegranate</code></td><td class=\"num\">0.5"
		 "</td><td>pomegranate</td></tr>\n"
		 "<tr><td><code>a|b</code></td><td class=\"num\"></td>"
		 "<td>a|b</td></tr>\n"
		 "</tbody></table>\n",
	      "HTML: the Markdown columns, a number's class, code spans");
	free(s);
	{
		static const struct fruit evil[] = { { "<b>&", 1 } };

		s = render(evil, 1, NSB_HTML);
		ok(strstr(s, "<code>&lt;b&gt;&amp;</code>") != NULL,
		   "HTML: a cell is text, never markup");
		free(s);
	}
	added_column(rows);

	check_json(&table, &rows[0], "{\"kg\":1.25,\"name\":\"fig\"}",
		   "JSON: the columns' keys in json_order's order, not column "
		   "order");
	check_json(&table, &rows[2], "{\"name\":\"a|b\"}",
		   "JSON: a column without a value leaves its key out");

	{
		static const char *const order[] = { "origin", "name", NULL };
		struct nsb_col more[NSB_ARRAY_SIZE(cols) + 1];
		struct nsb_table t = table;

		with_origin(&t, more);
		t.json_order = order;
		check_json(&t, &rows[0], "{\"origin\":\"from-fig\","
			   "\"name\":\"fig\",\"kg\":1.25}",
			   "JSON: json_order's keys first, in its order, then "
			   "the others in column order");
	}

	{
		/* a long name passes 72 columns: it goes below, indented */
		static const struct fruit wide[] = {
			{ "fig", 1 },
			{ "a name long enough to pass the seventy-two "
			  "columns of a text report", 2 },
		};
		static const struct nsb_col below[] = {
			{ .head = "kg", .width = 5, .flags = NSB_COL_TEXT |
			  NSB_COL_RIGHT, .cell = kg_cell },
			{ .head = "fruit", .flags = NSB_COL_TEXT |
			  NSB_COL_BELOW, .cell = name_cell },
		};
		struct nsb_table t = { .cols = below, .n = 2, .ctx = "kg",
				       .indent = "  " };

		s = render_t(&t, wide, 2, NSB_TEXT);
		check(s, "     kg fruit\n"
			 "    1.0 fig\n"
			 "    2.0\n"
			 "      a name long enough to pass the seventy-two "
			 "columns of a text report\n",
		      "text: a cell that would pass 72 columns goes below");
		free(s);
	}

	j = nsb_interval_json(&iv);
	s = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
	check(s, "{\"est\":1.0,\"lo\":null,\"hi\":3.0,\"level\":0.5}",
	      "interval: a NaN bound is null, never nan");
	free(s);
	json_decref(j);
	return done_testing();
}
