// SPDX-License-Identifier: GPL-2.0
/*
 * test_history.c — the CI history file: corrupt and truncated lines are
 * reported with their line numbers and skipped, appends after a crash
 * stay whole, concurrent appenders never interleave, records carry their
 * provenance.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "src/history.h"
#include "src/nsbench.h"
#include "tests/tap.h"

#define FIX "tests/fixtures/history/"

static char dir[] = "/tmp/nsb-test-history.XXXXXX";

/* Loads path; the messages go to *msgs (malloc'd). */
static int load(struct nsb_history *h, const char *path, char **msgs)
{
	size_t len;
	FILE *err = open_memstream(msgs, &len);
	int ret = nsb_history_load(h, path, err);

	fclose(err);
	return ret;
}

static void corrupt_lines(void)
{
	struct nsb_history h;
	char *msgs = NULL;

	is_int(load(&h, FIX "corrupt.jsonl", &msgs), 0,
	       "corrupt history: still loads");
	is_int(h.n, 3, "corrupt history: the 3 good records (lines 1, 2, 7)");
	is_int(h.bad_lines, 4, "corrupt history: 4 bad lines");
	ok(strstr(msgs, "corrupt.jsonl:3: column") != NULL,
	   "line 3 (bad JSON) reported with its number");
	ok(strstr(msgs, "corrupt.jsonl:5: result without a valid \"median\"")
	   != NULL, "line 5 (median not a number) reported");
	ok(strstr(msgs, "corrupt.jsonl:6: run run01") != NULL &&
	   strstr(msgs, "first on line 2") != NULL,
	   "line 6 (duplicate) reported with the first one's line");
	ok(strstr(msgs, "corrupt.jsonl:8: column") != NULL,
	   "line 8 (truncated, no newline) reported");
	ok(strstr(msgs, ":4:") == NULL, "blank line 4 is not an error");
	ok(h.n == 3 && h.r[2].line == 7 && !strcmp(h.r[2].run, "run04"),
	   "records after the bad lines are read (run04, line 7)");
	for (char *l = strtok(msgs, "\n"); l; l = strtok(NULL, "\n"))
		diag("%s", l);
	free(msgs);
	nsb_history_free(&h);
}

static char *copy_to_tmp(const char *src, const char *name)
{
	char *path = NULL, buf[4096];
	FILE *in = fopen(src, "r"), *out;
	size_t n;

	if (!in || asprintf(&path, "%s/%s", dir, name) < 0)
		return NULL;
	out = fopen(path, "w");
	while (out && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, out);
	fclose(in);
	if (out)
		fclose(out);
	return path;
}

static json_t *fake_record(const char *run, double median)
{
	return json_pack("{s:s, s:s, s:s, s:s, s:i, s:f, s:f, s:f, s:f, s:s, "
			 "s:s}", "type", "result", "run", run, "benchmark",
			 "fix/exec/step", "status", "ok", "n", 5, "median",
			 median, "ci_lo", median, "ci_hi", median, "ci_level",
			 0.9375, "unit", "virtual ns = guest instructions",
			 "mode", "icount");
}

static void append_after_crash(void)
{
	char *path = copy_to_tmp(FIX "corrupt.jsonl", "crash.jsonl"), *msgs;
	json_t *arr = json_pack("[o]", fake_record("after-crash", 102));
	struct nsb_history h;
	const struct nsb_hrec *r;

	is_int(nsb_history_append(path, arr), 0, "append after a truncated "
	       "last line");
	load(&h, path, &msgs);
	r = nsb_history_find(&h, "after-crash", "fix/exec/step");
	ok(r && r->line == 9 && r->median == 102,
	   "the new record is whole, on its own line 9");
	ok(strstr(msgs, "crash.jsonl:8:") != NULL,
	   "the truncated line 8 is still reported, not glued to line 9");
	is_int(h.n, 4, "4 good records");
	free(msgs);
	nsb_history_free(&h);
	json_decref(arr);
	free(path);
}

static void results_records(void)
{
	char *files[] = { FIX "icount-base.json" };
	char *stats[] = { "tests/fixtures/stats/base.json" };
	json_t *arr = nsb_history_records(files, 1, NULL), *o;
	struct nsb_hrec r;

	ok(arr && json_array_size(arr) == 3, "3 records from icount-base");
	o = json_array_get(arr, 0);
	ok(o && !nsb_hrec_parse(o, &r), "a record parses");
	if (o && !nsb_hrec_parse(o, &r)) {
		is_str(r.run, "icount-base", "run id: the file name");
		is_str(r.bench, "fix/exec/plain", "benchmark");
		ok(r.n == 5 && fabs(r.median - 150000) <= 2,
		   "n 5, median %.0f", r.median);
		ok(r.ci_lo <= r.median && r.median <= r.ci_hi,
		   "CI around the median");
		is_str(r.unit, "virtual ns = guest instructions", "unit");
		is_str(r.mode, "icount", "mode");
		is_str(r.kernel_commit, "1111111", "kernel commit");
		is_str(r.timestamp, "2026-12-01T10:00:00Z", "timestamp, UTC");
		is_str(r.config_hash, "sha256:" "abababababababababababababab"
		       "abababababababababababababababababab", "config hash");
		is_str(r.version, "fixture", "nsbench version");
	} else {
		skip(10, "no record");
	}
	o = json_array_get(arr, 2);
	ok(o && !nsb_hrec_parse(o, &r) && !strcmp(r.status, "skip") &&
	   r.n == 0 && strstr(r.why, "no mqueue"),
	   "a skipped benchmark is recorded as a skip with its reason");
	json_decref(arr);
	arr = nsb_history_records(stats, 1, "given-id");
	o = json_array_get(arr, 0);
	ok(o && !json_object_get(o, "kernel_commit") &&
	   !strcmp(nsb_json_str(o, "run"), "given-id"),
	   "no kernel_commit in the context: absent; --run-id used");
	json_decref(arr);
}

static void utc(void)
{
	char buf[32];

	nsb_history_utc("2026-12-03T09:36:59+01:00", buf, sizeof(buf));
	is_str(buf, "2026-12-03T08:36:59Z", "local time with offset -> UTC");
	nsb_history_utc("2026-12-03T08:36:59Z", buf, sizeof(buf));
	is_str(buf, "2026-12-03T08:36:59Z", "UTC stays");
}

static void accept_and_series(void)
{
	char *path = NULL, *msgs = NULL;
	const struct nsb_hrec **pts;
	struct nsb_history h;
	json_t *arr;
	long n;

	load(&h, FIX "step.jsonl", &msgs);
	is_str(h.accepted, "run09", "accept line: the baseline");
	is_int(h.nruns, 16, "16 runs, in file order");
	nsb_history_free(&h);
	free(msgs);
	if (asprintf(&path, "%s/modes.jsonl", dir) < 0)
		return;
	arr = json_pack("[o, o, o]", fake_record("a", 100),
			fake_record("b", 50), fake_record("c", 101));
	json_object_set_new(json_array_get(arr, 1), "mode",
			    json_string("native"));
	json_object_set_new(json_array_get(arr, 1), "unit",
			    json_string("wall-clock ns"));
	nsb_history_append(path, arr);
	load(&h, path, &msgs);
	n = nsb_history_series(&h, "fix/exec/step", &pts);
	ok(n == 2 && pts[0]->median == 100 && pts[1]->median == 101,
	   "series: only the newest record's mode and unit");
	free(pts);
	nsb_history_free(&h);
	json_decref(arr);
	free(msgs);
	free(path);
}

/* Four processes append 50 runs each at once: 200 whole lines. */
static void concurrent(void)
{
	char *path = NULL, *msgs = NULL, run[32];
	struct nsb_history h;
	int i, j, st, bad = 0;
	pid_t pid[4];

	if (asprintf(&path, "%s/concurrent.jsonl", dir) < 0)
		return;
	fflush(stdout);
	for (i = 0; i < 4; i++) {
		pid[i] = fork();
		if (pid[i])
			continue;
		for (j = 0; j < 50; j++) {
			json_t *arr;

			snprintf(run, sizeof(run), "p%d-%d", i, j);
			arr = json_pack("[o]", fake_record(run, j));
			if (nsb_history_append(path, arr))
				_exit(1);
			json_decref(arr);
		}
		_exit(0);
	}
	for (i = 0; i < 4; i++)
		if (waitpid(pid[i], &st, 0) < 0 || !WIFEXITED(st) ||
		    WEXITSTATUS(st))
			bad++;
	is_int(bad, 0, "four concurrent appenders succeed");
	load(&h, path, &msgs);
	ok(h.n == 200 && h.bad_lines == 0,
	   "200 whole records, no bad line (got %zu, %zu bad)", h.n,
	   h.bad_lines);
	nsb_history_free(&h);
	free(msgs);
	free(path);
}

static void cleanup(void)
{
	static const char *const names[] = {
		"crash.jsonl", "modes.jsonl", "concurrent.jsonl",
	};
	char path[128];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
}

int main(void)
{
	plan_no_plan();
	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return done_testing();
	}
	corrupt_lines();
	append_after_crash();
	results_records();
	utc();
	accept_and_series();
	concurrent();
	cleanup();
	return done_testing();
}
