// SPDX-License-Identifier: GPL-2.0
/*
 * test_pidalign.c — nsb_pid_align (nsbench-bench --pid-align): its rule
 * for where a block of pids ends, and, as pid 1 of a pid namespace of its
 * own (where nothing else forks), the exact pids it leaves the counter at.
 */
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/sys/pidalign.h"
#include "tests/tap.h"

enum { ALIGN16, NEXT, AGAIN16, ALIGN8, ALIGN1, LEFT, NPROBE };

static pid_t fork_exit(void)
{
	pid_t pid = fork();

	if (!pid)
		_exit(0);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return pid;
}

/* As pid 1 of a new pid ns: what nsb_pid_align does there, in v. */
static void probe(long *v)
{
	v[ALIGN16] = nsb_pid_align(16);
	v[NEXT] = fork_exit();
	v[AGAIN16] = nsb_pid_align(16);
	v[ALIGN8] = nsb_pid_align(8);
	v[ALIGN1] = nsb_pid_align(1);
	v[LEFT] = waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD ? 0 : 1;
}

/* Runs probe() as pid 1 of a new pid ns; false if we may not make one. */
static bool in_new_pidns(long *v)
{
	int fd[2];
	pid_t a;
	bool got;

	if (pipe(fd))
		return false;
	a = fork();
	if (!a) {
		pid_t b;

		close(fd[0]);
		if (unshare(CLONE_NEWPID) &&
		    unshare(CLONE_NEWUSER | CLONE_NEWPID))
			_exit(1);
		b = fork();
		if (!b) {
			probe(v);
			_exit(write(fd[1], v, NPROBE * sizeof(*v)) !=
			      (ssize_t)(NPROBE * sizeof(*v)));
		}
		_exit(b < 0 || waitpid(b, NULL, 0) < 0);
	}
	close(fd[1]);
	got = a > 0 && read(fd[0], v, NPROBE * sizeof(*v)) ==
			(ssize_t)(NPROBE * sizeof(*v));
	close(fd[0]);
	if (a > 0)
		waitpid(a, NULL, 0);
	return got;
}

static void check_rule(void)
{
	ok(nsb_pid_block_ends(14, 15, 16), "15 ends the block 0-15");
	ok(!nsb_pid_block_ends(13, 14, 16), "14 does not");
	ok(nsb_pid_block_ends(62, 64, 16),
	   "62 then 64: 63 was taken, the counter is in the next block");
	ok(nsb_pid_block_ends(4095, 300, 256),
	   "4095 then 300: it wrapped, another block");
	ok(!nsb_pid_block_ends(300, 301, 256), "300 then 301: the same block");
}

int main(void)
{
	long v[NPROBE];

	plan_no_plan();
	check_rule();
	if (!in_new_pidns(v)) {
		skip(6, "no pid namespace of our own (not root, no userns)");
		return done_testing();
	}
	is_int(v[ALIGN16], 15, "from pid 1, aligned to 16: the last pid 15");
	is_int(v[NEXT], 16, "the next fork takes 16, a block's first");
	is_int(v[AGAIN16], 31, "aligned again: at least one fork, to 31");
	is_int(v[ALIGN8], 39, "then to 8: 39");
	is_int(v[ALIGN1], -EINVAL, "a block of 1: EINVAL");
	is_int(v[LEFT], 0, "no child left behind");
	return done_testing();
}
