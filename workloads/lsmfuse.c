// SPDX-License-Identifier: GPL-2.0
/*
 * lsmfuse.c — the smallest FUSE server the LSM scenarios need, on the raw
 * /dev/fuse protocol (no libfuse in the guest): a root directory (no
 * label of its own) in which every name starting with 'f' is a regular
 * file whose LSM label xattr (security.selinux / security.SMACK64) is the
 * suite's label.  Each LOOKUP answers a new node id with zero entry and
 * attribute timeouts, so every path lookup instantiates a new inode and
 * the LSM labels it again: from the xattr (a GETXATTR round trip to this
 * server) or, on a userns-owned mount, from the mount (SELinux
 * mountpoint labelling) — the per-superblock decision of seeds 007/008.
 * FUSE is the filesystem a user namespace can mount that neither LSM
 * whitelists (tmpfs, ramfs, devpts, overlay, sysfs are; 6.1 sysfs
 * superblocks are init-owned anyway).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#include <linux/fuse.h>

#include "workloads/lsmfuse.h"

/*
 * Where replies' arguments are built.  The kernel copies each from here
 * into its own out argument (a fuse_entry_out of 128 bytes, an attr, the
 * label) with memcpy, whose direction, and so its cost (4 insn), follows
 * the low bytes of both addresses (see read_buf_raw below): on 6.12 the
 * open rows' FUSE copies read 4 insn apart from boot to boot.  The
 * kernel's out arguments are 8-aligned; from low byte 0x78, the greatest
 * 8-aligned signed byte, the copy runs forward into every one of them.
 * The label is copied here once per connection, not once per reply.
 */
#define REPLY_ARG_LOW	0x78
#define REPLY_LABEL_MAX	256

union reply_arg {
	struct fuse_init_out init;
	struct fuse_entry_out entry;
	struct fuse_attr_out attr;
	struct fuse_getxattr_out xattr;
	struct fuse_open_out open;
	struct fuse_statfs_out statfs;
};

struct reply_area {
	char head[REPLY_ARG_LOW];
	union reply_arg arg;
};

struct label_area {
	char head[REPLY_ARG_LOW];
	char label[REPLY_LABEL_MAX];
};

_Static_assert(offsetof(struct reply_area, arg) == REPLY_ARG_LOW,
	       "the reply argument starts at low byte 0x78");
_Static_assert(offsetof(struct label_area, label) == REPLY_ARG_LOW,
	       "the label starts at low byte 0x78");

static struct reply_area reply_area __attribute__((aligned(256)));
static struct label_area label_area __attribute__((aligned(256)));

void *nsb_fuse_reply_arg(size_t *size)
{
	*size = sizeof(reply_area.arg);
	return &reply_area.arg;
}

/* label, or its copy at low byte 0x78 where it fits */
static const char *reply_label(const char *label, size_t ll)
{
	if (ll > sizeof(label_area.label))
		return label;
	return memcpy(label_area.label, label, ll);
}

static int reply(int fd, uint64_t unique, int err, const void *p, size_t n)
{
	struct fuse_out_header h = {
		.len = sizeof(h) + (err ? 0 : n), .error = err,
		.unique = unique,
	};
	struct iovec iov[2] = {
		{ &h, sizeof(h) }, { (void *)p, err ? 0 : n },
	};

	return writev(fd, iov, 2) < 0 ? -errno : 0;
}

static void fill_attr(struct fuse_attr *a, uint64_t ino)
{
	memset(a, 0, sizeof(*a));
	a->ino = ino;
	a->mode = ino == FUSE_ROOT_ID ? S_IFDIR | 0755 : S_IFREG | 0666;
	a->nlink = ino == FUSE_ROOT_ID ? 2 : 1;
	a->blksize = 4096;
}

/*
 * The server's read buffer.  The kernel copies each request's header
 * (40 bytes) into it with memcpy, whose x86 form (memcpy_orig) copies
 * forward or backward by comparing the low bytes of source and
 * destination as signed numbers: 4 insn apart.  The source is the
 * request itself, whose slot in the fuse_request slab follows the boot,
 * so a FUSE mount (3 requests) cost 12 insn more in some boots than in
 * others, on either state (6.12).  The buffer's low byte is 0x80, the
 * least there is: the copy runs forward from every slot.
 */
#define READ_BUF_HEAD	128
static char read_buf_raw[READ_BUF_HEAD + FUSE_MIN_READ_BUFFER + 65536]
	__attribute__((aligned(256)));

char *nsb_fuse_read_buf(size_t *size)
{
	*size = sizeof(read_buf_raw) - READ_BUF_HEAD;
	return read_buf_raw + READ_BUF_HEAD;
}

/*
 * Serves fd until the mount goes.  *pending (may be NULL): a mount on fd
 * is under way and the device not attached yet (reads fail with EPERM):
 * keep trying while it is set.
 */
static void serve(int fd, const char *xattr, const char *label,
		  const volatile int *pending)
{
	size_t size;
	char *buf = nsb_fuse_read_buf(&size);
	uint64_t next = FUSE_ROOT_ID + 1;
	size_t ll = strlen(label);
	union reply_arg *o = &reply_area.arg;

	label = reply_label(label, ll);

	for (;;) {
		struct fuse_in_header *in = (void *)buf;
		void *arg = buf + sizeof(*in);
		ssize_t len = read(fd, buf, size);

		if (len < 0) {
			if (errno == EINTR || errno == EAGAIN ||
			    errno == ENOENT)
				continue;
			if (errno == EPERM && pending && *pending) {
				sched_yield();
				continue;
			}
			return;	/* ENODEV: unmounted */
		}
		if ((size_t)len < sizeof(*in))
			continue;
		switch (in->opcode) {
		case FUSE_INIT: {
			struct fuse_init_in *ii = arg;

			o->init = (struct fuse_init_out){
				.major = FUSE_KERNEL_VERSION,
				.minor = ii->minor < FUSE_KERNEL_MINOR_VERSION ?
					 ii->minor : FUSE_KERNEL_MINOR_VERSION,
				.max_readahead = ii->max_readahead,
				.max_write = 4096, .max_background = 16,
				.congestion_threshold = 12, .time_gran = 1,
			};
			reply(fd, in->unique, 0, &o->init, sizeof(o->init));
			break;
		}
		case FUSE_LOOKUP: {
			const char *name = arg;

			if (in->nodeid != FUSE_ROOT_ID || name[0] != 'f') {
				reply(fd, in->unique, -ENOENT, NULL, 0);
				break;
			}
			o->entry = (struct fuse_entry_out){ .nodeid = next++ };
			fill_attr(&o->entry.attr, o->entry.nodeid);
			reply(fd, in->unique, 0, &o->entry, sizeof(o->entry));
			break;
		}
		case FUSE_GETATTR:
			o->attr = (struct fuse_attr_out){ 0 };
			fill_attr(&o->attr.attr, in->nodeid);
			reply(fd, in->unique, 0, &o->attr, sizeof(o->attr));
			break;
		case FUSE_GETXATTR: {
			struct fuse_getxattr_in *gi = arg;
			const char *name = (char *)(gi + 1);

			o->xattr = (struct fuse_getxattr_out){ .size = ll };
			if (in->nodeid == FUSE_ROOT_ID || strcmp(name, xattr))
				reply(fd, in->unique, -ENODATA, NULL, 0);
			else if (!gi->size)
				reply(fd, in->unique, 0, &o->xattr,
				      sizeof(o->xattr));
			else if (gi->size < ll)
				reply(fd, in->unique, -ERANGE, NULL, 0);
			else
				reply(fd, in->unique, 0, label, ll);
			break;
		}
		case FUSE_OPEN:
		case FUSE_OPENDIR:
			o->open = (struct fuse_open_out){ 0 };
			reply(fd, in->unique, 0, &o->open, sizeof(o->open));
			break;
		case FUSE_STATFS:
			o->statfs = (struct fuse_statfs_out){
				.st = { .bsize = 4096, .namelen = 255 },
			};
			reply(fd, in->unique, 0, &o->statfs, sizeof(o->statfs));
			break;
		case FUSE_RELEASE:
		case FUSE_RELEASEDIR:
		case FUSE_FLUSH:
		case FUSE_ACCESS:
		case FUSE_SETXATTR:
			reply(fd, in->unique, 0, NULL, 0);
			break;
		case FUSE_FORGET:
		case FUSE_BATCH_FORGET:
		case FUSE_INTERRUPT:
			break;
		case FUSE_DESTROY:
			reply(fd, in->unique, 0, NULL, 0);
			return;
		default:
			reply(fd, in->unique, -ENOSYS, NULL, 0);
		}
	}
}

int nsb_fuse_mount(const char *dir, const char *xattr, const char *label,
		   pid_t *server)
{
	char opts[128];
	pid_t pid;
	int fd;

	fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* The server runs before mount(2): the LSM may ask it at mount. */
	pid = fork();
	if (pid < 0) {
		close(fd);
		return -errno;
	}
	if (pid == 0) {
		/*
		 * The child may run before the parent's mount(2) attaches
		 * fd (seen on 6.12, not on 6.1): until then its
		 * reads fail with EPERM; keep trying (the parent kills it if
		 * the mount fails).  Giving up there left the mount without
		 * a server: ENOTCONN, or a hang in mount(2) where the LSM
		 * asks for the root's label.
		 */
		static const volatile int attaching = 1;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		serve(fd, xattr, label, &attaching);
		_exit(0);
	}
	snprintf(opts, sizeof(opts),
		 "fd=%d,rootmode=40755,user_id=0,group_id=0,allow_other", fd);
	if (mount("nsb", dir, "fuse.nsb", MS_NOSUID | MS_NODEV, opts)) {
		int e = errno;

		kill(pid, SIGKILL);
		close(fd);
		return -e;
	}
	close(fd);
	*server = pid;
	return 0;
}

/*
 * Mount after mount of the same filesystem (the LSM decides each new
 * superblock's labelling): a server thread of this process answers each
 * connection, handed over as its fd through a pipe, until the mount goes
 * (the device read fails with ENODEV), then acknowledges; the caller
 * closes the fd only then.  One thread, one connection at a time: the
 * caller mounts and unmounts in turn.
 */
static struct {
	int req[2], ack[2];
	const char *xattr, *label;
	bool started;
	volatile int mounting;	/* mount(2) on the handed fd under way */
} cycle = { .req = { -1, -1 }, .ack = { -1, -1 } };

static void *cycle_server(void *unused)
{
	int fd;
	char c = 0;

	while (read(cycle.req[0], &fd, sizeof(fd)) == sizeof(fd)) {
		serve(fd, cycle.xattr, cycle.label, &cycle.mounting);
		if (write(cycle.ack[1], &c, 1) != 1)
			break;
	}
	return NULL;
}

static int cycle_start(const char *xattr, const char *label)
{
	pthread_t t;

	if (cycle.started)
		return 0;
	if (pipe2(cycle.req, O_CLOEXEC) || pipe2(cycle.ack, O_CLOEXEC))
		return -errno;
	cycle.xattr = xattr;
	cycle.label = label;
	if (pthread_create(&t, NULL, cycle_server, NULL))
		return -EAGAIN;
	pthread_detach(t);
	cycle.started = true;
	return 0;
}

int nsb_fuse_mount_cycle(const char *dir, const char *xattr,
			 const char *label)
{
	char opts[128], c;
	int fd, r = 0;

	r = cycle_start(xattr, label);
	if (r)
		return r;
	fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	cycle.mounting = 1;
	if (write(cycle.req[1], &fd, sizeof(fd)) != sizeof(fd)) {
		r = -errno;
		close(fd);
		return r;
	}
	snprintf(opts, sizeof(opts),
		 "fd=%d,rootmode=40755,user_id=0,group_id=0", fd);
	if (mount("nsb", dir, "fuse.nsb", MS_NOSUID | MS_NODEV, opts))
		r = -errno;
	/* failed: the server's read gives EPERM, and now it stops on it */
	cycle.mounting = 0;
	if (!r && umount2(dir, 0))
		r = -errno;
	if (read(cycle.ack[0], &c, 1) != 1 && !r)
		r = -EIO;
	close(fd);
	return r;
}
