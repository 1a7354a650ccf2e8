// SPDX-License-Identifier: GPL-2.0
/*
 * samples.c — load benchmark samples from Google Benchmark / nsbench and
 * hyperfine JSON (see samples.h).  Every refusal names the file and the
 * field, because a silently wrong number is worse than no number.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/base/mem.h"
#include "src/lib/base/nsbench.h"
#include "src/lib/base/strbuf.h"
#include "src/lib/io/samples.h"

const char *nsb_json_type_name(const json_t *j)
{
	/* an absent field: json_object_get's NULL (json_typeof reads it) */
	if (!j)
		return "nothing";
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
	side->metric = "real_time";
}

struct nsb_series *nsb_side_find(const struct nsb_side *side,
				 const char *name)
{
	json_t *at = json_object_get(side->index, name);

	/* null: a name held by several steps, found by its qualified names */
	return json_is_integer(at) ? &side->s[json_integer_value(at)] : NULL;
}

int nsb_side_reindex(struct nsb_side *side)
{
	size_t i;

	json_object_clear(side->index);
	if (!side->index)
		side->index = json_object();
	for (i = 0; side->index && i < side->n; i++)
		if (json_object_set_new(side->index, side->s[i].name,
					json_integer((json_int_t)i)))
			return -ENOMEM;
	return side->index ? 0 : -ENOMEM;
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

static bool same_step(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

/* "name [step]": one step's series of a name that several steps hold. */
static char *qualified(const char *name, const char *step)
{
	struct nsb_sb q = NSB_SB_INIT;

	nsb_sb_addf(&q, "%s [%s]", name, step && *step ? step : "unlabelled");
	return q.oom ? NULL : q.buf;
}

/* A new series named name (taken over: freed if none is made). */
static struct nsb_series *series_new(struct nsb_side *side, char *name,
				     const char *step, const char *file)
{
	struct nsb_series *s;

	if (!name)
		return NULL;
	if (side->n == side->cap) {
		size_t cap = side->cap ? 2 * side->cap : 16;
		struct nsb_series *ns = realloc(side->s, cap * sizeof(*ns));

		if (!ns)
			goto fail;
		side->s = ns;
		side->cap = cap;
	}
	s = &side->s[side->n];
	memset(s, 0, sizeof(*s));
	s->name = name;
	s->step = step ? strdup(step) : NULL;
	s->file = file;
	if ((step && !s->step) ||
	    json_object_set_new(side->index, name,
				json_integer((json_int_t)side->n))) {
		free(s->step);
		goto fail;
	}
	side->n++;
	return s;
fail:
	free(name);
	return NULL;
}

/*
 * The other steps' series of a name are apart: the first holder moves to
 * "name [its step]", and the bare name is marked (null) as held by
 * several, so every later file finds its own step's series.
 */
static int split_steps(struct nsb_side *side, struct nsb_series *s)
{
	char *q = qualified(s->name, s->step);

	if (!q || json_object_set_new(side->index, s->name, json_null()) ||
	    json_object_set_new(side->index, q,
				json_integer((json_int_t)(s - side->s)))) {
		free(q);
		return -ENOMEM;
	}
	free(s->name);
	s->name = q;
	return 0;
}

/*
 * The series of name as measured by step (the file's plan step: label,
 * and LSM where one ran), made if new; a hash, not a walk: 100k names.
 * Files of one step pool by name (rounds, repetitions).  Two steps of one
 * plan can time one benchmark under different switches (checks.plan's
 * exec and exec-walk): pooled, their levels 9,000 insn apart made one
 * series whose CI held both; each step keeps a series of its own.
 */
static struct nsb_series *series_get(struct nsb_side *side, const char *name,
				     const char *step, const char *file)
{
	json_t *at;
	struct nsb_series *s;
	char *q;

	if (!side->index)
		side->index = json_object();
	if (!side->index)
		return NULL;
	at = json_object_get(side->index, name);
	if (json_is_integer(at)) {
		s = &side->s[json_integer_value(at)];
		if (same_step(s->step, step))
			return s;
		if (split_steps(side, s))
			return NULL;
		at = json_null();
	}
	if (!at)
		return series_new(side, strdup(name), step, file);
	q = qualified(name, step);
	s = q ? nsb_side_find(side, q) : NULL;
	if (!s)
		return series_new(side, q, step, file);
	free(q);
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

double nsb_unit_to_ns(const char *unit)
{
	static const struct { const char *name; double f; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};
	size_t i;

	for (i = 0; i < NSB_ARRAY_SIZE(units); i++)
		if (!strcmp(unit, units[i].name))
			return units[i].f;
	return 0;
}

/*
 * What "ns" means in this file.  icount runs measure guest instructions;
 * mixing them with wall-clock times would compare different quantities.
 */
bool nsb_ctx_icount(json_t *ctx)
{
	const char *mode = nsb_json_str(ctx, "nsbench_mode");
	const char *unit = nsb_json_str(ctx, "nsbench_time_unit_meaning");

	return (mode && !strcmp(mode, "icount")) ||
	       (unit && strstr(unit, "instruction"));
}

static int set_unit(struct nsb_side *side, const char *path, json_t *ctx)
{
	bool icount = nsb_ctx_icount(ctx);
	const char *unit = icount ? NSB_UNIT_ICOUNT : NSB_UNIT_WALL;
	if (!side->unit) {
		side->unit = unit;
		side->unit_file = path;
		side->icount = icount;
		return 0;
	}
	if (strcmp(side->unit, unit))
		return nsb_bad(path, "context.nsbench_mode: time unit means "
			   "\"%s\" but %s has \"%s\"; refusing to mix",
			   unit, side->unit_file, side->unit);
	return 0;
}

char *nsb_round_key(json_t *ctx)
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

/*
 * A time of the file, converted to ns by f: positive (zero or less is no
 * time an operation can take), finite and below NSB_TIME_MAX, so sums
 * and squares in the statistics stay finite.  where: "benchmarks[3].
 * real_time"; what: the benchmark, for the message.
 */
static int check_time(const char *path, const char *where, const char *what,
		      json_t *val, double f, double *ns)
{
	double v;

	if (!json_is_number(val))
		return nsb_bad(path, "%s (%s): expected a number, got %s", where,
			   what, nsb_json_type_name(val));
	v = json_number_value(val);
	if (!(v > 0) || !isfinite(v))
		return nsb_bad(path, "%s (%s): must be a positive finite number, "
			   "got %g", where, what, v);
	*ns = v * f;
	if (!(*ns <= NSB_TIME_MAX))
		return nsb_bad(path, "%s (%s): %g is %g ns, more than %g ns "
			   "(31 years): a wrong unit?", where, what, v, *ns,
			   NSB_TIME_MAX);
	return 0;
}

/* An optional member of the given type: 0 if absent or right. */
static int check_type(const char *path, json_t *o, const char *where,
		      size_t i, const char *key, const char *what,
		      json_type want, const char *want_name)
{
	json_t *v = json_object_get(o, key);

	if (!v || json_typeof(v) == want ||
	    (want == JSON_TRUE && json_is_boolean(v)))
		return 0;
	return nsb_bad(path, "%s[%zu].%s (%s): expected %s, got %s", where, i,
		   key, what, want_name, nsb_json_type_name(v));
}

/* The entry's name and run_type, which every entry must have right. */
static int check_entry(const char *path, json_t *b, size_t i,
		       const char **name, const char **run_type)
{
	json_t *n = json_object_get(b, "name");

	if (!json_is_object(b))
		return nsb_bad(path, "benchmarks[%zu]: expected an object, got %s",
			   i, nsb_json_type_name(b));
	if (!n)
		return nsb_bad(path, "benchmarks[%zu]: missing field 'name' "
			   "(string)", i);
	if (!json_is_string(n))
		return nsb_bad(path, "benchmarks[%zu].name: expected a string, got "
			   "%s", i, nsb_json_type_name(n));
	*name = json_string_value(n);
	if (!**name)
		return nsb_bad(path, "benchmarks[%zu].name: empty", i);
	if (check_type(path, b, "benchmarks", i, "run_type", *name,
		       JSON_STRING, "a string") ||
	    check_type(path, b, "benchmarks", i, "error_occurred", *name,
		       JSON_TRUE, "true or false") ||
	    check_type(path, b, "benchmarks", i, "error_message", *name,
		       JSON_STRING, "a string"))
		return -1;
	*run_type = nsb_json_str(b, "run_type");
	if (*run_type && strcmp(*run_type, "aggregate") &&
	    strcmp(*run_type, "iteration"))
		return nsb_bad(path, "benchmarks[%zu].run_type (%s): unknown "
			   "run_type '%s' (want iteration or aggregate)", i,
			   *name, *run_type);
	return 0;
}

/* The entry's unit as a factor to ns. */
static int entry_unit(const char *path, json_t *b, size_t i,
		      const char *name, double *f)
{
	json_t *u = json_object_get(b, "time_unit");

	if (!u)
		return nsb_bad(path, "benchmarks[%zu] (%s): missing field "
			   "'time_unit' (string)", i, name);
	if (!json_is_string(u))
		return nsb_bad(path, "benchmarks[%zu].time_unit (%s): expected a "
			   "string, got %s", i, name, nsb_json_type_name(u));
	*f = nsb_unit_to_ns(json_string_value(u));
	if (!*f)
		return nsb_bad(path, "benchmarks[%zu].time_unit (%s): unknown unit "
			   "'%s' (want ns, us, ms or s)", i, name,
			   json_string_value(u));
	return 0;
}

/*
 * ARR[i].key of path, if present, is a finite number >= 0; who names the
 * entry in the message.  0, or nsb_bad()'s -1.
 */
static int finite_member(const char *path, const char *arr, json_t *o,
			 size_t i, const char *key, const char *who)
{
	json_t *v = json_object_get(o, key);

	if (!v)
		return 0;
	if (!json_is_number(v))
		return nsb_bad(path, "%s[%zu].%s (%s): expected a number, "
			   "got %s", arr, i, key, who, nsb_json_type_name(v));
	if (!(json_number_value(v) >= 0) || !isfinite(json_number_value(v)))
		return nsb_bad(path, "%s[%zu].%s (%s): must be a finite number "
			   ">= 0, got %g", arr, i, key, who,
			   json_number_value(v));
	return 0;
}

/*
 * The other time (cpu_time when the metric is real_time): not a sample,
 * but a negative or non-numeric one says the entry is damaged.
 */
static int check_other_time(const char *path, json_t *b, size_t i,
			    const char *name, const char *metric)
{
	const char *other = strcmp(metric, "cpu_time") ? "cpu_time" :
			    "real_time";

	return finite_member(path, "benchmarks", b, i, other, name);
}

/* Returns 1 for a sample or an error entry, 0 for an aggregate. */
static int load_gbench_entry(struct nsb_side *side, const char *path,
			     json_t *b, size_t i, const char *round,
			     const char *step)
{
	const char *name = NULL, *run_type = NULL, *msg, *metric;
	struct nsb_sb where = NSB_SB_INIT;	/* summary --metric: any name */
	struct nsb_series *s;
	json_t *val;
	double f = 0, ns;
	int ret;

	if (check_entry(path, b, i, &name, &run_type))
		return -1;
	if (run_type && !strcmp(run_type, "aggregate"))
		return 0;	/* recomputed from the samples, never trusted */
	s = series_get(side, name, step, path);
	if (!s)
		return -ENOMEM;
	if (json_is_true(json_object_get(b, "error_occurred"))) {
		msg = nsb_json_str(b, "error_message");
		series_note(s, msg ? msg : "error",
			    msg && !strncmp(msg, "skipped: ", 9));
		return 1;
	}
	metric = side->metric;
	val = json_object_get(b, metric);
	if (!val && side->optional)
		return 0;	/* this entry has no such value: no sample */
	if (!val)
		return nsb_bad(path, "benchmarks[%zu] (%s): missing field '%s'",
			   i, name, metric);
	nsb_sb_addf(&where, "benchmarks[%zu].%s", i, metric);
	if (where.oom)
		ret = -ENOMEM;
	else if (!json_is_number(val))
		ret = check_time(path, where.buf, name, val, 1, &ns);
	else if (side->zero_ok && json_number_value(val) == 0)
		ret = series_add(s, 0, round) ?: 1;
	else if (entry_unit(path, b, i, name, &f) ||
		 check_time(path, where.buf, name, val, f, &ns) ||
		 check_other_time(path, b, i, name, metric))
		ret = -1;
	else
		ret = series_add(s, ns, round) ?: 1;
	nsb_sb_release(&where);
	return ret;
}

/* Context keys nsbench reads: strings, as Google Benchmark writes them. */
static int check_context(const char *path, json_t *ctx)
{
	static const char *const keys[] = {
		"nsbench_mode", "nsbench_time_unit_meaning", "nsbench_round",
		"nsbench_seed", "nsbench_complete", "nsbench_end_reason",
		"nsbench_version", "nsbench_label", "nsbench_tier",
		"nsbench_command", "kernel_release", "kernel_commit",
		"kernel_config_hash", "patch_series", "host_name", "date",
		"executable",
	};
	json_t *v;
	size_t i;

	if (!ctx)
		return 0;
	if (!json_is_object(ctx))
		return nsb_bad(path, "field 'context': expected an object, got %s",
			   nsb_json_type_name(ctx));
	for (i = 0; i < NSB_ARRAY_SIZE(keys); i++) {
		v = json_object_get(ctx, keys[i]);
		if (v && !json_is_string(v))
			return nsb_bad(path, "context.%s: expected a string, got "
				   "%s", keys[i], nsb_json_type_name(v));
	}
	return 0;
}

/* The plan step a file is of: its label, and the LSM where one ran. */
static struct nsb_sb step_of(json_t *ctx)
{
	const char *label = nsb_json_str(ctx, "nsbench_label");
	const char *lsm = nsb_json_str(ctx, "nsbench_lsm");
	struct nsb_sb sb = NSB_SB_INIT;

	if (lsm && strcmp(lsm, "none"))
		nsb_sb_addf(&sb, "%s, %s", label ? label : "", lsm);
	else if (label)
		nsb_sb_addf(&sb, "%s", label);
	return sb;
}

static int load_gbench(struct nsb_side *side, const char *path, json_t *root)
{
	json_t *ctx = json_object_get(root, "context");
	json_t *arr = json_object_get(root, "benchmarks");
	struct nsb_sb step;
	const char *complete;
	char *round = NULL;
	size_t i, used = 0;
	int ret = 0;

	if (!json_is_array(arr))
		return nsb_bad(path, "field 'benchmarks': expected an array, got %s",
			   arr ? nsb_json_type_name(arr) : "nothing");
	if (check_context(path, ctx))
		return -1;
	if (!json_array_size(arr))
		return nsb_bad(path, "no benchmarks in 'benchmarks'");
	if (set_unit(side, path, ctx))
		return -1;
	complete = nsb_json_str(ctx, "nsbench_complete");
	if (complete && !strcmp(complete, "false"))
		fprintf(stderr, "nsbench: warning: %s: incomplete run (%s)\n",
			path, nsb_json_str(ctx, "nsbench_end_reason") ?: "?");
	step = step_of(ctx);
	if (step.oom) {
		nsb_sb_release(&step);
		return -ENOMEM;
	}
	round = nsb_round_key(ctx);
	for (i = 0; i < json_array_size(arr) && ret >= 0; i++) {
		ret = load_gbench_entry(side, path, json_array_get(arr, i), i,
					round, step.buf);
		used += ret > 0;
	}
	free(round);
	nsb_sb_release(&step);
	if (ret >= 0 && !used && !side->optional)
		return nsb_bad(path, "no samples: all %zu entries are aggregates "
			   "(run_type \"aggregate\"); nsbench needs the "
			   "repetitions themselves", json_array_size(arr));
	return ret < 0 ? ret : 0;
}

/* results[i].key, if present, is a finite number >= 0 (seconds). */
static int hf_seconds(const char *path, json_t *r, size_t i, const char *key,
		      const char *cmd)
{
	return finite_member(path, "results", r, i, key, cmd);
}

static int hf_times(const char *path, json_t *r, size_t i, const char *cmd)
{
	json_t *times = json_object_get(r, "times"), *t;
	char where[64];
	size_t j;
	double ns;

	if (!json_is_array(times))
		return nsb_bad(path, "results[%zu].times (%s): expected an array of "
			   "seconds, got %s (hyperfine >= 1.10 exports it)", i,
			   cmd, times ? nsb_json_type_name(times) : "nothing");
	if (!json_array_size(times))
		return nsb_bad(path, "results[%zu].times (%s): no runs", i, cmd);
	json_array_foreach(times, j, t) {
		snprintf(where, sizeof(where), "results[%zu].times[%zu]", i, j);
		if (check_time(path, where, cmd, t, 1e9, &ns))
			return -1;
	}
	return 0;
}

static int hf_exit_codes(const char *path, json_t *r, size_t i,
			 const char *cmd)
{
	json_t *codes = json_object_get(r, "exit_codes"), *c;
	size_t j, n = json_array_size(json_object_get(r, "times"));

	if (!codes)
		return 0;
	if (!json_is_array(codes))
		return nsb_bad(path, "results[%zu].exit_codes (%s): expected an "
			   "array, got %s", i, cmd, nsb_json_type_name(codes));
	if (json_array_size(codes) != n)
		return nsb_bad(path, "results[%zu].exit_codes (%s): %zu exit codes "
			   "for %zu runs", i, cmd, json_array_size(codes), n);
	json_array_foreach(codes, j, c)
		if (!json_is_integer(c) && !json_is_null(c))
			return nsb_bad(path, "results[%zu].exit_codes[%zu] (%s): "
				   "expected an integer or null, got %s", i, j,
				   cmd, nsb_json_type_name(c));
	return 0;
}

int nsb_hyperfine_check(const char *path, json_t *r, size_t i)
{
	json_t *cmd = json_object_get(r, "command"), *params, *v;
	const char *c, *key;

	if (!json_is_object(r))
		return nsb_bad(path, "results[%zu]: expected an object, got %s", i,
			   nsb_json_type_name(r));
	if (!json_is_string(cmd))
		return nsb_bad(path, "results[%zu].command: expected a string, got "
			   "%s", i, cmd ? nsb_json_type_name(cmd) : "nothing");
	c = json_string_value(cmd);
	if (!*c)
		return nsb_bad(path, "results[%zu].command: empty", i);
	if (hf_times(path, r, i, c) || hf_exit_codes(path, r, i, c) ||
	    hf_seconds(path, r, i, "user", c) ||
	    hf_seconds(path, r, i, "system", c))
		return -1;
	params = json_object_get(r, "parameters");
	if (params && !json_is_object(params))
		return nsb_bad(path, "results[%zu].parameters (%s): expected an "
			   "object, got %s", i, c, nsb_json_type_name(params));
	json_object_foreach(params, key, v)
		if (!json_is_string(v))
			return nsb_bad(path, "results[%zu].parameters.%s (%s): "
				   "expected a string, got %s", i, key, c,
				   nsb_json_type_name(v));
	return 0;
}

int nsb_hyperfine_results(const char *path, json_t *root, json_t **results)
{
	json_t *arr = json_object_get(root, "results");

	*results = arr;
	if (!json_is_array(arr))
		return nsb_bad(path, "field 'results': expected an array, got %s",
			   arr ? nsb_json_type_name(arr) : "nothing");
	if (!json_array_size(arr))
		return nsb_bad(path, "no results in hyperfine 'results'");
	return 0;
}

bool nsb_hyperfine_failed(json_t *r, char *why, size_t len)
{
	json_t *codes = json_object_get(r, "exit_codes"), *c;
	size_t j, failed = 0, skips = 0, n = json_array_size(codes);

	/* null: killed by a signal */
	json_array_foreach(codes, j, c) {
		failed += !json_is_integer(c) || json_integer_value(c) != 0;
		skips += json_is_integer(c) && json_integer_value(c) == 3;
	}
	if (!failed)
		return false;
	if (skips == n)
		snprintf(why, len, "skipped: the workload exited 3 (scenario "
			 "refused) in all %zu runs", n);
	else
		snprintf(why, len, "the workload failed (exit status != 0) in "
			 "%zu of %zu runs", failed, n);
	return true;
}

/* hyperfine --export-json: {"results": [{"command", "times": [s...]}]} */
static int load_hyperfine(struct nsb_side *side, const char *path,
			  json_t *root)
{
	json_t *arr, *r, *t;
	char why[160];
	size_t i, j;

	if (nsb_hyperfine_results(path, root, &arr) ||
	    set_unit(side, path, NULL))
		return -1;
	json_array_foreach(arr, i, r) {
		struct nsb_series *s;

		if (nsb_hyperfine_check(path, r, i))
			return -1;
		s = series_get(side, nsb_json_str(r, "command"), NULL, path);
		if (!s)
			return -ENOMEM;
		/* as import-hyperfine: no failed run's time is a sample */
		if (nsb_hyperfine_failed(r, why, sizeof(why))) {
			series_note(s, why, !strncmp(why, "skipped: ", 9));
			continue;
		}
		json_array_foreach(json_object_get(r, "times"), j, t)
			if (series_add(s, json_number_value(t) * 1e9, NULL))
				return -ENOMEM;
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
	size_t len = strlen(path);
	json_t *root;
	int ret;

	/* nsbench-bench's FILE.XXXXXX.partial: left by a killed run */
	if (len >= 8 && !strcmp(path + len - 8, ".partial")) {
		fprintf(stderr, "%s: an interrupted run's unfinished output "
			"(killed?), not a results file\n", path);
		return -1;
	}
	root = nsb_json_load(path);	/* a regular file under the cap */
	if (!root)
		return -1;
	if (!json_is_object(root)) {
		ret = nsb_bad(path, "expected a JSON object, got %s",
			  nsb_json_type_name(root));
	} else if (json_object_get(root, "benchmarks")) {
		ret = load_gbench(side, path, root);
	} else if (json_object_get(root, "results")) {
		ret = load_hyperfine(side, path, root);
	} else {
		ret = nsb_bad(path, "neither Google Benchmark ('benchmarks') nor "
			  "hyperfine ('results') JSON");
	}
	if (!ret)
		ret = add_file(side, path, json_object_get(root, "context"));
	if (ret == -ENOMEM)
		nsb_bad(path, "out of memory");
	json_decref(root);
	return ret ? -1 : 0;
}

void nsb_series_free(struct nsb_series *s)
{
	nsb_free_each(s->round, s->n, sizeof(*s->round), 0);
	free(s->v);
	free(s->name);
	free(s->step);
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
	json_decref(side->index);
	nsb_side_init(side, side->label);
}
