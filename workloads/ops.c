// SPDX-License-Identifier: GPL-2.0
/*
 * ops.c — the operations a worker runs n times on request: the bodies of
 * the sys/ benchmarks.  Each returns the result of its last iteration
 * (an exit status, 0, or -errno), so the caller can check that the kernel
 * did what the scenario claims without a branch per iteration.  Each
 * iteration begins with NSB_MARK_OP: one NOP, where the cache-model
 * plugin counts an operation and empties its cold caches.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <linux/mount.h>

#include "guest/plugin/marker.h"
#include "workloads/exec.h"
#include "workloads/fixture.h"

int nsb_op_exec(struct nsb_env *env, int64_t arg, int64_t n)
{
	const char *name = nsb_file_name(arg & 0xff);
	enum nsb_exec_method how = arg >> 8;
	int r = 0;

	while (n-- > 0) {
		NSB_MARK(NSB_MARK_OP);
		/* The scenario directory is the worker's cwd (spawn). */
		r = nsb_exec_wait(env->dirfd, name, how);
	}
	return r;
}

int nsb_op_open(struct nsb_env *env, int64_t arg, int64_t n)
{
	const char *name = nsb_file_name(arg);
	int r = 0, fd;

	while (n-- > 0) {
		NSB_MARK(NSB_MARK_OP);
		fd = openat(env->dirfd, name, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			r = -errno;
			continue;
		}
		close(fd);
		r = 0;
	}
	return r;
}

int nsb_op_stat(struct nsb_env *env, int64_t arg, int64_t n)
{
	const char *path = env->deep[arg < 0 || arg > NSB_MAX_TREE ? 0 : arg];
	struct stat st;
	int r = 0;

	while (n-- > 0) {
		NSB_MARK(NSB_MARK_OP);
		r = fstatat(env->dirfd, path, &st, 0) ? -errno : 0;
	}
	return r;
}

static const char *const fstypes[NSB_FS_COUNT] = {
	[NSB_FS_TMPFS] = "tmpfs",
	[NSB_FS_PROC] = "proc",
	[NSB_FS_MQUEUE] = "mqueue",
};

const char *nsb_fs_name(enum nsb_fstype t)
{
	return t < NSB_FS_COUNT ? fstypes[t] : "?";
}

int nsb_op_mount(struct nsb_env *env, int64_t arg, int64_t n)
{
	const char *type = nsb_fs_name(arg);
	int r = 0;

	while (n-- > 0) {
		NSB_MARK(NSB_MARK_OP);
		if (mount("nsb", env->mntpoint, type, MS_NOSUID | MS_NODEV |
			  MS_NOEXEC, NULL))
			return -errno;
		if (umount2(env->mntpoint, 0))
			return -errno;
	}
	return r;
}

/*
 * fsopen + FSCONFIG_CMD_CREATE + close: the superblock lookup (sget_fc and
 * its walk of the type's list for keyed types) without attaching a mount,
 * so no umount and its RCU grace period dilute it.
 */
int nsb_op_fscreate(struct nsb_env *env, int64_t arg, int64_t n)
{
	const char *type = nsb_fs_name(arg);
	int fd;

	while (n-- > 0) {
		NSB_MARK(NSB_MARK_OP);
		fd = syscall(SYS_fsopen, type, FSOPEN_CLOEXEC);
		if (fd < 0)
			return -errno;
		if (syscall(SYS_fsconfig, fd, FSCONFIG_CMD_CREATE, NULL, NULL,
			    0)) {
			int e = errno;

			close(fd);
			return -e;
		}
		close(fd);
	}
	return 0;
}

int nsb_op_xattr(struct nsb_env *env, int64_t arg, int64_t n)
{
	const char *name = arg & NSB_XATTR_SECURITY ? "security.nsbench" :
						      "user.nsbench";
	char buf[16] = "0123456789abcde";
	int r = 0;

	while (n-- > 0) {
		NSB_MARK(NSB_MARK_OP);
		if (arg & NSB_XATTR_GET)
			r = fgetxattr(env->rwfd, name, buf, sizeof(buf)) < 0 ?
			    -errno : 0;
		else
			r = fsetxattr(env->rwfd, name, buf, sizeof(buf), 0) ?
			    -errno : 0;
	}
	return r;
}
