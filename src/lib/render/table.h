/* SPDX-License-Identifier: GPL-2.0 */
/*
 * table.h — a report table described once.  Its columns say each their
 * header, width and alignment, how a row's value formats into the cell
 * and under which JSON key it goes; the renderers below draw the 72-column
 * text table, the Markdown table, the HTML table and the JSON rows of
 * every report table from that description, as hyperfine's exporters
 * share one result model and perf's perf_hpp_fmt list serves stdio, TUI
 * and GTK.  A row is the caller's value (a pointer); a table's context
 * (the comparison, the costs) goes to every cell.  Adding a column is
 * adding one struct nsb_col.
 */
#ifndef NSB_TABLE_H
#define NSB_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

struct nsb_interval;

/*
 * HTML is a document as Markdown is: it shows the Markdown columns, with
 * the cells a column gives for NSB_HTML (plain text: the renderer
 * escapes it).
 */
enum nsb_tfmt { NSB_TEXT, NSB_MD, NSB_HTML };

/* The width of a text report: a table's lines and its rules fit in it. */
#define NSB_COLS	72

#define NSB_COL_TEXT	0x01	/* a column of the text table */
#define NSB_COL_MD	0x02	/* a column of the Markdown and HTML tables */
#define NSB_COL_RIGHT	0x04	/* right-aligned: a number */
#define NSB_COL_CODE	0x08	/* Markdown, HTML: a code span (data) */
/* text: a cell wider than the column goes on a line of its own above */
#define NSB_COL_OWN_LINE 0x10
/* JSON: the value, an object, gives its keys to the row (no key of its own) */
#define NSB_COL_JSON_MERGE 0x20
/*
 * text: a cell that would take the line past NSB_COLS goes on the next
 * line instead, four columns in from the table's indent (a long verdict)
 */
#define NSB_COL_BELOW	0x40

struct nsb_col {
	const char *head;	/* text header */
	const char *md_head;	/* Markdown header; NULL: head */
	int width;		/* text: columns it takes; 0: the cell's */
	unsigned int flags;
	/*
	 * The cell of row in fmt ("" where the row has no value: a
	 * skipped row); NULL for a column of JSON only.
	 */
	void (*cell)(char *buf, size_t len, const void *row, const void *ctx,
		     enum nsb_tfmt fmt);
	const char *key;	/* JSON key; NULL: not in JSON */
	/* The JSON value of row; NULL leaves the key out of this row. */
	json_t *(*json)(const struct nsb_col *c, const void *row,
			const void *ctx);
	size_t field;		/* for json: the offset of the value it
				 * shows, in a struct of the table's */
	/*
	 * HTML: the cell's class ("regression" for a slower row); NULL
	 * or a NULL answer: "num" for a right-aligned column, else none.
	 */
	const char *(*html_class)(const void *row, const void *ctx);
};

struct nsb_table {
	const struct nsb_col *cols;
	size_t n;
	const void *ctx;	/* passed to every cell */
	const char *indent;	/* text: before every line of the table */
	/*
	 * JSON: the keys in the order a row has them, NULL-terminated (a
	 * file format's order, named once); a key not in it comes after,
	 * in column order.  NULL: every key in column order.
	 */
	const char *const *json_order;
};

/*
 * The header: a text line, Markdown's header and alignment lines, or
 * HTML's <table> and its <thead>.
 */
void nsb_table_head(FILE *f, const struct nsb_table *t, enum nsb_tfmt fmt);
/*
 * One row: a text line (and an overlong cell's own line), a Markdown
 * line or an HTML <tr>.
 */
void nsb_table_row(FILE *f, const struct nsb_table *t, const void *row,
		   enum nsb_tfmt fmt);
/* The end of the table: HTML's closing tags; nothing in text, Markdown. */
void nsb_table_end(FILE *f, const struct nsb_table *t, enum nsb_tfmt fmt);
/* One row as a JSON object of its columns' keys; NULL out of memory. */
json_t *nsb_table_json(const struct nsb_table *t, const void *row);

/*
 * Short row label: "exec/suid/init/d8" for sys/exec/vfork/suid/init/...;
 * at most NSB_LABEL_MAX bytes with the NUL, as the tables print it.
 */
#define NSB_LABEL_MAX 96
void nsb_cost_label(char *buf, size_t len, const char *name);
/* A per-op value in the run's unit: whole units from 1000 on. */
void nsb_fmt_insn(char *buf, size_t len, double v);
/* "+24 [+10, +38]": a shift and its CI, as the tables print it. */
void nsb_fmt_shift(char *buf, size_t len, const struct nsb_interval *s);

/*
 * A json function that is one expression of the row, a const type * r:
 * NSB_ROW_JSON(lsm_json, struct fam_row, json_string(r->fam->lsm))
 */
#define NSB_ROW_JSON(name, type, expr)					\
static json_t *name(const struct nsb_col *c, const void *row,		\
		    const void *ctx)					\
{									\
	const type *r = row;						\
									\
	(void)c, (void)ctx;						\
	return expr;							\
}

/* A json function: the column's text cell as a JSON string. */
json_t *nsb_cell_json(const struct nsb_col *c, const void *row,
		      const void *ctx);

/* {est, lo, hi, level}: a bound that is not a number is null. */
json_t *nsb_interval_json(const struct nsb_interval *i);

#endif /* NSB_TABLE_H */
