// SPDX-License-Identifier: GPL-2.0
/*
 * perfctl.c — profile only the timed work of one benchmark.
 *
 * The guest's `profile` step (guest/init.sh) runs
 *
 *	perf record -e cpu-clock -c PERIOD -D -1 \
 *		--control=fifo:DIR/ctl,DIR/ack -- \
 *		nsbench-bench --perf-control=DIR --benchmark_filter=ONE ...
 *
 * Sampling starts disabled.  The shim's timer hooks send "enable" when a
 * run's timer starts and "disable" when it stops (also around
 * PauseTiming), each time waiting for perf's "ack", so no sample of a
 * fixture's set-up, of libbenchmark's sizing arithmetic or of the
 * results writer lands in the profile.  At the end DIR/ops holds the
 * operations those spans ran (every run's iterations, the sizing runs
 * included): samples x period / ops is then instructions per operation
 * per symbol, since under -icount shift=0 a cpu-clock period of N virtual
 * ns is N guest instructions.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench/gbench.h"
#include "bench/perfctl.h"

static struct {
	int ctl, ack;
	bool failed;
	char dir[PATH_MAX - 16];
} pc = { .ctl = -1, .ack = -1 };

/*
 * perf's "ack\n" comes with its NUL; a peer may split it, or its tail
 * may open the next read: skip NULs and newlines, want the letters.
 */
static bool read_ack(void)
{
	char buf[16], got[3];
	size_t have = 0;
	ssize_t n, i;

	while (have < sizeof(got)) {
		n = read(pc.ack, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		for (i = 0; i < n && have < sizeof(got); i++)
			if (buf[i] && buf[i] != '\n')
				got[have++] = buf[i];
	}
	return !memcmp(got, "ack", sizeof(got));
}

/* One command, then perf's ack. */
static void command(const char *cmd)
{
	size_t len = strlen(cmd);

	if (pc.failed)
		return;
	if (write(pc.ctl, cmd, len) != (ssize_t)len) {
		fprintf(stderr, "nsbench-bench: --perf-control: cannot write "
			"'%.*s' to %s/ctl: %s\n", (int)len - 1, cmd, pc.dir,
			strerror(errno));
		pc.failed = true;
		return;
	}
	if (!read_ack()) {
		fprintf(stderr, "nsbench-bench: --perf-control: no ack from "
			"perf for '%.*s' (%s/ack)\n", (int)len - 1, cmd, pc.dir);
		pc.failed = true;
	}
}

static void sampling_on(void)
{
	command("enable\n");
}

static void sampling_off(void)
{
	command("disable\n");
}

static int open_fifo(const char *name, int flags)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", pc.dir, name);
	fd = open(path, flags | O_CLOEXEC);
	if (fd < 0)
		fprintf(stderr, "nsbench-bench: --perf-control: cannot open "
			"%s: %s (made by mkfifo, opened by perf record "
			"--control=fifo:...)\n", path, strerror(errno));
	return fd;
}

int nsb_perfctl_open(const char *dir)
{
	if (strlen(dir) >= sizeof(pc.dir)) {
		fprintf(stderr, "nsbench-bench: --perf-control: path too "
			"long\n");
		return -1;
	}
	strcpy(pc.dir, dir);
	/* perf holds both open read-write: neither open blocks. */
	pc.ctl = open_fifo("ctl", O_WRONLY);
	if (pc.ctl < 0)
		return -1;
	pc.ack = open_fifo("ack", O_RDONLY);
	if (pc.ack < 0)
		return -1;
	gb_set_timer_hooks(sampling_on, sampling_off);
	return 0;
}

int nsb_perfctl_finish(void)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8];
	FILE *f;
	bool ok;

	gb_set_timer_hooks(NULL, NULL);
	if (pc.failed)
		return -1;
	snprintf(path, sizeof(path), "%s/ops", pc.dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, "nsbench-bench: cannot write %s: %s\n", tmp,
			strerror(errno));
		return -1;
	}
	fprintf(f, "%lld\n", (long long)gb_timed_iterations());
	ok = !ferror(f);
	ok = !fclose(f) && ok;
	if (!ok || rename(tmp, path)) {
		fprintf(stderr, "nsbench-bench: cannot write %s\n", path);
		unlink(tmp);
		return -1;
	}
	return 0;
}
