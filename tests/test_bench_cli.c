// SPDX-License-Identifier: GPL-2.0
/*
 * test_bench_cli — nsbench-bench as a user runs it: the results file is
 * Google Benchmark JSON with every provenance key, written atomically;
 * bad flags are refused with a message; SIGINT leaves a results file
 * marked incomplete.  Finds the binary under $NSB_BUILD.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "tests/tap.h"

static char bench[512], nsbench[512], dir[64] = "/tmp/nsb-test-cli-XXXXXX";

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

static bool file_contains(const char *path, const char *needle)
{
	char buf[4096] = "";
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return strstr(buf, needle) != NULL;
}

static const char *ctx_str(json_t *root, const char *key)
{
	const char *v = json_string_value(
		json_object_get(json_object_get(root, "context"), key));
	return v ? v : "(missing)";
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
	char out[128], args[512], partial[160];
	json_t *root, *benchmarks, *b;
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
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!json_object_get(json_object_get(root, "context"), keys[i])) {
			diag("context lacks %s", keys[i]);
			missing++;
		}
	is_int(missing, 0, "context carries every provenance key");
	is_str(ctx_str(root, "nsbench_complete"), "true", "marked complete");
	is_str(ctx_str(root, "patch_series"), "demo", "--series recorded");
	is_str(ctx_str(root, "nsbench_mode"), "native", "mode defaults to native");
	benchmarks = json_object_get(root, "benchmarks");
	json_array_foreach(benchmarks, i, b) {
		const char *rt = json_string_value(json_object_get(b, "run_type"));

		samples += rt && !strcmp(rt, "iteration") &&
			   json_is_number(json_object_get(b, "real_time")) &&
			   json_is_string(json_object_get(b, "time_unit"));
		aggregates += rt && !strcmp(rt, "aggregate");
	}
	is_int(samples, 6, "3 repetitions x 2 benchmarks as iteration entries");
	ok(aggregates >= 8, "with Google Benchmark's aggregates (%zu)", aggregates);
	json_decref(root);
	snprintf(partial, sizeof(partial), "%s.partial", out);
	ok(access(partial, F_OK) != 0, "no partial file left behind");
	test_summary(out);
}

static void test_bad_flags(void)
{
	char errf[128];

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
	is_int(run("--no-results --benchmark_filter=no-such-benchmark", errf), 2,
	       "a filter matching nothing exits 2");
	ok(file_contains(errf, "no benchmark matched"), "and says so");
}

/* SIGINT once the first benchmark runs: results kept, marked incomplete. */
static void test_sigint(void)
{
	char out[128], outflag[160], log[128], partial[160];
	json_t *root;
	pid_t pid;
	int st, waited;

	snprintf(out, sizeof(out), "%s/int.json", dir);
	snprintf(outflag, sizeof(outflag), "--out=%s", out);
	snprintf(log, sizeof(log), "%s/int.log", dir);
	pid = fork();
	if (!pid) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		dup2(fd, 1);
		dup2(fd, 2);
		execl(bench, bench, outflag, "--benchmark_min_time=60",
		      "--benchmark_filter=models/in_userns/now/hot/hit",
		      (char *)NULL);
		_exit(127);
	}
	/* The header is printed after the handlers are installed. */
	for (waited = 0; waited < 600 && !file_contains(log, "Benchmark "); waited++)
		usleep(100000);
	kill(pid, SIGINT);
	waitpid(pid, &st, 0);
	is_int(WIFEXITED(st) ? WEXITSTATUS(st) : -1, 130,
	       "an interrupted run exits 130");
	root = json_load_file(out, 0, NULL);
	ok(root != NULL, "and still writes its results file");
	is_str(ctx_str(root, "nsbench_complete"), "false", "marked incomplete");
	is_str(ctx_str(root, "nsbench_end_reason"), "interrupted",
	       "with the reason");
	json_decref(root);
	snprintf(partial, sizeof(partial), "%s.partial", out);
	ok(access(partial, F_OK) != 0, "no partial file left behind");
}

int main(void)
{
	const char *build = getenv("NSB_BUILD");
	char cmd[128];

	plan_no_plan();
	snprintf(bench, sizeof(bench), "%s/bench/nsbench-bench",
		 build ? build : "build");
	snprintf(nsbench, sizeof(nsbench), "%s/nsbench", build ? build : "build");
	if (!mkdtemp(dir) || access(bench, X_OK)) {
		ok(0, "%s exists (set NSB_BUILD)", bench);
		return done_testing();
	}
	test_results_file();
	test_bad_flags();
	test_sigint();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		diag("could not remove %s", dir);
	return done_testing();
}
