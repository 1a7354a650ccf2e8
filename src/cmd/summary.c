// SPDX-License-Identifier: GPL-2.0
/*
 * summary.c — `nsbench summary FILE...`: one run's results as short
 * tables a person can read at a glance, one per benchmark family, with
 * the last argument of the name (depth:N, supers:N, ...) as the columns:
 *
 *   models/in_userns            median ns (CV % where repeated)
 *     variant            depth:   0     1     2     4     8    16    32
 *     2015/hot/hit              3.4   4.4   6.2   5.9  12.3  27.6  38.9
 *
 * For comparisons use `nsbench compare`; this only describes one side.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/base/mem.h"
#include "src/lib/base/nsbench.h"
#include "src/lib/base/options.h"
#include "src/lib/io/samples.h"
#include "src/lib/stats/stats.h"
#include "src/cmd/cli.h"

#define MAX_COLS 12
#define CELL_WIDTH 10

/* A benchmark name cut into family, variant and its last argument. */
struct cut {
	char family[96];	/* "models/in_userns" */
	char variant[128];	/* "2015/hot/hit" */
	char key[32];		/* "depth", or "" if no last argument */
	char value[32];		/* "8" */
};

/*
 * Google Benchmark appends the run options it was given to the name
 * (".../iterations:400/manual_time"); they are not arguments.
 */
static void strip_run_options(char *name)
{
	static const char *const opts[] = {
		"/iterations:", "/manual_time", "/real_time", "/min_time:",
		"/repeats:", "/threads:", "/process_time",
	};
	char *p;

	for (size_t i = 0; i < NSB_ARRAY_SIZE(opts); i++)
		if ((p = strstr(name, opts[i])))
			*p = 0;
}

static void cut_name(const char *full, struct cut *c)
{
	char name[256];
	const char *second, *rest, *last;
	size_t flen;

	snprintf(name, sizeof(name), "%s", full);
	strip_run_options(name);
	second = strchr(name, '/');
	memset(c, 0, sizeof(*c));
	second = second ? strchr(second + 1, '/') : NULL;
	flen = second ? (size_t)(second - name) : strlen(name);
	snprintf(c->family, sizeof(c->family), "%.*s", (int)flen, name);
	rest = second ? second + 1 : "";
	last = strrchr(rest, '/');
	last = last ? last + 1 : rest;
	if (strchr(last, ':')) {
		snprintf(c->key, sizeof(c->key), "%.*s",
			 (int)(strchr(last, ':') - last), last);
		snprintf(c->value, sizeof(c->value), "%s", strchr(last, ':') + 1);
		snprintf(c->variant, sizeof(c->variant), "%.*s",
			 (int)(last > rest ? last - rest - 1 : 0), rest);
	} else {
		snprintf(c->variant, sizeof(c->variant), "%s", rest);
	}
	if (!c->variant[0])
		snprintf(c->variant, sizeof(c->variant), "-");
}

/* Three significant digits without an exponent. */
static void fmt_value(char *buf, size_t len, double v)
{
	if (v < 10)
		snprintf(buf, len, "%.2f", v);
	else if (v < 100)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.0f", v);
}

/* Right-aligned in width columns, counting "±" as one column. */
static void print_cell(const char *text, int width)
{
	int cols = 0;

	for (const char *p = text; *p; p++)
		cols += ((unsigned char)*p & 0xc0) != 0x80;
	printf(" %*s%s", width > cols ? width - cols : 0, "", text);
}

static void cell(char *buf, size_t len, const struct nsb_series *s)
{
	struct nsb_summary sum;
	char v[32];

	if (!s) {
		snprintf(buf, len, "-");
		return;
	}
	if (!s->n) {
		snprintf(buf, len, s->skipped ? "skip" : "error");
		return;
	}
	nsb_summarize(s->v, s->n, &sum);
	fmt_value(v, sizeof(v), sum.median);
	if (sum.n > 1)
		snprintf(buf, len, "%s±%.0f%%", v, sum.cv * 100);
	else
		snprintf(buf, len, "%s", v);
}

/*
 * One family's table: its columns (the distinct last-argument values, as
 * they come), the key they share, and its rows (the first series of
 * each variant, in order).  Built in one pass over the names, with hash
 * tables for the lookups, so 100k benchmarks print in linear time.
 */
struct family {
	char cols[MAX_COLS][32];
	char key[32];
	int ncols;
	size_t *rows, nrows, cap;
};

struct layout {
	struct cut *cuts;	/* per series */
	struct family *fam;
	size_t nfam, cap;
	json_t *fam_idx;	/* family -> index in fam[] */
	json_t *rows_seen;	/* family \x1f variant */
	json_t *cells;		/* family \x1f variant \x1f value -> series */
};

static char *join3(const char *a, const char *b, const char *c)
{
	char *k;

	if (asprintf(&k, "%s\x1f%s%s%s", a, b, c ? "\x1f" : "", c ? c : "")
	    < 0)
		return NULL;
	return k;
}

/*
 * Room for one more in *arr of *n of size elements: the capacity doubles,
 * as a realloc per element copies the whole array each time (quadratic
 * with 100k families under the sanitizers, whose realloc always moves).
 */
static int grow(void **arr, size_t *cap, size_t n, size_t size)
{
	size_t c = *cap ? 2 * *cap : 16;
	void *p;

	if (n < *cap)
		return 0;
	p = realloc(*arr, c * size);
	if (!p)
		return -1;
	*arr = p;
	*cap = c;
	return 0;
}

/* Adds series i to its family: columns, row, cell.  0, or -1 (memory). */
static int place(struct layout *l, size_t i)
{
	const struct cut *c = &l->cuts[i];
	json_t *at = json_object_get(l->fam_idx, c->family);
	struct family *f;
	char *rk, *ck;
	int j, ret = -1;

	if (!at) {
		if (grow((void **)&l->fam, &l->cap, l->nfam, sizeof(*f)))
			return -1;
		memset(&l->fam[l->nfam], 0, sizeof(*f));
		if (json_object_set_new(l->fam_idx, c->family,
					json_integer((json_int_t)l->nfam++)))
			return -1;
		at = json_object_get(l->fam_idx, c->family);
	}
	f = &l->fam[json_integer_value(at)];
	if (c->key[0]) {
		snprintf(f->key, sizeof(f->key), "%s", c->key);
		for (j = 0; j < f->ncols && strcmp(f->cols[j], c->value); j++)
			;
		if (j == f->ncols && f->ncols < MAX_COLS)
			snprintf(f->cols[f->ncols++], 32, "%s", c->value);
	}
	rk = join3(c->family, c->variant, NULL);
	ck = join3(c->family, c->variant, c->value);
	if (!rk || !ck)
		goto out;
	if (!json_object_get(l->cells, ck) &&
	    json_object_set_new(l->cells, ck, json_integer((json_int_t)i)))
		goto out;
	ret = 0;
	if (json_object_get(l->rows_seen, rk))
		goto out;
	if (grow((void **)&f->rows, &f->cap, f->nrows, sizeof(*f->rows)) ||
	    json_object_set_new(l->rows_seen, rk, json_true())) {
		ret = -1;
		goto out;
	}
	f->rows[f->nrows++] = i;
out:
	free(rk);
	free(ck);
	return ret;
}

static void layout_free(struct layout *l)
{
	nsb_free_each(l->fam, l->nfam, sizeof(*l->fam),
		      offsetof(struct family, rows));
	free(l->cuts);
	json_decref(l->fam_idx);
	json_decref(l->rows_seen);
	json_decref(l->cells);
}

static int layout(const struct nsb_side *side, struct layout *l)
{
	size_t i;

	memset(l, 0, sizeof(*l));
	l->cuts = calloc(side->n ? side->n : 1, sizeof(*l->cuts));
	l->fam_idx = json_object();
	l->rows_seen = json_object();
	l->cells = json_object();
	if (!l->cuts || !l->fam_idx || !l->rows_seen || !l->cells)
		return -1;
	for (i = 0; i < side->n; i++) {
		cut_name(side->s[i].name, &l->cuts[i]);
		if (place(l, i))
			return -1;
	}
	return 0;
}

static const struct nsb_series *find_cell(const struct nsb_side *side,
					  const struct layout *l,
					  const struct cut *c, const char *value)
{
	char *k = join3(c->family, c->variant, value);
	json_t *at = k ? json_object_get(l->cells, k) : NULL;

	free(k);
	return at ? &side->s[json_integer_value(at)] : NULL;
}

static void print_family(const struct nsb_side *side, const struct layout *l,
			 const struct family *f)
{
	const struct cut *first = &l->cuts[f->rows[0]];
	int ncols = f->ncols;
	char buf[48];

	printf("\n%s\n  %-34s", first->family, ncols ? "variant" :
	       "benchmark");
	if (ncols)
		printf("%s:", f->key);
	for (int j = 0; j < ncols; j++)
		print_cell(f->cols[j], CELL_WIDTH);
	printf("\n");
	for (size_t r = 0; r < f->nrows; r++) {
		size_t i = f->rows[r];
		const struct cut *c = &l->cuts[i];

		printf("  %-34.34s%*s", c->variant, ncols ?
		       (int)strlen(f->key) + 1 : 0, "");
		if (!ncols || !c->key[0]) {
			cell(buf, sizeof(buf), &side->s[i]);
			print_cell(buf, CELL_WIDTH);
		}
		for (int j = 0; ncols && c->key[0] && j < ncols; j++) {
			cell(buf, sizeof(buf), find_cell(side, l, c,
							 f->cols[j]));
			print_cell(buf, CELL_WIDTH);
		}
		if (!side->s[i].n && side->s[i].why)
			printf("  (%s)", side->s[i].why);
		printf("\n");
	}
}

/* A name in a TSV field: \\, \t, \n and \r escaped, as jq's @tsv does. */
static void put_tsv_field(const char *s)
{
	for (; *s; s++) {
		const char *esc = *s == '\\' ? "\\\\" : *s == '\t' ? "\\t" :
				  *s == '\n' ? "\\n" : *s == '\r' ? "\\r" : NULL;

		if (esc)
			fputs(esc, stdout);
		else
			putchar(*s);
	}
}

/*
 * --format=tsv: a line per benchmark, "NAME<TAB>RESULT<TAB>MEDIAN<TAB>
 * UNIT": pass with the median of its samples; skip (every entry skipped)
 * or fail, with "-".  UNIT: insn under icount, else ns.  For CI glue
 * (contrib/lava) that wants the numbers without doing statistics.
 */
static void print_tsv(const struct nsb_side *side)
{
	const char *unit = side->icount ? "insn" : "ns";
	struct nsb_summary sum;

	for (size_t i = 0; i < side->n; i++) {
		const struct nsb_series *s = &side->s[i];

		put_tsv_field(s->name);
		if (s->n) {
			nsb_summarize(s->v, s->n, &sum);
			printf("\tpass\t%.10g\t%s\n", sum.median, unit);
		} else {
			printf("\t%s\t-\t%s\n", s->skipped && !s->errors ?
			       "skip" : "fail", unit);
		}
	}
}

static const struct nsb_usage summary_usage = {
	.who = "nsbench summary",
	.synopsis = "nsbench summary [--metric=real_time|cpu_time] "
		    "[--format=text|tsv] FILE...",
	.about = "One run's results (nsbench/Google Benchmark or hyperfine "
		 "JSON),\none table per benchmark family: median per benchmark "
		 "(and CV\nwhere repeated), the name's last argument as "
		 "columns.\n",
};

static const char *const formats[] = { "text", "tsv", NULL };

int cmd_summary(int argc, char **argv)
{
	struct layout l = { 0 };
	const char *metric = "real_time";
	int format = 0;
	const struct nsb_option opts[] = {
		OPT_STRING("metric", &metric, "FIELD",
			   "real_time (default) or cpu_time"),
		OPT_CHOICE("format", &format, formats, NULL,
			   "text (default): the tables; tsv: a line per\n"
			   "benchmark, name, pass/skip/fail, median, unit"),
		OPT_END(),
	};
	struct nsb_side side;
	int ret;

	ret = nsb_parse_options(&argc, argv, opts, &summary_usage, 0);
	if (ret)
		return ret == NSB_PARSE_HELP ? 0 : ret;
	if (argc < 2) {
		fprintf(stderr, "nsbench summary: no results files\n");
		nsb_usage_hint(&summary_usage);
		return 2;
	}
	nsb_side_init(&side, "run");
	side.metric = metric;
	for (int i = 1; i < argc; i++)
		if (nsb_side_load(&side, argv[i]))
			ret = 2;
	if (!ret && format == 1) {
		print_tsv(&side);
		nsb_side_free(&side);
		return 0;
	}
	if (!ret && layout(&side, &l)) {
		fprintf(stderr, "nsbench summary: out of memory\n");
		ret = 2;
	}
	if (!ret) {
		const char *unit = side.unit ? side.unit : NSB_UNIT_WALL;

		printf("median per operation, %s; ±CV where repeated\n", unit);
		for (size_t i = 0; i < l.nfam; i++)
			print_family(&side, &l, &l.fam[i]);
	}
	layout_free(&l);
	nsb_side_free(&side);
	return ret;
}
