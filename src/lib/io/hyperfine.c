// SPDX-License-Identifier: GPL-2.0
/*
 * hyperfine.c — hyperfine's --export-json output as an nsbench results
 * file (hyperfine.h).
 *
 * Each hyperfine run becomes one "iteration" entry (iterations 1,
 * repetition_index = run number, real_time in ns).  hyperfine records CPU
 * time only as a mean over runs, so every entry's cpu_time is that mean;
 * the context says so.  Names: <prefix>/<command or --command-name>
 * followed by /<param>:<value> for each -L/-P parameter the name does not
 * already hold, e.g. "wl/exec/suid/init/depth:8".
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "src/lib/io/hyperfine.h"
#include "src/lib/base/nsbench.h"
#include "src/lib/base/strbuf.h"
#include "src/lib/io/samples.h"

static json_t *context_obj;

static void add_context(const char *key, const char *value)
{
	json_object_set_new(context_obj, key, json_string(value));
}

/* The keys Google Benchmark itself puts into every context. */
static void add_host_and_date(void)
{
	char host[256] = "unknown", date[64];
	time_t now = time(NULL);
	struct tm tm;

	gethostname(host, sizeof(host) - 1);
	localtime_r(&now, &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S%z", &tm);
	add_context("host_name", host);
	add_context("date", date);
}

/* prefix/command (blanks as '_')[/param:value...]; malloc'd. */
static char *entry_name(const char *prefix, const char *command,
			json_t *params)
{
	size_t cap = strlen(prefix) + strlen(command) + 2, len;
	const char *key;
	json_t *val;
	char *name, *p;

	json_object_foreach(params, key, val)
		cap += strlen(key) + strlen(json_string_value(val) ?: "") + 2;
	name = malloc(cap + 1);
	if (!name)
		return NULL;
	len = sprintf(name, "%s/", prefix);
	for (p = (char *)command; *p; p++)
		if (!isspace((unsigned char)*p) || (len && name[len - 1] != '_'))
			name[len++] = isspace((unsigned char)*p) ? '_' : *p;
	name[len] = 0;
	json_object_foreach(params, key, val) {
		/* whole: a value cut at a fixed size named another entry */
		struct nsb_sb kv = NSB_SB_INIT;

		/* Already in a --command-name such as "exec/depth:{depth}". */
		nsb_sb_addf(&kv, "%s:%s", key, json_string_value(val) ?: "");
		if (kv.oom) {
			nsb_sb_release(&kv);
			free(name);
			return NULL;
		}
		if (!strstr(command, kv.buf))
			len += sprintf(name + len, "/%s", kv.buf);
		nsb_sb_release(&kv);
	}
	return name;
}

/*
 * hyperfine -i keeps going when a command fails; such a result is one
 * error entry, a skip when every run exited 3 (nsb-wl's "the kernel
 * refuses this scenario"), so no failed run's time becomes a sample.
 * Said on stderr too: the exit status is 0, but nothing is hidden.
 */
static bool failed_runs(const char *in, json_t *r, const char *name,
			size_t i, json_t *benchmarks)
{
	char msg[160];

	if (!nsb_hyperfine_failed(r, msg, sizeof(msg)))
		return false;
	fprintf(stderr, "nsbench: %s: results[%zu] (%s): %s; imported as "
		"%s, without samples\n", in, i, nsb_json_str(r, "command"),
		msg, strncmp(msg, "skipped: ", 9) ? "an error" : "a skip");
	json_array_append_new(benchmarks, json_pack(
		"{s:s, s:i, s:i, s:s, s:s, s:i, s:i, s:i, s:i, s:f, s:f, s:s,"
		" s:b, s:s}",
		"name", name, "family_index", (json_int_t)i,
		"per_family_instance_index", 0, "run_name", name,
		"run_type", "iteration", "repetitions", 1,
		"repetition_index", 0, "threads", 1, "iterations", 0,
		"real_time", 0.0, "cpu_time", 0.0, "time_unit", "ns",
		"error_occurred", 1, "error_message", msg));
	return true;
}

/* Appends one entry per run of result r (index i, checked). */
static int import_result(const char *in, const char *prefix, json_t *r,
			 size_t i, json_t *benchmarks)
{
	const char *command = nsb_json_str(r, "command");
	json_t *times = json_object_get(r, "times");
	json_t *params = json_object_get(r, "parameters");
	double user = json_number_value(json_object_get(r, "user"));
	double sys = json_number_value(json_object_get(r, "system"));
	size_t j, n;
	char *name;

	name = entry_name(prefix, command, params);
	if (!name)
		return -1;
	if (failed_runs(in, r, name, i, benchmarks)) {
		free(name);
		return 0;
	}
	n = json_array_size(times);
	for (j = 0; j < n; j++) {
		json_t *e = json_pack("{s:s, s:i, s:i, s:s, s:s, s:i, s:i, s:i,"
				      " s:i, s:f, s:f, s:s}",
				      "name", name, "family_index",
				      (json_int_t)i,
				      "per_family_instance_index", 0,
				      "run_name", name, "run_type", "iteration",
				      "repetitions", (json_int_t)n,
				      "repetition_index", (json_int_t)j,
				      "threads", 1, "iterations", 1,
				      "real_time", json_number_value(
					json_array_get(times, j)) * 1e9,
				      "cpu_time", (user + sys) * 1e9,
				      "time_unit", "ns");

		if (!e || json_array_append_new(benchmarks, e)) {
			free(name);
			return -1;
		}
	}
	free(name);
	return 0;
}

json_t *nsb_hyperfine_import(const char *in, const char *prefix,
			     const struct nsb_run_info *info)
{
	json_t *root = nsb_json_load(in), *results, *out, *benchmarks, *r;
	size_t i;

	if (!root)
		return NULL;
	if (!json_is_object(root)) {
		fprintf(stderr, "nsbench: %s: not hyperfine --export-json "
			"output: not a JSON object\n", in);
		json_decref(root);
		return NULL;
	}
	/* all of it checked before a line is written */
	if (nsb_hyperfine_results(in, root, &results)) {
		json_decref(root);
		return NULL;
	}
	json_array_foreach(results, i, r) {
		if (nsb_hyperfine_check(in, r, i)) {
			json_decref(root);
			return NULL;
		}
	}
	out = json_object();
	context_obj = json_object();
	benchmarks = json_array();
	nsb_context_collect(info, add_context);
	add_host_and_date();
	add_context("executable", "hyperfine");
	add_context("hyperfine_source", in);
	add_context("hyperfine_cpu_time",
		    "mean user+system per run over all runs (hyperfine keeps no "
		    "per-run CPU time)");
	add_context("nsbench_complete", "true");
	add_context("nsbench_end_reason", "finished");
	json_object_set_new(out, "context", context_obj);
	json_object_set_new(out, "benchmarks", benchmarks);
	json_array_foreach(results, i, r) {
		if (import_result(in, prefix, r, i, benchmarks)) {
			fprintf(stderr, "nsbench: %s: out of memory\n", in);
			json_decref(out);
			out = NULL;
			break;
		}
	}
	json_decref(root);
	return out;
}
