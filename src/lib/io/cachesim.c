// SPDX-License-Identifier: GPL-2.0
/*
 * cachesim.c — the cache-model plugin's records into results files (see
 * cachesim.h).  The plugin file is data like any input: its size is
 * bounded, every field is checked, and a line that is not the plugin's
 * is refused by its line number.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/io/cachesim.h"
#include "src/lib/base/jsonio.h"
#include "src/lib/io/samples.h"
#include "src/lib/base/mem.h"
#include "src/lib/base/nsbench.h"

const char *const nsb_cs_count_names[NSB_CS_NCOUNT] = {
	"insn", "kinsn", "loads", "stores", "i1_miss", "d1_miss", "ll_miss",
	"i1_miss_cold", "d1_miss_cold", "ll_miss_cold",
};

static const char *const state_names[3] = { "on", "off1", "off2" };

/*
 * The plugin's file: a few lines per benchmark run, or with chunks=1
 * (a diagnosis) a line per chunk and function, some 90 MB for an LSM
 * boot of checks.plan, which 64 MiB refused.  1 GiB is no such file.
 */
#define CS_FILE_MAX	((size_t)1 << 30)

double nsb_cs_cycles(const double v[NSB_CS_NCOUNT], int cold)
{
	double l1 = cold ? v[NSB_CS_I1_COLD] + v[NSB_CS_D1_COLD] :
			   v[NSB_CS_I1] + v[NSB_CS_D1];
	double ll = cold ? v[NSB_CS_LL_COLD] : v[NSB_CS_LL];

	return v[NSB_CS_INSN] + 10 * l1 + 100 * ll;
}

static int state_of(const char *s)
{
	int i;

	for (i = 0; i < 3; i++)
		if (!strcmp(s, state_names[i]))
			return i;
	return -1;
}

/* The header line names the columns in the plugin's order. */
static int check_header(const char *path, size_t ln, char *line)
{
	char want[512] = "run\tstate\tchunks\tops";
	int i;

	for (i = 0; i < NSB_CS_NCOUNT; i++) {
		strcat(want, "\t");
		strcat(want, nsb_cs_count_names[i]);
	}
	if (strcmp(line, want))
		return nsb_bad_at(path, ln, "not the nsb-cachesim header line "
				  "(columns: %s)", want);
	return 0;
}

static int parse_u32(const char *s, uint32_t *v)
{
	char *end;
	unsigned long x;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	x = strtoul(s, &end, 10);
	if (errno || *end || x > UINT32_MAX)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

static int parse_count(const char *s, double *v)
{
	char *end;

	if ((*s < '0' || *s > '9'))
		return -1;
	errno = 0;
	*v = strtod(s, &end);
	return errno || *end || !isfinite(*v) ? -1 : 0;
}

/* One data line: run, state, chunks, ops, then the counts. */
static int parse_record(const char *path, size_t ln, char *line,
			struct nsb_cs_record *r)
{
	char *f[4 + NSB_CS_NCOUNT], *save = NULL, *tok;
	uint32_t u;
	size_t n = 0;
	int i;

	for (tok = strtok_r(line, "\t", &save); tok;
	     tok = strtok_r(NULL, "\t", &save)) {
		if (n == NSB_ARRAY_SIZE(f))
			return nsb_bad_at(path, ln, "more than %zu fields",
					  NSB_ARRAY_SIZE(f));
		f[n++] = tok;
	}
	if (n != NSB_ARRAY_SIZE(f))
		return nsb_bad_at(path, ln, "%zu fields, want %zu", n,
				  NSB_ARRAY_SIZE(f));
	if (parse_u32(f[0], &r->run))
		return nsb_bad_at(path, ln, "run id: not a 32-bit number");
	r->state = state_of(f[1]);
	if (r->state < 0)
		return nsb_bad_at(path, ln, "state: want on, off1 or off2");
	if (parse_u32(f[2], &u) || !u || parse_u32(f[3], &u) || !u)
		return nsb_bad_at(path, ln, "chunks and ops: want numbers > 0");
	for (i = 0; i < NSB_CS_NCOUNT; i++)
		if (parse_count(f[4 + i], &r->v[i]))
			return nsb_bad_at(path, ln, "%s: not a count >= 0",
					  nsb_cs_count_names[i]);
	return 0;
}

static int cmp_record(const void *a, const void *b)
{
	const struct nsb_cs_record *x = a, *y = b;

	if (x->run != y->run)
		return x->run < y->run ? -1 : 1;
	return x->state - y->state;
}

static int cmp_func(const void *a, const void *b)
{
	const struct nsb_cs_func *x = a, *y = b;

	if (x->run != y->run)
		return x->run < y->run ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int add_record(struct nsb_cachesim *cs, size_t *cap,
		      const struct nsb_cs_record *r)
{
	if (cs->n == *cap) {
		size_t c = *cap ? 2 * *cap : 64;
		struct nsb_cs_record *p = realloc(cs->r, c * sizeof(*p));

		if (!p)
			return -1;
		cs->r = p;
		*cap = c;
	}
	cs->r[cs->n++] = *r;
	return 0;
}

/* "#fn RUN NAME v0..v7": a function's counts per op, on and off. */
static int parse_func(struct nsb_cachesim *cs, const char *path, size_t ln,
		      char *line, size_t *cap)
{
	char *f[3 + NSB_CS_FN_NVAL], *save = NULL, *tok;
	struct nsb_cs_func fn = { 0 };
	size_t n = 0;
	int i;

	for (tok = strtok_r(line, "\t", &save); tok && n < NSB_ARRAY_SIZE(f);
	     tok = strtok_r(NULL, "\t", &save))
		f[n++] = tok;
	if (n != NSB_ARRAY_SIZE(f) || tok)
		return nsb_bad_at(path, ln, "#fn: want %zu fields",
				  NSB_ARRAY_SIZE(f));
	if (parse_u32(f[1], &fn.run))
		return nsb_bad_at(path, ln, "#fn: run id: not a 32-bit number");
	if (strlen(f[2]) > 128 || strspn(f[2], "abcdefghijklmnopqrstuvwxyz"
					 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
					 "_.$[]") != strlen(f[2]))
		return nsb_bad_at(path, ln, "#fn: not a symbol name");
	for (i = 0; i < NSB_CS_FN_NVAL; i++)
		if (parse_count(f[3 + i], &fn.v[i]))
			return nsb_bad_at(path, ln, "#fn: not a count >= 0");
	if (cs->nfn == *cap) {
		size_t c = *cap ? 2 * *cap : 64;
		struct nsb_cs_func *p = realloc(cs->fn, c * sizeof(*p));

		if (!p)
			return nsb_bad_at(path, ln, "out of memory");
		cs->fn = p;
		*cap = c;
	}
	fn.name = strdup(f[2]);
	if (!fn.name)
		return nsb_bad_at(path, ln, "out of memory");
	cs->fn[cs->nfn++] = fn;
	return 0;
}

static int parse_line(struct nsb_cachesim *cs, const char *path, size_t ln,
		      char *line, size_t *cap, size_t *fcap)
{
	struct nsb_cs_record r;

	if (ln == 1) {
		if (strncmp(line, "# nsb-cachesim ", 15))
			return nsb_bad_at(path, ln, "not an nsb-cachesim file "
					  "(no '# nsb-cachesim' line)");
		cs->model = strdup(line + 2);
		return cs->model ? 0 : -1;
	}
	if (ln == 2)
		return check_header(path, ln, line);
	if (!strncmp(line, "#fn\t", 4))
		return parse_func(cs, path, ln, line, fcap);
	if (line[0] == '#')
		return 0;	/* the plugin's remarks: runs dropped, totals */
	if (parse_record(path, ln, line, &r))
		return -1;
	if (add_record(cs, cap, &r))
		return nsb_bad_at(path, ln, "out of memory");
	return 0;
}

int nsb_cachesim_load(struct nsb_cachesim *cs, const char *path)
{
	size_t len, ln = 0, cap = 0, fcap = 0;
	char *text = nsb_read_input(path, CS_FILE_MAX, &len), *p, *nl;

	memset(cs, 0, sizeof(*cs));
	if (!text)
		return -1;
	if (strlen(text) != len) {
		free(text);
		return nsb_bad(path, "a NUL byte: not the plugin's text");
	}
	for (p = text; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl) {
			free(text);
			nsb_cachesim_free(cs);
			return nsb_bad_at(path, ln + 1, "no newline at the end "
					  "(the plugin did not finish it)");
		}
		*nl = 0;
		if (parse_line(cs, path, ++ln, p, &cap, &fcap)) {
			free(text);
			nsb_cachesim_free(cs);
			return -1;
		}
	}
	free(text);
	if (ln < 2) {
		nsb_cachesim_free(cs);
		return nsb_bad(path, "no nsb-cachesim header");
	}
	/* n log n: a file of any size is matched in time */
	if (cs->n)
		qsort(cs->r, cs->n, sizeof(*cs->r), cmp_record);
	if (cs->nfn)
		qsort(cs->fn, cs->nfn, sizeof(*cs->fn), cmp_func);
	return 0;
}

void nsb_cachesim_free(struct nsb_cachesim *cs)
{
	nsb_free_each(cs->fn, cs->nfn, sizeof(*cs->fn),
		      offsetof(struct nsb_cs_func, name));
	free(cs->model);
	free(cs->r);
	memset(cs, 0, sizeof(*cs));
}

static void set_counter(json_t *b, const char *state, const char *name,
			double per_op, double unit)
{
	char key[64];

	snprintf(key, sizeof(key), "nsb_%s_cs_%s", state, name);
	json_object_set_new(b, key, json_real(per_op / unit));
}

/* The record of run and state, or NULL (the records are sorted). */
static const struct nsb_cs_record *find(const struct nsb_cachesim *cs,
					uint32_t run, int state)
{
	struct nsb_cs_record key = { .run = run, .state = state };

	return cs->n ? bsearch(&key, cs->r, cs->n, sizeof(key), cmp_record) :
		       NULL;
}

/* The run's "#fn" lines (sorted by run) as { function: [8] }, or NULL. */
static json_t *funcs_of(const struct nsb_cachesim *cs, uint32_t run)
{
	size_t lo = 0, hi = cs->nfn, i;
	json_t *o = NULL;
	int k;

	while (lo < hi) {	/* the first line of run */
		size_t mid = lo + (hi - lo) / 2;

		if (cs->fn[mid].run < run)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < cs->nfn && cs->fn[i].run == run; i++) {
		json_t *v;

		if (!o)
			o = json_object();
		v = json_array();
		for (k = 0; k < NSB_CS_FN_NVAL; k++)
			json_array_append_new(v, json_real(cs->fn[i].v[k]));
		json_object_set_new(o, cs->fn[i].name, v);
	}
	return o;
}

/* One entry's counters; 1 if it is interleaved and lacks a state. */
static int apply_entry(const struct nsb_cachesim *cs, json_t *b)
{
	json_t *id = json_object_get(b, "nsb_run_id");
	const char *unit = nsb_json_str(b, "time_unit");
	double f = unit ? nsb_unit_to_ns(unit) : 0;
	const struct nsb_cs_record *r[3];
	json_t *funcs;
	int st, i;

	if (!json_is_number(id) || json_is_true(json_object_get(b,
					"error_occurred")))
		return 0;
	for (st = 0; st < 3; st++) {
		r[st] = find(cs, (uint32_t)json_number_value(id), st);
		if (!r[st] || !f)
			return 1;
	}
	for (st = 0; st < 3; st++) {
		for (i = 0; i < NSB_CS_NCOUNT; i++)
			set_counter(b, state_names[st], nsb_cs_count_names[i],
				    r[st]->v[i], f);
		set_counter(b, state_names[st], NSB_CS_CYCLES,
			    nsb_cs_cycles(r[st]->v, 0), f);
		set_counter(b, state_names[st], NSB_CS_CYCLES_COLD,
			    nsb_cs_cycles(r[st]->v, 1), f);
	}
	funcs = funcs_of(cs, (uint32_t)json_number_value(id));
	if (funcs)
		json_object_set_new(b, "nsb_cs_funcs", funcs);
	return 0;
}

int nsb_cachesim_apply(const struct nsb_cachesim *cs, json_t *root,
		       const char *path)
{
	json_t *arr = json_object_get(root, "benchmarks"), *b;
	json_t *ctx = json_object_get(root, "context");
	size_t i, missing = 0;
	char why[128] = "yes";

	if (!json_is_array(arr) || !json_is_object(ctx))
		return nsb_bad(path, "no benchmarks array or context object");
	json_array_foreach(arr, i, b)
		missing += apply_entry(cs, b);
	if (missing)
		snprintf(why, sizeof(why), "no: %zu interleaved run(s) without "
			 "the plugin's records", missing);
	json_object_set_new(ctx, "nsbench_cachesim", json_string(cs->model));
	json_object_set_new(ctx, "nsbench_cachesim_complete",
			    json_string(why));
	return 0;
}
