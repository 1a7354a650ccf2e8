// SPDX-License-Identifier: GPL-2.0
/*
 * samples.c — load benchmark samples from Google Benchmark / nsbench and
 * hyperfine JSON (see samples.h).  Every refusal names the file and the
 * field, because a silently wrong number is worse than no number.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "src/nsbench.h"
#include "src/samples.h"

const char *nsb_metric = "real_time";

static int __attribute__((format(printf, 2, 3)))
bad(const char *path, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "nsbench: %s: ", path);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

static const char *json_type_name(const json_t *j)
{
	switch (json_typeof(j)) {
	case JSON_OBJECT:	return "an object";
	case JSON_ARRAY:	return "an array";
	case JSON_STRING:	return "a string";
	case JSON_INTEGER:
	case JSON_REAL:		return "a number";
	case JSON_TRUE:
	case JSON_FALSE:	return "a boolean";
	default:		return "null";
	}
}

void nsb_side_init(struct nsb_side *side, const char *label)
{
	memset(side, 0, sizeof(*side));
	side->label = label;
}

struct nsb_series *nsb_side_find(const struct nsb_side *side,
				 const char *name)
{
	size_t i;

	for (i = 0; i < side->n; i++)
		if (!strcmp(side->s[i].name, name))
			return &side->s[i];
	return NULL;
}

const char *nsb_side_ctx(const struct nsb_side *side, const char *key)
{
	size_t i;

	for (i = 0; i < side->nfiles; i++) {
		const char *v = nsb_json_str(side->ctx[i], key);

		if (v)
			return v;
	}
	return NULL;
}

static struct nsb_series *series_get(struct nsb_side *side, const char *name,
				     const char *file)
{
	struct nsb_series *s = nsb_side_find(side, name);

	if (s)
		return s;
	if (side->n == side->cap) {
		size_t cap = side->cap ? 2 * side->cap : 16;
		struct nsb_series *ns = realloc(side->s, cap * sizeof(*ns));

		if (!ns)
			return NULL;
		side->s = ns;
		side->cap = cap;
	}
	s = &side->s[side->n];
	memset(s, 0, sizeof(*s));
	s->name = strdup(name);
	s->file = file;
	if (!s->name)
		return NULL;
	side->n++;
	return s;
}

static int series_add(struct nsb_series *s, double v, const char *round)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 8;
		double *nv = realloc(s->v, cap * sizeof(*nv));
		char **nr;

		if (!nv)
			return -ENOMEM;
		s->v = nv;
		nr = realloc(s->round, cap * sizeof(*nr));
		if (!nr)
			return -ENOMEM;
		s->round = nr;
		s->cap = cap;
	}
	s->round[s->n] = round ? strdup(round) : NULL;
	if (round && !s->round[s->n])
		return -ENOMEM;
	s->v[s->n++] = v;
	return 0;
}

static void series_note(struct nsb_series *s, const char *msg, bool skip)
{
	if (skip)
		s->skipped++;
	else
		s->errors++;
	if (!s->why && msg)
		s->why = strdup(msg);
}

/* Factor from a Google Benchmark time_unit to ns; 0 if unknown. */
static double unit_to_ns(const char *unit)
{
	static const struct { const char *name; double f; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(unit, units[i].name))
			return units[i].f;
	return 0;
}

/*
 * What "ns" means in this file.  icount runs measure guest instructions;
 * mixing them with wall-clock times would compare different quantities.
 */
static int set_unit(struct nsb_side *side, const char *path, json_t *ctx)
{
	const char *mode = nsb_json_str(ctx, "nsbench_mode");
	const char *unit = nsb_json_str(ctx, "nsbench_time_unit_meaning");
	bool icount = (mode && !strcmp(mode, "icount")) ||
		      (unit && strstr(unit, "instruction"));

	unit = icount ? NSB_UNIT_ICOUNT : NSB_UNIT_WALL;
	if (!side->unit) {
		side->unit = unit;
		side->unit_file = path;
		side->icount = icount;
		return 0;
	}
	if (strcmp(side->unit, unit))
		return bad(path, "context.nsbench_mode: time unit means "
			   "\"%s\" but %s has \"%s\"; refusing to mix",
			   unit, side->unit_file, side->unit);
	return 0;
}

static char *round_key(json_t *ctx)
{
	const char *round = nsb_json_str(ctx, "nsbench_round");
	const char *seed = nsb_json_str(ctx, "nsbench_seed");
	char *key;

	if (!round)
		return NULL;
	if (asprintf(&key, "%s/%s", round, seed ? seed : "-") < 0)
		return NULL;
	return key;
}

static int load_gbench_entry(struct nsb_side *side, const char *path,
			     json_t *b, size_t i, const char *round)
{
	const char *name, *run_type, *unit, *msg, *metric;
	json_t *val, *err;
	struct nsb_series *s;
	double f;

	name = nsb_json_str(b, "name");
	if (!json_is_object(b))
		return bad(path, "benchmarks[%zu]: expected an object, got %s",
			   i, json_type_name(b));
	if (!name)
		return bad(path, "benchmarks[%zu]: missing field 'name' "
			   "(string)", i);
	run_type = nsb_json_str(b, "run_type");
	if (run_type && !strcmp(run_type, "aggregate"))
		return 0;	/* recomputed from the samples, never trusted */
	if (run_type && strcmp(run_type, "iteration"))
		return bad(path, "benchmarks[%zu] (%s): unknown run_type '%s'",
			   i, name, run_type);
	s = series_get(side, name, path);
	if (!s)
		return -ENOMEM;

	err = json_object_get(b, "error_occurred");
	if (json_is_true(err)) {
		msg = nsb_json_str(b, "error_message");
		series_note(s, msg ? msg : "error",
			    msg && !strncmp(msg, "skipped: ", 9));
		return 0;
	}
	metric = side->metric ? side->metric : nsb_metric;
	val = json_object_get(b, metric);
	if (!val)
		return bad(path, "benchmarks[%zu] (%s): missing field '%s'",
			   i, name, metric);
	if (!json_is_number(val))
		return bad(path, "benchmarks[%zu].%s (%s): expected a number, "
			   "got %s", i, metric, name, json_type_name(val));
	unit = nsb_json_str(b, "time_unit");
	if (!unit)
		return bad(path, "benchmarks[%zu] (%s): missing field "
			   "'time_unit' (string)", i, name);
	f = unit_to_ns(unit);
	if (!f)
		return bad(path, "benchmarks[%zu].time_unit (%s): unknown unit "
			   "'%s' (want ns, us, ms or s)", i, name, unit);
	return series_add(s, json_number_value(val) * f, round);
}

static int load_gbench(struct nsb_side *side, const char *path, json_t *root)
{
	json_t *ctx = json_object_get(root, "context");
	json_t *arr = json_object_get(root, "benchmarks");
	const char *complete;
	char *round = NULL;
	size_t i;
	int ret = 0;

	if (!json_is_array(arr))
		return bad(path, "field 'benchmarks': expected an array, got %s",
			   arr ? json_type_name(arr) : "nothing");
	if (ctx && !json_is_object(ctx))
		return bad(path, "field 'context': expected an object, got %s",
			   json_type_name(ctx));
	if (!json_array_size(arr))
		return bad(path, "no benchmarks in 'benchmarks'");
	if (set_unit(side, path, ctx))
		return -1;
	complete = nsb_json_str(ctx, "nsbench_complete");
	if (complete && !strcmp(complete, "false"))
		fprintf(stderr, "nsbench: warning: %s: incomplete run (%s)\n",
			path, nsb_json_str(ctx, "nsbench_end_reason") ?: "?");
	round = round_key(ctx);
	for (i = 0; i < json_array_size(arr) && !ret; i++)
		ret = load_gbench_entry(side, path, json_array_get(arr, i), i,
					round);
	free(round);
	return ret;
}

/* hyperfine --export-json: {"results": [{"command", "times": [s...]}]} */
static int load_hyperfine(struct nsb_side *side, const char *path,
			  json_t *root)
{
	json_t *arr = json_object_get(root, "results"), *r, *times, *t;
	size_t i, j;

	if (!json_array_size(arr))
		return bad(path, "no results in hyperfine 'results'");
	if (set_unit(side, path, NULL))
		return -1;
	json_array_foreach(arr, i, r) {
		const char *cmd = nsb_json_str(r, "command");
		struct nsb_series *s;

		if (!cmd)
			return bad(path, "results[%zu]: missing field "
				   "'command' (string)", i);
		times = json_object_get(r, "times");
		if (!json_is_array(times))
			return bad(path, "results[%zu] (%s): missing field "
				   "'times' (array of seconds)", i, cmd);
		s = series_get(side, cmd, path);
		if (!s)
			return -ENOMEM;
		json_array_foreach(times, j, t) {
			if (!json_is_number(t))
				return bad(path, "results[%zu].times[%zu]: "
					   "expected a number, got %s", i, j,
					   json_type_name(t));
			if (series_add(s, json_number_value(t) * 1e9, NULL))
				return -ENOMEM;
		}
	}
	return 0;
}

static int add_file(struct nsb_side *side, const char *path, json_t *ctx)
{
	const char **f = realloc(side->files,
				 (side->nfiles + 1) * sizeof(*f));
	json_t **c;

	if (!f)
		return -ENOMEM;
	side->files = f;
	c = realloc(side->ctx, (side->nfiles + 1) * sizeof(*c));
	if (!c)
		return -ENOMEM;
	side->ctx = c;
	side->files[side->nfiles] = path;
	side->ctx[side->nfiles++] = json_incref(ctx);
	return 0;
}

int nsb_side_load(struct nsb_side *side, const char *path)
{
	struct stat st;
	json_t *root;
	int ret;

	if (stat(path, &st))
		return bad(path, "%s", strerror(errno));
	if (!st.st_size)
		return bad(path, "empty file (an interrupted run?)");
	root = nsb_json_load(path);
	if (!root)
		return -1;
	if (!json_is_object(root)) {
		ret = bad(path, "expected a JSON object, got %s",
			  json_type_name(root));
	} else if (json_object_get(root, "benchmarks")) {
		ret = load_gbench(side, path, root);
	} else if (json_object_get(root, "results")) {
		ret = load_hyperfine(side, path, root);
	} else {
		ret = bad(path, "neither Google Benchmark ('benchmarks') nor "
			  "hyperfine ('results') JSON");
	}
	if (!ret)
		ret = add_file(side, path, json_object_get(root, "context"));
	if (ret == -ENOMEM)
		bad(path, "out of memory");
	json_decref(root);
	return ret ? -1 : 0;
}

void nsb_series_free(struct nsb_series *s)
{
	size_t j;

	for (j = 0; j < s->n; j++)
		free(s->round[j]);
	free(s->round);
	free(s->v);
	free(s->name);
	free(s->why);
	memset(s, 0, sizeof(*s));
}

void nsb_side_free(struct nsb_side *side)
{
	size_t i;

	for (i = 0; i < side->n; i++)
		nsb_series_free(&side->s[i]);
	for (i = 0; i < side->nfiles; i++)
		json_decref(side->ctx[i]);
	free(side->ctx);
	free(side->files);
	free(side->s);
	nsb_side_init(side, side->label);
}
