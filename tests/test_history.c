// SPDX-License-Identifier: GPL-2.0
/*
 * test_history.c — the CI history file: corrupt and truncated lines are
 * reported with their line numbers and skipped, appends after a crash
 * stay whole, concurrent appenders never interleave, records carry their
 * provenance; a FIFO, /dev/zero, an oversized file or garbage is not a
 * history, impossible numbers are skipped, a planted symlink not followed.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "src/lib/history/history.h"
#include "src/lib/base/nsbench.h"
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
			arr = json_pack("[o]", fake_record(run, j + 1));
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

/* Loads text as a history; its return, the messages in *msgs. */
static int load_text(const char *name, const char *text, char **msgs,
		     struct nsb_history *h)
{
	char *path = NULL;
	FILE *f;
	int ret = -2;

	if (asprintf(&path, "%s/%s", dir, name) < 0)
		return -2;
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
		ret = load(h, path, msgs);
	}
	free(path);
	return ret;
}

/* Not a history: not a file, too big, or no line of it a record. */
static void not_histories(void)
{
	char *path = NULL, *msgs = NULL;
	struct nsb_history h;
	json_t *arr;
	int fd;

	if (asprintf(&path, "%s/fifo.jsonl", dir) < 0 || mkfifo(path, 0644))
		return;
	arr = json_pack("[o]", fake_record("r", 1));
	/* a FIFO without a writer blocked the reader forever */
	is_int(load(&h, path, &msgs), -1, "a FIFO is refused, not waited on");
	nsb_history_free(&h);
	free(msgs);
	is_int(nsb_history_append(path, arr), -1,
	       "appending to a FIFO is refused");
	unlink(path);
	is_int(load(&h, "/dev/zero", &msgs), -1,
	       "/dev/zero is refused (it grew to 688 MB in 5 s)");
	nsb_history_free(&h);
	free(msgs);
	/* sparse: over the limit without using the disk */
	snprintf(path, strlen(path) + 1, "%s/huge.jsonl", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ok(fd >= 0 && !ftruncate(fd, (off_t)NSB_HISTORY_MAX + 1) &&
	   load(&h, path, &msgs) == -1, "a history over the size limit is "
	   "refused");
	if (fd >= 0)
		close(fd);
	nsb_history_free(&h);
	free(msgs);
	unlink(path);
	ok(load_text("garbage.jsonl", "hello\nworld\n", &msgs, &h) == -1 &&
	   strstr(msgs, "not an nsbench history"),
	   "lines, none a record: not a history");
	nsb_history_free(&h);
	free(msgs);
	ok(load_text("blank.jsonl", "\n\n", &msgs, &h) == 0 && !h.n,
	   "blank lines: an empty history");
	nsb_history_free(&h);
	free(msgs);
	json_decref(arr);
	free(path);
}

/* Numbers no benchmark gives are skipped, the field named. */
static void impossible_numbers(void)
{
	static const struct {
		const char *key, *value;
	} bad[] = {
		{ "median", "0" }, { "median", "-1" }, { "median", "1e300" },
		{ "ci_lo", "2e5" }, { "ci_hi", "1" }, { "ci_level", "1.5" },
		{ "n", "0" }, { "status", "\"fine\"" },
	};
	char text[1024], want[64], *msgs;
	struct nsb_history h;
	size_t i;

	for (i = 0; i < NSB_ARRAY_SIZE(bad); i++) {
		json_t *o = fake_record("r1", 150000);
		char *line;

		json_object_set_new(o, bad[i].key, json_loads(bad[i].value,
			JSON_DECODE_ANY, NULL));
		line = json_dumps(o, JSON_COMPACT);
		snprintf(text, sizeof(text), "%s\n%s\n", line,
			 "{\"type\":\"accept\",\"run\":\"r0\"}");
		snprintf(want, sizeof(want), ":1: result without a valid "
			 "\"%s\"", bad[i].key);
		ok(!load_text("numbers.jsonl", text, &msgs, &h) && !h.n &&
		   strstr(msgs, want), "%s %s: line skipped, named",
		   bad[i].key, bad[i].value);
		nsb_history_free(&h);
		free(msgs);
		free(line);
		json_decref(o);
	}
}

/* A symlink planted by another user is not followed; one's own is. */
static void planted_symlink(void)
{
	char *victim = NULL, *link = NULL, buf[64] = "";
	json_t *arr = json_pack("[o]", fake_record("r", 1));
	FILE *f;

	if (asprintf(&victim, "%s/victim", dir) < 0 ||
	    asprintf(&link, "%s/link.jsonl", dir) < 0)
		return;
	f = fopen(victim, "w");
	fputs("precious\n", f);
	fclose(f);
	if (symlink(victim, link))
		return;
	is_int(nsb_history_append(link, arr), 0, "our own symlink: followed");
	unlink(victim);
	f = fopen(victim, "w");
	fputs("precious\n", f);
	fclose(f);
	if (geteuid() || lchown(link, 65534, 65534)) {
		skip(2, "not root: cannot give the link to another user");
	} else {
		is_int(nsb_history_append(link, arr), -1,
		       "another user's symlink: refused");
		f = fopen(victim, "r");
		ok(f && fgets(buf, sizeof(buf), f) &&
		   !strcmp(buf, "precious\n") && !fgets(buf, sizeof(buf), f),
		   "the file it points to is untouched");
		if (f)
			fclose(f);
	}
	unlink(link);
	unlink(victim);
	json_decref(arr);
	free(victim);
	free(link);
}

static void cleanup(void)
{
	static const char *const names[] = {
		"crash.jsonl", "modes.jsonl", "concurrent.jsonl",
		"garbage.jsonl", "blank.jsonl", "numbers.jsonl",
	};
	char path[128];
	size_t i;

	for (i = 0; i < NSB_ARRAY_SIZE(names); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
}

int main(void)
{
	plan_no_plan();
	if (!mkdtemp(dir))
		return cannot_start("mkdtemp");
	corrupt_lines();
	append_after_crash();
	results_records();
	utc();
	accept_and_series();
	concurrent();
	not_histories();
	impossible_numbers();
	planted_symlink();
	cleanup();
	return done_testing();
}
