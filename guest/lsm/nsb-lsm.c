// SPDX-License-Identifier: GPL-2.0
/*
 * nsb-lsm — the guest's label tool (busybox has no getfattr/setfattr):
 *	nsb-lsm get PATH NAME          print the xattr's value (NUL cut)
 *	nsb-lsm set PATH NAME VALUE    set it; print "ok" or the error
 *	nsb-lsm fuse DIR NAME VALUE    mount workloads/lsmfuse.c's server on
 *	                               DIR (files f* carry NAME=VALUE), print
 *	                               "LABEL open=ok|error:..." for DIR/file
 * Exit status 0, or 1 with the error (errno name) printed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "workloads/lsmfuse.h"

static int fuse_probe(const char *dir, const char *name, const char *value)
{
	char path[512], v[512];
	ssize_t len;
	pid_t server;
	int r, fd;

	r = nsb_fuse_mount(dir, name, value, &server);
	if (r) {
		printf("error:mount:%s\n", strerror(-r));
		return 1;
	}
	snprintf(path, sizeof(path), "%s/file", dir);
	len = getxattr(path, name, v, sizeof(v) - 1);
	if (len < 0)
		printf("error:%s", strerror(errno));
	else
		printf("%.*s", (int)len, v);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		printf(" open=error:%s\n", strerror(errno));
	else
		printf(" open=ok\n");
	if (fd >= 0)
		close(fd);
	umount2(dir, MNT_DETACH);
	return 0;
}

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
	if (argc == 5 && !strcmp(argv[1], "fuse"))
		return fuse_probe(argv[2], argv[3], argv[4]);
	fprintf(stderr, "usage: nsb-lsm get PATH NAME | set|fuse PATH NAME VALUE\n");
	return 2;
}
