// SPDX-License-Identifier: GPL-2.0
/*
 * nsb-wl — whole-process workloads for hyperfine: one invocation builds a
 * scenario (the same fixtures as the benchmarks, self-checked) and runs
 * one operation --count times in it, e.g.
 *
 *	nsb-wl exec --depth=8 --owner=init --file=suid --count=200
 *	nsb-wl mount --depth=1 --fs=mqueue --nipc=256 --count=200
 *
 * so an exec storm or a mount storm is a hyperfine command line with
 * parameter sweeps (-L depth 0,1,2,...).  Set-up is part of the process,
 * as in any whole-process measurement; the microbenchmarks keep it out.
 * Exit status: 0 done (the operation gave what the kernel should give in
 * the scenario: an exit status of nsb-true, EACCES for a device on a
 * nodev mount), 1 it did not, 2 usage, 3 skipped (the kernel refuses the
 * scenario; the reason goes to stderr).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/base/options.h"
#include "workloads/fixture.h"

/* A name option: its index among name(0..count-1), into *(int *)value. */
struct named {
	int *value;
	const char *(*name)(int);
	int count;
};

static int set_named(const struct nsb_option *opt, const char *v)
{
	const struct named *n = opt->value;

	for (int i = 0; i < n->count; i++)
		if (!strcmp(v, n->name(i))) {
			*n->value = i;
			return 0;
		}
	return -1;
}

static const char *owner_name(int i) { return nsb_owner_name(i); }
static const char *file_name(int i) { return nsb_file_name(i); }
static const char *fs_name(int i) { return nsb_fs_name(i); }

static const char *method_name(int i)
{
	static const char *const m[] = { "fork", "vfork", "spawn" };

	return i < NSB_EXEC_COUNT ? m[i] : "?";
}

/* What the operation should return in this scenario (as the benchmarks). */
static int want(nsb_op_fn fn, const struct nsb_scn *scn, int64_t arg)
{
	if (fn == nsb_op_exec)
		return nsb_expect_exec_status(scn, arg & 0xff);
	if (fn == nsb_op_open && arg == NSB_FILE_DEV && !nsb_expect_dev(scn))
		return -EACCES;
	return 0;
}

static const struct nsb_usage usage = {
	.who = "nsb-wl",
	.synopsis = "nsb-wl exec|open|stat|mount|fscreate [options]",
};

int main(int argc, char **argv)
{
	struct nsb_scn scn = { 0 };
	int file = -1, method = 0, fs = 0, owner = 0;
	unsigned long depth = 0, nipc = 0, nproc = 0;
	unsigned long pathdepth = NSB_MAX_TREE, count = 100;
	struct named owners = { &owner, owner_name, NSB_OWNER_COUNT };
	struct named files = { &file, file_name, NSB_FILE_COUNT };
	struct named methods = { &method, method_name, NSB_EXEC_COUNT };
	struct named types = { &fs, fs_name, NSB_FS_COUNT };
	const struct nsb_option opts[] = {
		OPT_ULONG("depth", &depth, "N", "userns depth 0..32 (default 0)"),
		OPT_CALLBACK("owner", &owners, "O", "init|self|parent|"
			     "foreign-proc|foreign-fd|foreign-tree|unrelated",
			     set_named),
		OPT_BOOL("nosuid", &scn.nosuid, "a nosuid scenario mount"),
		OPT_BOOL("nodev", &scn.nodev, "a nodev scenario mount"),
		OPT_BOOL("unpriv", &scn.unpriv, "run as uid 1000"),
		OPT_CALLBACK("file", &files, "F", "exec/open: bin|suid|fcaps|"
			     "file|null (default bin / file)", set_named),
		OPT_CALLBACK("method", &methods, "M",
			     "exec: fork|vfork|spawn (default fork)", set_named),
		OPT_CALLBACK("fs", &types, "T", "mount, fscreate (superblock "
			     "only): tmpfs|proc|mqueue", set_named),
		OPT_ULONG("nipc", &nipc, "N",
			  "IPC namespaces (mqueue superblocks) to create first"),
		OPT_ULONG("nproc", &nproc, "N",
			  "pid namespaces with a proc superblock to create"),
		OPT_ULONG("path-depth", &pathdepth, "K",
			  "stat: components in the path (default 64)"),
		OPT_ULONG("count", &count, "N", "operations (default 100)"),
		OPT_END(),
	};
	struct nsb_worker w;
	const char *cmd;
	int64_t arg;
	nsb_op_fn fn;
	int r;

	r = nsb_parse_options(&argc, argv, opts, &usage, 0);
	if (r)
		return r == NSB_PARSE_HELP ? 0 : 2;
	if (argc != 2 || depth > 32 || nipc > 100000 || nproc > 100000 ||
	    pathdepth > NSB_MAX_TREE) {
		fprintf(stderr, "nsb-wl: %s\n", argc != 2 ?
			"one workload: exec, open, stat, mount or fscreate" :
			"a number out of range (depth 0..32, path-depth 0..64)");
		nsb_usage_hint(&usage);
		return 2;
	}
	cmd = argv[1];
	scn.depth = (int)depth;
	scn.owner = owner;
	scn.nipc = (int)nipc;
	scn.nproc = (int)nproc;
	if (!strcmp(cmd, "exec")) {
		fn = nsb_op_exec;
		arg = (file < 0 ? NSB_FILE_BIN : file) | method << 8;
	} else if (!strcmp(cmd, "open")) {
		fn = nsb_op_open;
		arg = file < 0 ? NSB_FILE_REGULAR : file;
	} else if (!strcmp(cmd, "stat")) {
		fn = nsb_op_stat;
		arg = pathdepth;
	} else if (!strcmp(cmd, "mount") || !strcmp(cmd, "fscreate")) {
		fn = !strcmp(cmd, "mount") ? nsb_op_mount : nsb_op_fscreate;
		arg = fs;
		/* proc below init needs a pid namespace of the caller's userns */
		scn.newpid = fs == NSB_FS_PROC;
		if (fs == NSB_FS_MQUEUE && !scn.nipc)
			scn.nipc = 1;
	} else {
		fprintf(stderr, "nsb-wl: unknown workload '%s'\n", cmd);
		nsb_usage_hint(&usage);
		return 2;
	}
	if (nsb_worker_start(&w, &scn)) {
		fprintf(stderr, "nsb-wl: %s%s\n", w.skip ? "skipped: " : "",
			w.err);
		return w.skip ? 3 : 1;
	}
	r = nsb_worker_call(&w, fn, arg, count);
	nsb_worker_stop(&w);
	if (r != want(fn, &scn, arg)) {
		fprintf(stderr, "nsb-wl: %s: got %d (%s), the kernel should give "
			"%d\n", cmd, r, r < 0 ? strerror(-r) : "exit status",
			want(fn, &scn, arg));
		return 1;
	}
	return 0;
}
