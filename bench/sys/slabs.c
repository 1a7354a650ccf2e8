// SPDX-License-Identifier: GPL-2.0
/*
 * slabs.c — --slab-reset: before a benchmark's first run, N processes at
 * once, then none.
 *
 * An exec allocates a few objects from each of a dozen slab caches (the
 * task, its mm, vmas, creds, files, the bprm) and frees them again at
 * exit.  Where the cache's CPU slab has room for them, every allocation
 * and free takes SLUB's fast path.  Where a run starts with a CPU slab
 * almost full and partial slabs as full behind it, each exec switches
 * slabs and frees into one that is not the CPU slab: ___slab_alloc and
 * __slab_free on every exec, for the whole run.  Which of the two a run
 * finds depends on what ran before it in that boot: the same image's
 * sys/exec/vfork/bin/init/depth:0 (the first row of its step) read
 * +273 insn per exec in one boot of six and +130 in another, the chunk
 * dumps all SLUB slow paths (kernel-patches/README.md).
 *
 * N processes alive together take every partial slab of those caches and
 * then new ones; when they have all exited, each cache's CPU slab is the
 * newest one, with none of its objects in use.  A run then finds room in
 * it, whatever the boot did before.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/sys/slabs.h"
#include "workloads/wlutil.h"

extern char **environ;

static void reap(pid_t *pids, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		while (waitpid(pids[i], NULL, 0) < 0 && errno == EINTR)
			;
}

/* Children of pids still running: not exited, nor reaped. */
static unsigned int count_alive(const pid_t *pids, unsigned int n)
{
	unsigned int i, alive = 0;
	siginfo_t si;

	for (i = 0; i < n; i++) {
		si.si_pid = 0;
		if (!waitid(P_PID, (id_t)pids[i], &si,
			    WEXITED | WNOHANG | WNOWAIT) && !si.si_pid)
			alive++;
	}
	return alive;
}

/*
 * n children of holder, each reading the pipe's read end as its stdin.
 * posix_spawn returns once the child has exec'd (glibc: CLONE_VFORK), so
 * each has its mm and files when the next starts.  *spawned: how many.
 */
static int spawn_all(pid_t *pids, unsigned int n, const char *holder,
		     int in, int out, unsigned int *spawned)
{
	char *argv[] = { (char *)holder, NULL };
	posix_spawn_file_actions_t fa;
	int err;

	*spawned = 0;
	err = posix_spawn_file_actions_init(&fa);
	if (err)
		return err;
	err = posix_spawn_file_actions_adddup2(&fa, in, 0);
	if (!err)
		err = posix_spawn_file_actions_addclose(&fa, out);
	if (!err)
		err = posix_spawn_file_actions_addopen(&fa, 1, "/dev/null",
						       O_WRONLY, 0);
	while (!err && *spawned < n) {
		err = posix_spawn(&pids[*spawned], holder, &fa, NULL, argv,
				  environ);
		if (!err)
			(*spawned)++;
	}
	posix_spawn_file_actions_destroy(&fa);
	return err;
}

int nsb_slabs_reset(unsigned int n, const char *holder,
		    unsigned long settle_us)
{
	unsigned int spawned, alive;
	pid_t *pids;
	int p[2], err;

	if (!n)
		return 0;
	pids = calloc(n, sizeof(*pids));
	if (!pids)
		return -1;
	if (pipe2(p, O_CLOEXEC)) {
		free(pids);
		return -1;
	}
	err = spawn_all(pids, n, holder, p[0], p[1], &spawned);
	alive = count_alive(pids, spawned);
	/* end of file on every holder's stdin: each exits */
	close(p[1]);
	close(p[0]);
	reap(pids, spawned);
	free(pids);
	if (err) {
		errno = err;
		return -1;
	}
	nsb_sleep_us(settle_us);
	return (int)alive;
}
