/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exec.h — one fork/vfork/spawn + exec + wait: what every exec workload
 * times (sys/exec, nsb-wl exec, the guest's nsb-guest forkexec).  No other
 * dependency, so the static guest tool links it alone.
 */
#ifndef NSB_WORKLOADS_EXEC_H
#define NSB_WORKLOADS_EXEC_H

enum nsb_exec_method {
	NSB_EXEC_FORK,		/* fork + execveat(dirfd) + waitpid */
	NSB_EXEC_VFORK,		/* vfork + execveat(dirfd) + waitpid */
	NSB_EXEC_SPAWN,		/* posix_spawn(relative path) + waitpid */
	NSB_EXEC_COUNT,
};

/*
 * Runs name (relative to dirfd, or absolute; spawn: to the cwd) with no
 * arguments and an empty environment, and waits: its exit status, 127 if the exec failed, -ECHILD
 * if it did not exit, or -errno.
 */
int nsb_exec_wait(int dirfd, const char *name, enum nsb_exec_method how);

#endif /* NSB_WORKLOADS_EXEC_H */
