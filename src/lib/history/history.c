// SPDX-License-Identifier: GPL-2.0
/*
 * history.c — reading and appending the CI history (see history.h).
 *
 * A history outlives many CI jobs and machines, so the reader trusts no
 * line: a corrupt, truncated or incomplete one is reported with its line
 * number and skipped, and reading goes on.  The writer only ever appends.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "src/lib/stats/costs.h"
#include "src/lib/history/history.h"
#include "src/lib/base/nsbench.h"
#include "src/lib/io/samples.h"
#include "src/lib/stats/stats.h"

/* --- reading ---------------------------------------------------------- */

struct loader {
	struct nsb_history *h;
	FILE *err;
	size_t cap, runs_cap;
	json_t *last;		/* benchmark -> index of its newest record */
	size_t lines;		/* not blank */
};

static void __attribute__((format(printf, 3, 4)))
skip_line(struct loader *l, size_t line, const char *fmt, ...)
{
	va_list ap;

	l->h->bad_lines++;
	fprintf(l->err, "%s:%zu: ", l->h->path, line);
	va_start(ap, fmt);
	vfprintf(l->err, fmt, ap);
	va_end(ap);
	fputs("; line skipped\n", l->err);
}

/* A string member, "" if absent and optional; NULL if it is wrong. */
static const char *str_member(json_t *o, const char *key, bool required,
			      const char **missing)
{
	json_t *v = json_object_get(o, key);

	if (!v && !required)
		return NULL;
	if (!json_is_string(v) || (required && !*json_string_value(v)))
		*missing = key;
	return json_string_value(v);
}

static int num_member(json_t *o, const char *key, double *out,
		      const char **missing)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_number(v)) {
		*missing = key;
		return -1;
	}
	*out = json_number_value(v);
	return 0;
}

static long run_index(struct loader *l, const char *run)
{
	struct nsb_history *h = l->h;
	json_t *i = json_object_get(h->run_ids, run);
	const char **runs;

	if (i)
		return (long)json_integer_value(i);
	/* doubling: a realloc per run is quadratic (20k runs) */
	if (h->nruns == l->runs_cap) {
		l->runs_cap = l->runs_cap ? 2 * l->runs_cap : 16;
		runs = realloc(h->runs, l->runs_cap * sizeof(*runs));
		if (!runs)
			return -1;
		h->runs = runs;
	}
	h->runs[h->nruns] = run;
	if (json_object_set_new(h->run_ids, run, json_integer((json_int_t)
							      h->nruns)))
		return -1;
	return (long)h->nruns++;
}

/*
 * The numbers of an "ok" record are a median of positive times and its
 * CI around it: anything else was not written by nsbench (or was edited)
 * and would reach the statistics as a division by zero or a NaN.
 */
static const char *check_numbers(const struct nsb_hrec *r)
{
	if (!(r->median > 0 && r->median <= NSB_TIME_MAX))
		return "median";
	if (!(r->ci_lo > 0 && r->ci_lo <= r->median))
		return "ci_lo";
	if (!(r->ci_hi >= r->median && r->ci_hi <= NSB_TIME_MAX))
		return "ci_hi";
	if (!(r->ci_level >= 0 && r->ci_level <= 1))
		return "ci_level";
	return NULL;
}

/*
 * "samples" (and "rounds"), where the record has them: n values in the
 * range a sample may have, and a round key for each.  Records written
 * before nsbench kept them have neither; the gate then says so.
 */
static const char *check_samples(json_t *o, struct nsb_hrec *r)
{
	json_t *s = json_object_get(o, "samples");
	json_t *rounds = json_object_get(o, "rounds"), *v;
	size_t i;

	if (!s && !rounds)
		return NULL;
	if (!json_is_array(s) || json_array_size(s) != r->n)
		return "samples";
	json_array_foreach(s, i, v)
		if (!json_is_number(v) || !(json_number_value(v) >= 0 &&
					     json_number_value(v) <= NSB_TIME_MAX))
			return "samples";
	if (rounds && (!json_is_array(rounds) ||
		       json_array_size(rounds) != r->n))
		return "rounds";
	json_array_foreach(rounds, i, v)
		if (!json_is_string(v))
			return "rounds";
	r->samples = s;
	r->rounds = rounds;
	return NULL;
}

/* run, benchmark, status, unit */
#define HREC_REQUIRED 4

const char *nsb_hrec_parse(json_t *o, struct nsb_hrec *r)
{
	const char *bad = NULL;
	json_t *n = json_object_get(o, "n");
	/*
	 * A record's string members, the first HREC_REQUIRED required; in
	 * this order, so the last missing key is the one a bad line names.
	 */
	static const char *const keys[] = {
		"run", "benchmark", "status", "unit",
		"mode", "why", "timestamp", "kernel_release", "kernel_commit",
		"series", "config_hash", "nsbench_version",
	};
	const char **dst[] = {
		&r->run, &r->bench, &r->status, &r->unit,
		&r->mode, &r->why, &r->timestamp, &r->kernel_release,
		&r->kernel_commit, &r->series, &r->config_hash, &r->version,
	};
	size_t i;

	memset(r, 0, sizeof(*r));
	_Static_assert(NSB_ARRAY_SIZE(keys) == NSB_ARRAY_SIZE(dst),
		       "a key for every member");
	for (i = 0; i < NSB_ARRAY_SIZE(keys); i++)
		*dst[i] = str_member(o, keys[i], i < HREC_REQUIRED, &bad);
	r->files = json_object_get(o, "files");
	if (bad)
		return bad;
	if (strcmp(r->status, "ok") && strcmp(r->status, "skip") &&
	    strcmp(r->status, "error"))
		return "status";
	if (r->files && !json_is_array(r->files))
		return "files";
	if (!json_is_integer(n) || json_integer_value(n) < 0)
		return "n";
	r->n = (size_t)json_integer_value(n);
	if (strcmp(r->status, "ok"))
		return NULL;
	if (!r->n)
		return "n";
	if (num_member(o, "median", &r->median, &bad) ||
	    num_member(o, "ci_lo", &r->ci_lo, &bad) ||
	    num_member(o, "ci_hi", &r->ci_hi, &bad) ||
	    num_member(o, "ci_level", &r->ci_level, &bad))
		return bad;
	return check_numbers(r) ?: check_samples(o, r);
}

/* Links record i behind the newest one of its benchmark. */
static int link_bench(struct loader *l, size_t i)
{
	struct nsb_history *h = l->h;
	const char *bench = h->r[i].bench;
	json_t *last = json_object_get(l->last, bench);

	h->r[i].next_same = NSB_HREC_END;
	if (last)
		h->r[json_integer_value(last)].next_same = i;
	else if (json_object_set_new(h->bench_first, bench,
				     json_integer((json_int_t)i)))
		return -1;
	return json_object_set_new(l->last, bench,
				   json_integer((json_int_t)i));
}

static int add_result(struct loader *l, json_t *o, size_t line)
{
	struct nsb_history *h = l->h;
	struct nsb_hrec r, *nr;
	const char *bad = nsb_hrec_parse(o, &r);
	char *key = NULL;
	json_t *dup;
	long ri;

	if (bad) {
		skip_line(l, line, "result without a valid \"%s\"", bad);
		return 0;
	}
	if (asprintf(&key, "%s\x1f%s", r.run, r.bench) < 0)
		return -1;
	dup = json_object_get(h->seen, key);
	if (dup) {
		skip_line(l, line, "run %s, %s again (first on line %zu)",
			  r.run, r.bench, h->r[json_integer_value(dup)].line);
		free(key);
		return 0;
	}
	if (h->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		nr = realloc(h->r, l->cap * sizeof(*nr));
		if (!nr)
			goto fail;
		h->r = nr;
	}
	ri = run_index(l, r.run);
	if (ri < 0 || json_object_set_new(h->seen, key,
					  json_integer((json_int_t)h->n)))
		goto fail;
	r.line = line;
	r.run_index = (size_t)ri;
	h->r[h->n++] = r;
	free(key);
	return link_bench(l, h->n - 1);
fail:
	free(key);
	return -1;
}

static int add_line(struct loader *l, const char *text, size_t len,
		    size_t line)
{
	json_error_t e;
	const char *type, *run, *nul;
	json_t *o;
	int ret = 0;

	if (strspn(text, " \t\r\n") == len)
		return 0;	/* blank: nothing lost */
	l->lines++;
	/* jansson reads past a NUL byte (its buffer's end mark): refused */
	nul = memchr(text, 0, len);
	if (nul) {
		skip_line(l, line, "column %zu: a NUL byte",
			  (size_t)(nul - text) + 1);
		return 0;
	}
	o = json_loadb(text, len, JSON_REJECT_DUPLICATES, &e);
	if (!o) {
		skip_line(l, line, "column %d: %s", e.column, e.text);
		return 0;
	}
	/* names and runs of a history are data from elsewhere, too */
	if (nsb_json_clean(o)) {
		json_decref(o);
		return -1;
	}
	if (json_array_append_new(l->h->lines, o))
		return -1;
	type = json_is_object(o) ? nsb_json_str(o, "type") : NULL;
	run = nsb_json_str(o, "run");
	if (!type) {
		skip_line(l, line, "not an object with a \"type\"");
	} else if (!strcmp(type, "result")) {
		ret = add_result(l, o, line);
	} else if (!strcmp(type, "accept") && run && *run) {
		l->h->accepted = run;
		l->h->accepted_line = line;
	} else {
		skip_line(l, line, "unknown type \"%s\" or no \"run\"", type);
	}
	return ret;
}

/* getline, but no line and no file past the history's size limit. */
static int read_lines(struct loader *l, FILE *f)
{
	size_t line = 0, cap = 0, total = 0;
	char *buf = NULL;
	ssize_t len;
	int ret = 0;

	/* a truncated last line arrives without its '\n' */
	while (!ret && (len = getline(&buf, &cap, f)) >= 0) {
		total += (size_t)len;
		if (total > NSB_HISTORY_MAX) {
			fprintf(l->err, "nsbench: %s: grew past the limit of "
				"%zu MiB while being read\n", l->h->path,
				NSB_HISTORY_MAX >> 20);
			ret = -1;
			break;
		}
		ret = add_line(l, buf, (size_t)len, ++line);
	}
	if (!ret && ferror(f)) {
		fprintf(l->err, "nsbench: %s: read error\n", l->h->path);
		ret = -1;
	}
	free(buf);
	return ret;
}

int nsb_history_load(struct nsb_history *h, const char *path, FILE *err)
{
	struct loader l = { .h = h, .err = err };
	int fd, ret = -1;
	FILE *f;

	memset(h, 0, sizeof(*h));
	h->path = path;
	h->lines = json_array();
	h->run_ids = json_object();
	h->seen = json_object();
	h->bench_first = json_object();
	l.last = json_object();
	if (!h->lines || !h->run_ids || !h->seen || !h->bench_first ||
	    !l.last)
		goto out;
	if (access(path, F_OK) && errno == ENOENT) {
		ret = 0;	/* no history yet: an empty one */
		goto out;
	}
	/* a regular file only: a FIFO or /dev/zero is not a history */
	fd = nsb_open_input(path, NSB_HISTORY_MAX, NULL);
	if (fd < 0)
		goto out;
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		goto out;
	}
	ret = read_lines(&l, f);
	fclose(f);
	if (!ret && l.lines && !h->n && !h->accepted) {
		fprintf(err, "nsbench: %s: not an nsbench history: none of its "
			"%zu line(s) is a record\n", path, l.lines);
		ret = -1;
	}
out:
	json_decref(l.last);
	return ret;
}

void nsb_history_free(struct nsb_history *h)
{
	free(h->r);
	free(h->runs);
	json_decref(h->lines);
	json_decref(h->run_ids);
	json_decref(h->seen);
	json_decref(h->bench_first);
	memset(h, 0, sizeof(*h));
}

long nsb_history_run_index(const struct nsb_history *h, const char *run)
{
	json_t *i = json_object_get(h->run_ids, run);

	return i ? (long)json_integer_value(i) : -1;
}

bool nsb_history_has_run(const struct nsb_history *h, const char *run)
{
	return nsb_history_run_index(h, run) >= 0;
}

const struct nsb_hrec *nsb_history_find(const struct nsb_history *h,
					const char *run, const char *bench)
{
	char *key = NULL;
	json_t *i;

	if (asprintf(&key, "%s\x1f%s", run, bench) < 0)
		return NULL;
	i = json_object_get(h->seen, key);
	free(key);
	return i ? &h->r[json_integer_value(i)] : NULL;
}

static bool same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

long nsb_history_series(const struct nsb_history *h, const char *bench,
			const struct nsb_hrec ***out)
{
	json_t *first = json_object_get(h->bench_first, bench);
	const struct nsb_hrec *newest = NULL, **pts;
	size_t i, k = 0, count = 0;

	*out = NULL;
	/* the records of bench only, through their chain: linear in all */
	for (i = first ? (size_t)json_integer_value(first) : NSB_HREC_END;
	     i != NSB_HREC_END; i = h->r[i].next_same, count++)
		if (!strcmp(h->r[i].status, "ok"))
			newest = &h->r[i];
	if (!newest)
		return 0;
	pts = malloc(count * sizeof(*pts));
	if (!pts)
		return -1;
	for (i = (size_t)json_integer_value(first); i != NSB_HREC_END;
	     i = h->r[i].next_same) {
		const struct nsb_hrec *r = &h->r[i];

		if (!strcmp(r->status, "ok") && same(r->mode, newest->mode) &&
		    !strcmp(r->unit, newest->unit))
			pts[k++] = r;
	}
	*out = pts;
	return (long)k;
}

/* --- records of a run ------------------------------------------------- */

bool nsb_history_ci_levels(const struct nsb_hrec *const *pts, size_t n,
			   double *lo, double *hi)
{
	*lo = 1 - NSB_ALPHA;
	*hi = 0;
	for (size_t i = 0; i < n; i++) {
		double l = pts[i]->ci_level;

		l = l >= 1 - NSB_ALPHA - 1e-9 ? 1 - NSB_ALPHA : l;
		*lo = l < *lo ? l : *lo;
		*hi = l > *hi ? l : *hi;
	}
	return *lo >= *hi - 0.005;
}

char *nsb_history_run_id(const char *file)
{
	const char *base = strrchr(file, '/');
	size_t len;

	base = base ? base + 1 : file;
	len = strlen(base);
	if (len > 5 && !strcmp(base + len - 5, ".json"))
		len -= 5;
	return strndup(base, len);
}

void nsb_history_utc(const char *date, char *buf, size_t len)
{
	struct tm tm = { 0 };
	const char *end = date ? strptime(date, "%Y-%m-%dT%H:%M:%S", &tm) :
			  NULL;
	time_t t;
	int sign, hh, mm;

	t = end ? timegm(&tm) : time(NULL);
	/* Google Benchmark writes local time with an offset: +01:00 */
	if (end && (*end == '+' || *end == '-') &&
	    sscanf(end + 1, "%2d:%2d", &hh, &mm) == 2) {
		sign = *end == '+' ? 1 : -1;
		t -= sign * (hh * 3600 + mm * 60);
	}
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
}

static void set_str(json_t *o, const char *key, const char *v)
{
	if (v)
		json_object_set_new(o, key, json_string(v));
}

/*
 * The samples themselves, and each one's A/B round where every sample
 * has one: a gate from the history alone then runs the very test it
 * runs on the results files (rank tests need the values, not a median
 * and its CI).  Full precision, so the verdict is the same to the bit.
 */
static int add_samples(json_t *o, const struct nsb_series *s)
{
	json_t *v = json_array(), *r = NULL;
	bool rounds = s->round != NULL;
	size_t i;

	for (i = 0; rounds && i < s->n; i++)
		rounds = s->round[i] != NULL;
	if (rounds)
		r = json_array();
	if (!v || (rounds && !r))
		goto fail;
	for (i = 0; i < s->n; i++) {
		if (json_array_append_new(v, json_real(s->v[i])))
			goto fail;
		if (r && json_array_append_new(r, json_string(s->round[i])))
			goto fail;
	}
	/* json_object_set_new() takes the value, even when it fails */
	if (json_object_set_new(o, "samples", v)) {
		json_decref(r);
		return -1;
	}
	return r ? json_object_set_new(o, "rounds", r) : 0;
fail:
	json_decref(v);
	json_decref(r);
	return -1;
}

static int fill_samples(json_t *o, const struct nsb_series *s)
{
	struct nsb_summary sum;

	if (!s->n) {
		set_str(o, "status", s->errors ? "error" : "skip");
		json_object_set_new(o, "n", json_integer(0));
		set_str(o, "why", s->why ? s->why : "no samples");
		return 0;
	}
	if (nsb_summarize(s->v, s->n, &sum))
		return -1;
	set_str(o, "status", "ok");
	json_object_set_new(o, "n", json_integer((json_int_t)s->n));
	json_object_set_new(o, "median", json_real(sum.median));
	json_object_set_new(o, "ci_lo", json_real(sum.ci_lo));
	json_object_set_new(o, "ci_hi", json_real(sum.ci_hi));
	json_object_set_new(o, "ci_level", json_real(sum.ci_level));
	return add_samples(o, s);
}

/* Why a run ended early, or NULL if it finished (results/README.md). */
static const char *incomplete(const struct nsb_side *side)
{
	size_t i;

	for (i = 0; i < side->nfiles; i++) {
		const char *c = nsb_json_str(side->ctx[i], "nsbench_complete");

		if (c && !strcmp(c, "false"))
			return nsb_json_str(side->ctx[i], "nsbench_end_reason") ?:
			       "incomplete";
	}
	return NULL;
}

static json_t *one_record(const struct nsb_side *side,
			  const struct nsb_series *s, const char *run,
			  const char *stamp, json_t *files)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	set_str(o, "type", "result");
	set_str(o, "run", run);
	set_str(o, "benchmark", s->name);
	if (fill_samples(o, s)) {
		json_decref(o);
		return NULL;
	}
	set_str(o, "unit", side->unit);
	set_str(o, "metric", side->metric);
	set_str(o, "mode", nsb_side_ctx(side, "nsbench_mode"));
	set_str(o, "timestamp", stamp);
	set_str(o, "kernel_release", nsb_side_ctx(side, "kernel_release"));
	set_str(o, "kernel_commit", nsb_side_ctx(side, "kernel_commit"));
	set_str(o, "series", nsb_side_ctx(side, "patch_series"));
	set_str(o, "config_hash", nsb_side_ctx(side, "kernel_config_hash"));
	set_str(o, "nsbench_version", nsb_side_ctx(side, "nsbench_version"));
	set_str(o, "host", nsb_side_ctx(side, "host_name"));
	set_str(o, "end_reason", incomplete(side));
	json_object_set(o, "files", files);
	return o;
}

/*
 * The cache model's quantities a history follows (results of boots with
 * the plugin, NSB_CACHESIM=1): per benchmark, the operation with the
 * check on as the kernel runs it, each a series of its own named
 * BENCHMARK@KEY, in the model's unit.  Four of the model's ten: the
 * misses that a walk's lines show cold and what they add up to.
 */
static const enum nsb_cost_cs history_cs[] = {
	NSB_COST_CS_D1_COLD, NSB_COST_CS_LL_COLD, NSB_COST_CS_CYCLES,
	NSB_COST_CS_CYCLES_COLD,
};

/* Does the results file carry the cache model's counters? */
static bool has_cachesim(const char *path)
{
	json_t *root = nsb_json_load(path);
	bool yes = nsb_json_str(json_object_get(root, "context"),
				"nsbench_cachesim") != NULL;

	json_decref(root);
	return yes;
}

/* Series s renamed BENCHMARK@KEY; -1 out of memory. */
static int rename_series(struct nsb_series *s, const char *key)
{
	char *name;

	if (asprintf(&name, "%s@%s", s->name, key) < 0)
		return -1;
	free(s->name);
	s->name = name;
	return 0;
}

/* Quantity m's records of files (each with the model), into arr. */
static int cache_quantity(json_t *arr, const struct nsb_cost_cs_metric *m,
			  char **files, size_t nfiles, const char *run,
			  const char *stamp, json_t *paths)
{
	struct nsb_side cs;
	struct nsb_hrec r;
	size_t i;
	json_t *o;
	int ret = -1;

	nsb_side_init(&cs, "cache model");
	cs.metric = m->on;
	cs.zero_ok = cs.optional = true;
	for (i = 0; i < nfiles; i++)
		if (nsb_side_load(&cs, files[i]))
			goto out;
	cs.unit = m->unit;
	for (i = 0; i < cs.n; i++) {
		if (!cs.s[i].n)
			continue;
		if (rename_series(&cs.s[i], m->key))
			goto out;
		o = one_record(&cs, &cs.s[i], run, stamp, paths);
		if (!o || json_array_append_new(arr, o))
			goto out;
		/* never write a line the reader would skip */
		if (nsb_hrec_parse(o, &r))
			goto out;
	}
	ret = 0;
out:
	nsb_side_free(&cs);
	return ret;
}

/*
 * The cache quantities' records of the files that have the model, into
 * arr: each file asked once, not once per quantity.
 */
static int cache_records(json_t *arr, char **files, size_t nfiles,
			 const char *run, const char *stamp, json_t *paths)
{
	char **with = malloc((nfiles + 1) * sizeof(*with));
	size_t q, i, n = 0;
	int ret = -1;

	if (!with)
		return -1;
	for (i = 0; i < nfiles; i++)
		if (has_cachesim(files[i]))
			with[n++] = files[i];
	for (q = 0; q < NSB_ARRAY_SIZE(history_cs); q++)
		if (n && cache_quantity(arr, &nsb_cost_cs[history_cs[q]], with,
					n, run, stamp, paths))
			goto out;
	ret = 0;
out:
	free(with);
	return ret;
}

json_t *nsb_history_records(char **files, size_t nfiles, const char *run_id)
{
	struct nsb_side side;
	char stamp[32], *run = NULL;
	json_t *arr = NULL, *o, *paths = json_array();
	const char *bad;
	struct nsb_hrec r;
	size_t i;

	nsb_side_init(&side, "run");
	for (i = 0; i < nfiles; i++)
		if (nsb_side_load(&side, files[i]))
			goto out;
	run = run_id ? strdup(run_id) : nsb_history_run_id(files[0]);
	arr = json_array();
	if (!run || !arr || !paths)
		goto fail;
	for (i = 0; i < nfiles; i++)
		if (json_array_append_new(paths, json_string(files[i])))
			goto fail;
	nsb_history_utc(nsb_side_ctx(&side, "date"), stamp, sizeof(stamp));
	for (i = 0; i < side.n; i++) {
		o = one_record(&side, &side.s[i], run, stamp, paths);
		if (!o || json_array_append_new(arr, o))
			goto fail;
		/* never write a line the reader would skip */
		bad = nsb_hrec_parse(o, &r);
		if (bad) {
			fprintf(stderr, "nsbench: %s: benchmark '%s': its "
				"history record would not read back (\"%s\")\n",
				side.s[i].file, side.s[i].name, bad);
			goto fail;
		}
	}
	if (cache_records(arr, files, nfiles, run, stamp, paths))
		goto fail;
	goto out;
fail:
	json_decref(arr);
	arr = NULL;
out:
	free(run);
	json_decref(paths);
	nsb_side_free(&side);
	return arr;
}

json_t *nsb_history_accept_record(const char *run, const char *note)
{
	char stamp[32];

	nsb_history_utc(NULL, stamp, sizeof(stamp));
	return json_pack("{s:s, s:s, s:s, s:s}", "type", "accept", "run", run,
			 "timestamp", stamp, "note", note ? note : "");
}

/* --- appending -------------------------------------------------------- */

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* One line per object, compact; the whole run in one buffer. */
static char *lines_of(json_t *arr, size_t *len)
{
	char *text = NULL, *line;
	size_t i, n = 0;
	FILE *f = open_memstream(&text, &n);
	json_t *o;

	if (!f)
		return NULL;
	json_array_foreach(arr, i, o) {
		line = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
		if (!line) {
			fclose(f);
			free(text);
			return NULL;
		}
		fprintf(f, "%s\n", line);
		free(line);
	}
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	*len = n;
	return text;
}

/* Does the file end in the middle of a line (a crash mid-write)? */
static bool ends_mid_line(int fd)
{
	struct stat st;
	char c;

	return !fstat(fd, &st) && st.st_size > 0 &&
	       pread(fd, &c, 1, st.st_size - 1) == 1 && c != '\n';
}

/*
 * The history, opened to append.  A symbolic link is followed only if it
 * is the caller's own: one planted by another user (in /tmp, say) must
 * not make a root CI job append to a file of the attacker's choosing.
 * O_NONBLOCK: a FIFO must not block the open; it is refused after it.
 * Returns the fd, or -1 after printing why.
 */
static int open_to_append(const char *path, size_t len)
{
	int flags = O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY |
		    O_NONBLOCK;
	int fd = open(path, flags | O_NOFOLLOW, 0644);
	struct stat st;

	if (fd < 0 && errno == ELOOP && !lstat(path, &st) &&
	    S_ISLNK(st.st_mode)) {
		if (st.st_uid != geteuid()) {
			fprintf(stderr, "nsbench: %s: a symbolic link of "
				"another user (uid %u): not followed; give the "
				"file it points to\n", path,
				(unsigned int)st.st_uid);
			return -1;
		}
		fd = open(path, flags, 0644);
	}
	if (fd < 0) {
		fprintf(stderr, "nsbench: cannot append to %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		fprintf(stderr, "nsbench: %s: not a regular file\n", path);
		goto fail;
	}
	if ((size_t)st.st_size + len > NSB_HISTORY_MAX) {
		fprintf(stderr, "nsbench: %s: would grow past the limit of %zu "
			"MiB; start a new history\n", path,
			NSB_HISTORY_MAX >> 20);
		goto fail;
	}
	if (!fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK))
		return fd;
	fprintf(stderr, "nsbench: cannot append to %s: %s\n", path,
		strerror(errno));
fail:
	close(fd);
	return -1;
}

/*
 * Why O_APPEND and not a rewrite through nsb_write_file_atomic: two CI
 * jobs sharing a history would each rename a copy made before the other's
 * append, and the last rename would silently drop the other's runs.  With
 * O_APPEND the kernel moves the offset to the end and writes in one step,
 * and the flock() serialises appenders on one host (and on NFS, where
 * flock maps to fcntl locks), so runs never interleave or overwrite; all
 * lines of a run go in one write().  The worst a crash can leave is a
 * truncated last line: the reader reports and skips it, and the next
 * append first ends that line so the new records stay whole.  A write
 * that fails (ENOSPC part-way through a run) is undone: the file is cut
 * back to its length before it, so a run is in the history whole or not
 * at all.  fsync before reporting success, so a CI job that says
 * "appended" has appended.
 */
/*
 * The result records of arr whose run the file already holds, removed
 * from arr; run under the lock.  The caller's own check ran before it,
 * so two appenders of one run both saw it absent and both wrote it (5
 * of 20 tries with 20 at once).  Returns how many were dropped, or -1
 * (no memory).
 */
static long drop_present(const char *path, json_t *arr)
{
	FILE *quiet = fopen("/dev/null", "we");
	struct nsb_history h;
	const char *run;
	char *said = NULL;
	long dropped = 0;
	size_t i;

	if (!quiet)
		return -1;
	/*
	 * Its complaints were made by the caller's load; a file that is
	 * no history (yet) holds no run to drop, and is appended to as
	 * before.
	 */
	if (nsb_history_load(&h, path, quiet)) {
		fclose(quiet);
		nsb_history_free(&h);
		return 0;
	}
	fclose(quiet);
	for (i = json_array_size(arr); i-- > 0;) {
		json_t *o = json_array_get(arr, i);

		run = nsb_json_str(o, "run");
		if (!run || strcmp(nsb_json_str(o, "type") ?: "", "result") ||
		    !nsb_history_has_run(&h, run))
			continue;
		if (!said || strcmp(said, run)) {
			nsb_err("run %s is already in "
				"%s; not appended again\n", run, path);
			free(said);
			said = strdup(run);	/* run goes with its record */
		}
		json_array_remove(arr, i);
		dropped++;
	}
	free(said);
	nsb_history_free(&h);
	return dropped;
}

/* The run's lines after the end of a torn last line, then to the disk. */
static int write_run(int fd, const char *text, size_t len)
{
	if (ends_mid_line(fd) && write_all(fd, "\n", 1))
		return -1;
	return write_all(fd, text, len) || fsync(fd) ? -1 : 0;
}

/*
 * A write that failed part-way (a full disk, a quota, EIO) left some of
 * the run's lines: a later append would find the run there and skip it,
 * and the history would keep the part for good.  Cut the file back to the
 * length it had under the lock; errno stays the write's, for the message.
 */
static void undo_append(int fd, const char *path, off_t len)
{
	int saved = errno;

	if (ftruncate(fd, len) || fsync(fd))
		fprintf(stderr, "nsbench: %s: cannot cut back to %lld bytes "
			"after a failed append (%s): remove the last run's "
			"lines by hand\n", path, (long long)len,
			strerror(errno));
	errno = saved;
}

/*
 * The run's lines onto fd under the lock, all or none.  A fatal signal
 * ends a write to a file between two pages: Ctrl-C, a CI job's SIGTERM
 * or a closed terminal would leave part of the run, so they wait until
 * it is in whole or cut back (SIGKILL and a power cut cannot be made
 * to).  0, or -1 with errno the failed call's.
 */
static int append_whole(int fd, const char *path, const char *text,
			size_t len)
{
	sigset_t stop, old;
	struct stat st;
	int ret = 0, saved;

	if (fstat(fd, &st))
		return -1;
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	sigaddset(&stop, SIGQUIT);
	sigprocmask(SIG_BLOCK, &stop, &old);
	if (write_run(fd, text, len)) {
		undo_append(fd, path, st.st_size);
		ret = -1;
	}
	saved = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = saved;
	return ret;
}

int nsb_history_append(const char *path, json_t *arr)
{
	size_t len = 0;
	char *text = lines_of(arr, &len);
	int fd, ret = -1;
	long dropped;

	if (!text)
		return -1;
	fd = open_to_append(path, len);
	if (fd < 0)
		goto out;
	if (flock(fd, LOCK_EX))
		goto close;
	dropped = drop_present(path, arr);
	if (dropped < 0)
		goto close;
	if (dropped) {
		free(text);
		text = lines_of(arr, &len);
		if (!text)
			goto close;
	}
	if (!len) {
		ret = 0;
		goto close;
	}
	if (append_whole(fd, path, text, len))
		goto close;
	ret = 0;
close:
	if (ret)
		fprintf(stderr, "nsbench: cannot append to %s: %s\n", path,
			strerror(errno));
	close(fd);	/* drops the lock */
out:
	free(text);
	return ret;
}

/* The CI knows the commit it built; a guest's results may not. */
static void set_commit(json_t *recs, const char *commit)
{
	json_t *r;
	size_t i;

	if (!commit)
		return;
	json_array_foreach(recs, i, r)
		if (!json_object_get(r, "kernel_commit"))
			json_object_set_new(r, "kernel_commit",
					    json_string(commit));
}

int nsb_history_run_records(const struct nsb_history *h, char **files,
			    size_t n, const struct nsb_run_add *add,
			    json_t *all)
{
	char *run = add->run_id ? strdup(add->run_id) :
		    nsb_history_run_id(files[0]);
	const char *reason;
	json_t *recs;
	int ret = -1;

	if (!run)
		return -1;
	if (nsb_history_has_run(h, run)) {
		nsb_err("run %s is already in %s; "
			"not appended again\n", run, h->path);
		ret = 0;
		goto out;
	}
	recs = nsb_history_records(files, n, run);
	if (!recs)
		goto out;
	/* an interrupted run would read as a change point later */
	reason = nsb_json_str(json_array_get(recs, 0), "end_reason");
	if (reason && !add->incomplete) {
		nsb_err("run %s ended early (%s); not "
			"appended (--allow-incomplete to keep it)\n", run,
			reason);
		json_decref(recs);
		ret = 0;
		goto out;
	}
	set_commit(recs, add->commit);
	ret = json_array_extend(all, recs);
	json_decref(recs);
out:
	free(run);
	return ret;
}
