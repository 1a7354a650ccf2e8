// SPDX-License-Identifier: GPL-2.0
/*
 * nsb-lsm — the guest's label tool (busybox has no getfattr/setfattr):
 *	nsb-lsm get PATH NAME          print the xattr's value (NUL cut)
 *	nsb-lsm set PATH NAME VALUE    set it; print "ok" or the error
 * Exit status 0, or 1 with the error (errno name) printed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/xattr.h>

int main(int argc, char **argv)
{
	char v[512];
	ssize_t len;

	if (argc == 4 && !strcmp(argv[1], "get")) {
		len = getxattr(argv[2], argv[3], v, sizeof(v) - 1);
		if (len < 0) {
			printf("error:%s\n", strerror(errno));
			return 1;
		}
		v[len] = 0;
		printf("%s\n", v);
		return 0;
	}
	if (argc == 5 && !strcmp(argv[1], "set")) {
		if (setxattr(argv[2], argv[3], argv[4], strlen(argv[4]), 0)) {
			printf("error:%s\n", strerror(errno));
			return 1;
		}
		printf("ok\n");
		return 0;
	}
	fprintf(stderr, "usage: nsb-lsm get PATH NAME | set PATH NAME VALUE\n");
	return 2;
}
