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
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/fixture.h"

static int lookup(const char *what, const char *v, const char *(*name)(int),
		  int count)
{
	int i;

	for (i = 0; i < count; i++)
		if (!strcmp(v, name(i)))
			return i;
	fprintf(stderr, "nsb-wl: unknown %s '%s'\n", what, v);
	exit(2);
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

static void usage(FILE *f)
{
	fprintf(f,
"usage: nsb-wl exec|open|stat|mount|fscreate [options]\n"
"  --depth=N      userns depth 0..32 (default 0)\n"
"  --owner=O      init|self|parent|foreign-proc|foreign-fd|foreign-tree|unrelated\n"
"  --nosuid --nodev --unpriv   scenario mount flags / run as uid 1000\n"
"  --file=F       exec/open: bin|suid|fcaps|file|null (default bin / file)\n"
"  --method=M     exec: fork|vfork|spawn (default fork)\n"
"  --fs=T         mount, fscreate (superblock only): tmpfs|proc|mqueue\n"
"  --nipc=N       IPC namespaces (mqueue superblocks) to create first\n"
"  --nproc=N      pid namespaces with a proc superblock to create\n"
"  --path-depth=K stat: components in the path (default 64)\n"
"  --count=N      operations (default 100)\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "depth", required_argument, NULL, 'd' },
		{ "owner", required_argument, NULL, 'o' },
		{ "nosuid", no_argument, NULL, 's' },
		{ "nodev", no_argument, NULL, 'v' },
		{ "unpriv", no_argument, NULL, 'u' },
		{ "file", required_argument, NULL, 'f' },
		{ "method", required_argument, NULL, 'm' },
		{ "fs", required_argument, NULL, 't' },
		{ "nipc", required_argument, NULL, 'i' },
		{ "nproc", required_argument, NULL, 'p' },
		{ "path-depth", required_argument, NULL, 'k' },
		{ "count", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct nsb_scn scn = { 0 };
	int file = -1, method = 0, fs = 0, pathdepth = NSB_MAX_TREE, c, r;
	long count = 100;
	struct nsb_worker w;
	const char *cmd;
	int64_t arg;
	nsb_op_fn fn;

	if (argc < 2 || argv[1][0] == '-') {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	cmd = argv[1];
	optind = 2;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'd': scn.depth = atoi(optarg); break;
		case 'o': scn.owner = lookup("owner", optarg, owner_name,
					     NSB_OWNER_COUNT); break;
		case 's': scn.nosuid = true; break;
		case 'v': scn.nodev = true; break;
		case 'u': scn.unpriv = true; break;
		case 'f': file = lookup("file", optarg, file_name,
					NSB_FILE_COUNT); break;
		case 'm': method = lookup("method", optarg, method_name,
					  NSB_EXEC_COUNT); break;
		case 't': fs = lookup("fs", optarg, fs_name, NSB_FS_COUNT);
			break;
		case 'i': scn.nipc = atoi(optarg); break;
		case 'p': scn.nproc = atoi(optarg); break;
		case 'k': pathdepth = atoi(optarg); break;
		case 'n': count = atol(optarg); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (!strcmp(cmd, "exec")) {
		fn = nsb_op_exec;
		arg = (file < 0 ? NSB_FILE_BIN : file) | method << 8;
	} else if (!strcmp(cmd, "open")) {
		fn = nsb_op_open;
		arg = file < 0 ? NSB_FILE_REGULAR : file;
	} else if (!strcmp(cmd, "stat")) {
		fn = nsb_op_stat;
		arg = pathdepth;
	} else if (!strcmp(cmd, "mount")) {
		fn = nsb_op_mount;
		arg = fs;
		/* proc below init needs a pid namespace of the caller's userns */
		scn.newpid = fs == NSB_FS_PROC;
		if (fs == NSB_FS_MQUEUE && !scn.nipc)
			scn.nipc = 1;
	} else if (!strcmp(cmd, "fscreate")) {
		fn = nsb_op_fscreate;
		arg = fs;
		scn.newpid = fs == NSB_FS_PROC;
		if (fs == NSB_FS_MQUEUE && !scn.nipc)
			scn.nipc = 1;
	} else {
		fprintf(stderr, "nsb-wl: unknown workload '%s'\n", cmd);
		usage(stderr);
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
