// SPDX-License-Identifier: GPL-2.0
/*
 * lsm.c — LSM label scenarios: the active LSM, its label xattr, and the
 * operations of bench/sys/lsm.c (see lsm.h).
 */

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "guest/plugin/marker.h"
#include "workloads/lsm.h"
#include "workloads/lsmfuse.h"

static enum nsb_lsm lsm_from(const char *s)
{
	if (strstr(s, "selinux"))
		return NSB_LSM_SELINUX;
	if (strstr(s, "smack"))
		return NSB_LSM_SMACK;
	return NSB_LSM_NONE;
}

enum nsb_lsm nsb_lsm_active(void)
{
	char buf[256] = "";
	ssize_t len;
	int fd;

	/* securityfs lists the active LSMs (the guest mounts it). */
	fd = open("/sys/kernel/security/lsm", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (len > 0) {
			buf[len] = 0;
			return lsm_from(buf);
		}
	}
	/* Without securityfs: the per-LSM attr directories answer. */
	if (!access("/proc/self/attr/smack/current", F_OK))
		return NSB_LSM_SMACK;
	if (!access("/sys/fs/selinux/enforce", F_OK))
		return NSB_LSM_SELINUX;
	return NSB_LSM_NONE;
}

const char *nsb_lsm_name(enum nsb_lsm l)
{
	return l == NSB_LSM_SELINUX ? "selinux" :
	       l == NSB_LSM_SMACK ? "smack" : "none";
}

const char *nsb_lsm_xattr(enum nsb_lsm l)
{
	return l == NSB_LSM_SMACK ? "security.SMACK64" : "security.selinux";
}

const char *nsb_lsm_label(enum nsb_lsm l)
{
	return l == NSB_LSM_SMACK ? "nsblab" : "user_u:object_r:lab_t";
}

const char *nsb_lsm_kind_name(enum nsb_lsm_kind k)
{
	static const char *const names[] = {
		"getlabel", "setlabel", "create", "stat", "open",
	};

	return k < NSB_LSM_KIND_COUNT ? names[k] : "?";
}

const char *nsb_lsm_target_name(enum nsb_lsm_target t)
{
	return t == NSB_LSM_EXT4 ? "ext4" : t == NSB_LSM_FUSE ? "fuse" :
								  "tmpfs";
}

/* Label class of the xattr value v (len bytes, maybe NUL-terminated). */
static int label_class(const char *v, ssize_t len, enum nsb_lsm l)
{
	const char *want = nsb_lsm_label(l);
	size_t wl = strlen(want);

	if (len < 0)
		return -errno;
	while (len > 0 && v[len - 1] == 0)
		len--;
	return (size_t)len == wl && !memcmp(v, want, wl) ? NSB_LABEL_XATTR :
							 NSB_LABEL_OTHER;
}

static int fd_class(int fd, const char *path, enum nsb_lsm l)
{
	char v[256];
	ssize_t len;

	len = path ? getxattr(path, nsb_lsm_xattr(l), v, sizeof(v)) :
		     fgetxattr(fd, nsb_lsm_xattr(l), v, sizeof(v));
	return label_class(v, len, l);
}

/*
 * Per worker (each worker is its own process): the LSM, the ext4 fds and
 * the class found by the first call of each operation.
 */
static int lsm_known = -1;
static int ext4_dirfd = -1, ext4_rwfd = -1, fuse_dirfd[2] = { -1, -1 };
static char fuse_dir[2][512];
static int first_class[NSB_LSM_KIND_COUNT * NSB_LSM_TARGET_COUNT][2];
static char first_done[NSB_LSM_KIND_COUNT * NSB_LSM_TARGET_COUNT][2];

static enum nsb_lsm lsm(void)
{
	if (lsm_known < 0)
		lsm_known = nsb_lsm_active();
	return lsm_known;
}

/* The FUSE mount of state on (made on first use, in the state as is). */
static int fuse_fds(struct nsb_env *env, int on, int *dirfd)
{
	pid_t server;
	int r;

	if (fuse_dirfd[on] < 0) {
		snprintf(fuse_dir[on], sizeof(fuse_dir[on]), "%s/lsm-fuse%s",
			 env->scratch, on ? "-on" : "");
		if (mkdir(fuse_dir[on], 0755) && errno != EEXIST)
			return -errno;
		r = nsb_fuse_mount(fuse_dir[on], nsb_lsm_xattr(lsm()),
				   nsb_lsm_label(lsm()), &server);
		if (r)
			return r;
		fuse_dirfd[on] = open(fuse_dir[on], O_PATH | O_DIRECTORY |
				      O_CLOEXEC);
		if (fuse_dirfd[on] < 0)
			return -errno;
	}
	*dirfd = fuse_dirfd[on];
	return 0;
}

static int target_fds(struct nsb_env *env, enum nsb_lsm_target t, int on,
		      int *dirfd, int *rwfd)
{
	if (t == NSB_LSM_TMPFS) {
		*dirfd = env->dirfd;
		*rwfd = env->rwfd;
		return 0;
	}
	if (t == NSB_LSM_FUSE) {
		*rwfd = -1;
		return fuse_fds(env, on, dirfd);
	}
	if (ext4_dirfd < 0) {
		ext4_dirfd = open(NSB_LSM_EXT4_DIR, O_PATH | O_DIRECTORY |
					O_CLOEXEC);
		if (ext4_dirfd < 0)
			return -errno;
		ext4_rwfd = openat(ext4_dirfd, "file", O_RDWR | O_CLOEXEC);
		if (ext4_rwfd < 0)
			return -errno;
	}
	*dirfd = ext4_dirfd;
	*rwfd = ext4_rwfd;
	return 0;
}

/*
 * n iterations of kind k; the result of the last one (0 or -errno).  A
 * refusal does not stop the loop: a refused operation the scenario
 * expects (Smack's untrusted superblock, a label write from a userns) is
 * timed per iteration like any other.
 */
static int run_kind(enum nsb_lsm_kind k, int dirfd, int rwfd, int64_t n)
{
	const char *name = nsb_lsm_xattr(lsm()), *label = nsb_lsm_label(lsm());
	size_t ll = strlen(label);
	struct stat st;
	char v[256];
	int fd, r = 0;

	while (n-- > 0) {
		NSB_MARK(NSB_MARK_OP);
		switch (k) {
		case NSB_LSM_GETLABEL:
			r = fgetxattr(rwfd, name, v, sizeof(v)) < 0 ? -errno : 0;
			break;
		case NSB_LSM_SETLABEL:
			r = fsetxattr(rwfd, name, label, ll, 0) ? -errno : 0;
			break;
		case NSB_LSM_CREATE:
			fd = openat(dirfd, "lsm-new", O_CREAT | O_EXCL |
				    O_WRONLY | O_CLOEXEC, 0644);
			if (fd < 0)
				return -errno;
			close(fd);
			r = unlinkat(dirfd, "lsm-new", 0) ? -errno : 0;
			if (r)
				return r;
			break;
		case NSB_LSM_STAT:
			r = fstatat(dirfd, "file", &st, 0) ? -errno : 0;
			break;
		case NSB_LSM_OPEN:
			fd = openat(dirfd, "file", O_RDONLY | O_CLOEXEC);
			r = fd < 0 ? -errno : 0;
			if (fd >= 0)
				close(fd);
			break;
		default:
			return -EINVAL;
		}
	}
	return r;
}

/*
 * What the LSM made of the FUSE mount of state on: the label a fresh
 * inode got on lookup (SELinux: the xattr's, or the mountpoint's on a
 * userns mount, seed 007), and whether a file with the suite's label is
 * refused (Smack's untrusted superblock, seed 008).
 */
static int fuse_class(int dirfd, int on)
{
	char path[600];
	int class, fd;

	snprintf(path, sizeof(path), "%s/file", fuse_dir[on]);
	class = fd_class(-1, path, lsm());
	if (class < 0)
		return class;
	fd = openat(dirfd, "fprobe", O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		close(fd);
	else if (errno == EACCES)
		class |= NSB_LABEL_UNTRUSTED;
	else
		return -errno;
	return class;
}

/*
 * The precondition each kind proves on its first call: getlabel and
 * setlabel classify the file's label afterwards (setlabel: did the label
 * written from this namespace take effect?); create classifies the new
 * file's label (inode_init_security); stat and open have none (0).
 */
int nsb_op_lsm(struct nsb_env *env, int64_t arg, int64_t n)
{
	enum nsb_lsm_kind k = arg & 0xff;
	enum nsb_lsm_target t = (arg >> 8) & 0xff;
	int on = !!(arg & NSB_LSM_STATE_ON);
	int slot = k * NSB_LSM_TARGET_COUNT + t, dirfd = -1, rwfd = -1;
	int *class = &first_class[slot][on];
	int r, fd;

	r = target_fds(env, t, on, &dirfd, &rwfd);
	if (r)
		return r;
	if (!first_done[slot][on]) {
		first_done[slot][on] = 1;
		r = run_kind(k, dirfd, rwfd, 1);
		if (r)
			return *class = r;
		n--;
		switch (k) {
		case NSB_LSM_GETLABEL:
		case NSB_LSM_SETLABEL:
			*class = fd_class(rwfd, NULL, lsm());
			break;
		case NSB_LSM_CREATE:
			fd = openat(dirfd, "lsm-probe", O_CREAT | O_WRONLY |
				    O_CLOEXEC, 0644);
			if (fd < 0)
				return *class = -errno;
			*class = fd_class(fd, NULL, lsm());
			close(fd);
			unlinkat(dirfd, "lsm-probe", 0);
			break;
		case NSB_LSM_STAT:
		case NSB_LSM_OPEN:
			*class = t == NSB_LSM_FUSE ? fuse_class(dirfd, on) : 0;
			break;
		default:
			*class = 0;
		}
	}
	r = run_kind(k, dirfd, rwfd, n);
	return r ? r : *class;
}

static char mnt_dir[512];

const char *nsb_lsm_mount_name(int64_t m)
{
	static const char *const names[] = { "sysfs", "devpts", "fuse" };

	return m >= 0 && m <= NSB_LSM_MOUNT_FUSE ? names[m] : "?";
}

int nsb_op_lsm_mount(struct nsb_env *env, int64_t arg, int64_t n)
{
	const char *type = nsb_lsm_mount_name(arg);
	const char *opts = arg & 1 ? "newinstance,ptmxmode=0666" : NULL;
	int r;

	if (!mnt_dir[0]) {
		snprintf(mnt_dir, sizeof(mnt_dir), "%s/lsm-mnt", env->scratch);
		if (mkdir(mnt_dir, 0755) && errno != EEXIST)
			return -errno;
		/* A new netns owned by this userns: its own sysfs sb. */
		if (unshare(CLONE_NEWNET))
			return -errno;
	}
	while (n-- > 0) {
		NSB_MARK(NSB_MARK_OP);
		if (arg == NSB_LSM_MOUNT_FUSE) {
			r = nsb_fuse_mount_cycle(mnt_dir, nsb_lsm_xattr(lsm()),
						 nsb_lsm_label(lsm()));
			if (r)
				return r;
			continue;
		}
		if (mount(type, mnt_dir, type, 0, opts))
			return -errno;
		if (umount2(mnt_dir, 0))
			return -errno;
	}
	return 0;
}
