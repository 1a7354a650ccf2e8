// SPDX-License-Identifier: GPL-2.0
/*
 * nsbench-bench — runs the registered benchmark families through Google
 * Benchmark and writes one results file (results/README.md).
 *
 * nsbench's own flags come first and are removed; everything else
 * (--benchmark_filter, --benchmark_repetitions, --benchmark_min_time,
 * --benchmark_format, ...) passes to Google Benchmark unchanged, except
 * --benchmark_out and --benchmark_out_format: the user's file is written
 * here, beside the results file, through a temporary renamed at the end.
 *
 * Files in progress are <file>.XXXXXX.partial, made with O_EXCL in the
 * file's directory (no name to plant a symlink at) and flock()ed while the
 * run lives: an unlocked one is a killed run's leftover, and the next run
 * says so.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bench/gbench.h"
#include "bench/registry.h"
#include "bench/perfctl.h"
#include "bench/sys/interleave.h"
#include "bench/sys/variant.h"
#include "workloads/lsm.h"
#include "src/lib/base/nsbench.h"
#include "src/lib/base/options.h"
#include "workloads/fixture.h"

struct options {
	struct nsb_run_info info;
	enum nsb_tier tier;
	const char *out;	/* results file; NULL: results/<UTC>-<host>-<label> */
	const char *results_dir;
	bool list;
	bool no_results;
	bool version;
	const char *interleave;	/* --interleave=SWITCH */
	unsigned long interleave_block;	/* --interleave-block=N */
	unsigned long interleave_settle;	/* --interleave-settle=US */
	unsigned long interleave_window;	/* --interleave-window=N */
	unsigned long interleave_chunk;		/* --interleave-chunk=N */
	unsigned long interleave_paired;	/* --interleave-paired=W */
	unsigned long slab_reset;	/* --slab-reset=N */
	int sched;		/* --sched: SCHED_BATCH, SCHED_FIFO or -1 */
	unsigned long slice_us;	/* --sched-slice=US, 0: the kernel's */
	const char *perf_control;	/* --perf-control=DIR */
	const char *context[16];	/* --context=KEY=VALUE, in order */
	int ncontext;
	const char *filter;	/* the last --benchmark_filter= */
	const char *gb_out;	/* --benchmark_out=FILE, taken from libbenchmark */
	const char *gb_out_format;	/* --benchmark_out_format=F, likewise */
};

/* A file being written: fd on path (<file>.XXXXXX.partial), then file. */
struct pending {
	int fd;
	char path[PATH_MAX];
};

static struct pending results = { .fd = -1 }, user_out = { .fd = -1 };

static const struct nsb_usage usage = {
	.who = "nsbench-bench",
	.synopsis = "nsbench-bench [nsbench options] [--benchmark_* options]",
	.epilog =
"Google Benchmark options pass through, e.g. --benchmark_filter=in_userns\n"
"--benchmark_repetitions=5 --benchmark_min_time=0.1 (see --help below);\n"
"--benchmark_out=FILE writes FILE too, in --benchmark_out_format's format.\n"
"Ctrl-C (SIGINT, SIGTERM, SIGHUP) stops the running benchmark at its next\n"
"batch, starts no other and writes the results file marked incomplete\n"
"(exit 130); a second one quits at once and writes nothing.\n",
};

/* --context=KEY=VALUE: a plain key, so results files stay greppable. */
static int add_context(const struct nsb_option *opt, const char *arg)
{
	struct options *o = opt->value;
	size_t klen = strspn(arg, "abcdefghijklmnopqrstuvwxyz0123456789_");

	if (!klen || arg[klen] != '=') {
		fprintf(stderr, "nsbench-bench: --context: bad value '%s' "
			"(want KEY=VALUE, KEY of a-z 0-9 _)\n", arg);
		return -2;
	}
	if (o->ncontext == (int)NSB_ARRAY_SIZE(o->context)) {
		fprintf(stderr, "nsbench-bench: --context: more than %zu\n",
			NSB_ARRAY_SIZE(o->context));
		return -2;
	}
	o->context[o->ncontext++] = arg;
	return 0;
}

/* A --benchmark_*format= value libbenchmark takes (else it exits 0). */
static bool gb_format_ok(const char *f)
{
	return !strcmp(f, "console") || !strcmp(f, "json") || !strcmp(f, "csv");
}

/*
 * The Google Benchmark flags nsbench looks at: the output file and its
 * format are taken over (1: not for libbenchmark), and every format is
 * checked here, since libbenchmark answers a bad one with its usage and
 * exit status 0.
 */
static int gb_flag(struct options *o, const char *arg)
{
	const char *v = strchr(arg, '=');
	size_t len = v ? (size_t)(v - arg) : strlen(arg);

	if (!v)
		return 0;
	v++;
	if (len == 18 && !strncmp(arg, "--benchmark_filter", len))
		o->filter = v;
	if (len == 18 && !strncmp(arg, "--benchmark_format", len) &&
	    !gb_format_ok(v))
		goto bad_format;
	if (len == 15 && !strncmp(arg, "--benchmark_out", len)) {
		if (!*v) {
			fprintf(stderr, "nsbench-bench: --benchmark_out= needs "
				"a file name\n");
			return -1;
		}
		o->gb_out = v;
		return 1;
	}
	if (len == 22 && !strncmp(arg, "--benchmark_out_format", len)) {
		if (!gb_format_ok(v))
			goto bad_format;
		o->gb_out_format = v;
		return 1;
	}
	return 0;
bad_format:
	fprintf(stderr, "nsbench-bench: %.*s must be console, json or csv, "
		"not '%s'\n", (int)len, arg, v);
	return -1;
}

static const char *const tiers[] = {
	[NSB_TIER_QUICK] = "quick", [NSB_TIER_FULL] = "full", NULL,
};

static int set_tier(const struct nsb_option *opt, const char *arg)
{
	struct options *o = opt->value;

	for (int t = 0; tiers[t]; t++)
		if (!strcmp(arg, tiers[t])) {
			o->tier = t;
			o->info.tier = tiers[t];
			return 0;
		}
	fprintf(stderr, "nsbench-bench: --tier must be quick or full, not "
		"'%s'\n", arg);
	return -2;
}

/* What --mode takes: how the guest (or this host) times a benchmark. */
static const char *const modes[] = { "native", "kvm", "tcg", "icount", NULL };

/*
 * --mode=MODE: one of modes[].  It lands in the results as nsbench_mode,
 * which picks the rule a comparison judges by (icount: instructions);
 * a typo must not make a results file no rule fits.
 */
static int set_mode(const struct nsb_option *opt, const char *arg)
{
	struct options *o = opt->value;

	for (int m = 0; modes[m]; m++)
		if (!strcmp(arg, modes[m])) {
			o->info.mode = modes[m];
			return 0;
		}
	fprintf(stderr, "nsbench-bench: --mode must be native, kvm, tcg or "
		"icount, not '%s'\n", arg);
	return -2;
}

/*
 * --sched=batch: this process and the workers it forks run SCHED_BATCH,
 * so that no wakeup preempts them.  On 6.12 (EEVDF) an operation's own
 * length fed back into wakeup preemption and moved exec between levels
 * 200-900 instructions apart within one boot; a FUSE server's replies,
 * though, wait for a tick without it.
 *
 * --sched=fifo: this process, its workers and their FUSE servers run
 * SCHED_FIFO at priority 1, all alike, so none preempts another: a woken
 * task runs when the running one blocks, whatever their histories.
 * Under the kernel's own scheduling a FUSE round trip's cost hung on
 * whether the woken server preempted the worker, which CFS decides from
 * the two tasks' past: two servers made alike differed by 4,361 insn per
 * lookup under Smack.  Kernel threads (ksoftirqd, kworkers) then run only
 * when all of these block, which --interleave-settle gives them between
 * chunks.  (The policy is inherited through fork and unshare; a worker
 * in a user namespace could not set it itself.)
 */
static int set_sched(const struct nsb_option *opt, const char *arg)
{
	struct options *o = opt->value;

	if (!strcmp(arg, "inherit"))
		o->sched = -1;
	else if (!strcmp(arg, "batch"))
		o->sched = SCHED_BATCH;
	else if (!strcmp(arg, "fifo"))
		o->sched = SCHED_FIFO;
	else {
		fprintf(stderr, "nsbench-bench: --sched must be inherit, "
			"batch or fifo, not '%s'\n", arg);
		return -2;
	}
	return 0;
}

/* sched_setattr(2)'s argument, its first version (48 bytes) */
struct sched_attr_v0 {
	uint32_t size, policy;
	uint64_t flags;
	int32_t nice;
	uint32_t priority;
	uint64_t runtime, deadline, period;
};

/*
 * The fair task's slice (EEVDF, 6.12: sched_setattr's sched_runtime, kept
 * across fork), 0 if the kernel has none of its own: an older one ignores
 * sched_runtime for a fair task, and sched_getattr then reads 0.
 */
static uint64_t sched_slice_ns(void)
{
	struct sched_attr_v0 a = { 0 };

	if (syscall(SYS_sched_getattr, 0, &a, sizeof(a), 0))
		return 0;
	return a.runtime;
}

/*
 * --sched-slice=US: this process and the workers it forks ask EEVDF for a
 * slice of US (the kernel clamps to 0.1-100 ms) instead of the base slice
 * (0.7 ms).  Each time a task's runtime crosses its deadline, EEVDF sets
 * the next one a slice further and reschedules: with 0.7 ms that is every
 * 8 execs of the worker, and where it falls depends on every instruction
 * run before, a switch write's included.  With 100 ms it falls once in
 * some 1,200 execs, in a chunk the central mean leaves out.
 */
static int apply_slice(unsigned long us)
{
	struct sched_attr_v0 a = { .size = sizeof(a) };

	if (!us)
		return 0;
	a.policy = (uint32_t)sched_getscheduler(0);
	/* a real-time task has no slice of EEVDF's */
	if (a.policy != SCHED_OTHER && a.policy != SCHED_BATCH) {
		fprintf(stderr, "nsbench-bench: --sched-slice: only with "
			"--sched=inherit (a fair task) or batch\n");
		return -1;
	}
	a.runtime = (uint64_t)us * 1000;
	if (!syscall(SYS_sched_setattr, 0, &a, 0))
		return 0;
	fprintf(stderr, "nsbench-bench: --sched-slice=%lu: %s\n", us,
		strerror(errno));
	return -1;
}

/* --sched-slice, or 0 (the kernel's base slice, or no slice at all) */
static void add_slice_context(void)
{
	char slice[24];

	snprintf(slice, sizeof(slice), "%" PRIu64, sched_slice_ns());
	gb_add_context("nsbench_sched_slice_ns", slice);
}

static int apply_sched(int policy, unsigned long slice_us)
{
	struct sched_param p = { .sched_priority = policy == SCHED_FIFO };

	if (policy >= 0 && sched_setscheduler(0, policy, &p)) {
		fprintf(stderr, "nsbench-bench: --sched=%s: %s\n",
			policy == SCHED_FIFO ? "fifo" : "batch", strerror(errno));
		return -1;
	}
	return apply_slice(slice_us);
}

static const char *sched_name(void)
{
	switch (sched_getscheduler(0)) {
	case SCHED_BATCH:
		return "batch";
	case SCHED_FIFO:
		return "fifo";
	default:
		return "normal";
	}
}

/* --slab-reset: the benchmarks' setting, and the results' word on it */
static void set_slab_reset(unsigned long n)
{
	char v[24];

	snprintf(v, sizeof(v), "%lu", n);
	gb_add_context("nsbench_slab_reset", v);
	nsb_variant_slab_reset((unsigned int)n);
}

/*
 * Ours from the table; the Google Benchmark flags (--benchmark_*, --v=)
 * stay in argv for libbenchmark, but for those gb_flag() takes over.
 * --help prints ours, and leaves --help for libbenchmark's.
 */
static int parse_options(int *argc, char **argv, struct options *o)
{
	struct nsb_run_info *i = &o->info;
	const struct nsb_option opts[] = {
		OPT_CALLBACK("tier", o, "quick|full",
			     "which sweep to register (default quick)", set_tier),
		OPT_STRING("label", &i->label, "NAME",
			   "results file label (default <mode>-<tier>)"),
		OPT_STRING("out", &o->out, "FILE", "results file (default "
			   "results/<UTC>-<host>-<label>.json)"),
		OPT_STRING("results-dir", &o->results_dir, "DIR",
			   "where the default results file goes (default results)"),
		OPT_BOOL("no-results", &o->no_results, "write no results file"),
		OPT_CALLBACK("mode", o, "native|kvm|tcg|icount",
			     "how the times are measured (default native)",
			     set_mode),
		OPT_STRING("series", &i->series, "NAME",
			   "kernel patch series under test (default none)"),
		OPT_STRING("config-hash", &i->config_hash, "HASH",
			   "kernel config hash (default: from /proc/config.gz)"),
		OPT_STRING("round", &i->round, "N", "A/B provenance: the round"),
		OPT_STRING("seed", &i->seed, "N", "A/B provenance: its seed"),
		OPT_STRING("boot", &i->boot, "N", "A/B provenance: the boot"),
		OPT_STRING("side", &i->side, "A|B", "A/B provenance: the side"),
		OPT_CALLBACK("context", o, "KEY=VALUE",
			     "one more context string (KEY: [a-z0-9_]; up to 16)",
			     add_context),
		OPT_STRING("interleave", &o->interleave, "SWITCH",
			   "the in-boot check A/B: every sys/ benchmark alternates\n"
			   "kernel.userns_checks.SWITCH in chunks, quads of on, on,\n"
			   "off1, off2 in an order drawn from --seed, and reports the\n"
			   "counters nsb_on, nsb_off1, nsb_off2 (userns-checks-toggles\n"
			   "kernel; elsewhere the same chunks run unswitched, for\n"
			   "the stock side)"),
		OPT_CALLBACK("sched", o, "inherit|batch|fifo",
			     "batch: run SCHED_BATCH, fifo: SCHED_FIFO 1, workers\n"
			     "too (default inherit: as started); the context\n"
			     "nsbench_sched says",
			     set_sched),
		OPT_ULONG("sched-slice", &o->slice_us, "US",
			  "EEVDF's slice for this process and its workers, in us,\n"
			  "100-100000 (Linux 6.12+; default 0: the kernel's)"),
		OPT_ULONG("interleave-block", &o->interleave_block, "N",
			  "with --interleave: chunks in a row in one state\n"
			  "(default 1; 1-64)"),
		OPT_ULONG("interleave-settle", &o->interleave_settle, "US",
			  "with --interleave: sleep US microseconds before each\n"
			  "chunk, untimed, so the kernel's deferred work (RCU\n"
			  "callbacks, kworkers) of the last chunk is done before\n"
			  "the next (default 0; 0-100000)"),
		OPT_ULONG("interleave-window", &o->interleave_window, "N",
			  "with --interleave: each state's chunks within N ns\n"
			  "per op of its median are averaged (default 8; 1-1000):\n"
			  "wider where an op's cost cycles over levels further\n"
			  "apart (FUSE's forgets)"),
		OPT_ULONG("interleave-chunk", &o->interleave_chunk, "N",
			  "with --interleave: N ops per chunk, the same count\n"
			  "on both kernels of a comparison (0-4096; default 0:\n"
			  "as many as take ~200 us)"),
		OPT_ULONG("interleave-paired", &o->interleave_paired, "W",
			  "with --interleave: the shift and the A/A from pairs of\n"
			  "chunks of one quad, the mean of their differences'\n"
			  "densest W ns per op wide window, for ops whose chunks\n"
			  "sit on many levels (0-1000; default 0: the central\n"
			  "means' difference)"),
		OPT_ULONG("slab-reset", &o->slab_reset, "N",
			  "before each benchmark's first run, N processes at\n"
			  "once and then none, so that every slab cache's CPU\n"
			  "slab has room (bench/sys/slabs.c; 0-4096, default 0:\n"
			  "never); the context nsbench_slab_reset says"),
		OPT_STRING("perf-control", &o->perf_control, "DIR",
			   "under perf record -D -1 --control=fifo:DIR/ctl,DIR/ack:\n"
			   "sample only while the timer runs; DIR/ops gets the\n"
			   "operations run meanwhile (one benchmark per run)"),
		OPT_BOOL("list", &o->list,
			 "list the benchmark families and exit"),
		OPT_BOOL("version", &o->version,
			 "the version of what it measures with and exit"),
		OPT_END(),
	};
	int kept = 1, r;

	r = nsb_parse_options(argc, argv, opts, &usage, NSB_PARSE_KEEP_UNKNOWN);
	if (r == NSB_PARSE_HELP) {
		argv[1] = "--help";	/* and libbenchmark's */
		argv[2] = NULL;
		*argc = 2;
		return 0;
	}
	if (r)
		return -1;
	for (int k = 1; k < *argc; k++) {
		char *arg = argv[k];
		int taken;

		if (strncmp(arg, "--benchmark_", 12) && strncmp(arg, "--v=", 4)) {
			fprintf(stderr, "nsbench-bench: unknown or malformed "
				"option '%s' (see --help)\n", arg);
			return -1;
		}
		taken = gb_flag(o, arg);
		if (taken < 0)
			return -1;
		if (!taken)
			argv[kept++] = arg;	/* Google Benchmark's */
	}
	argv[kept] = NULL;
	*argc = kept;
	if (o->interleave_block < 1 || o->interleave_block > 64) {
		fprintf(stderr, "nsbench-bench: --interleave-block must be "
			"1 to 64\n");
		return -1;
	}
	/* the kernel's clamp, said rather than applied quietly */
	if (o->slice_us && (o->slice_us < 100 || o->slice_us > 100000)) {
		fprintf(stderr, "nsbench-bench: --sched-slice must be 100 to "
			"100000 (us), not %lu\n", o->slice_us);
		return -1;
	}
	if (o->interleave_settle > 100000) {
		fprintf(stderr, "nsbench-bench: --interleave-settle must be "
			"0 to 100000\n");
		return -1;
	}
	if (o->interleave_window < 1 || o->interleave_window > 1000) {
		fprintf(stderr, "nsbench-bench: --interleave-window must be "
			"1 to 1000\n");
		return -1;
	}
	if (o->interleave_paired > 1000) {
		fprintf(stderr, "nsbench-bench: --interleave-paired must be "
			"0 (off) to 1000\n");
		return -1;
	}
	if (o->interleave_chunk > 4096) {
		fprintf(stderr, "nsbench-bench: --interleave-chunk must be "
			"0 (by time) to 4096\n");
		return -1;
	}
	if (o->slab_reset > 4096) {
		fprintf(stderr, "nsbench-bench: --slab-reset must be 0 (never) "
			"to 4096\n");
		return -1;
	}
	if (o->gb_out_format && !o->gb_out) {
		fprintf(stderr, "nsbench-bench: --benchmark_out_format needs "
			"--benchmark_out=FILE (the results file is --out)\n");
		return -1;
	}
	return 0;
}

static void list_benchmarks(void)
{
	const struct nsb_bench *b;

	for (b = nsb_benchmarks; b->name; b++)
		printf("%-7s %-14s %s\n", b->group, b->name, b->summary);
}

/* The command line as typed (for "reproduce" in reports), shell-quoted. */
static char *command_line(int argc, char **argv)
{
	size_t len = 1;
	char *cmd, *p;

	for (int i = 0; i < argc; i++)
		len += 3 + 4 * strlen(argv[i]);
	cmd = p = calloc(1, len);
	if (!cmd)
		return NULL;
	for (int i = 0; i < argc; i++) {
		bool plain = argv[i][0] && !argv[i][strcspn(argv[i],
				" \t\n'\"\\$`*?[]()|&;<>{}!#~")];

		if (i)
			*p++ = ' ';
		if (plain) {
			p = stpcpy(p, argv[i]);
			continue;
		}
		*p++ = '\'';
		for (const char *c = argv[i]; *c; c++)
			p = *c == '\'' ? stpcpy(p, "'\\''") : (*p++ = *c, p);
		*p++ = '\'';
	}
	*p = 0;
	return cmd;
}

/*
 * --perf-control: ops per symbol need the operations of one benchmark,
 * so the filter must select exactly one.
 */
static int start_profile(const char *dir)
{
	int n = gb_count_selected();

	if (n != 1) {
		if (n >= 0)
			fprintf(stderr, "nsbench-bench: --perf-control profiles "
				"one benchmark; --benchmark_filter selects %d\n",
				n);
		return -1;
	}
	if (nsb_perfctl_open(dir))
		return -1;
	gb_add_context("nsbench_profiled", "yes");
	return 0;
}

static volatile sig_atomic_t signals;

static void say(const char *msg, size_t len)
{
	(void)!write(STDERR_FILENO, msg, len);
}

#define SAY(lit) say(lit, sizeof(lit) - 1)

/*
 * The first signal ends the run at the running benchmark's next batch;
 * a second one quits at once.  Either way the scenario workers and their
 * mounts and namespaces go with us (they die with their parent).
 */
static void on_signal(int sig)
{
	if (signals++) {
		nsb_interleave_restore();
		if (results.fd >= 0)
			unlink(results.path);
		if (user_out.fd >= 0)
			unlink(user_out.path);
		SAY("nsbench-bench: interrupted again: quitting now, "
		    "no results written\n");
		_exit(130);
	}
	gb_interrupt();
	SAY("nsbench-bench: interrupted: stopping the running benchmark "
	    "(again to quit at once)\n");
}

static void install_signal_handlers(void)
{
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/*
 * A .partial file nobody holds locked in DIR is the unfinished output of
 * a run that was killed before it could write its file: say what it is
 * (it is left for the user to look at or remove).
 */
static void note_leftovers(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		struct stat st;
		int fd;

		if (len <= 8 || strcmp(e->d_name + len - 8, ".partial"))
			continue;
		fd = openat(dirfd(d), e->d_name, O_RDONLY | O_NOFOLLOW |
			    O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			continue;	/* a symlink, or gone */
		if (!fstat(fd, &st) && S_ISREG(st.st_mode) &&
		    !flock(fd, LOCK_SH | LOCK_NB))
			fprintf(stderr, "nsbench-bench: note: %s/%s: an "
				"interrupted run's unfinished output (killed?), "
				"not a results file\n", dir, e->d_name);
		close(fd);
	}
	closedir(d);
}

/*
 * Creates FILE.XXXXXX.partial in FILE's directory: O_EXCL, so nothing
 * planted under any name is followed or overwritten; locked for the
 * run's life; mode as a plain create would give FILE (mode & ~umask).
 */
static int pending_open(struct pending *p, const char *file, mode_t mode)
{
	char *copy = strdup(file);
	mode_t mask = umask(0);

	umask(mask);
	if (!copy)
		return -1;
	note_leftovers(dirname(copy));
	free(copy);
	if (snprintf(p->path, sizeof(p->path), "%s.XXXXXX.partial", file) >=
	    (int)sizeof(p->path)) {
		fprintf(stderr, "nsbench-bench: %s: name too long\n", file);
		return -1;
	}
	p->fd = mkostemps(p->path, 8, O_CLOEXEC);
	if (p->fd < 0) {
		fprintf(stderr, "nsbench-bench: cannot create %s: %s\n",
			p->path, strerror(errno));
		p->path[0] = 0;
		return -1;
	}
	if (flock(p->fd, LOCK_EX) || fchmod(p->fd, mode & ~mask)) {
		fprintf(stderr, "nsbench-bench: %s: %s\n", p->path,
			strerror(errno));
		return -1;
	}
	return 0;
}

static void pending_drop(struct pending *p)
{
	if (p->fd < 0)
		return;
	unlink(p->path);
	close(p->fd);
	p->fd = -1;
}

/* The user's --benchmark_out file, complete as libbenchmark writes it. */
static int finish_user_out(const char *file)
{
	if (user_out.fd < 0)
		return 0;
	if (fsync(user_out.fd) || rename(user_out.path, file)) {
		fprintf(stderr, "nsbench-bench: --benchmark_out: %s: %s\n",
			file, strerror(errno));
		pending_drop(&user_out);
		return -1;
	}
	close(user_out.fd);
	user_out.fd = -1;
	return 0;
}

/*
 * The results as libbenchmark wrote them to our .partial file, marked
 * complete or not, written into place atomically; the .partial goes.
 */
static int finish_results(const char *out, int ran)
{
	bool interrupted = gb_was_interrupted();
	struct statvfs vfs;
	json_error_t err;
	json_t *root, *ctx;
	char n[32];
	int ret;

	if (lseek(results.fd, 0, SEEK_SET)) {
		fprintf(stderr, "nsbench-bench: %s: %s\n", results.path,
			strerror(errno));
		return -1;
	}
	root = json_loadfd(results.fd, JSON_REJECT_DUPLICATES, &err);
	if (!root) {
		/*
		 * libbenchmark's ofstream drops what it cannot write: on a
		 * full disk the file is cut short, and "invalid JSON near
		 * end of file" hid the cause.
		 */
		if (!fstatvfs(results.fd, &vfs) && !vfs.f_bavail)
			fprintf(stderr, "nsbench-bench: %s: %s (the results "
				"were cut short)\n", results.path,
				strerror(ENOSPC));
		else
			fprintf(stderr, "nsbench-bench: %s:%d:%d: invalid "
				"JSON: %s\n", results.path, err.line,
				err.column, err.text);
		return -1;
	}
	ctx = json_object_get(root, "context");
	if (!json_is_object(ctx)) {
		fprintf(stderr, "%s: no context object\n", results.path);
		json_decref(root);
		return -1;
	}
	json_object_set_new(ctx, "nsbench_complete",
			    json_string(interrupted || !ran ? "false" : "true"));
	json_object_set_new(ctx, "nsbench_end_reason",
			    json_string(interrupted ? "interrupted" :
					ran ? "finished" : "no benchmark matched"));
	if (interrupted) {
		snprintf(n, sizeof(n), "%d", gb_not_started());
		json_object_set_new(ctx, "nsbench_not_started", json_string(n));
	}
	ret = nsb_json_write_atomic(out, root);
	json_decref(root);
	if (!ret) {
		pending_drop(&results);
		return 0;
	}
	/* Kept: a long run's numbers are worth more than a tidy directory. */
	fprintf(stderr, "nsbench-bench: the run's output stays in %s\n",
		results.path);
	close(results.fd);
	results.fd = -1;
	return ret;
}

/* Same file (by name, or by inode once it exists)? */
static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (!strcmp(a, b))
		return true;
	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

static char *default_label(const struct options *o)
{
	char *label = NULL;

	if (asprintf(&label, "%s-%s", o->info.mode ? o->info.mode : "native",
		     o->tier == NSB_TIER_FULL ? "full" : "quick") < 0)
		return NULL;
	return label;
}

/* Nothing selected: one line, before any file is made. */
static int check_selection(const struct options *o)
{
	int n = gb_count_selected();

	if (n < 0)
		return -1;
	if (!n) {
		fprintf(stderr, "nsbench-bench: no benchmark matches '%s'; see "
			"--list (families) or --benchmark_list_tests (names)\n",
			o->filter ? o->filter : "");
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct options o = { .results_dir = "results", .interleave_block = 1,
			     .interleave_window = 8, .sched = -1 };
	const struct nsb_bench *b;
	char *label = NULL, *out = NULL;
	char **gargv = NULL, *command = command_line(argc, argv);
	int gargc, ran, ret = 2, i;

	if (parse_options(&argc, argv, &o) || apply_sched(o.sched, o.slice_us))
		goto out;
	/* the guest version (bench/build.mk): what its results carry */
	if (o.version) {
		printf("nsbench-bench %s\n", nsb_version());
		ret = 0;
		goto out;
	}
	if (o.list) {
		list_benchmarks();
		ret = 0;
		goto out;
	}
	label = o.info.label ? strdup(o.info.label) : default_label(&o);
	o.info.label = label;
	if (!o.info.tier)
		o.info.tier = "quick";

	/* argv for libbenchmark: ours first so the user's flags win. */
	gargv = calloc(argc + 2, sizeof(*gargv));
	if (!gargv)
		goto out;
	gargc = 0;
	gargv[gargc++] = argv[0];
	if (o.tier == NSB_TIER_QUICK)
		gargv[gargc++] = "--benchmark_min_time=0.05";
	for (i = 1; i < argc; i++)
		gargv[gargc++] = argv[i];
	gargv[gargc] = NULL;

	gb_initialize(&gargc, gargv);
	if (gb_report_unrecognized(gargc, gargv))
		goto out;
	for (b = nsb_benchmarks; b->name; b++)
		b->reg(o.tier);
	if (check_selection(&o))
		goto out;
	/* Listing runs no benchmark: no file to write. */
	if (gb_list_only()) {
		gb_run_specified();
		ret = 0;
		goto out;
	}

	/* From here on a signal stops the run, and cleans up. */
	nsb_worker_interrupted = gb_was_interrupted;
	install_signal_handlers();
	if (!o.no_results) {
		if (o.out)
			out = strdup(o.out);
		else {
			mkdir(o.results_dir, 0755);
			out = nsb_results_path(o.results_dir, label);
		}
		if (!out)
			goto out;
		if (o.gb_out && same_file(o.gb_out, out)) {
			fprintf(stderr, "nsbench-bench: --benchmark_out names the "
				"results file (%s); --out alone writes it\n", out);
			goto out;
		}
		if (pending_open(&results, out, 0644))
			goto out;
	}
	if (o.gb_out && pending_open(&user_out, o.gb_out, 0666))
		goto out;
	gb_set_outputs(results.fd, user_out.fd, o.gb_out_format);

	nsb_context_collect(&o.info, gb_add_context);
	gb_add_context("nsbench_command", command ? command : "");
	/* --sched, or /init's (nsb.sched=batch: init.sh) */
	gb_add_context("nsbench_sched", sched_name());
	add_slice_context();
	set_slab_reset(o.slab_reset);
	for (i = 0; i < o.ncontext; i++) {
		char *key = strndup(o.context[i], strcspn(o.context[i], "="));

		if (!key)
			goto out;
		gb_add_context(key, o.context[i] + strlen(key) + 1);
		free(key);
	}
	if (o.interleave) {
		struct nsb_ilv_opts io = {
			.seed = o.info.seed ? strtoull(o.info.seed, NULL, 10) : 1,
			.block = o.interleave_block,
			.settle_us = o.interleave_settle,
			.window = o.interleave_window,
			.chunk = o.interleave_chunk,
			.paired = o.interleave_paired,
		};
		bool applied;

		if (nsb_interleave_init(o.interleave, &io, &applied))
			goto out;
		gb_add_context("nsbench_check", o.interleave);
		gb_add_context("nsbench_check_applied", applied ? "yes" : "no");
		/* a check's cost under each LSM is a family of its own */
		gb_add_context("nsbench_lsm", nsb_lsm_name(nsb_lsm_active()));
	}

	if (o.perf_control && start_profile(o.perf_control))
		goto out;

	ran = gb_run_specified();
	nsb_interleave_restore();
	ret = 0;
	if (o.perf_control && nsb_perfctl_finish())
		ret = 2;
	if (finish_user_out(o.gb_out))
		ret = 2;
	if (results.fd >= 0) {
		if (finish_results(out, ran))
			ret = 2;
		else
			fprintf(stderr, "nsbench-bench: results in %s%s\n", out,
				gb_was_interrupted() ?
				" (incomplete: interrupted)" : "");
	}
	if (gb_was_interrupted()) {
		fprintf(stderr, "nsbench-bench: interrupted: %d of %d "
			"benchmarks not started\n", gb_not_started(), ran);
		ret = 130;
	}
out:
	/* An error before the end: no file half-written stays behind. */
	pending_drop(&results);
	pending_drop(&user_out);
	free(command);
	free(label);
	free(out);
	free(gargv);
	return ret;
}
