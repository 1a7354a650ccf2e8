// SPDX-License-Identifier: GPL-2.0
//
// gbench.cc — the C API of gbench.h over Google Benchmark.  The project's
// only C++ file: extern "C" functions over benchmark::RegisterBenchmark,
// benchmark::State and the reporters, nothing else.

#include "bench/gbench.h"

#include <benchmark/benchmark.h>
#include <ext/stdio_filebuf.h>

#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

// Exported by libbenchmark 1.7.1 but not declared in its header: the flags
// its default reporters are made from (benchmark.cc), so that ours, which
// leave out the benchmarks an interrupt kept from starting, match them.
namespace benchmark {
extern std::string FLAGS_benchmark_format;
extern std::string FLAGS_benchmark_out;
extern std::string FLAGS_benchmark_out_format;
extern bool FLAGS_benchmark_list_tests;
namespace internal {
ConsoleReporter::OutputOptions GetOutputOptions(bool force_no_color);
} // namespace internal
} // namespace benchmark

using benchmark::BenchmarkReporter;
using benchmark::State;
using benchmark::internal::Benchmark;

namespace {

std::atomic<bool> interrupted{false};

// True from a report until the next benchmark body starts: a body that
// starts after an interrupt and after a report is a benchmark that never
// ran (not started); one that starts with no report in between is a
// further repetition of the benchmark the interrupt stopped.
bool between_benchmarks = true;
int not_started;

// The error of a benchmark an interrupt kept from starting: its reports
// are dropped (reporter below), so neither the console nor a file sees it.
const char not_started_msg[] = "nsbench: not started (interrupted)";

// gb_set_timer_hooks(), and what the hooked runs counted.
void (*timer_on)(), (*timer_off)();
int64_t timed_iterations;

// Where results go besides the console (gb_set_outputs()).
int results_fd = -1, user_fd = -1;
std::string user_format = "json";

// Batches of the C loop: the first has one iteration, each next one twice
// as many while a batch takes less than half of BATCH_NS, so an interrupt
// is seen within ~BATCH_NS and a fast body pays one call per BATCH_NS.
constexpr int64_t BATCH_NS = 10 * 1000 * 1000;

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

int64_t now_ns()
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * INT64_C(1000000000) + ts.tv_nsec;
}

int64_t next_batch_size(struct gb_state *s, int64_t left)
{
	int64_t now = now_ns();

	if (!s->batch)
		s->batch = 1;
	else if (s->fixed)
		s->batch = s->batch < GB_FIXED_BATCH_MAX ? s->batch * 2 :
			   GB_FIXED_BATCH_MAX;
	else if (now - s->batch_ns < BATCH_NS / 2 && s->batch < INT64_MAX / 2)
		s->batch *= 2;
	else if (now - s->batch_ns > 2 * BATCH_NS && s->batch > 1)
		s->batch /= 2;
	s->batch_ns = now;
	return s->batch < left ? s->batch : left;
}

bool never_started(const std::vector<BenchmarkReporter::Run> &runs)
{
	for (const auto &r : runs)
		if (!r.error_occurred || r.error_message != not_started_msg)
			return false;
	return !runs.empty();
}

/*
 * runs without the counters libbenchmark could not compute: the
 * coefficient of variation of a counter that is 0 in every repetition
 * is 0/0 (make validate's nsb_ticked_chunks with settled chunks), and
 * its JSON reporter writes that NaN as a bare NaN, which no JSON parser
 * takes: the whole results file was refused.
 */
std::vector<BenchmarkReporter::Run>
finite_counters(const std::vector<BenchmarkReporter::Run> &runs)
{
	std::vector<BenchmarkReporter::Run> out(runs);

	for (auto &r : out)
		for (auto c = r.counters.begin(); c != r.counters.end();)
			c = std::isfinite(c->second.value) ? std::next(c) :
			    r.counters.erase(c);
	return out;
}

// Passes reports on to other reporters, less those of benchmarks that an
// interrupt kept from starting, and less non-finite counters.
class Filter : public BenchmarkReporter {
public:
	explicit Filter(bool counts) : counts_(counts) {}

	/*
	 * os: r's stream, flushed after each report; adopt: r writes to
	 * the streams libbenchmark sets on this reporter instead.
	 */
	void add(BenchmarkReporter *r, std::ostream *os, bool adopt = false)
	{
		to_.push_back(r);
		streams_.push_back(os);
		adopt_.push_back(adopt);
	}

	bool ReportContext(const Context &context) override
	{
		bool ok = true;

		for (size_t i = 0; i < to_.size(); i++) {
			if (adopt_[i]) {
				to_[i]->SetOutputStream(&GetOutputStream());
				to_[i]->SetErrorStream(&GetErrorStream());
			}
			ok = to_[i]->ReportContext(context) && ok;
		}
		flush();
		return ok;
	}

	void ReportRuns(const std::vector<Run> &runs) override
	{
		between_benchmarks = true;
		if (never_started(runs)) {
			not_started += counts_;
			return;
		}
		const std::vector<Run> finite = finite_counters(runs);

		for (auto *r : to_)
			r->ReportRuns(finite);
		flush();
	}

	void Finalize() override
	{
		for (auto *r : to_)
			r->Finalize();
		flush();
	}

private:
	void flush()
	{
		for (auto *os : streams_)
			if (os)
				os->flush();
	}

	bool counts_;
	std::vector<BenchmarkReporter *> to_;
	std::vector<std::ostream *> streams_;
	std::vector<bool> adopt_;
};

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
// libbenchmark's CSVReporter takes its columns from the first report and
// aborts at a counter it has not seen, and nsbench's families count
// different things: given every report at once (at the end), its columns
// are all the counters, empty where a row has none.
class CsvAll : public BenchmarkReporter {
public:
	bool ReportContext(const Context &context) override
	{
		csv_.SetOutputStream(&GetOutputStream());
		csv_.SetErrorStream(&GetErrorStream());
		return csv_.ReportContext(context);
	}

	void ReportRuns(const std::vector<Run> &runs) override
	{
		runs_.insert(runs_.end(), runs.begin(), runs.end());
	}

	void Finalize() override
	{
		if (!runs_.empty())
			csv_.ReportRuns(runs_);
		csv_.Finalize();
	}

private:
	benchmark::CSVReporter csv_;
	std::vector<Run> runs_;
};
#pragma GCC diagnostic pop

// What libbenchmark's CreateReporter() makes of a --benchmark_*format.
std::unique_ptr<BenchmarkReporter> make_reporter(const std::string &format,
						 bool console)
{
	if (format == "json")
		return std::make_unique<benchmark::JSONReporter>();
	if (format == "csv")
		return std::make_unique<CsvAll>();
	return std::make_unique<benchmark::ConsoleReporter>(console ?
		benchmark::internal::GetOutputOptions(false) :
		benchmark::ConsoleReporter::OO_None);
}

// A reporter writing to a file descriptor of ours (not closed here).
struct fd_sink {
	fd_sink(int fd, const std::string &format)
		: buf(dup(fd), std::ios::out), os(&buf),
		  rep(make_reporter(format, false))
	{
		rep->SetOutputStream(&os);
		rep->SetErrorStream(&os);
	}

	__gnu_cxx::stdio_filebuf<char> buf;
	std::ostream os;
	std::unique_ptr<BenchmarkReporter> rep;
};

} // namespace

extern "C" {

// The C loop's slow path.  The first call starts the timer, the last one
// stops it and ends the loop, as State::KeepRunningBatch() does; between
// them the run goes to the inline fast path in batches (next_batch_size()),
// each asked of State::KeepRunningBatch() so that it never overshoots.
bool gb__next_batch(struct gb_state *s)
{
	State &st = state_of(s);
	int64_t left, n;
	bool first = !s->batch;

	if (interrupted.load(std::memory_order_relaxed) && !st.error_occurred())
		st.SkipWithError("interrupted");
	/* Before the first batch iterations() is 0; after an error, max. */
	left = st.max_iterations - st.iterations();
	n = left > 0 ? next_batch_size(s, left) : 1;
	if (first && timer_on)
		timer_on();
	if (!st.KeepRunningBatch(n)) {
		if (timer_off)
			timer_off();
		if (!st.error_occurred())
			timed_iterations += st.iterations();
		return false;
	}
	s->left = n - 1;
	return true;
}

// gb_for_each_iteration()'s slow path: the size of the next batch, 0 at
// the end.  Same timer semantics as gb__next_batch().
void gb_fixed_batches(struct gb_state *s)
{
	s->fixed = true;
}

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
	if (timer_off)
		timer_off();
}

void gb_resume(struct gb_state *s)
{
	if (timer_on)
		timer_on();
	state_of(s).ResumeTiming();
}

void gb_set_timer_hooks(void (*on)(void), void (*off)(void))
{
	timer_on = on;
	timer_off = off;
}

int64_t gb_timed_iterations(void)
{
	return timed_iterations;
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
	/*
	 * After an interrupt a failure is its doing (an abandoned worker
	 * call or set-up), not the kernel's: one reason, as for the loop.
	 */
	if (interrupted.load(std::memory_order_relaxed))
		msg = "interrupted";
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
	return gb_register_data(name, fn, nullptr);
}

struct gb_bench *gb_register_data(const char *name, gb_fn fn,
				  const void *data)
{
	auto body = [fn, data](State &st) {
		struct gb_state s = { 0, &st, 0, 0, data, false };

		if (interrupted.load(std::memory_order_relaxed)) {
			/* No fixture, no loop; the iteration count of a
			 * repetition must match its siblings' (statistics). */
			st.SkipWithError(between_benchmarks ? not_started_msg :
					 "interrupted");
			while (st.KeepRunningBatch(1))
				;
			return;
		}
		between_benchmarks = false;
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

int gb_count_selected(void)
{
	benchmark::ConsoleReporter quiet(benchmark::ConsoleReporter::OO_None);
	std::ostringstream names, errors;
	std::string out = benchmark::FLAGS_benchmark_out;
	bool list = benchmark::FLAGS_benchmark_list_tests;
	size_t n;

	/* The listing runs nothing and, without --benchmark_out, opens
	 * no file; it prints the names to our stream, errors to another. */
	quiet.SetOutputStream(&names);
	quiet.SetErrorStream(&errors);
	benchmark::FLAGS_benchmark_list_tests = true;
	benchmark::FLAGS_benchmark_out.clear();
	n = benchmark::RunSpecifiedBenchmarks(&quiet);
	benchmark::FLAGS_benchmark_list_tests = list;
	benchmark::FLAGS_benchmark_out = out;
	if (!n && errors.str().find("Failed to match") == std::string::npos) {
		fprintf(stderr, "nsbench-bench: --benchmark_filter: %s",
			errors.str().c_str());
		return -1;
	}
	return static_cast<int>(n);
}

bool gb_list_only(void)
{
	return benchmark::FLAGS_benchmark_list_tests;
}

void gb_set_outputs(int results, int user, const char *format)
{
	results_fd = results;
	user_fd = user;
	user_format = format && *format ? format : "json";
}

int gb_run_specified(void)
{
	Filter display(true), files(false);
	auto console = make_reporter(benchmark::FLAGS_benchmark_format, true);
	std::unique_ptr<BenchmarkReporter> gb_file;
	std::unique_ptr<fd_sink> results, user;
	bool own_out = benchmark::FLAGS_benchmark_out.empty();
	size_t n;

	display.add(console.get(), nullptr);
	/* A --benchmark_out that reached libbenchmark (a direct user of
	 * the shim): its stream is the one it sets on our reporter. */
	if (!own_out) {
		gb_file = make_reporter(benchmark::FLAGS_benchmark_out_format,
					false);
		files.add(gb_file.get(), nullptr, true);
	}
	if (results_fd >= 0) {
		results = std::make_unique<fd_sink>(results_fd, "json");
		files.add(results->rep.get(), &results->os);
	}
	if (user_fd >= 0) {
		user = std::make_unique<fd_sink>(user_fd, user_format);
		files.add(user->rep.get(), &user->os);
	}
	/* libbenchmark takes a file reporter only with --benchmark_out;
	 * ours write to their own descriptors. */
	if (own_out && (results || user))
		benchmark::FLAGS_benchmark_out = "/dev/null";
	n = benchmark::RunSpecifiedBenchmarks(&display,
			results || user || gb_file ? &files : nullptr);
	if (own_out)
		benchmark::FLAGS_benchmark_out.clear();
	benchmark::Shutdown();
	return static_cast<int>(n);
}

void gb_interrupt(void)
{
	interrupted.store(true, std::memory_order_relaxed);
}

bool gb_was_interrupted(void)
{
	return interrupted.load(std::memory_order_relaxed);
}

int gb_not_started(void)
{
	return not_started;
}

} // extern "C"
