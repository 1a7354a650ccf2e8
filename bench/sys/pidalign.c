// SPDX-License-Identifier: GPL-2.0
/*
 * pidalign.c — --pid-align: before a benchmark's first run, fork until
 * the next pid starts a block of N.
 *
 * The kernel keeps pids in a radix tree (the pid idr).  A fork whose pid
 * lands in a node no live process holds allocates that node and frees it
 * again at exit: on 6.1's tinyconfig, whose nodes hold 16 pids (pid_max
 * 4,096, three levels: leaves of 16, blocks of 256), some 257 insn per
 * node.  So an exec's cost follows where the pid counter stands when a
 * benchmark starts, and that followed everything that forked before it
 * in the boot, some of it timed by the kernel's own clock (a kworker
 * started, a shell's wait loop): between the held-out kernel and its
 * null, same seed, 005 exec/bin/init/d0 paid one node more per exec in
 * two rounds of six, from chunk 42 on in one run and from the start in
 * the other (kernel-patches/README.md).
 *
 * Started at a block's first pid, a benchmark's children walk the same
 * pids whatever came before, unless that shifted the counter into
 * another block.  It costs at most N forks of a child that exits at
 * once, before the first run.  No /proc is read: each fork's pid is the
 * counter.
 */
#include <errno.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/sys/pidalign.h"

bool nsb_pid_block_ends(pid_t prev, pid_t pid, unsigned int n)
{
	return (unsigned long)pid % n == n - 1 ||
	       (unsigned long)pid / n != (unsigned long)prev / n;
}

/* A child that exits at once, reaped: its pid, or -errno. */
static pid_t fork_one(void)
{
	pid_t pid = vfork();

	if (pid < 0)
		return -errno;
	if (!pid)
		_exit(0);
	while (waitpid(pid, NULL, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return pid;
}

pid_t nsb_pid_align(unsigned int n)
{
	pid_t prev, pid = fork_one();

	if (n < 2 || pid < 0)
		return n < 2 ? -EINVAL : pid;
	/* the first fork already ends a block only if it is the last pid */
	if ((unsigned long)pid % n == n - 1)
		return pid;
	do {
		prev = pid;
		pid = fork_one();
		if (pid < 0)
			return pid;
	} while (!nsb_pid_block_ends(prev, pid, n));
	return pid;
}
