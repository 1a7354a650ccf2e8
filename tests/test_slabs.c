// SPDX-License-Identifier: GPL-2.0
/*
 * test_slabs.c — nsb_slabs_reset (nsbench-bench --slab-reset): its
 * holders are alive together, all of them are reaped, it leaves no fd
 * behind, and a holder that cannot start is an error with nothing left.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/sys/slabs.h"
#include "tests/tap.h"

/* This process's open fds. */
static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/* No child of this process is left, exited or not. */
static bool no_child_left(void)
{
	return waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD;
}

int main(void)
{
	int fds = count_fds(), r;

	plan_no_plan();
	ok(nsb_slabs_reset(0, "/bin/cat", 0) == 0 && no_child_left(),
	   "0 holders: nothing started");
	r = nsb_slabs_reset(64, "/bin/cat", 1000);
	ok(r == 64, "64 holders reading one pipe alive together (%d)", r);
	ok(no_child_left(), "every holder reaped");
	ok(count_fds() == fds, "no fd left open (%d, before %d)", count_fds(),
	   fds);
	errno = 0;
	r = nsb_slabs_reset(8, "/nonexistent/holder", 0);
	ok(r == -1 && errno == ENOENT, "a holder that is not there: -1, "
	   "ENOENT (%d, errno %d)", r, errno);
	ok(no_child_left() && count_fds() == fds,
	   "and no child or fd left behind");
	return done_testing();
}
