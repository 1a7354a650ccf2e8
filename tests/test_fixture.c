// SPDX-License-Identifier: GPL-2.0
/*
 * test_fixture.c — every scenario fixture proves its own claim on the
 * running kernel: userns depth (NS_GET_PARENT walk), the mount's owner and
 * foreignness (mount namespace inodes, mount ids), mount flags, and that a
 * setuid-root or file-caps binary elevates exactly where the kernel's
 * mnt_may_suid() says it should and a device node opens exactly where
 * may_open_dev() allows.  nsb_worker_start() runs those checks; this
 * test sweeps the scenarios and then exercises each operation once.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/tap.h"
#include "workloads/exec.h"
#include "workloads/fixture.h"

static const int depths[] = { 0, 1, 2, 4, 8, 16, 32 };

static const char *scn_name(const struct nsb_scn *s)
{
	static char buf[160];

	snprintf(buf, sizeof(buf), "depth %d owner %s%s%s%s%s nipc %d nproc %d",
		 s->depth, nsb_owner_name(s->owner),
		 s->nosuid ? " nosuid" : "", s->nodev ? " nodev" : "",
		 s->unpriv ? " uid1000" : "", s->newpid ? " newpid" : "",
		 s->nipc, s->nproc);
	return buf;
}

/* Starts the scenario; a skip (kernel refuses) is reported as such. */
static bool start(struct nsb_worker *w, const struct nsb_scn *s)
{
	if (!nsb_worker_start(w, s)) {
		ok(1, "fixture holds: %s", scn_name(s));
		return true;
	}
	if (w->skip)
		skip(1, "%s: %s", scn_name(s), w->err);
	else
		ok(0, "fixture holds: %s: %s", scn_name(s), w->err);
	return false;
}

static bool needs_depth(enum nsb_owner o, int depth)
{
	return o == NSB_OWNER_PARENT && depth == 0;
}

static void sweep_owners_and_depths(void)
{
	struct nsb_worker w;
	size_t i;
	int o, nosuid;

	for (i = 0; i < NSB_ARRAY_SIZE(depths); i++)
		for (o = 0; o < NSB_OWNER_COUNT; o++)
			for (nosuid = 0; nosuid <= 1; nosuid++) {
				struct nsb_scn s = {
					.depth = depths[i], .owner = o,
					.nosuid = nosuid, .unpriv = true,
				};

				if (needs_depth(o, s.depth))
					continue;
				if (!start(&w, &s))
					continue;
				is_int(nsb_worker_call(&w, nsb_op_stat,
						       NSB_MAX_TREE, 1), 0,
				       "stat of a %d-deep path", NSB_MAX_TREE);
				nsb_worker_stop(&w);
			}
}

static void sweep_nodev(void)
{
	struct nsb_worker w;
	int o;

	for (o = 0; o < NSB_OWNER_COUNT; o++) {
		struct nsb_scn s = { .depth = 2, .owner = o, .nodev = true };
		struct nsb_scn d0 = { .depth = 0, .owner = o, .nodev = true };

		if (start(&w, &s))
			nsb_worker_stop(&w);
		if (!needs_depth(o, 0) && start(&w, &d0))
			nsb_worker_stop(&w);
	}
}

/* Each filesystem is mounted both ways: mount(2), then fsopen(2). */
static const struct {
	nsb_op_fn fn;
	const char *name, *what;
} fs_ops[] = {
	{ nsb_op_mount, "mount", "mount+umount" },
	{ nsb_op_fscreate, "fsopen", "fsopen+create" },
};

static void check_operations(int depth)
{
	struct nsb_scn s = { .depth = depth, .owner = NSB_OWNER_SELF,
			     .nipc = 16, .newpid = true, .nproc = 16 };
	struct nsb_worker w;
	int m, r;

	if (!start(&w, &s))
		return;
	for (m = 0; m < NSB_EXEC_COUNT; m++)
		is_int(nsb_worker_call(&w, nsb_op_exec,
				       NSB_FILE_BIN | m << 8, 3),
		       NSB_TRUE_EUID0 | NSB_TRUE_NET_RAW,
		       "depth %d: exec method %d runs nsb-true as root", depth,
		       m);
	is_int(nsb_worker_call(&w, nsb_op_open, NSB_FILE_REGULAR, 3), 0,
	       "depth %d: open+close of a regular file", depth);
	for (m = 0; m < NSB_FS_COUNT; m++) {
		for (size_t i = 0; i < NSB_ARRAY_SIZE(fs_ops); i++) {
			r = nsb_worker_call(&w, fs_ops[i].fn, m, 2);
			if (r == -EPERM && m == NSB_FS_PROC)
				skip(1, "depth %d: %s proc: %s", depth,
				     fs_ops[i].name, strerror(-r));
			else
				is_int(r, 0, "depth %d: %s %s", depth,
				       fs_ops[i].what, nsb_fs_name(m));
		}
	}
	is_int(nsb_worker_call(&w, nsb_op_xattr, 0, 2), 0,
	       "depth %d: setxattr user.*", depth);
	is_int(nsb_worker_call(&w, nsb_op_xattr, NSB_XATTR_GET, 2), 0,
	       "depth %d: getxattr user.*", depth);
	r = nsb_worker_call(&w, nsb_op_xattr, NSB_XATTR_SECURITY, 2);
	ok(r == 0 || r == -EPERM || r == -EOPNOTSUPP,
	   "depth %d: setxattr security.* is allowed or refused (%d)", depth,
	   r);
	nsb_worker_stop(&w);
}

static void check_cache(void)
{
	struct nsb_scn s = { .depth = 1, .owner = NSB_OWNER_INIT };
	struct nsb_worker *a, *b;
	const char *why = NULL;
	bool sk = false;

	a = nsb_worker_get(&s, &why, &sk);
	b = nsb_worker_get(&s, &why, &sk);
	ok(a && a == b && a->pid > 0, "the cache hands back the same worker");
	s.depth = 2;
	b = nsb_worker_get(&s, &why, &sk);
	ok(b && b->scn.depth == 2, "another scenario replaces it");
	nsb_worker_put_all();
}

/* pid runs: neither gone nor a zombie (init reaps a killed orphan later) */
static bool alive(pid_t pid)
{
	char path[64], state = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (fscanf(f, "%*d (%*[^)]) %c", &state) != 1)
		state = 0;
	fclose(f);
	return state && state != 'Z' && state != 'X';
}

/* SIGKILLed pid has died within 10 s (it dies when it next runs) */
static bool dies(pid_t pid)
{
	int i;

	for (i = 0; i < 1000 && alive(pid); i++)
		usleep(10000);
	return !alive(pid);
}

static int op_getpid(struct nsb_env *env, int64_t arg, int64_t n)
{
	(void)env, (void)arg, (void)n;
	return (int)getpid();
}

static int op_getppid(struct nsb_env *env, int64_t arg, int64_t n)
{
	(void)env, (void)arg, (void)n;
	return (int)getppid();
}

/*
 * nsb_worker_respawn(): a new process answers, a child of the old one,
 * in the same scenario (an exec still gives the scenario's answer), and
 * nsb_worker_stop() takes both.  newpid: the old worker is pid 1 of its
 * pid namespace, the new one's parent is pid 1 there.
 */
static void check_respawn(bool newpid)
{
	struct nsb_scn s = { .depth = newpid ? 1 : 0,
			     .owner = NSB_OWNER_INIT, .newpid = newpid };
	const char *how = newpid ? "pid 1 of a pid ns" : "in the init pid ns";
	struct nsb_worker w;
	int old, now, want = nsb_expect_exec_status(&s, NSB_FILE_BIN);

	if (!start(&w, &s))
		return;
	old = nsb_worker_call(&w, op_getpid, 0, 1);
	ok(old == (newpid ? 1 : w.pid), "%s: the worker answers (pid %d)",
	   how, old);
	is_int(nsb_worker_respawn(&w), 0, "%s: respawn", how);
	now = nsb_worker_call(&w, op_getpid, 0, 1);
	ok(now > 0 && now != old, "%s: another process answers (pid %d)",
	   how, now);
	is_int(nsb_worker_call(&w, op_getppid, 0, 1), old,
	       "%s: a child of the old worker", how);
	is_int(nsb_worker_call(&w, nsb_op_exec, NSB_FILE_BIN, 2), want,
	       "%s: exec gives the scenario's answer after it", how);
	is_int(nsb_worker_respawn(&w), 0, "%s: respawn again", how);
	is_int(nsb_worker_call(&w, op_getppid, 0, 1), now,
	       "%s: a child of the last one", how);
	nsb_worker_stop(&w);
	if (!newpid)
		ok(dies(now), "%s: stop takes the respawned workers too", how);
}

/*
 * An exec's child starts with an empty environment, whatever ours holds:
 * execve copies the environment, so ours would make the cost follow it.
 */
static void check_child_env(void)
{
	char dir[] = "/tmp/nsb-envXXXXXX", path[PATH_MAX];
	FILE *f;
	int m;

	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	snprintf(path, sizeof(path), "%s/probe", dir);
	f = fopen(path, "w");
	if (f) {
		fputs("#!/bin/sh\n[ -z \"${NSB_ENV_PROBE+x}\" ] || exit 3\n", f);
		fclose(f);
	}
	ok(f && !chmod(path, 0755), "probe script written");
	setenv("NSB_ENV_PROBE", "set in the parent", 1);
	for (m = 0; m < NSB_EXEC_COUNT; m++)
		is_int(nsb_exec_wait(AT_FDCWD, path, m), 0,
		       "exec method %d: the child's environment is empty", m);
	unsetenv("NSB_ENV_PROBE");
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	plan_no_plan();
	check_child_env();
	if (geteuid() != 0) {
		skip(1, "fixtures need root (CI runs as root)");
		return done_testing();
	}
	sweep_owners_and_depths();
	sweep_nodev();
	check_operations(0);
	check_operations(3);
	check_cache();
	check_respawn(false);
	check_respawn(true);
	return done_testing();
}
