// SPDX-License-Identifier: GPL-2.0
/*
 * worker.c — the scenario worker (see fixture.h for the life cycle).
 *
 * Every process made here dies with its parent (PR_SET_PDEATHSIG) and is
 * in the worker's process group (killed at once by nsb_worker_stop()),
 * and every mount and file lives on a tmpfs that covers /tmp inside a
 * private mount namespace, so even a SIGKILLed run leaves nothing on the
 * host: no mount, file, process or namespace.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/mount.h>

#include "workloads/fixture.h"
#include "workloads/wlutil.h"

struct ready_msg {
	int ret;
	bool skip;
	char msg[200];
};

struct call_msg {
	nsb_op_fn fn;
	int64_t arg;
	int64_t n;
};

/* State of the worker process itself (after fork, never in the caller). */
struct wctx {
	struct nsb_scn scn;
	const char *tmpdir;
	int sock;		/* to the caller */
	int pop;		/* to the populator */
	pid_t helper;		/* foreign-mount helper, or 0 */
	struct nsb_env env;
};

static const char *const owner_names[NSB_OWNER_COUNT] = {
	[NSB_OWNER_INIT] = "init",
	[NSB_OWNER_SELF] = "self",
	[NSB_OWNER_PARENT] = "parent",
	[NSB_OWNER_FOREIGN_PROC] = "foreign-proc",
	[NSB_OWNER_FOREIGN_FD] = "foreign-fd",
	[NSB_OWNER_FOREIGN_TREE] = "foreign-tree",
	[NSB_OWNER_UNRELATED] = "unrelated",
};

static const char *const file_names[NSB_FILE_COUNT] = {
	[NSB_FILE_REGULAR] = "file",
	[NSB_FILE_BIN] = "bin",
	[NSB_FILE_SUID] = "suid",
	[NSB_FILE_FCAPS] = "fcaps",
	[NSB_FILE_DEV] = "null",
};

const char *nsb_owner_name(enum nsb_owner o)
{
	return o < NSB_OWNER_COUNT ? owner_names[o] : "?";
}

const char *nsb_file_name(enum nsb_file f)
{
	return f < NSB_FILE_COUNT ? file_names[f] : "?";
}

bool nsb_owner_foreign(enum nsb_owner o)
{
	return o == NSB_OWNER_FOREIGN_PROC || o == NSB_OWNER_FOREIGN_FD ||
	       o == NSB_OWNER_FOREIGN_TREE || o == NSB_OWNER_UNRELATED;
}

/* The userns level at which the scenario mount is made (-1: a helper's). */
static int owner_level(const struct nsb_scn *scn)
{
	switch (scn->owner) {
	case NSB_OWNER_INIT:
		return 0;
	case NSB_OWNER_SELF:
		return scn->depth;
	case NSB_OWNER_PARENT:
		return scn->depth - 1;
	default:
		return -1;
	}
}

/*
 * mnt_may_suid(): not MNT_NOSUID, the mount is in the caller's mount
 * namespace (check_mnt), and the caller is in the superblock's userns or
 * below it.  get_file_caps() applies the same test to file capabilities.
 */
bool nsb_expect_suid(const struct nsb_scn *scn)
{
	return !scn->nosuid && !nsb_owner_foreign(scn->owner);
}

/*
 * may_open_dev(): not MNT_NODEV and no SB_I_NODEV, which every superblock
 * created outside the init user namespace carries.
 */
bool nsb_expect_dev(const struct nsb_scn *scn)
{
	int level = owner_level(scn);

	if (scn->nodev || scn->owner == NSB_OWNER_UNRELATED)
		return false;
	/* A foreign helper mounts at the worker's own depth. */
	return (level < 0 ? scn->depth : level) == 0;
}

/* --- the worker's side ------------------------------------------------- */

static void __attribute__((noreturn, format(printf, 3, 4)))
wfail(struct wctx *c, bool skip, const char *fmt, ...)
{
	struct ready_msg r = { .ret = -1, .skip = skip };
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r.msg, sizeof(r.msg), fmt, ap);
	va_end(ap);
	if (send(c->sock, &r, sizeof(r), MSG_NOSIGNAL) < 0)
		perror("nsb worker");
	_exit(1);
}

/* The kernel refusing a scenario (skip), as opposed to a fixture bug. */
static bool refused(int e)
{
	return e == EPERM || e == EACCES || e == EINVAL || e == ENOSYS ||
	       e == EUSERS || e == ENOSPC || e == EOPNOTSUPP || e == ENODEV;
}

/* Runs in the init namespace for the whole worker life: see files.c. */
static void __attribute__((noreturn)) populator_main(int sock)
{
	char path[PATH_MAX];
	struct ready_msg r;
	ssize_t len;

	while ((len = recv(sock, path, sizeof(path) - 1, 0)) > 0) {
		path[len] = 0;
		memset(&r, 0, sizeof(r));
		r.ret = nsb_populate(path, r.msg, sizeof(r.msg));
		if (send(sock, &r, sizeof(r), MSG_NOSIGNAL) < 0)
			break;
	}
	_exit(0);
}

static int start_populator(struct wctx *c)
{
	int sv[2];
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		close(sv[0]);
		close(c->sock);
		nsb_die_with_parent();
		populator_main(sv[1]);
	}
	close(sv[1]);
	c->pop = sv[0];
	return 0;
}

/* Fill <dir> as seen from process pid, by the init-namespace populator. */
static void populate_via(struct wctx *c, pid_t pid, const char *dir)
{
	char path[PATH_MAX];
	struct ready_msg r;

	snprintf(path, sizeof(path), "/proc/%d/root%s", (int)pid, dir);
	if (send(c->pop, path, strlen(path), MSG_NOSIGNAL) < 0 ||
	    recv(c->pop, &r, sizeof(r), 0) != sizeof(r))
		wfail(c, false, "populator: %m");
	if (r.ret)
		wfail(c, false, "populate: %s", r.msg);
}

static void mount_scenario_tmpfs(struct wctx *c, const char *dir)
{
	unsigned long flags = (c->scn.nosuid ? MS_NOSUID : 0) |
			      (c->scn.nodev ? MS_NODEV : 0);

	if (mount("nsb", dir, "tmpfs", flags, "mode=0755,size=8m"))
		wfail(c, refused(errno), "mount tmpfs on %s: %m", dir);
}

/*
 * One level down the chain: a helper left in the current namespace
 * writes the new namespace's maps, since only a writer with CAP_SETUID
 * in the parent namespace may map a whole range (0..65535, so that uid
 * 1000 exists below).
 */
static void descend(struct wctx *c)
{
	int go[2], status;
	char b = 0;
	pid_t pid;

	if (pipe2(go, O_CLOEXEC))
		wfail(c, false, "pipe: %m");
	pid = fork();
	if (pid < 0)
		wfail(c, false, "fork: %m");
	if (!pid) {
		pid_t w = getppid();

		close(go[1]);
		if (read(go[0], &b, 1) != 1)
			_exit(1);
		_exit(nsb_write_maps(w) ? 2 : 0);
	}
	close(go[0]);
	if (unshare(CLONE_NEWUSER)) {
		int e = errno;

		close(go[1]);
		waitpid(pid, NULL, 0);
		errno = e;
		wfail(c, refused(e), "unshare(CLONE_NEWUSER): %m");
	}
	if (write(go[1], &b, 1) != 1)
		wfail(c, false, "pipe write: %m");
	close(go[1]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		wfail(c, false, "writing uid/gid maps failed (status %#x)",
		      status);
}

static void make_owned_mount(struct wctx *c, int level)
{
	char dir[PATH_MAX];

	/* Mounting below init needs a mount ns owned by this userns. */
	if (level > 0 && unshare(CLONE_NEWNS))
		wfail(c, refused(errno), "unshare(CLONE_NEWNS): %m");
	snprintf(dir, sizeof(dir), "%s/own", c->tmpdir);
	mount_scenario_tmpfs(c, dir);
	populate_via(c, getpid(), dir);
}

/*
 * Opened by path only after the last mount-ns change: a mount reached
 * through an fd from an older mount namespace would be foreign.
 */
static void open_owned_mount(struct wctx *c)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s/own", c->tmpdir);
	c->env.dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (c->env.dirfd < 0)
		wfail(c, false, "open %s: %m", dir);
}

/* The foreign helper's body: its own mount ns (and userns if unrelated). */
static void __attribute__((noreturn)) helper_main(struct wctx *c, int sock)
{
	char dir[PATH_MAX], b = 0;
	int fd = -1;

	nsb_die_with_parent();
	close(c->sock);
	close(c->pop);
	if (c->scn.owner == NSB_OWNER_UNRELATED) {
		/* The worker writes our maps, then answers. */
		if (unshare(CLONE_NEWUSER))
			nsb_send_int(sock, -errno);
		else
			nsb_send_int(sock, 0);
		if (nsb_recv_int(sock) != 0)
			_exit(1);
	}
	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) {
		nsb_send_int(sock, -errno);
		_exit(1);
	}
	snprintf(dir, sizeof(dir), "%s/own", c->tmpdir);
	if (mount("nsb", dir, "tmpfs", (c->scn.nosuid ? MS_NOSUID : 0) |
		  (c->scn.nodev ? MS_NODEV : 0), "mode=0755,size=8m")) {
		nsb_send_int(sock, -errno);
		_exit(1);
	}
	nsb_send_int(sock, 0);
	/* The worker has the directory populated; now hand it over. */
	if (nsb_recv_int(sock) != 0)
		_exit(1);
	if (c->scn.owner == NSB_OWNER_FOREIGN_FD)
		fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	else if (c->scn.owner == NSB_OWNER_FOREIGN_TREE)
		fd = syscall(SYS_open_tree, AT_FDCWD, dir,
			     OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	if (fd >= 0)
		nsb_send_fd(sock, fd);
	else if (c->scn.owner == NSB_OWNER_FOREIGN_FD ||
		 c->scn.owner == NSB_OWNER_FOREIGN_TREE)
		nsb_send_int(sock, -errno);
	else
		nsb_send_int(sock, 0);
	/* Hold the mount namespace until the worker goes away. */
	while (read(sock, &b, 1) > 0)
		;
	_exit(0);
}

static void check_foreign(struct wctx *c)
{
	char path[64];
	struct stat mine, theirs;

	snprintf(path, sizeof(path), "/proc/%d/ns/mnt", (int)c->helper);
	if (stat("/proc/self/ns/mnt", &mine) || stat(path, &theirs))
		wfail(c, false, "stat mnt ns: %m");
	if (mine.st_ino == theirs.st_ino)
		wfail(c, false, "helper shares the worker's mount namespace");
}

static void make_foreign_mount(struct wctx *c)
{
	char dir[PATH_MAX];
	int sv[2], r;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		wfail(c, false, "socketpair: %m");
	pid = fork();
	if (pid < 0)
		wfail(c, false, "fork: %m");
	if (!pid) {
		close(sv[0]);
		helper_main(c, sv[1]);
	}
	close(sv[1]);
	c->helper = pid;
	if (c->scn.owner == NSB_OWNER_UNRELATED) {
		r = nsb_recv_int(sv[0]);
		if (r)
			wfail(c, refused(-r), "helper unshare(CLONE_NEWUSER): %s",
			      strerror(-r));
		nsb_send_int(sv[0], nsb_write_maps(pid) ? -1 : 0);
	}
	r = nsb_recv_int(sv[0]);
	if (r)
		wfail(c, refused(-r), "helper mount ns + tmpfs: %s",
		      strerror(-r));
	snprintf(dir, sizeof(dir), "%s/own", c->tmpdir);
	populate_via(c, pid, dir);
	nsb_send_int(sv[0], 0);
	if (c->scn.owner == NSB_OWNER_FOREIGN_FD ||
	    c->scn.owner == NSB_OWNER_FOREIGN_TREE) {
		c->env.dirfd = nsb_recv_fd(sv[0], &r);
		if (c->env.dirfd < 0)
			wfail(c, refused(-r), "%s from helper: %s",
			      c->scn.owner == NSB_OWNER_FOREIGN_TREE ?
			      "open_tree(OPEN_TREE_CLONE)" : "dir fd",
			      strerror(-r));
	} else {
		nsb_recv_int(sv[0]);
		snprintf(dir, sizeof(dir), "/proc/%d/root%s/own", (int)pid,
			 c->tmpdir);
		c->env.dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (c->env.dirfd < 0)
			wfail(c, refused(errno), "open %s: %m", dir);
	}
	/* sv[0] stays open for the worker's life: the helper holds until EOF. */
	if (c->scn.owner != NSB_OWNER_FOREIGN_TREE)
		check_foreign(c);
}

/* The claims about the scenario mount itself, checked from inside. */
static void check_mount(struct wctx *c)
{
	bool foreign = nsb_owner_foreign(c->scn.owner);
	struct statfs sf;
	int in_ns = nsb_mount_in_my_ns(c->env.dirfd);

	if (fstatfs(c->env.dirfd, &sf))
		wfail(c, false, "fstatfs: %m");
	if (!!(sf.f_flags & ST_NOSUID) != c->scn.nosuid)
		wfail(c, false, "scenario mount nosuid=%d, wanted %d",
		      !!(sf.f_flags & ST_NOSUID), c->scn.nosuid);
	/* Mounts made in a userns may be forced nodev; only check "nodev". */
	if (c->scn.nodev && !(sf.f_flags & ST_NODEV))
		wfail(c, false, "scenario mount is not nodev");
	if (in_ns < 0)
		wfail(c, false, "mount id lookup: %m");
	if (in_ns == foreign)
		wfail(c, false, "scenario mount %s in the worker's mount namespace",
		      in_ns ? "is" : "is not");
}

/* Each pinned namespace or superblock costs one fd. */
static void raise_nofile(struct wctx *c)
{
	struct rlimit rl;

	if (!getrlimit(RLIMIT_NOFILE, &rl) &&
	    rl.rlim_cur < (rlim_t)c->scn.nipc + c->scn.nproc + 64) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static void pin_ipc_namespaces(struct wctx *c)
{
	int i, fd, first = -1;

	for (i = 0; i < c->scn.nipc; i++) {
		/* A new IPC ns brings its own mqueue superblock (mq_init_ns). */
		if (unshare(CLONE_NEWIPC))
			wfail(c, refused(errno), "unshare(CLONE_NEWIPC) #%d: %m",
			      i);
		fd = open("/proc/self/ns/ipc", O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			wfail(c, false, "pin ipc ns #%d: %m", i);
		if (!i)
			first = fd;
	}
	/*
	 * Back to the first (oldest) one: superblocks are added at the head
	 * of the type's list, so sget_fc() passes the N-1 newer ones before
	 * it finds ours — the walk seed 002 adds a compare to.
	 */
	if (setns(first, CLONE_NEWIPC))
		wfail(c, refused(errno), "setns back to the first ipc ns: %m");
}

/* A proc superblock of the caller's pid ns, held by an fs_context fd. */
static int proc_sb_fd(void)
{
	int fd = syscall(SYS_fsopen, "proc", FSOPEN_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (syscall(SYS_fsconfig, fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0)) {
		int e = errno;

		close(fd);
		return -e;
	}
	return fd;
}

/* One more pid ns with its own proc superblock, handed back over sv. */
static void __attribute__((noreturn)) proc_sb_maker(int sock)
{
	int fd, status;
	pid_t pid;

	/* unshare(CLONE_NEWPID) works once per process: hence this child. */
	if (unshare(CLONE_NEWPID))
		_exit(nsb_send_int(sock, -errno) ? 1 : 1);
	pid = fork();
	if (pid < 0)
		_exit(nsb_send_int(sock, -errno) ? 1 : 1);
	if (!pid) {
		/* pid 1 of the new ns: proc keys its superblock by it. */
		fd = proc_sb_fd();
		if (fd < 0)
			_exit(nsb_send_int(sock, fd) ? 1 : 1);
		_exit(nsb_send_fd(sock, fd) ? 1 : 0);
	}
	waitpid(pid, &status, 0);
	_exit(0);
}

/*
 * N pid namespaces with a proc superblock each, made after the worker's
 * own (so sget_fc passes all N, newest first, before finding ours).
 */
static void pin_proc_superblocks(struct wctx *c)
{
	int sv[2], i, fd, err;
	pid_t pid;

	fd = proc_sb_fd();
	if (fd < 0)
		wfail(c, refused(-fd), "proc superblock: %s", strerror(-fd));
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		wfail(c, false, "socketpair: %m");
	for (i = 0; i < c->scn.nproc; i++) {
		pid = fork();
		if (pid < 0)
			wfail(c, false, "fork: %m");
		if (!pid)
			proc_sb_maker(sv[1]);
		fd = nsb_recv_fd(sv[0], &err);
		waitpid(pid, NULL, 0);
		if (fd < 0)
			wfail(c, refused(-err), "proc superblock #%d: %s", i,
			      strerror(-err));
	}
	close(sv[0]);
	close(sv[1]);
}

/* The worker's place has gone to child pid: wait for it, exit as it did. */
static void __attribute__((noreturn)) mirror(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}

/* Become pid 1 of a new pid namespace; the old worker waits and mirrors. */
static void enter_new_pid_ns(struct wctx *c)
{
	pid_t pid;

	if (unshare(CLONE_NEWPID))
		wfail(c, refused(errno), "unshare(CLONE_NEWPID): %m");
	pid = fork();
	if (pid < 0)
		wfail(c, false, "fork: %m");
	if (!pid) {
		nsb_die_with_parent();
		return;
	}
	mirror(pid);
}

static void drop_privileges(struct wctx *c)
{
	gid_t g = NSB_UNPRIV_UID;

	if (setgroups(1, &g) || setresgid(g, g, g) ||
	    setresuid(NSB_UNPRIV_UID, NSB_UNPRIV_UID, NSB_UNPRIV_UID))
		wfail(c, false, "drop to uid %d: %m", NSB_UNPRIV_UID);
}

static void make_paths(struct wctx *c)
{
	size_t len = strlen("f") + 2 * NSB_MAX_TREE + 1;
	int k, i;

	for (k = 0; k <= NSB_MAX_TREE; k++) {
		char *p = malloc(len);

		if (!p)
			wfail(c, false, "malloc");
		for (i = 0; i < k; i++)
			memcpy(p + 2 * i, "d/", 2);
		strcpy(p + 2 * k, "f");
		c->env.deep[k] = p;
	}
	if (asprintf(&c->env.mntpoint, "%s/mnt", c->tmpdir) < 0 ||
	    !(c->env.scratch = strdup(c->tmpdir)))
		wfail(c, false, "malloc");
}

static void set_up(struct wctx *c)
{
	int level, lvl = owner_level(&c->scn);
	char dir[PATH_MAX];

	nsb_die_with_parent();
	/* Our own process group: nsb_worker_stop() kills all helpers at once. */
	setpgid(0, 0);
	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		wfail(c, refused(errno), "private mount namespace: %m");
	/*
	 * The scratch tmpfs covers /tmp in the private mount namespace only:
	 * the host never sees a file or a directory of ours, even after
	 * SIGKILL.  (mkdir: a bare initramfs may have no /tmp.)
	 */
	if (mkdir(NSB_SCRATCH_PARENT, 01777) && errno != EEXIST)
		wfail(c, false, "mkdir %s: %m", NSB_SCRATCH_PARENT);
	if (mount("nsb-scratch", NSB_SCRATCH_PARENT, "tmpfs",
		  MS_NOSUID | MS_NODEV, "mode=0755,size=8m"))
		wfail(c, refused(errno), "mount scratch tmpfs: %m");
	if (mkdir(c->tmpdir, 0755))
		wfail(c, false, "mkdir %s: %m", c->tmpdir);
	snprintf(dir, sizeof(dir), "%s/own", c->tmpdir);
	if (mkdir(dir, 0755))
		wfail(c, false, "mkdir %s: %m", dir);
	snprintf(dir, sizeof(dir), "%s/mnt", c->tmpdir);
	if (mkdir(dir, 0755))
		wfail(c, false, "mkdir %s: %m", dir);
	if (start_populator(c))
		wfail(c, false, "populator: %m");
	if (c->scn.depth < 0 || c->scn.depth > NSB_MAX_DEPTH)
		wfail(c, true, "userns depth %d is outside 0..%d", c->scn.depth,
		      NSB_MAX_DEPTH);
	if (c->scn.owner == NSB_OWNER_PARENT && c->scn.depth == 0)
		wfail(c, true, "owner parent needs depth >= 1");
	for (level = 0; ; level++) {
		if (level == lvl)
			make_owned_mount(c, level);
		if (level == c->scn.depth)
			break;
		descend(c);
	}
	/* Mount benchmarks mount here: a mount ns of the worker's userns. */
	if (c->scn.depth > 0 && lvl != c->scn.depth && unshare(CLONE_NEWNS))
		wfail(c, refused(errno), "unshare(CLONE_NEWNS): %m");
	if (lvl < 0)
		make_foreign_mount(c);
	else
		open_owned_mount(c);
	check_mount(c);
	raise_nofile(c);
	if (c->scn.nipc > 0)
		pin_ipc_namespaces(c);
	if (c->scn.newpid || c->scn.nproc > 0)
		enter_new_pid_ns(c);
	if (c->scn.nproc > 0)
		pin_proc_superblocks(c);
	c->env.rwfd = openat(c->env.dirfd, "file", O_RDWR | O_CLOEXEC);
	if (c->env.rwfd < 0)
		wfail(c, false, "open file: %m");
	/* posix_spawn takes a path: the scenario directory is the cwd. */
	if (fchdir(c->env.dirfd))
		wfail(c, false, "fchdir: %m");
	make_paths(c);
	if (c->scn.unpriv)
		drop_privileges(c);
}

/*
 * The operation behind nsb_worker_respawn(): a child takes the worker's
 * place and answers for it; the worker itself waits and mirrors.  (The
 * child's parent may be pid 1 of the scenario's pid namespace, so
 * nsb_die_with_parent()'s test for an orphan does not fit here.)
 */
static int respawn(struct nsb_env *env, int64_t arg, int64_t n)
{
	pid_t self = getpid(), pid;

	(void)env;
	(void)arg;
	(void)n;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid)
		mirror(pid);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != self)
		_exit(1);
	return 0;
}

static void __attribute__((noreturn)) serve(struct wctx *c)
{
	struct ready_msg ready = { 0 };
	struct call_msg m;
	int ret;

	c->env.scn = &c->scn;
	if (send(c->sock, &ready, sizeof(ready), MSG_NOSIGNAL) < 0)
		_exit(1);
	while (recv(c->sock, &m, sizeof(m), 0) == sizeof(m)) {
		ret = m.fn(&c->env, m.arg, m.n);
		if (send(c->sock, &ret, sizeof(ret), MSG_NOSIGNAL) < 0)
			break;
	}
	_exit(0);
}

static void __attribute__((noreturn))
worker_main(const struct nsb_scn *scn, const char *tmpdir, int sock)
{
	struct wctx c = {
		.scn = *scn, .tmpdir = tmpdir, .sock = sock, .pop = -1,
		.env = { .dirfd = -1, .rwfd = -1 },
	};

	set_up(&c);
	serve(&c);
}

/* --- the caller's side ------------------------------------------------- */

bool (*nsb_worker_interrupted)(void);

/*
 * Waits for the worker's answer, or until the run is interrupted: a chunk
 * of an exec storm or a deep scenario's set-up takes seconds, and a
 * signal handler installed with SA_RESTART would resume a blocking
 * recv().  poll() is never resumed; its timeout covers a signal that
 * lands just before it.  The timeout is an hrtimer in the kernel for the
 * whole batch, some 38 insn a call more where it is the first to expire
 * than where another is (kernel-patches/README.md); without one the 6.12
 * rows were less steady, not more.
 */
static int wait_answer(int sock)
{
	struct pollfd p = { .fd = sock, .events = POLLIN };
	int r;

	for (;;) {
		r = poll(&p, 1, 100);
		if (r > 0)
			return 0;
		if (r < 0 && errno != EINTR)
			return -errno;
		if (nsb_worker_interrupted && nsb_worker_interrupted())
			return -EINTR;
	}
}

int nsb_userns_depth(pid_t pid)
{
	char path[64];
	int fd, parent, depth = 0;

	snprintf(path, sizeof(path), "/proc/%d/ns/user", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* EPERM at the top: the init namespace has no parent in our scope. */
	while ((parent = nsb_ns_get_parent(fd)) >= 0) {
		close(fd);
		fd = parent;
		depth++;
	}
	close(fd);
	return errno == EPERM ? depth : -1;
}

static int werr(struct nsb_worker *w, bool skip, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int werr(struct nsb_worker *w, bool skip, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->err, sizeof(w->err), fmt, ap);
	va_end(ap);
	w->skip = skip;
	return -1;
}

int nsb_expect_exec_status(const struct nsb_scn *scn, enum nsb_file f)
{
	bool elevate = nsb_expect_suid(scn);

	if (!scn->unpriv)
		return NSB_TRUE_EUID0 | NSB_TRUE_NET_RAW;
	/* Root by setuid gets root's capabilities too (commoncap). */
	if (f == NSB_FILE_SUID && elevate)
		return NSB_TRUE_EUID0 | NSB_TRUE_NET_RAW;
	if (f == NSB_FILE_FCAPS && elevate)
		return NSB_TRUE_NET_RAW;
	return 0;
}

/* The claims only the kernel's behaviour can prove, checked from outside. */
static int check_worker(struct nsb_worker *w)
{
	static const enum nsb_file bins[] = {
		NSB_FILE_BIN, NSB_FILE_SUID, NSB_FILE_FCAPS,
	};
	bool dev = nsb_expect_dev(&w->scn);
	int depth = nsb_userns_depth(w->pid), r;
	size_t i;

	if (depth != w->scn.depth)
		return werr(w, false, "worker at userns depth %d, wanted %d",
			    depth, w->scn.depth);
	/* Below init, mounting needs a mount ns of the worker's own userns. */
	if (w->scn.depth > 0 && nsb_mntns_owned_by_userns(w->pid) != 1)
		return werr(w, false, "worker's mount namespace is not owned "
			    "by its user namespace (NS_GET_USERNS)");
	for (i = 0; i < NSB_ARRAY_SIZE(bins); i++) {
		int want = nsb_expect_exec_status(&w->scn, bins[i]);

		r = nsb_worker_call(w, nsb_op_exec, bins[i], 1);
		if (r == -EINTR)
			return werr(w, false, "set-up abandoned");
		if (r != want)
			return werr(w, false, "exec %s: status %d, the kernel "
				    "should give %d (suid %s)",
				    nsb_file_name(bins[i]), r, want,
				    want ? "honoured" : "ignored");
	}
	r = nsb_worker_call(w, nsb_op_open, NSB_FILE_DEV, 1);
	if (r == -EINTR)
		return werr(w, false, "set-up abandoned");
	if ((r == 0) != dev)
		return werr(w, false, "open of a device node %s (%s), the "
			    "kernel should %s it", r ? "failed" : "succeeded",
			    r ? strerror(-r) : "ok", dev ? "allow" : "refuse");
	return 0;
}

int nsb_worker_start(struct nsb_worker *w, const struct nsb_scn *scn)
{
	struct ready_msg r;
	int sv[2];

	memset(w, 0, sizeof(*w));
	w->pid = -1;
	w->sock = -1;
	w->scn = *scn;
	if (!(w->tmpdir = strdup(NSB_SCRATCH_PARENT "/nsbench-wl")))
		return werr(w, false, "malloc: %m");
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		goto fail_errno;
	w->pid = fork();
	if (w->pid < 0)
		goto fail_errno;
	if (!w->pid) {
		close(sv[0]);
		worker_main(scn, w->tmpdir, sv[1]);
	}
	close(sv[1]);
	w->sock = sv[0];
	if (wait_answer(w->sock) == -EINTR) {
		werr(w, false, "set-up abandoned");
		goto fail;
	}
	if (recv(w->sock, &r, sizeof(r), 0) != sizeof(r)) {
		werr(w, false, "worker died during set-up");
		goto fail;
	}
	if (r.ret) {
		werr(w, r.skip, "%s", r.msg);
		goto fail;
	}
	if (check_worker(w))
		goto fail;
	return 0;
fail_errno:
	werr(w, false, "start worker: %m");
fail:
	nsb_worker_stop(w);
	return -1;
}

int nsb_worker_call(struct nsb_worker *w, nsb_op_fn fn, int64_t arg,
		    int64_t n)
{
	struct call_msg m = { .fn = fn, .arg = arg, .n = n };
	int ret;

	if (send(w->sock, &m, sizeof(m), MSG_NOSIGNAL) != sizeof(m))
		return -EPIPE;
	/* Interrupted: its answer would come late, to the next call. */
	if (wait_answer(w->sock) == -EINTR) {
		nsb_worker_stop(w);
		return -EINTR;
	}
	if (recv(w->sock, &ret, sizeof(ret), 0) != sizeof(ret))
		return -EPIPE;
	return ret;
}

int nsb_worker_respawn(struct nsb_worker *w)
{
	return nsb_worker_call(w, respawn, 0, 1);
}

void nsb_worker_stop(struct nsb_worker *w)
{
	if (w->sock >= 0)
		close(w->sock);
	/* SIGKILL takes the helpers along (PDEATHSIG), then the mounts. */
	if (w->pid > 0) {
		kill(-w->pid, SIGKILL);
		kill(w->pid, SIGKILL);
		while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	free(w->tmpdir);
	w->tmpdir = NULL;
	w->sock = -1;
	w->pid = -1;
}
