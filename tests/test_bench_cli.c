// SPDX-License-Identifier: GPL-2.0
/*
 * test_bench_cli — nsbench-bench as a user runs it: the results file is
 * Google Benchmark JSON with every provenance key, written atomically;
 * bad flags and a filter that matches nothing are refused with one line
 * and leave no file; --benchmark_out=FILE writes FILE too, in its format;
 * SIGINT ends the run at once, keeps the finished benchmarks, marks the
 * running one and starts no other; the .partial file cannot be planted
 * and a killed run's leftover is named by the next run; an interleaved
 * run in blocks under SCHED_BATCH reports every state.  Finds the binary
 * under $NSB_BUILD.  Only models/ benchmarks but the interleaved one
 * (root: a sys/ fixture; skipped otherwise).
 */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "tests/tap.h"

static char bench[512], nsbench[512], dir[64] = "/tmp/nsb-test-cli-XXXXXX";

/*
 * Fixed iterations (fast, whatever the min time), then two that run by
 * time: with a long min time the first of them is running for seconds.
 * libbenchmark caps a run at 1e9 iterations whatever the min time, so the
 * running one is the 32-deep walk (~20 ns: ~20 s); the depth-0 walk (2.6 ns)
 * ended 2.6 s in, racing the test's 2 s wait.
 */
#define FILTER_SIGINT "--benchmark_filter=^models/in_userns/(2015/cold/hit/" \
	"depth:[01]/|now/hot/(hit|miss)/depth:32$)"
#define FINISHED_1 "models/in_userns/2015/cold/hit/depth:0/iterations:400/manual_time"
#define FINISHED_2 "models/in_userns/2015/cold/hit/depth:1/iterations:400/manual_time"
#define RUNNING "models/in_userns/now/hot/hit/depth:32"
#define NOT_STARTED "models/in_userns/now/hot/miss/depth:32"

/* Runs the bench with args (a shell word list); returns its exit code. */
static int run(const char *args, const char *stderr_file)
{
	char cmd[2048];
	int st;

	snprintf(cmd, sizeof(cmd), "%s %s >/dev/null 2>%s", bench, args,
		 stderr_file ? stderr_file : "/dev/null");
	st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static char *slurp(const char *path)
{
	static char buf[65536];
	FILE *f = fopen(path, "r");
	size_t n;

	buf[0] = 0;
	if (!f)
		return buf;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

static bool file_contains(const char *path, const char *needle)
{
	return strstr(slurp(path), needle) != NULL;
}

static int lines_of(const char *path)
{
	const char *p = slurp(path);
	int n = 0;

	for (; *p; p++)
		n += *p == '\n';
	return n;
}

/* Files in d whose name ends in suffix (NULL: every file). */
static int count_files(const char *d, const char *suffix)
{
	DIR *dp = opendir(d);
	struct dirent *e;
	int n = 0;

	if (!dp)
		return -1;
	while ((e = readdir(dp))) {
		size_t len = strlen(e->d_name);

		if (e->d_name[0] == '.' && (len == 1 || !strcmp(e->d_name, "..")))
			continue;
		if (!suffix || (len >= strlen(suffix) &&
				!strcmp(e->d_name + len - strlen(suffix), suffix)))
			n++;
	}
	closedir(dp);
	return n;
}

static char *subdir(const char *name)
{
	static char path[8][160];
	static int i;
	char *p = path[i++ % 8];

	snprintf(p, sizeof(path[0]), "%s/%s", dir, name);
	mkdir(p, 0755);
	return p;
}

static const char *ctx_str(json_t *root, const char *key)
{
	const char *v = json_string_value(
		json_object_get(json_object_get(root, "context"), key));
	return v ? v : "(missing)";
}

static json_t *find(json_t *root, const char *name)
{
	json_t *b;
	size_t i;

	json_array_foreach(json_object_get(root, "benchmarks"), i, b)
		if (!strcmp(json_string_value(json_object_get(b, "name")), name))
			return b;
	return NULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Starts the bench with argv (NULL-terminated), output to log. */
static pid_t start(const char *log, char *const *args)
{
	pid_t pid = fork();

	if (!pid) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		dup2(fd, 1);
		dup2(fd, 2);
		execv(bench, args);
		_exit(127);
	}
	return pid;
}

/* One benchmark for 30 s (to be signalled), its results file d/out. */
static pid_t start_long(const char *log, const char *d, const char *out)
{
	char outflag[192];
	char *args[] = { bench, outflag, "--benchmark_min_time=30",
			 "--benchmark_filter=^models/in_userns/now/hot/hit/depth:32$",
			 NULL };

	snprintf(outflag, sizeof(outflag), "--out=%s/%s", d, out);
	return start(log, args);
}

/* Waits up to 60 s until log holds needle n times; false if not. */
static bool wait_for(const char *log, const char *needle, int n)
{
	for (int waited = 0; waited < 600; waited++) {
		const char *p = slurp(log);
		int found = 0;

		while ((p = strstr(p, needle)) && ++found < n)
			p++;
		if (found >= n)
			return true;
		usleep(100000);
	}
	return false;
}

static int exit_code(pid_t pid)
{
	int st;

	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* `nsbench summary` reads what nsbench-bench wrote, refuses junk. */
static void test_summary(const char *results)
{
	char cmd[1024], log[128], junk[128];
	FILE *f;

	snprintf(log, sizeof(log), "%s/summary.txt", dir);
	snprintf(cmd, sizeof(cmd), "%s summary %s >%s 2>&1", nsbench, results,
		 log);
	is_int(WEXITSTATUS(system(cmd)), 0, "nsbench summary reads the results");
	ok(file_contains(log, "models/shim") &&
	   file_contains(log, "c/for_each_iteration"),
	   "and tabulates the family and its variants");
	snprintf(junk, sizeof(junk), "%s/junk.json", dir);
	f = fopen(junk, "w");
	fputs("{\"context\": {}, \"benchmarks\": [", f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "%s summary %s >%s 2>&1", nsbench, junk, log);
	is_int(WEXITSTATUS(system(cmd)), 2, "truncated JSON exits 2");
	ok(file_contains(log, "junk.json:"), "naming the file");
}

static void test_results_file(void)
{
	static const char *const keys[] = {
		"nsbench_version", "nsbench_label", "nsbench_tier",
		"nsbench_mode", "nsbench_time_unit_meaning", "kernel_release",
		"kernel_version", "kernel_config_hash", "patch_series",
		"cpu_model", "cpu_governor", "cpu_boost", "host_name",
		"library_build_type", "nsbench_complete", "nsbench_end_reason",
	};
	char out[128], args[512];
	json_t *root, *b;
	json_error_t err;
	size_t i, samples = 0, aggregates = 0;
	int missing = 0;

	snprintf(out, sizeof(out), "%s/r.json", dir);
	snprintf(args, sizeof(args),
		 "--benchmark_filter=models/shim/c/ --benchmark_repetitions=3 "
		 "--benchmark_min_time=0.001 --label=t --series=demo --out=%s", out);
	is_int(run(args, NULL), 0, "a filtered run exits 0");
	root = json_load_file(out, 0, &err);
	if (!ok(root != NULL, "the results file is JSON (%s)", err.text))
		return;
	for (i = 0; i < NSB_ARRAY_SIZE(keys); i++)
		if (!json_object_get(json_object_get(root, "context"), keys[i])) {
			diag("context lacks %s", keys[i]);
			missing++;
		}
	is_int(missing, 0, "context carries every provenance key");
	is_str(ctx_str(root, "nsbench_complete"), "true", "marked complete");
	is_str(ctx_str(root, "patch_series"), "demo", "--series recorded");
	is_str(ctx_str(root, "nsbench_mode"), "native", "mode defaults to native");
	json_array_foreach(json_object_get(root, "benchmarks"), i, b) {
		const char *rt = json_string_value(json_object_get(b, "run_type"));

		samples += rt && !strcmp(rt, "iteration") &&
			   json_is_number(json_object_get(b, "real_time")) &&
			   json_is_string(json_object_get(b, "time_unit"));
		aggregates += rt && !strcmp(rt, "aggregate");
	}
	is_int(samples, 6, "3 repetitions x 2 benchmarks as iteration entries");
	ok(aggregates >= 8, "with Google Benchmark's aggregates (%zu)", aggregates);
	json_decref(root);
	is_int(count_files(dir, ".partial"), 0, "no partial file left behind");
	test_summary(out);
}

/* refused(args, message): exit 2, one line on stderr, no file made. */
static void refused(const char *what, const char *args, const char *msg)
{
	char errf[160], full[1024];
	char *d = subdir("refused");
	int rc;

	snprintf(errf, sizeof(errf), "%s/refused.err", dir);
	snprintf(full, sizeof(full), "--out=%s/r.json %s", d, args);
	rc = run(full, errf);
	ok(rc == 2 && lines_of(errf) == 1 && file_contains(errf, msg) &&
	   count_files(d, NULL) == 0,
	   "%s: exit 2 (%d), one line, no file", what, rc);
	if (!file_contains(errf, msg) || lines_of(errf) != 1)
		diag("stderr: %s", slurp(errf));
}

static void test_bad_flags(void)
{
	char errf[128], args[512];

	snprintf(errf, sizeof(errf), "%s/err", dir);
	is_int(run("--bogus", errf), 2, "an unknown nsbench flag exits 2");
	ok(file_contains(errf, "unknown or malformed option '--bogus'"),
	   "and names the flag");
	is_int(run("--tier=slow", errf), 2, "a bad --tier exits 2");
	ok(file_contains(errf, "--tier must be quick or full"), "and says why");
	is_int(run("--benchmark_bogus=1", errf), 2,
	       "an unknown libbenchmark flag exits 2");
	ok(file_contains(errf, "unrecognized command-line flag"),
	   "with libbenchmark's own message");
	refused("a filter matching nothing", "--benchmark_filter=no-such-benchmark",
		"no benchmark matches 'no-such-benchmark'; see --list");
	refused("a filter that is no regex", "'--benchmark_filter=('",
		"--benchmark_filter: ");
	refused("--benchmark_format=xml", "--benchmark_format=xml",
		"--benchmark_format must be console, json or csv, not 'xml'");
	refused("--benchmark_out_format=xml",
		"--benchmark_out=x --benchmark_out_format=xml",
		"--benchmark_out_format must be console, json or csv");
	refused("--benchmark_out_format alone", "--benchmark_out_format=csv",
		"needs --benchmark_out=FILE");
	snprintf(args, sizeof(args), "--benchmark_out=%s/refused/r.json "
		 "--benchmark_filter=models/shim/c/", dir);
	refused("--benchmark_out naming the results file", args,
		"--benchmark_out names the results file");
	snprintf(args, sizeof(args), "--benchmark_out=%s/no/such/dir/gb.json "
		 "--benchmark_filter=models/shim/c/", dir);
	refused("--benchmark_out in a missing directory", args, "cannot create");
	is_int(run("--no-results --benchmark_filter=no-such-benchmark", errf), 2,
	       "--no-results: a filter matching nothing exits 2 too");
	refused("--interleave-block=0", "--interleave=x --interleave-block=0",
		"--interleave-block must be 1 to 64");
	refused("--sched=rr", "--sched=rr",
		"--sched must be inherit, batch or fifo, not 'rr'");
	refused("--interleave-settle=100001",
		"--interleave=x --interleave-settle=100001",
		"--interleave-settle must be 0 to 100000");
	refused("--interleave-window=0", "--interleave=x --interleave-window=0",
		"--interleave-window must be 1 to 1000");
	refused("--interleave-window=1001",
		"--interleave=x --interleave-window=1001",
		"--interleave-window must be 1 to 1000");
	refused("--interleave-paired=1001",
		"--interleave=x --interleave-paired=1001",
		"--interleave-paired must be 0 (off) to 1000");
	refused("--interleave-chunk=4097",
		"--interleave=x --interleave-chunk=4097",
		"--interleave-chunk must be 0 (by time) to 4096");
	refused("--slab-reset=4097", "--slab-reset=4097",
		"--slab-reset must be 0 (never) to 4096");
	refused("--sched-slice=1 (below the kernel's 100 us)",
		"--sched-slice=1 --benchmark_filter=models/shim/c/",
		"--sched-slice must be 100 to 100000 (us)");
}

/*
 * An interleaved sys/ run needs root (its fixture): else skip(nskip, why)
 * and false.  Runs the bench with args, then --out=dir/name and a filter for
 * the one row sys/open/file/init/depth:0: is_int() its exit 0 as what.
 * *root is the results file (NULL if none), *b its first row (or NULL).
 */
static bool run_depth0(const char *name, const char *args, const char *what,
		       int nskip, const char *why, json_t **root, json_t **b)
{
	char out[128], cmd[512];

	if (geteuid()) {
		skip(nskip, "%s", why);
		return false;
	}
	snprintf(out, sizeof(out), "%s/%s", dir, name);
	snprintf(cmd, sizeof(cmd), "%s --out=%s "
		 "'--benchmark_filter=^sys/open/file/init/depth:0/'", args, out);
	is_int(run(cmd, NULL), 0, "%s", what);
	*root = json_load_file(out, 0, NULL);
	*b = *root ? json_array_get(json_object_get(*root, "benchmarks"), 0) :
		     NULL;
	return true;
}

/*
 * --interleave on this (stock) kernel: no switch, the same chunks, each
 * state held 3 chunks in a row, SCHED_BATCH: the three states' counters.
 */
static void test_interleave(void)
{
	static const char *const keys[] = {
		"nsb_on", "nsb_off1", "nsb_off2", "nsb_chunks",
	};
	const char *slice;
	json_t *root, *b;
	size_t i;

	if (!run_depth0("ilv.json", "--interleave=no_such_switch "
			"--interleave-block=3 --sched=batch --sched-slice=5000 "
			"--benchmark_min_time=0.005 --seed=7",
			"an interleaved run exits 0", 5,
			"an interleaved sys/ run needs root (its fixture)",
			&root, &b))
		return;
	ok(b && !strcmp(json_string_value(json_object_get(b, "name")),
			"sys/open/file/init/depth:0/manual_time"),
	   "its row is the one asked for");
	for (i = 0; b && i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!json_is_number(json_object_get(b, keys[i])))
			break;
	ok(b && i == sizeof(keys) / sizeof(keys[0]),
	   "with each state's counter (--interleave-block=3)");
	ok(root && !strcmp(ctx_str(root, "nsbench_sched"), "batch"),
	   "--sched=batch: the context says batch");
	/* 5 ms where the kernel keeps a fair task's slice (6.12+), else 0 */
	slice = root ? ctx_str(root, "nsbench_sched_slice_ns") : NULL;
	ok(slice && (!strcmp(slice, "5000000") || !strcmp(slice, "0")),
	   "--sched-slice=5000: the context says the slice the kernel kept");
	json_decref(root);
}

/*
 * Settled chunks (--interleave-settle), SCHED_FIFO: the states' counters,
 * at least two ops per chunk, every chunk whole (the batches' remainders
 * run as whole chunks), and the context says fifo.
 */
static void test_settled(void)
{
	json_t *root, *b;
	double k, chunks;

	if (!run_depth0("settled.json", "--interleave=no_such_switch "
			"--interleave-settle=50 --interleave-window=20 "
			"--sched=fifo "
			"--benchmark_min_time=0.005 --seed=7",
			"a settled SCHED_FIFO run exits 0", 4,
			"a SCHED_FIFO interleaved sys/ run needs root",
			&root, &b))
		return;
	k = json_number_value(json_object_get(b, "nsb_chunk_ops"));
	chunks = json_number_value(json_object_get(b, "nsb_chunks"));
	ok(b && json_is_number(json_object_get(b, "nsb_off2")) && k >= 2,
	   "with each state's counter, at least 2 ops a chunk (%g)", k);
	ok(b && chunks * k >= json_number_value(json_object_get(b,
							      "iterations")),
	   "whole chunks: %g of %g ops cover the iterations", chunks, k);
	ok(root && !strcmp(ctx_str(root, "nsbench_sched"), "fifo"),
	   "--sched=fifo: the context says fifo");
	json_decref(root);
}

/*
 * Chunks of a fixed count (--interleave-chunk): every chunk holds that
 * many ops, whatever the op costs.
 */
static void test_fixed_chunk(void)
{
	json_t *root, *b;
	double k;

	if (!run_depth0("chunk.json", "--interleave=no_such_switch "
			"--interleave-chunk=3 --benchmark_min_time=0.005 "
			"--seed=7",
			"a run with chunks of 3 exits 0", 2,
			"an interleaved sys/ run needs root", &root, &b))
		return;
	k = json_number_value(json_object_get(b, "nsb_chunk_ops"));
	ok(b && k == 3 && json_is_number(json_object_get(b, "nsb_on")),
	   "--interleave-chunk=3: 3 ops a chunk (%g), the states' counters",
	   k);
	json_decref(root);
}

/*
 * The paired estimate (--interleave-paired): the run says so, and its
 * counters are the states' values, on and off2 placed from off's level.
 */
static void test_paired(void)
{
	json_t *root, *b;
	double w, on;

	if (!run_depth0("paired.json", "--interleave=no_such_switch "
			"--interleave-paired=1 --interleave-block=4 "
			"--benchmark_min_time=0.005 --seed=7",
			"a run with the paired estimate exits 0", 2,
			"an interleaved sys/ run needs root", &root, &b))
		return;
	w = json_number_value(json_object_get(b, "nsb_paired_window"));
	on = json_number_value(json_object_get(b, "nsb_on"));
	ok(b && w == 1 && on > 0 &&
	   json_is_number(json_object_get(b, "nsb_off2")),
	   "--interleave-paired=1: nsb_paired_window %g, nsb_on %g", w, on);
	json_decref(root);
}

/*
 * --slab-reset: the row is measured after the reset, and the context says
 * how many processes it started (bench/sys/slabs.c; test_slabs the reset).
 */
static void test_slab_reset(void)
{
	json_t *root, *b;

	if (!run_depth0("slabs.json", "--slab-reset=16 "
			"--benchmark_min_time=0.005",
			"a run with --slab-reset=16 exits 0", 3,
			"a sys/ run needs root (its fixture)", &root, &b))
		return;
	ok(b && json_number_value(json_object_get(b, "iterations")) > 0,
	   "its row is measured");
	ok(root && !strcmp(ctx_str(root, "nsbench_slab_reset"), "16"),
	   "--slab-reset=16: the context says 16");
	json_decref(root);
}

static int run_out(const char *filter, const char *path, const char *fmt)
{
	char args[512];

	snprintf(args, sizeof(args), "%s --benchmark_min_time=0.001 "
		 "--no-results --benchmark_out=%s --benchmark_out_format=%s",
		 filter, path, fmt);
	return run(args, NULL);
}

/* --benchmark_out=FILE [--benchmark_out_format=F]: FILE is written too. */
static void test_benchmark_out(void)
{
	char *d = subdir("gbout");
	char args[512], path[192];
	json_t *root;

	snprintf(args, sizeof(args), "--benchmark_filter=models/shim/c/ "
		 "--benchmark_min_time=0.001 --out=%s/r.json "
		 "--benchmark_out=%s/gb.json", d, d);
	is_int(run(args, NULL), 0, "--benchmark_out=FILE: exit 0");
	snprintf(path, sizeof(path), "%s/gb.json", d);
	root = json_load_file(path, 0, NULL);
	ok(root && json_array_size(json_object_get(root, "benchmarks")) == 2 &&
	   json_is_object(json_object_get(root, "context")),
	   "FILE is Google Benchmark JSON with both benchmarks");
	json_decref(root);
	snprintf(path, sizeof(path), "%s/r.json", d);
	root = json_load_file(path, 0, NULL);
	is_str(root ? ctx_str(root, "nsbench_complete") : "", "true",
	       "and the results file is written as well");
	json_decref(root);

	/*
	 * Families with different counters (libbenchmark's own CSV
	 * reporter aborts on a counter its first row lacks).
	 */
	snprintf(path, sizeof(path), "%s/gb.csv", d);
	is_int(run_out("'--benchmark_filter=^models/(shim/c/|"
		       "sget/spin/stock/hit/supers:1/)'", path, "csv"), 0,
	       "--benchmark_out_format=csv --no-results: exit 0");
	ok(file_contains(path, "name,iterations,real_time") &&
	   file_contains(path, "\"models/shim/c/keep_running\"") &&
	   file_contains(path, "\"writer_cycles\""),
	   "FILE is Google Benchmark CSV, every family's counters as columns");
	snprintf(path, sizeof(path), "%s/gb.txt", d);
	is_int(run_out("--benchmark_filter=models/shim/c/", path, "console"),
	       0, "--benchmark_out_format=console: exit 0");
	ok(file_contains(path, "models/shim/c/keep_running") &&
	   !file_contains(path, "\033["), "FILE is the console table, no colour");
	is_int(count_files(d, NULL), 4, "and nothing else in the directory");
}

/*
 * SIGINT while a long benchmark runs: exit 130 within 5 s (at once, in
 * truth), the two finished benchmarks as they were, the running one
 * marked interrupted, the last one not started; --benchmark_out too.
 */
static void test_sigint(void)
{
	char *d = subdir("int");
	char outflag[192], gbflag[192], log[192], path[192];
	char *args[] = { bench, outflag, gbflag, "--benchmark_min_time=30",
			 FILTER_SIGINT, NULL };
	json_t *root, *b;
	double t0, took;
	pid_t pid;
	int rc;

	snprintf(outflag, sizeof(outflag), "--out=%s/int.json", d);
	snprintf(gbflag, sizeof(gbflag), "--benchmark_out=%s/gb.json", d);
	snprintf(log, sizeof(log), "%s/int.log", dir);
	pid = start(log, args);
	/* The two fixed-iteration ones are done; then 2 s into the third. */
	ok(wait_for(log, "cold/hit/depth:", 2), "the first benchmarks finish");
	sleep(2);
	t0 = now();
	kill(pid, SIGINT);
	rc = exit_code(pid);
	took = now() - t0;
	is_int(rc, 130, "an interrupted run exits 130");
	ok(took < 5, "within 5 s of SIGINT (%.3f s)", took);
	snprintf(path, sizeof(path), "%s/int.json", d);
	root = json_load_file(path, 0, NULL);
	if (!ok(root != NULL, "and still writes its results file"))
		return;
	is_str(ctx_str(root, "nsbench_complete"), "false", "marked incomplete");
	is_str(ctx_str(root, "nsbench_end_reason"), "interrupted",
	       "with the reason");
	is_str(ctx_str(root, "nsbench_not_started"), "1",
	       "counting the benchmark it did not start");
	b = find(root, FINISHED_1);
	ok(b && !json_object_get(b, "error_occurred") &&
	   json_integer_value(json_object_get(b, "iterations")) == 400 &&
	   json_is_number(json_object_get(b, "real_time")),
	   "a finished benchmark is kept as it was");
	b = find(root, FINISHED_2);
	ok(b && !json_object_get(b, "error_occurred"), "so is the second");
	b = find(root, RUNNING);
	is_str(b ? json_string_value(json_object_get(b, "error_message")) : "",
	       "interrupted", "the running one is marked interrupted");
	ok(!find(root, NOT_STARTED), "the next one is not in the file");
	is_int(json_array_size(json_object_get(root, "benchmarks")), 3,
	       "three entries, nothing else");
	json_decref(root);
	snprintf(path, sizeof(path), "%s/gb.json", d);
	root = json_load_file(path, 0, NULL);
	ok(root && find(root, FINISHED_1) && find(root, RUNNING) &&
	   !find(root, NOT_STARTED), "--benchmark_out's file holds the same");
	json_decref(root);
	ok(!file_contains(log, NOT_STARTED), "the console names no unstarted one");
	is_int(count_files(d, ".partial"), 0, "no partial file left behind");
}

/* Two signals in a row: quit at once, nothing half-written stays. */
static void test_second_signal(void)
{
	char *d = subdir("int2");
	char log[192];
	pid_t pid;

	snprintf(log, sizeof(log), "%s/int2.log", dir);
	pid = start_long(log, d, "r.json");
	ok(wait_for(log, "Running ", 1), "second signal: the run starts");
	usleep(300000);
	kill(pid, SIGINT);
	kill(pid, SIGINT);
	is_int(exit_code(pid), 130, "two SIGINTs: exit 130");
	is_int(count_files(d, ".partial"), 0, "no partial file left behind");
}

/* A symlink at the old predictable <out>.partial name is not followed. */
static void test_planted_symlink(void)
{
	char *d = subdir("plant");
	char target[192], link[192], args[512];
	struct stat st;
	FILE *f;

	snprintf(target, sizeof(target), "%s/precious", dir);
	f = fopen(target, "w");
	fputs("precious\n", f);
	fclose(f);
	snprintf(link, sizeof(link), "%s/r.json.partial", d);
	if (symlink(target, link))
		diag("symlink: %m");
	snprintf(link, sizeof(link), "%s/gb.json.partial", d);
	if (symlink(target, link))
		diag("symlink: %m");
	snprintf(args, sizeof(args), "--benchmark_filter=models/shim/c/ "
		 "--benchmark_min_time=0.001 --out=%s/r.json "
		 "--benchmark_out=%s/gb.json", d, d);
	is_int(run(args, NULL), 0, "a run beside planted symlinks exits 0");
	is_str(slurp(target), "precious\n", "the symlinks' target is untouched");
	ok(!lstat(link, &st) && S_ISLNK(st.st_mode), "the symlink stays a symlink");
	snprintf(link, sizeof(link), "%s/r.json", d);
	ok(!lstat(link, &st) && S_ISREG(st.st_mode) && st.st_size > 100,
	   "and the results file is written");
}

/*
 * SIGKILL leaves the .partial file: the next run in that directory names
 * it for what it is; a live run's .partial (locked) is not named.
 */
static void test_killed_leftover(void)
{
	char *d = subdir("kill");
	char log[192], errf[192], args[512];
	pid_t pid;

	snprintf(log, sizeof(log), "%s/kill.log", dir);
	snprintf(errf, sizeof(errf), "%s/kill.err", dir);
	snprintf(args, sizeof(args), "--benchmark_filter=models/shim/c/ "
		 "--benchmark_min_time=0.001 --out=%s/next.json", d);

	pid = start_long(log, d, "killed.json");
	ok(wait_for(log, "Running ", 1), "a live run has started");
	is_int(count_files(d, ".partial"), 1, "with its .partial file");
	is_int(run(args, errf), 0, "a second run beside it exits 0");
	ok(!file_contains(errf, "unfinished output"),
	   "and does not call the live run's file a leftover");
	kill(pid, SIGKILL);
	is_int(exit_code(pid), 128 + SIGKILL, "SIGKILL");
	is_int(count_files(d, ".partial"), 1, "leaves the .partial file");
	is_int(run(args, errf), 0, "the next run exits 0");
	ok(file_contains(errf, "killed.json.") &&
	   file_contains(errf, ".partial: an interrupted run's unfinished output "
			 "(killed?), not a results file"),
	   "and says what the leftover is");
}

int main(void)
{
	const char *build = getenv("NSB_BUILD");
	char cmd[128];

	plan_no_plan();
	snprintf(bench, sizeof(bench), "%s/bench/nsbench-bench",
		 build ? build : "build");
	snprintf(nsbench, sizeof(nsbench), "%s/nsbench", build ? build : "build");
	if (!mkdtemp(dir) || access(bench, X_OK))
		return cannot_start("%s exists (set NSB_BUILD)", bench);
	test_results_file();
	test_bad_flags();
	test_interleave();
	test_settled();
	test_fixed_chunk();
	test_paired();
	test_slab_reset();
	test_benchmark_out();
	test_sigint();
	test_second_signal();
	test_planted_symlink();
	test_killed_leftover();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		diag("could not remove %s", dir);
	return done_testing();
}
