// SPDX-License-Identifier: GPL-2.0
/*
 * bisect.c — nsbench bisect: the commit that made an operation slower.
 *
 * A bisection builds kernels and boots them, which nsbench's shell
 * pipeline does (scripts/ab.sh, scripts/kernel/build.sh): this command
 * runs scripts/bisect.sh of the checkout the binary was built in
 * (build/nsbench, build/check/nsbench), with the arguments as given;
 * `nsbench bisect --help` prints the script's usage.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "src/lib/base/nsbench.h"

/* scripts/bisect.sh up to three directories above the binary, or -1. */
static int find_script(char *buf, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int up;

	if (n <= 0)
		return -1;
	exe[n] = '\0';
	for (up = 0; up < 3; up++) {
		char *slash = strrchr(exe, '/');

		if (!slash)
			return -1;
		*slash = '\0';
		if ((size_t)snprintf(buf, len, "%s/scripts/bisect.sh", exe) < len &&
		    !access(buf, X_OK))
			return 0;
	}
	return -1;
}

int cmd_bisect(int argc, char **argv)
{
	char script[PATH_MAX + 32];

	(void)argc;
	if (find_script(script, sizeof(script))) {
		fprintf(stderr, "nsbench bisect: scripts/bisect.sh not found "
			"beside this binary: run the nsbench of a checkout "
			"(it builds and boots kernels with the checkout's "
			"scripts)\n");
		return 2;
	}
	argv[0] = script;
	execv(script, argv);
	perror("nsbench bisect: scripts/bisect.sh");
	return 2;
}
