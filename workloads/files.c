// SPDX-License-Identifier: GPL-2.0
/*
 * files.c — the files a scenario mount holds: the exec target and its
 * setuid-root and file-caps copies, a device node, a regular file and a
 * 64-deep directory tree.
 *
 * Run by the populator, which stays root in the init user namespace: only
 * it may mknod (CAP_MKNOD in init) and write a v2 security.capability that
 * every namespace of the chain honours (root id 0 maps all the way down).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "workloads/fixture.h"
#include "workloads/wlutil.h"

extern const unsigned char nsb_true_elf[];
extern const unsigned long nsb_true_elf_len;

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	int e = errno;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	errno = e;
	return -1;
}

static int write_file(int dfd, const char *name, const void *buf, size_t len,
		      mode_t mode)
{
	int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			mode);
	ssize_t w;

	if (fd < 0)
		return -1;
	w = write(fd, buf, len);
	if (close(fd) || w != (ssize_t)len)
		return -1;
	/* fchmodat: the umask must not decide the mode of a fixture. */
	return fchmodat(dfd, name, mode, 0);
}

static int set_net_raw_cap(int dfd, const char *name)
{
	cap_value_t v = CAP_NET_RAW;
	cap_t caps = cap_init();
	int fd, ret = -1;

	if (!caps)
		return -1;
	fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);
	if (fd >= 0 &&
	    !cap_set_flag(caps, CAP_PERMITTED, 1, &v, CAP_SET) &&
	    !cap_set_flag(caps, CAP_EFFECTIVE, 1, &v, CAP_SET))
		ret = cap_set_fd(fd, caps);
	if (fd >= 0)
		close(fd);
	cap_free(caps);
	return ret;
}

/*
 * A name the filesystem does not support is no fixture failure: tmpfs has
 * user.* xattrs only since Linux 6.6, and the xattr benchmarks then skip
 * with the kernel's refusal as their reason.
 */
static int set_xattrs(int dfd, const char *name)
{
	static const char *const names[] = { "user.nsbench", "security.nsbench" };
	static const char val[16] = "0123456789abcde";
	int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -1;
	for (size_t i = 0; i < NSB_ARRAY_SIZE(names) && !ret; i++)
		if (fsetxattr(fd, names[i], val, sizeof(val), 0) &&
		    errno != EOPNOTSUPP)
			ret = -1;
	close(fd);
	return ret;
}

static int make_tree(int dfd)
{
	int fd = dup(dfd), next, k, ret = 0;

	/* d/d/.../d with an "f" at every level: deep[k] reaches level k. */
	for (k = 0; k <= NSB_MAX_TREE && fd >= 0 && !ret; k++) {
		ret = write_file(fd, "f", "", 0, 0644);
		if (ret || k == NSB_MAX_TREE)
			break;
		if (mkdirat(fd, "d", 0755) && errno != EEXIST) {
			ret = -1;
			break;
		}
		next = openat(fd, "d", O_PATH | O_DIRECTORY | O_CLOEXEC);
		close(fd);
		fd = next;
	}
	if (fd >= 0)
		close(fd);
	return fd < 0 ? -1 : ret;
}

int nsb_populate(const char *dir, char *err, size_t errlen)
{
	static const char *bins[] = { "bin", "suid", "fcaps" };
	static char page[4096];
	int dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	int ret = -1;
	size_t i;

	if (dfd < 0)
		return fail(err, errlen, "open %s: %m", dir);
	for (i = 0; i < NSB_ARRAY_SIZE(bins); i++)
		if (write_file(dfd, bins[i], nsb_true_elf, nsb_true_elf_len,
			       0755)) {
			fail(err, errlen, "write %s/%s: %m", dir, bins[i]);
			goto out;
		}
	if (fchownat(dfd, "suid", 0, 0, 0) || fchmodat(dfd, "suid", 04755, 0)) {
		fail(err, errlen, "setuid %s/suid: %m", dir);
		goto out;
	}
	if (set_net_raw_cap(dfd, "fcaps")) {
		fail(err, errlen, "cap_set_fd %s/fcaps: %m", dir);
		goto out;
	}
	if (mknodat(dfd, "null", S_IFCHR | 0666, makedev(1, 3)) ||
	    fchmodat(dfd, "null", 0666, 0)) {
		fail(err, errlen, "mknod %s/null: %m", dir);
		goto out;
	}
	if (write_file(dfd, "file", page, sizeof(page), 0666)) {
		fail(err, errlen, "write %s/file: %m", dir);
		goto out;
	}
	/* Something for the getxattr benchmarks to read. */
	if (set_xattrs(dfd, "file")) {
		fail(err, errlen, "setxattr %s/file: %m", dir);
		goto out;
	}
	if (make_tree(dfd)) {
		fail(err, errlen, "tree under %s: %m", dir);
		goto out;
	}
	ret = 0;
out:
	close(dfd);
	return ret;
}
