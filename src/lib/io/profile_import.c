// SPDX-License-Identifier: GPL-2.0
/*
 * profile_import.c — one boot's perf profile of a benchmark's timed
 * region as a profile JSON (profile.h, profile_import.h).  Input, per
 * profile step of a guest boot: the `perf report --stdio -q -t '\t'
 * --sort dso,sym -F sample,dso,sym` table (samples, dso and "[k] symbol"
 * per line, padded with blanks), the results JSON of the benchmark's run
 * (its name and context), the number of operations run while sampling
 * was on and perf's period.  Input is data: a symbol is kept byte for
 * byte, and anything the table should not hold is refused naming file
 * and line, before anything is written.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/base/escape.h"
#include "src/lib/base/nsbench.h"
#include "src/lib/stats/profile.h"
#include "src/lib/io/profile_import.h"
#include "src/lib/io/samples.h"

/* --- the perf report table -------------------------------------------- */

/* A line of the table: pointers into the read buffer, NUL-terminated. */
struct tsv_sym {
	const char *dso, *sym;
	bool kernel;
	unsigned long long n;
};

struct tsv {
	const char *path;
	struct tsv_sym *s;
	size_t n, cap;
	unsigned long long total;
};

static char *trim(char *s, char *end)
{
	while (s < end && (*s == ' ' || *s == '\r'))
		s++;
	while (end > s && (end[-1] == ' ' || end[-1] == '\r'))
		end--;
	*end = 0;
	return s;
}

/* A count: decimal digits only (no sign, no blank inside), <= max. */
bool nsb_prof_count(const char *s, unsigned long long max,
		    unsigned long long *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !*end && !errno && *v <= max;
}

/*
 * "0xffffffff81234567": an address perf could not name.  Each is a few
 * samples at best and says nothing alone, so they pool per dso.
 */
static bool is_address(const char *sym)
{
	if (sym[0] != '0' || sym[1] != 'x' || !sym[2])
		return false;
	return !sym[2 + strspn(sym + 2, "0123456789abcdefABCDEF")];
}

static int tsv_add(struct tsv *t, const struct tsv_sym *s)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 256;
		struct tsv_sym *ns = realloc(t->s, cap * sizeof(*ns));

		if (!ns)
			return nsb_bad_at(t->path, 0, "out of memory");
		t->s = ns;
		t->cap = cap;
	}
	t->s[t->n++] = *s;
	return 0;
}

/*
 * "[k] name": perf's privilege level ([k] kernel, [.] user, [g] guest
 * kernel, [u] guest user, ...), a blank, the name.
 */
static int parse_sym(struct tsv *t, size_t no, char *f, struct tsv_sym *s)
{
	if (f[0] != '[' || !f[1] || f[2] != ']' || f[3] != ' ')
		return nsb_bad_at(t->path, no, "symbol '%s' lacks perf's level "
			      "prefix ('[k] ', '[.] ', ...)", f);
	s->kernel = f[1] == 'k' || f[1] == 'g';
	s->sym = trim(f + 4, f + strlen(f));
	if (!*s->sym)
		return nsb_bad_at(t->path, no, "empty symbol");
	if (is_address(s->sym))
		s->sym = NSB_PROF_UNRESOLVED;
	return 0;
}

/* One line: "samples<TAB>dso<TAB>[k] symbol", blanks around each. */
static int parse_line(struct tsv *t, size_t no, char *line, char *end)
{
	char *f[3], *tab;
	struct tsv_sym s;
	int i;

	f[0] = line;
	for (i = 1; i < 3; i++) {
		tab = memchr(f[i - 1], '\t', (size_t)(end - f[i - 1]));
		if (!tab)
			return nsb_bad_at(t->path, no, "expected 3 TAB-separated "
				      "fields (samples, dso, symbol), got %d",
				      i);
		*tab = 0;
		f[i] = tab + 1;
	}
	/* a symbol keeps any further TAB: it is the rest of the line */
	f[2] = trim(f[2], end);
	f[1] = trim(f[1], f[1] + strlen(f[1]));
	f[0] = trim(f[0], f[0] + strlen(f[0]));
	if (!nsb_prof_count(f[0], NSB_PROF_MAX_SAMPLES, &s.n))
		return nsb_bad_at(t->path, no, "samples: expected a count "
			      "(decimal digits), got '%s'", f[0]);
	if (!*f[1])
		return nsb_bad_at(t->path, no, "empty dso");
	if (nsb_utf8_bad(f[1]) || nsb_utf8_bad(f[2]))
		return nsb_bad_at(t->path, no, "not valid UTF-8 (JSON cannot "
			      "carry it unchanged)");
	s.dso = f[1];
	if (parse_sym(t, no, f[2], &s))
		return -1;
	t->total += s.n;
	if (t->total > NSB_PROF_MAX_SAMPLES)
		return nsb_bad_at(t->path, no, "more than 2^53 samples in all");
	return tsv_add(t, &s);
}

/* Every line of buf[0..len); blank lines and perf's '#' comments skipped. */
static int parse_tsv(struct tsv *t, char *buf, size_t len)
{
	char *p = buf, *end = buf + len, *nl;
	size_t no;

	for (no = 1; p < end; no++, p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		if (memchr(p, 0, (size_t)(nl - p)))
			return nsb_bad_at(t->path, no, "NUL byte in the line");
		if (*p == '#' || p + strspn(p, " \r\t") >= nl)
			continue;
		if (parse_line(t, no, p, nl))
			return -1;
	}
	if (!t->total)
		return nsb_bad_at(t->path, 0, "no samples (%zu symbol line(s))",
			      t->n);
	return 0;
}

static int cmp_key(const void *pa, const void *pb)
{
	const struct tsv_sym *a = pa, *b = pb;
	int c = strcmp(a->dso, b->dso);

	if (!c)
		c = strcmp(a->sym, b->sym);
	return c ? c : (int)a->kernel - (int)b->kernel;
}

static int cmp_samples(const void *pa, const void *pb)
{
	const struct tsv_sym *a = pa, *b = pb;

	if (a->n != b->n)
		return a->n < b->n ? 1 : -1;
	return cmp_key(a, b);
}

/* The same symbol of the same dso summed (sort, then merge: n log n). */
static void merge_tsv(struct tsv *t)
{
	size_t i, k = 0;

	qsort(t->s, t->n, sizeof(*t->s), cmp_key);
	for (i = 0; i < t->n; i++) {
		if (k && !cmp_key(&t->s[k - 1], &t->s[i]))
			t->s[k - 1].n += t->s[i].n;
		else
			t->s[k++] = t->s[i];
	}
	t->n = k;
	qsort(t->s, t->n, sizeof(*t->s), cmp_samples);
}

/* --- the other inputs ------------------------------------------------- */

/* The ops file: one line, a positive decimal count. */
static int read_ops(const char *path, unsigned long long *ops)
{
	size_t len;
	char *text = nsb_read_input(path, 4096, &len), *s;
	int ret = 0;

	if (!text)
		return -1;
	if (strlen(text) != len) {
		free(text);
		return nsb_bad_at(path, 1, "NUL byte in the file");
	}
	if (len && text[len - 1] == '\n')
		text[--len] = 0;
	s = trim(text, text + len);
	if (strchr(s, '\n') || !*s)
		ret = nsb_bad_at(path, 1, "expected one line, the number of "
			     "operations");
	else if (!nsb_prof_count(s, NSB_PROF_MAX_SAMPLES, ops) || !*ops)
		ret = nsb_bad_at(path, 1, "ops: expected a count > 0 of "
			     "operations, got '%s'", s);
	free(text);
	return ret;
}

/* KEY=N in the words of line (a count), or false. */
static bool probe_count(const char *line, const char *key,
			unsigned long long *v)
{
	size_t k = strlen(key);

	for (const char *w = line; *w; w += strcspn(w, " ")) {
		w += strspn(w, " ");
		if (!strncmp(w, key, k) && w[k] == '=') {
			char num[32];
			size_t n = strcspn(w + k + 1, " ");

			if (n >= sizeof(num))
				return false;
			memcpy(num, w + k + 1, n);
			num[n] = 0;
			return nsb_prof_count(num, NSB_PROF_MAX_SAMPLES, v);
		}
	}
	return false;
}

/*
 * --probes=FILE: the period a sample stands for, from the boot's line
 * "profile.LABEL period=P spin_insn=N spin_ns=T ..." (guest/init.sh):
 * each sample's interrupt takes part of the next period, so a sample is
 * P x N / T instructions of the workload (T >= N: a loop of exactly N
 * instructions took T virtual ns while perf sampled).
 */
static int probe_period(const char *path, const char *label,
			unsigned long long *period)
{
	size_t len, k = strlen(label);
	char *text = nsb_read_input(path, NSB_INPUT_MAX, &len), *line;
	unsigned long long p, n, t;
	int ret = -1;

	if (!text)
		return -1;
	for (line = text; line < text + len; line += strlen(line) + 1) {
		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, "profile.", 8) &&
		    !strncmp(line + 8, label, k) && line[8 + k] == ' ')
			break;
	}
	if (line >= text + len)
		nsb_bad(path, "no line \"profile.%s ...\": no sampling period "
			"for %s", label, label);
	else if (!probe_count(line, "period", &p) || !p ||
		 !probe_count(line, "spin_insn", &n) || !n ||
		 !probe_count(line, "spin_ns", &t) || t < n)
		nsb_bad(path, "profile.%s: want period=P spin_insn=N spin_ns=T "
			"with P > 0 and T >= N > 0", label);
	else {
		*period = (unsigned long long)floorl((long double)p * n / t +
						     0.5L);
		ret = *period ? 0 : nsb_bad(path, "profile.%s: a period of 0",
					    label);
	}
	free(text);
	return ret;
}

/*
 * The bench file as every reader of results checks it (samples.c: units,
 * times, aggregates, names): profile-import took aggregate-only files,
 * unit "parsec", an empty name and 1e10 s times, which profile and
 * report then refused.  One benchmark with a sample, too.
 */
static int check_bench(const char *path)
{
	struct nsb_side side;
	int ret = 0;

	nsb_side_init(&side, "bench");
	if (nsb_side_load(&side, path))
		ret = -1;
	else if (side.n != 1 || !side.s[0].n)
		ret = nsb_bad(path, "benchmarks: expected exactly one "
			      "benchmark with a sample, got %zu%s", side.n,
			      side.n == 1 ? " without one" : "");
	else if (!*side.s[0].name)
		ret = nsb_bad(path, "benchmarks[0].name: empty");
	nsb_side_free(&side);
	return ret;
}

/* The benchmark's name: the one run_name (or name) of all entries. */
static const char *one_benchmark(const char *path, json_t *arr)
{
	const char *name = NULL, *n;
	json_t *b;
	size_t i;

	if (!json_is_array(arr) || !json_array_size(arr)) {
		nsb_bad_at(path, 0, "benchmarks: expected exactly one benchmark, "
		       "got none");
		return NULL;
	}
	json_array_foreach(arr, i, b) {
		n = nsb_json_str(b, "run_name") ?: nsb_json_str(b, "name");
		if (!n) {
			nsb_bad_at(path, 0, "benchmarks[%zu]: no name", i);
			return NULL;
		}
		if (name && strcmp(name, n)) {
			nsb_bad_at(path, 0, "benchmarks: expected exactly one "
			       "benchmark, got '%s' and '%s'", name, n);
			return NULL;
		}
		name = n;
	}
	return name;
}

/* "dir/sys-stat.bench.json" -> "sys-stat" */
static char *default_label(const char *bench)
{
	const char *base = strrchr(bench, '/');
	char *l = strdup(base ? base + 1 : bench), *dot;

	if (!l)
		return NULL;
	dot = strstr(l, ".bench.json");
	if (!dot && (dot = strrchr(l, '.')) && strcmp(dot, ".json"))
		dot = NULL;
	if (dot && dot != l)
		*dot = 0;
	return l;
}

static json_t *symbols_json(const struct tsv *t)
{
	json_t *arr = json_array();
	size_t i;

	for (i = 0; arr && i < t->n; i++) {
		const struct tsv_sym *s = &t->s[i];

		if (json_array_append_new(arr, json_pack("{s:s, s:s, s:b, "
				"s:I}", "symbol", s->sym, "dso", s->dso,
				"kernel", s->kernel, "samples",
				(json_int_t)s->n))) {
			json_decref(arr);
			return NULL;
		}
	}
	return arr;
}

static json_t *profile_json(const struct nsb_prof_import_opts *o, const char *label,
			    const char *name, json_t *ctx, const struct tsv *t)
{
	json_t *syms = symbols_json(t);

	if (!syms)
		return NULL;
	return json_pack("{s:i, s:s, s:s, s:s, s:I, s:I, s:I, s:O, s:o}",
			 "nsbench_profile", NSB_PROFILE_VERSION,
			 "label", label, "benchmark", name,
			 "event", o->event ?: "cpu-clock",
			 "period", (json_int_t)o->period,
			 "ops", (json_int_t)o->ops,
			 "samples", (json_int_t)t->total,
			 "context", ctx, "symbols", syms);
}

int nsb_prof_import(struct nsb_prof_import_opts *o)
{
	struct tsv t = { .path = o->symbols };
	json_t *bench = NULL, *prof = NULL, *ctx;
	char *text = NULL, *label = NULL;
	const char *name;
	size_t len;
	int ret = 2;

	if (o->ops_file && read_ops(o->ops_file, &o->ops))
		goto out;
	label = o->label ? strdup(o->label) : default_label(o->bench);
	if (!label || (o->probes && probe_period(o->probes, label, &o->period)))
		goto out;
	if (check_bench(o->bench))
		goto out;
	bench = nsb_json_load(o->bench);
	if (!bench || !(name = one_benchmark(o->bench,
				json_object_get(bench, "benchmarks"))))
		goto out;
	ctx = json_object_get(bench, "context");
	if (!json_is_object(ctx)) {
		nsb_bad_at(o->bench, 0, "context: expected an object");
		goto out;
	}
	text = nsb_read_input(o->symbols, NSB_INPUT_MAX, &len);
	if (!text || parse_tsv(&t, text, len))
		goto out;
	merge_tsv(&t);
	prof = profile_json(o, label, name, ctx, &t);
	if (!prof)
		fprintf(stderr, "nsbench: %s: cannot encode the profile\n",
			o->out);
	else if (!nsb_json_write_atomic(o->out, prof))
		ret = 0;
out:
	json_decref(prof);
	json_decref(bench);
	free(t.s);
	free(text);
	free(label);
	return ret;
}
