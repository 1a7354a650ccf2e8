// SPDX-License-Identifier: GPL-2.0
/*
 * exec.c — fork/vfork/spawn + exec + wait (see exec.h).
 */
#include <errno.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workloads/exec.h"

/*
 * The child's whole environment.  execve copies the environment onto
 * the new stack (strnlen_user, copy_from_user per string), so passing
 * the caller's own would make an exec cost follow the shell it was
 * started from: the guest's per-round pad (NSB_PAD, 0-63 bytes) moved
 * sys/exec/vfork/bin/init/depth:32 by 173 insn across six rounds.
 * Empty, every exec copies the same; the pad still moves our own stack.
 */
static char *const child_env[] = { NULL };

static int wait_status(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -ECHILD;
}

int nsb_exec_wait(int dirfd, const char *name, enum nsb_exec_method how)
{
	char *argv[] = { (char *)name, NULL };
	pid_t pid;
	int r;

	switch (how) {
	case NSB_EXEC_SPAWN:
		r = posix_spawn(&pid, name, NULL, NULL, argv, child_env);
		if (r)
			return -r;
		break;
	case NSB_EXEC_VFORK:
		pid = vfork();
		if (!pid) {
			syscall(SYS_execveat, dirfd, name, argv, child_env, 0);
			_exit(127);
		}
		break;
	default:
		pid = fork();
		if (!pid) {
			syscall(SYS_execveat, dirfd, name, argv, child_env, 0);
			_exit(127);
		}
		break;
	}
	if (pid < 0)
		return -errno;
	return wait_status(pid);
}
