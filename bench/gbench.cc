// SPDX-License-Identifier: GPL-2.0
//
// gbench.cc — the C API of gbench.h over Google Benchmark.  The project's
// only C++ file: extern "C" functions over benchmark::RegisterBenchmark
// and benchmark::State, nothing else.

#include "bench/gbench.h"

#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <string>
#include <vector>

using benchmark::State;
using benchmark::internal::Benchmark;

namespace {

std::atomic<bool> interrupted{false};

State &state_of(struct gb_state *s)
{
	return *static_cast<State *>(s->st);
}

Benchmark *bench_of(struct gb_bench *b)
{
	return reinterpret_cast<Benchmark *>(b);
}

struct gb_bench *handle_of(Benchmark *b)
{
	return reinterpret_cast<struct gb_bench *>(b);
}

std::string vformat(const char *fmt, va_list ap)
{
	char buf[512];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	return buf;
}

} // namespace

extern "C" {

// The C loop's slow path.  The first call starts the timer and hands the
// whole run (max_iterations) to the inline fast path; the next one stops
// the timer and ends the loop, as State::KeepRunningBatch() does.
bool gb__next_batch(struct gb_state *s)
{
	State &st = state_of(s);

	if (interrupted.load(std::memory_order_relaxed) && !st.error_occurred())
		st.SkipWithError("interrupted");
	if (!st.KeepRunningBatch(st.max_iterations))
		return false;
	s->left = st.max_iterations - 1;
	return true;
}

// gb_for_each_iteration()'s slow path: the size of the next batch, 0 at
// the end.  Same timer semantics as gb__next_batch().
int64_t gb__batch(struct gb_state *s)
{
	return gb__next_batch(s) ? s->left + 1 : 0;
}

int64_t gb_range(struct gb_state *s, int index)
{
	return state_of(s).range(index);
}

int64_t gb_iterations(struct gb_state *s)
{
	return state_of(s).iterations();
}

void gb_pause(struct gb_state *s)
{
	state_of(s).PauseTiming();
}

void gb_resume(struct gb_state *s)
{
	state_of(s).ResumeTiming();
}

void gb_set_items_processed(struct gb_state *s, int64_t items)
{
	state_of(s).SetItemsProcessed(items);
}

void gb_counter(struct gb_state *s, const char *name, double value,
		enum gb_counter_flags flags)
{
	state_of(s).counters[name] = benchmark::Counter(
		value, static_cast<benchmark::Counter::Flags>(flags));
}

void gb_label(struct gb_state *s, const char *label)
{
	state_of(s).SetLabel(label);
}

void gb_skip(struct gb_state *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	std::string msg = GB_SKIP_PREFIX + vformat(fmt, ap);
	va_end(ap);
	state_of(s).SkipWithError(msg.c_str());
	s->left = 0;
}

void gb_error(struct gb_state *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	std::string msg = vformat(fmt, ap);
	va_end(ap);
	state_of(s).SkipWithError(msg.c_str());
	s->left = 0;
}

void gb_set_iteration_time(struct gb_state *s, double seconds)
{
	state_of(s).SetIterationTime(seconds);
}

bool gb_failed(struct gb_state *s)
{
	return state_of(s).error_occurred();
}

struct gb_bench *gb_register(const char *name, gb_fn fn)
{
	auto body = [fn](State &st) {
		struct gb_state s = { 0, &st };

		fn(&s);
	};
	return handle_of(benchmark::RegisterBenchmark(name, body));
}

void gb_register_cxx_references(const char *prefix)
{
	std::string p = prefix;

	benchmark::RegisterBenchmark((p + "/range_for").c_str(), [](State &st) {
		for (auto _ : st)
			benchmark::ClobberMemory();
	});
	benchmark::RegisterBenchmark((p + "/keep_running").c_str(),
				     [](State &st) {
		while (st.KeepRunning())
			benchmark::ClobberMemory();
	});
}

struct gb_bench *gb_arg(struct gb_bench *b, int64_t x)
{
	return handle_of(bench_of(b)->Arg(x));
}

struct gb_bench *gb_args(struct gb_bench *b, int n, const int64_t *args)
{
	return handle_of(bench_of(b)->Args(std::vector<int64_t>(args,
								 args + n)));
}

struct gb_bench *gb_ranges(struct gb_bench *b, int n, const int64_t *lo,
			   const int64_t *hi)
{
	std::vector<std::pair<int64_t, int64_t>> r;

	for (int i = 0; i < n; i++)
		r.emplace_back(lo[i], hi[i]);
	return handle_of(bench_of(b)->Ranges(r));
}

struct gb_bench *gb_range_multiplier(struct gb_bench *b, int multiplier)
{
	return handle_of(bench_of(b)->RangeMultiplier(multiplier));
}

struct gb_bench *gb_dense_range(struct gb_bench *b, int64_t lo, int64_t hi,
				int step)
{
	return handle_of(bench_of(b)->DenseRange(lo, hi, step));
}

struct gb_bench *gb_arg_names(struct gb_bench *b, ...)
{
	std::vector<std::string> names;
	va_list ap;
	const char *n;

	va_start(ap, b);
	while ((n = va_arg(ap, const char *)))
		names.emplace_back(n);
	va_end(ap);
	return handle_of(bench_of(b)->ArgNames(names));
}

struct gb_bench *gb_unit(struct gb_bench *b, enum gb_unit unit)
{
	static const benchmark::TimeUnit units[] = {
		benchmark::kNanosecond, benchmark::kMicrosecond,
		benchmark::kMillisecond, benchmark::kSecond,
	};
	return handle_of(bench_of(b)->Unit(units[unit]));
}

struct gb_bench *gb_min_time(struct gb_bench *b, double seconds)
{
	return handle_of(bench_of(b)->MinTime(seconds));
}

struct gb_bench *gb_fixed_iterations(struct gb_bench *b, int64_t n)
{
	return handle_of(bench_of(b)->Iterations(n));
}

struct gb_bench *gb_repetitions(struct gb_bench *b, int n)
{
	return handle_of(bench_of(b)->Repetitions(n));
}

struct gb_bench *gb_use_manual_time(struct gb_bench *b)
{
	return handle_of(bench_of(b)->UseManualTime());
}

void gb_initialize(int *argc, char **argv)
{
	benchmark::Initialize(argc, argv);
}

bool gb_report_unrecognized(int argc, char **argv)
{
	return benchmark::ReportUnrecognizedArguments(argc, argv);
}

void gb_add_context(const char *key, const char *value)
{
	benchmark::AddCustomContext(key, value);
}

int gb_run_specified(void)
{
	int n = static_cast<int>(benchmark::RunSpecifiedBenchmarks());

	benchmark::Shutdown();
	return n;
}

void gb_interrupt(void)
{
	interrupted.store(true, std::memory_order_relaxed);
}

bool gb_was_interrupted(void)
{
	return interrupted.load(std::memory_order_relaxed);
}

} // extern "C"
