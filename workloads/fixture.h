/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fixture.h — scenario fixtures: put a measuring process into a user
 * namespace chain, next to a mount of a chosen owner and flags, with the
 * files the benchmarks touch, and prove it got there.
 *
 * A scenario runs in a *worker*: a child of the caller that
 *   1. dies with the caller (PR_SET_PDEATHSIG) and lives in a private
 *      mount namespace, so nothing it mounts is ever visible on the host;
 *   2. mounts a tmpfs over /tmp there (the scratch area, invisible on the
 *      host) and works in /tmp/nsbench-wl;
 *   3. descends a chain of CLONE_NEWUSER namespaces to the requested depth
 *      (each level's uid/gid maps written by a short-lived helper left in
 *      the level above, as a container runtime does);
 *   4. makes the scenario mount (tmpfs, nosuid/nodev as asked) at the
 *      owner's level or in a helper's foreign mount namespace, filled by a
 *      privileged populator that stays in the init namespace;
 *   5. opens the scenario directory (directly, via /proc/PID/root, via a
 *      directory fd received over SCM_RIGHTS, or via an
 *      open_tree(OPEN_TREE_CLONE) fd) and optionally drops to uid 1000;
 *   6. runs operations on request: the caller sends (function, argument,
 *      count) and the worker runs the function count times.
 * The caller's timer brackets the whole request, so one round trip per
 * Google Benchmark batch is the only overhead.
 *
 * Fixtures are parameters: one struct nsb_scn describes every scenario.
 */
#ifndef NSB_WORKLOADS_FIXTURE_H
#define NSB_WORKLOADS_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "workloads/exec.h"

#define NSB_MAX_DEPTH		32	/* the kernel allows 32 nested userns */
#define NSB_MAX_TREE		64	/* deepest directory tree */
#define NSB_UNPRIV_UID		1000	/* who runs exec/open after the drop */
/* Covered by the worker's scratch tmpfs in its private mount namespace. */
#define NSB_SCRATCH_PARENT	"/tmp"

/* Who owns the scenario mount, and how the worker reaches it. */
enum nsb_owner {
	NSB_OWNER_INIT,		/* mounted by init-ns root, same mount ns */
	NSB_OWNER_SELF,		/* mounted in the worker's own userns */
	NSB_OWNER_PARENT,	/* mounted one level up: worker in a child ns */
	NSB_OWNER_FOREIGN_PROC,	/* helper's mount ns, via /proc/PID/root */
	NSB_OWNER_FOREIGN_FD,	/* helper's mount ns, dir fd over SCM_RIGHTS */
	NSB_OWNER_FOREIGN_TREE,	/* open_tree(OPEN_TREE_CLONE) fd from helper */
	NSB_OWNER_UNRELATED,	/* helper's own child userns + mount ns */
	NSB_OWNER_COUNT,
};

/* Files every scenario mount holds (names relative to its directory). */
enum nsb_file {
	NSB_FILE_REGULAR,	/* "file": 4 KiB regular file, mode 0666 */
	NSB_FILE_BIN,		/* "bin": nsb-true, 0755 */
	NSB_FILE_SUID,		/* "suid": nsb-true, root-owned, 04755 */
	NSB_FILE_FCAPS,		/* "fcaps": nsb-true, cap_net_raw+ep */
	NSB_FILE_DEV,		/* "null": char device 1:3, mode 0666 */
	NSB_FILE_COUNT,
};

struct nsb_scn {
	int depth;		/* userns depth of the worker, 0..32 */
	enum nsb_owner owner;
	bool nosuid;		/* scenario mount flags */
	bool nodev;
	bool unpriv;		/* drop to uid/gid 1000 after set-up */
	int nipc;		/* >0: that many IPC namespaces (mqueue sbs),
				 * the worker sits in the last one */
	bool newpid;		/* worker is pid 1 of a pid ns of its userns
				 * (needed to mount proc below init) */
	int nproc;		/* >0: that many more pid namespaces with a
				 * proc superblock each (implies newpid) */
};

/* What the worker can see; valid inside operations only. */
struct nsb_env {
	const struct nsb_scn *scn;
	int dirfd;		/* the scenario directory (O_PATH) */
	int rwfd;		/* "file" opened O_RDWR (xattr operations) */
	char *scratch;		/* scratch path (worker's mount ns) */
	char *mntpoint;		/* empty dir for mount benchmarks */
	char *deep[NSB_MAX_TREE + 1];	/* deep[k]: k components to "f" */
};

/* An operation: run n times, return 0 or -errno (first failure). */
typedef int (*nsb_op_fn)(struct nsb_env *env, int64_t arg, int64_t n);

struct nsb_worker {
	pid_t pid;
	int sock;
	char *tmpdir;		/* scratch directory (worker's mount ns only) */
	struct nsb_scn scn;
	char err[256];		/* why start or a check failed */
	bool skip;		/* err is a skip (kernel refuses), not a bug */
};

/* Names for benchmark names and messages. */
const char *nsb_owner_name(enum nsb_owner o);
const char *nsb_file_name(enum nsb_file f);
bool nsb_owner_foreign(enum nsb_owner o);

/*
 * Starts a worker in scenario *scn and checks its claims (depth, owner,
 * foreignness, mount flags).  Returns 0, or -1 with w->err set (and
 * w->skip when the kernel or machine refuses the scenario).
 */
int nsb_worker_start(struct nsb_worker *w, const struct nsb_scn *scn);
/* Runs fn(env, arg, n) in the worker; returns its result. */
int nsb_worker_call(struct nsb_worker *w, nsb_op_fn fn, int64_t arg,
		    int64_t n);
/*
 * Hands the worker's place to a new child of it, which answers every
 * later call; the old worker only waits.  After --slab-reset, the process
 * that runs the operations then has its task_struct, creds and signal
 * handlers from the reset's slabs rather than from wherever the boot
 * left them: the kernel copies each of them into every forked child, and
 * memcpy's direction (so its cost) follows both addresses.  0, or -errno.
 */
int nsb_worker_respawn(struct nsb_worker *w);
/* Kills the worker, reaps it and every helper, removes the temp dir. */
void nsb_worker_stop(struct nsb_worker *w);
/*
 * If set and true, a start or call stops waiting for the worker, stops
 * it and fails (-EINTR from a call): nsbench-bench's Ctrl-C.
 */
extern bool (*nsb_worker_interrupted)(void);

/*
 * One cached worker for benchmarks: Google Benchmark calls a benchmark
 * function once per iteration-count trial, and a depth-32 scenario costs
 * milliseconds to build, so the last scenario is kept until another one
 * is asked for (or the process exits).  Returns NULL with *why set.
 */
struct nsb_worker *nsb_worker_get(const struct nsb_scn *scn,
				  const char **why, bool *skip);
void nsb_worker_put_all(void);
/* Whether a and b describe the same scenario. */
bool nsb_scn_same(const struct nsb_scn *a, const struct nsb_scn *b);

/* What the running kernel should do in this scenario (seed semantics). */
bool nsb_expect_suid(const struct nsb_scn *scn);	/* setuid/fcaps honoured */
bool nsb_expect_dev(const struct nsb_scn *scn);		/* device open allowed */
/* Exit status nsb-true gives when exec'd from file f in this scenario. */
int nsb_expect_exec_status(const struct nsb_scn *scn, enum nsb_file f);

/*
 * Operations (ops.c), the bodies of the sys/ benchmarks.  Each returns the
 * result of its last iteration: an exit status, 0, or -errno.
 */
/* arg: enum nsb_file | enum nsb_exec_method << 8; returns exit status. */
int nsb_op_exec(struct nsb_env *env, int64_t arg, int64_t n);
/* arg: enum nsb_file; open + close. */
int nsb_op_open(struct nsb_env *env, int64_t arg, int64_t n);
/* arg: path depth 0..NSB_MAX_TREE; fstatat of deep[arg]. */
int nsb_op_stat(struct nsb_env *env, int64_t arg, int64_t n);

enum nsb_fstype { NSB_FS_TMPFS, NSB_FS_PROC, NSB_FS_MQUEUE, NSB_FS_COUNT };
const char *nsb_fs_name(enum nsb_fstype t);
/* arg: enum nsb_fstype; mount + umount on env->mntpoint. */
int nsb_op_mount(struct nsb_env *env, int64_t arg, int64_t n);
/* arg: enum nsb_fstype; fsopen + FSCONFIG_CMD_CREATE + close (sget only). */
int nsb_op_fscreate(struct nsb_env *env, int64_t arg, int64_t n);

#define NSB_XATTR_SECURITY	1	/* security.nsbench, else user.nsbench */
#define NSB_XATTR_GET		2	/* fgetxattr, else fsetxattr */
int nsb_op_xattr(struct nsb_env *env, int64_t arg, int64_t n);

/* Userns depth of process pid, by NS_GET_PARENT walk (caller in init). */
int nsb_userns_depth(pid_t pid);

/* files.c: fill dir (a path the caller can reach) with the scenario files. */
int nsb_populate(const char *dir, char *err, size_t errlen);

/* Exit status nsb-true returns when it got euid 0 / CAP_NET_RAW. */
#define NSB_TRUE_EUID0		1
#define NSB_TRUE_NET_RAW	2

#endif /* NSB_WORKLOADS_FIXTURE_H */
