// SPDX-License-Identifier: GPL-2.0
/*
 * wlutil.c — process and namespace helpers of the fixture library.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <linux/nsfs.h>

#include "workloads/wlutil.h"

void nsb_sleep_us(unsigned long us)
{
	struct timespec t = {
		.tv_sec = us / 1000000,
		.tv_nsec = (long)(us % 1000000) * 1000,
	};

	while (nanosleep(&t, &t) && errno == EINTR)
		;
}

void nsb_die_with_parent(void)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* The parent may have died before prctl: then we are orphaned. */
	if (getppid() == 1)
		_exit(1);
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t len = strlen(s), w;

	if (fd < 0)
		return -1;
	w = write(fd, s, len);
	close(fd);
	return w == len ? 0 : -1;
}

int nsb_write_maps(pid_t pid)
{
	static const char map[] = "0 0 65536\n";
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/uid_map", (int)pid);
	if (write_str(path, map))
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/gid_map", (int)pid);
	return write_str(path, map);
}

int nsb_send_int(int sock, int v)
{
	return send(sock, &v, sizeof(v), MSG_NOSIGNAL) == sizeof(v) ? 0 : -1;
}

int nsb_recv_int(int sock)
{
	int v;

	if (recv(sock, &v, sizeof(v), 0) != sizeof(v))
		return -EPIPE;
	return v;
}

int nsb_send_fd(int sock, int fd)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	int zero = 0;
	struct iovec iov = { .iov_base = &zero, .iov_len = sizeof(zero) };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);

	memset(&u, 0, sizeof(u));
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	return sendmsg(sock, &msg, MSG_NOSIGNAL) == sizeof(zero) ? 0 : -1;
}

int nsb_recv_fd(int sock, int *err)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	int v = -EPIPE, fd = -1;
	struct iovec iov = { .iov_base = &v, .iov_len = sizeof(v) };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	struct cmsghdr *cm;

	if (recvmsg(sock, &msg, MSG_CMSG_CLOEXEC) != sizeof(v)) {
		*err = -EPIPE;
		return -1;
	}
	cm = CMSG_FIRSTHDR(&msg);
	if (cm && cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS)
		memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	*err = fd < 0 ? (v ? v : -EBADMSG) : 0;
	return fd;
}

static int fd_mnt_id(int fd)
{
	char path[64], line[256];
	FILE *f;
	int id = -1;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "mnt_id: %d", &id) == 1)
			break;
	fclose(f);
	return id;
}

int nsb_mount_in_my_ns(int fd)
{
	char line[4096];
	int id = fd_mnt_id(fd), found = 0, cur;
	FILE *f;

	if (id < 0)
		return -1;
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return -1;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%d", &cur) == 1 && cur == id;
	fclose(f);
	return found;
}

int nsb_ns_get_parent(int fd)
{
	return ioctl(fd, NS_GET_PARENT);
}

int nsb_mntns_owned_by_userns(pid_t pid)
{
	char path[64];
	struct stat user, owner;
	int fd, ufd, ret = -1;

	snprintf(path, sizeof(path), "/proc/%d/ns/mnt", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ufd = ioctl(fd, NS_GET_USERNS);
	snprintf(path, sizeof(path), "/proc/%d/ns/user", (int)pid);
	if (ufd >= 0 && !fstat(ufd, &owner) && !stat(path, &user))
		ret = owner.st_ino == user.st_ino && owner.st_dev == user.st_dev;
	if (ufd >= 0)
		close(ufd);
	close(fd);
	return ret;
}
