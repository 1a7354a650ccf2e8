// SPDX-License-Identifier: GPL-2.0
/*
 * test_gbench — the C API over libbenchmark: iterations run as asked,
 * arguments arrive, skips/errors/counters/labels/manual time reach the
 * JSON (a statistic that is not a number does not), an interrupt ends the loop and starts no further benchmark.
 * One libbenchmark run, then checks.
 */
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include <jansson.h>

#include "bench/gbench.h"
#include "tests/tap.h"

static long loops_while, loops_for;
static int64_t seen_args[2];
static int dense_calls, dense_mask;

static void bm_while(struct gb_state *s)
{
	while (gb_keep_running(s))
		loops_while++;
}

static void bm_for(struct gb_state *s)
{
	gb_for_each_iteration(s)
		loops_for++;
}

static void bm_args(struct gb_state *s)
{
	seen_args[0] = gb_range(s, 0);
	seen_args[1] = gb_range(s, 1);
	while (gb_keep_running(s))
		;
}

static void bm_dense(struct gb_state *s)
{
	dense_calls++;
	dense_mask |= 1 << gb_range(s, 0);
	while (gb_keep_running(s))
		;
}

/* One body, two variants: each run sees its own row. */
static const int rows[2] = { 11, 22 };
static int data_seen, data_null;

static void bm_data(struct gb_state *s)
{
	const int *row = gb_data(s);

	data_seen += *row;
	while (gb_keep_running(s))
		;
}

static void bm_no_data(struct gb_state *s)
{
	data_null += gb_data(s) == NULL;
	while (gb_keep_running(s))
		;
}

static void bm_skip(struct gb_state *s)
{
	gb_skip(s, "no user namespaces (%s)", "EPERM");
	while (gb_keep_running(s))
		abort();	/* a skipped benchmark runs no iteration */
}

static void bm_extras(struct gb_state *s)
{
	gb_label(s, "hello");
	while (gb_keep_running(s)) {
		gb_pause(s);
		gb_resume(s);
	}
	gb_counter(s, "widgets", 42, GB_COUNTER_DEFAULT);
	gb_set_items_processed(s, gb_iterations(s));
}

/* A counter that is 0 in every repetition: its cv is 0/0. */
static void bm_zero(struct gb_state *s)
{
	while (gb_keep_running(s))
		;
	gb_counter(s, "zero", 0, GB_COUNTER_DEFAULT);
	gb_counter(s, "one", 1, GB_COUNTER_DEFAULT);
}

static void bm_manual(struct gb_state *s)
{
	gb_for_each_iteration(s)
		gb_set_iteration_time(s, 1e-6);
}

/*
 * gb_fixed_batches(): sizes 1, 2, 4, ... whatever a batch takes; the
 * first three sleep 25 ms each, which the clock's rule would answer
 * with batches of 1.
 */
static int64_t fixed_sizes[32];
static int nfixed;

static void bm_fixed(struct gb_state *s)
{
	int64_t n;

	gb_fixed_batches(s);
	while ((n = gb__batch(s)) > 0) {
		if (nfixed < 32)
			fixed_sizes[nfixed] = n;
		if (nfixed++ < 3)
			usleep(25000);
		gb_set_iteration_time(s, 1e-6 * n);
	}
}

static void check_fixed(void)
{
	int64_t want = 1, left = 5000;
	int i, bad = -1;

	for (i = 0; i < nfixed && i < 32 && left > 0; i++) {
		if (fixed_sizes[i] != (want < left ? want : left))
			bad = i;
		left -= fixed_sizes[i];
		want *= 2;
	}
	is_int(nfixed, 13, "fixed batches: 13 for 5000 iterations");
	ok(bad < 0 && left == 0, "1, 2, 4, ..., 2048, then the 905 left%s",
	   bad < 0 ? "" : " (differs)");
}

static long interrupted_loops;

static void bm_interrupt(struct gb_state *s)
{
	while (gb_keep_running(s))
		interrupted_loops++;
	gb_interrupt();		/* as the SIGINT handler does */
}

static void bm_after_interrupt(struct gb_state *s)
{
	while (gb_keep_running(s))
		abort();
}

static json_t *find(json_t *benchmarks, const char *name)
{
	size_t i;
	json_t *b;

	json_array_foreach(benchmarks, i, b)
		if (!strcmp(json_string_value(json_object_get(b, "name")), name))
			return b;
	return NULL;
}

static const char *str_of(json_t *b, const char *key)
{
	const char *v = json_string_value(json_object_get(b, key));

	return v ? v : "";
}

static void check_results(const char *path)
{
	json_error_t err;
	json_t *root = json_load_file(path, 0, &err), *benchmarks, *b;

	if (!ok(root != NULL, "libbenchmark wrote JSON (%s)", err.text))
		return;
	benchmarks = json_object_get(root, "benchmarks");
	b = find(benchmarks, "t/skip");
	ok(b && json_is_true(json_object_get(b, "error_occurred")),
	   "a skip is reported as error_occurred");
	is_str(str_of(b, "error_message"), "skipped: no user namespaces (EPERM)",
	       "with the skipped: prefix and the reason");
	b = find(benchmarks, "t/extras/iterations:10");
	is_str(str_of(b, "label"), "hello", "label reaches the JSON");
	is_int(json_integer_value(json_object_get(b, "iterations")), 10,
	       "fixed iterations in the JSON");
	ok(json_real_value(json_object_get(b, "widgets")) == 42.0,
	   "user counter reaches the JSON");
	ok(json_object_get(b, "items_per_second") != NULL,
	   "items processed gives items_per_second");
	b = find(benchmarks, "t/manual/iterations:100/manual_time");
	is_near(json_real_value(json_object_get(b, "real_time")), 1000.0, 1e-6,
		"manual time: 1 us per iteration reads 1000 ns");
	b = find(benchmarks, "t/zero/iterations:3/repeats:2_mean");
	ok(b && json_real_value(json_object_get(b, "zero")) == 0.0,
	   "a counter 0 in both repetitions: its mean is 0");
	b = find(benchmarks, "t/zero/iterations:3/repeats:2_cv");
	ok(b && !json_object_get(b, "zero") &&
	   json_real_value(json_object_get(b, "one")) == 0.0,
	   "its cv (0/0) is left out, the other counter's kept: the file "
	   "parses");
	b = find(benchmarks, "t/interrupt/iterations:50");
	is_str(str_of(b, "error_message"), "", "the interrupting benchmark finished");
	ok(!find(benchmarks, "t/after_interrupt/iterations:50"),
	   "a benchmark after an interrupt is not started, nor reported");
	json_decref(root);
}

int main(void)
{
	char path[] = "/tmp/nsb-test-gbench-XXXXXX";
	int fd = mkstemp(path);
	char outflag[64];
	char *argv[] = { "test_gbench", outflag, "--benchmark_out_format=json",
			 "--benchmark_format=json", NULL };
	int argc = 4;
	int64_t args[2] = { 3, 7 };
	int saved, ran;
	bool unrecognized;

	plan_no_plan();
	if (fd < 0)
		return 1;
	close(fd);
	snprintf(outflag, sizeof(outflag), "--benchmark_out=%s", path);
	/* libbenchmark's console output would corrupt our TAP stream. */
	if (!freopen("/dev/null", "w", stderr))
		return 1;

	gb_fixed_iterations(gb_register("t/while", bm_while), 1000);
	gb_fixed_iterations(gb_register("t/for", bm_for), 1234);
	gb_fixed_iterations(gb_arg_names(gb_args(gb_register("t/args", bm_args),
						 2, args), "a", "b", NULL), 5);
	gb_fixed_iterations(gb_dense_range(gb_register("t/dense", bm_dense),
					   0, 4, 1), 3);
	gb_register("t/skip", bm_skip);
	gb_fixed_iterations(gb_register("t/extras", bm_extras), 10);
	gb_fixed_iterations(gb_use_manual_time(gb_register("t/manual",
							   bm_manual)), 100);
	gb_fixed_iterations(gb_register_data("t/data/a", bm_data, &rows[0]), 1);
	gb_fixed_iterations(gb_register_data("t/data/b", bm_data, &rows[1]), 1);
	gb_fixed_iterations(gb_register("t/data/none", bm_no_data), 1);
	gb_fixed_iterations(gb_use_manual_time(gb_register("t/fixed",
							   bm_fixed)), 5000);
	gb_repetitions(gb_fixed_iterations(gb_register("t/zero", bm_zero), 3),
		       2);
	gb_fixed_iterations(gb_register("t/interrupt", bm_interrupt), 50);
	gb_fixed_iterations(gb_register("t/after_interrupt",
					bm_after_interrupt), 50);

	/* libbenchmark's console report goes nowhere; TAP keeps stdout. */
	fflush(stdout);
	saved = dup(1);
	dup2(open("/dev/null", O_WRONLY), 1);
	gb_initialize(&argc, argv);
	unrecognized = gb_report_unrecognized(argc, argv);
	ran = gb_run_specified();
	fflush(stdout);
	dup2(saved, 1);
	ok(!unrecognized, "flags understood");
	is_int(ran, 18, "18 benchmark instances ran");
	check_fixed();
	is_int(data_seen, 33, "gb_data() hands each variant its own row");
	is_int(data_null, 1, "and NULL to a gb_register() benchmark");
	is_int(loops_while, 1000, "while (gb_keep_running()) ran 1000 times");
	is_int(loops_for, 1234, "gb_for_each_iteration() ran 1234 times");
	is_int(seen_args[0], 3, "first argument arrives");
	is_int(seen_args[1], 7, "second argument arrives");
	is_int(dense_calls, 5, "dense range 0..4 gives 5 instances");
	is_int(dense_mask, 0x1f, "with arguments 0, 1, 2, 3, 4");
	is_int(interrupted_loops, 50, "loop before the interrupt ran fully");
	ok(gb_was_interrupted(), "interrupt is remembered");
	is_int(gb_not_started(), 1, "and the benchmark it kept from starting");
	check_results(path);
	unlink(path);
	return done_testing();
}
