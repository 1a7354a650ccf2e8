/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gbench.h — a thin C API over Google Benchmark (libbenchmark 1.7.1).
 *
 * The benchmark body is plain C:
 *
 *	static void bm_walk(struct gb_state *s)
 *	{
 *		int depth = gb_range(s, 0);
 *		struct ns *leaf = build_chain(depth);	// set-up: not timed
 *
 *		while (gb_keep_running(s))
 *			gb_do_not_optimize(in_userns(leaf, root));
 *		free_chain(leaf);			// tear-down: not timed
 *	}
 *
 *	b = gb_register("models/in_userns/walk", bm_walk);
 *	gb_arg_names(b, "depth", NULL);
 *	gb_dense_range(b, 0, 32, 1);
 *
 * The timer runs from the first gb_keep_running() that returns true until
 * the one that returns false.  The loop's fast path is inline below: a
 * decrement and a branch, the same as Google Benchmark's own range-for.
 * The slow path hands it batches of up to ~10 ms (a call and a clock read
 * each), so that an interrupt ends a long run within that time.
 * Everything else is implemented in gbench.cc, the project's only C++.
 */
#ifndef NSB_GBENCH_H
#define NSB_GBENCH_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Per-run state handed to a C benchmark; fields are private to the shim. */
struct gb_state {
	int64_t left;		/* iterations left in this batch */
	void *st;		/* benchmark::State */
	int64_t batch;		/* size of the last batch handed out */
	int64_t batch_ns;	/* when (CLOCK_MONOTONIC ns) */
	const void *data;	/* gb_register_data()'s pointer */
	bool fixed;		/* batches by count alone: gb_fixed_batches() */
};

struct gb_bench;		/* benchmark::internal::Benchmark */

typedef void (*gb_fn)(struct gb_state *s);

enum gb_unit { GB_NS, GB_US, GB_MS, GB_S };

/* How a user counter is reported (benchmark::Counter::Flags). */
enum gb_counter_flags {
	GB_COUNTER_DEFAULT = 0,
	GB_COUNTER_RATE = 1 << 0,		/* per second */
	GB_COUNTER_AVG_ITERATIONS = 1 << 3,	/* per iteration */
};

bool gb__next_batch(struct gb_state *s);
/*
 * From now on this run's batches double up to GB_FIXED_BATCH_MAX
 * whatever they take: their sizes follow the iteration count alone, not
 * the clock.  For a body whose every batch pays a fixed cost inside the
 * timing (a round trip to a worker): sized by the clock, a slower
 * operation gets smaller batches and pays that cost more often per
 * iteration.
 */
#define GB_FIXED_BATCH_MAX 4096
void gb_fixed_batches(struct gb_state *s);
int64_t gb__batch(struct gb_state *s);

/*
 * The state loop: while (gb_keep_running(s)) { ... }
 * Like State::KeepRunning() its counter lives in memory (in *s), so a
 * body that clobbers memory pays a store and a reload per iteration
 * (~2 ns on an empty body here).
 */
static inline bool gb_keep_running(struct gb_state *s)
{
	if (__builtin_expect(s->left > 0, 1)) {
		s->left--;
		return true;
	}
	return gb__next_batch(s);
}

/*
 * The same loop with its counter in a local the compiler keeps in a
 * register, as Google Benchmark's range-for does; use it for bodies of a
 * few nanoseconds:  gb_for_each_iteration(s) { ... }
 */
#define gb_for_each_iteration(s)					\
	for (int64_t _gb_n = 0;						\
	     _gb_n > 0 || (_gb_n = gb__batch(s)) > 0; _gb_n--)

/* Keep the compiler from deleting a computation whose result is unused. */
#define gb_do_not_optimize(v) do {					\
	__typeof__(v) _gb_v = (v);					\
	__asm__ volatile("" : : "r,m"(_gb_v) : "memory");		\
} while (0)

static inline void gb_clobber_memory(void)
{
	__asm__ volatile("" : : : "memory");
}

/* --- inside a benchmark ----------------------------------------------- */
int64_t gb_range(struct gb_state *s, int index);	/* state.range(i) */
/* The pointer given to gb_register_data() (NULL for gb_register()). */
static inline const void *gb_data(struct gb_state *s)
{
	return s->data;
}
int64_t gb_iterations(struct gb_state *s);
void gb_pause(struct gb_state *s);			/* PauseTiming */
void gb_resume(struct gb_state *s);			/* ResumeTiming */
void gb_set_items_processed(struct gb_state *s, int64_t items);
void gb_counter(struct gb_state *s, const char *name, double value,
		enum gb_counter_flags flags);
void gb_label(struct gb_state *s, const char *label);
/* With gb_use_manual_time(): the time this iteration took. */
void gb_set_iteration_time(struct gb_state *s, double seconds);
/*
 * A scenario this machine cannot run: reported with error_message
 * "skipped: <reason>" (libbenchmark 1.7.1 has no SkipWithMessage), which
 * nsbench's tools read as a skip, not a failure.  Call before the loop.
 */
void gb_skip(struct gb_state *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A real failure of the benchmark (a fixture that did not hold). */
void gb_error(struct gb_state *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
bool gb_failed(struct gb_state *s);

#define GB_SKIP_PREFIX "skipped: "

/* --- registration ------------------------------------------------------ */
struct gb_bench *gb_register(const char *name, gb_fn fn);
/*
 * The same, handing data to every run (gb_data()): a family registers
 * one body and a table of variants, as kselftest's FIXTURE_VARIANT does.
 * data must outlive the runs.
 */
struct gb_bench *gb_register_data(const char *name, gb_fn fn,
				  const void *data);
struct gb_bench *gb_arg(struct gb_bench *b, int64_t x);
struct gb_bench *gb_args(struct gb_bench *b, int n, const int64_t *args);
/* All combinations of [lo, hi] per argument, powers of 8 between (Ranges). */
struct gb_bench *gb_ranges(struct gb_bench *b, int n, const int64_t *lo,
			   const int64_t *hi);
struct gb_bench *gb_range_multiplier(struct gb_bench *b, int multiplier);
struct gb_bench *gb_dense_range(struct gb_bench *b, int64_t lo, int64_t hi,
				int step);
/* NULL-terminated list of argument names: gb_arg_names(b, "depth", NULL) */
struct gb_bench *gb_arg_names(struct gb_bench *b, ...);
struct gb_bench *gb_unit(struct gb_bench *b, enum gb_unit unit);
struct gb_bench *gb_min_time(struct gb_bench *b, double seconds);
struct gb_bench *gb_fixed_iterations(struct gb_bench *b, int64_t n);
struct gb_bench *gb_repetitions(struct gb_bench *b, int n);
/*
 * real_time comes from gb_set_iteration_time(), not the loop's clock: for
 * benchmarks that must do untimed work (cache flushes) inside every
 * iteration without PauseTiming()'s cost and bias.
 */
struct gb_bench *gb_use_manual_time(struct gb_bench *b);

/*
 * References for the shim's own overhead: an empty loop written directly
 * in C++ against libbenchmark, body gb_clobber_memory()'s equivalent —
 * `for (auto _ : state)` (prefix/range_for) and `while (state.KeepRunning())`
 * (prefix/keep_running).
 */
void gb_register_cxx_references(const char *prefix);

/*
 * Called when a run's timer starts and stops (and around PauseTiming /
 * ResumeTiming): a profiler switched by them sees only timed work
 * (bench/perfctl.c drives perf record's control FIFO).  NULL: none.
 */
void gb_set_timer_hooks(void (*on)(void), void (*off)(void));
/* Iterations of every run that has ended without error, summed. */
int64_t gb_timed_iterations(void);

/* --- running ------------------------------------------------------------ */
/* Parses and removes Google Benchmark's --benchmark_* flags. */
void gb_initialize(int *argc, char **argv);
/* True (and a message on stderr) if argv holds flags nobody understood. */
bool gb_report_unrecognized(int argc, char **argv);
void gb_add_context(const char *key, const char *value);
/*
 * How many benchmarks --benchmark_filter selects, without running any;
 * -1 (and libbenchmark's message on stderr) for a filter that is no regex.
 */
int gb_count_selected(void);
/* --benchmark_list_tests: gb_run_specified() lists, runs nothing. */
bool gb_list_only(void);
/*
 * Besides the console, write the run as it goes to these descriptors
 * (-1: not at all; never closed here): Google Benchmark JSON to results,
 * format "json", "csv" or "console" (Google Benchmark's file formats) to
 * user.
 */
void gb_set_outputs(int results, int user, const char *format);
/* Runs what --benchmark_filter selects; returns how many it selected. */
int gb_run_specified(void);
/*
 * Stop the run early (from a signal handler): the running benchmark ends
 * at its next batch with error "interrupted"; the ones after it do not
 * start and are left out of every report (gb_not_started() counts them).
 */
void gb_interrupt(void);
bool gb_was_interrupted(void);
int gb_not_started(void);

#ifdef __cplusplus
}
#endif

#endif /* NSB_GBENCH_H */
