// SPDX-License-Identifier: GPL-2.0
/*
 * manifest.c — `nsbench manifest`: the manifest.json of a kernel A/B run
 * (scripts/ab.sh), made by src/lib/io/manifest.c from what the run left on
 * disk, or merged from the manifests of its shards; written atomically.
 */
#include <stdio.h>

#include "src/lib/io/manifest.h"
#include "src/lib/base/nsbench.h"
#include "src/lib/base/options.h"
#include "src/cmd/cli.h"

#define WHO "nsbench manifest"

static const struct nsb_usage usage = {
	.who = WHO,
	.synopsis = "nsbench manifest --out=FILE --boots=LIST --boots-dir=DIR "
		    "[options]\n"
		    "nsbench manifest --merge --out=FILE SHARD-MANIFEST...",
	.about = "The manifest.json of a kernel A/B run (scripts/ab.sh): the "
		 "run's settings,\neach side's kernel (its meta.json) and a "
		 "row per boot of LIST (lines\n\"BOOT ROUND SEED SIDE\"): "
		 "status ok when DIR/rRR-SIDE.source exists,\nits first word "
		 "as the source, DIR/rRR-SIDE/wall_seconds.  With --merge:\n"
		 "the first shard's settings, every shard's boots by boot "
		 "number and the\nshards' names.\n",
	.epilog = "Written atomically.  Exit: 0, or 2 on bad input (named).\n",
};

int cmd_manifest(int argc, char **argv)
{
	struct nsb_manifest_opts o = { 0 };
	const char *out = NULL;
	bool merge = false;
	const struct nsb_option opts[] = {
		OPT_STRING("out", &out, "FILE", "the manifest to write"),
		OPT_BOOL("merge", &merge,
			 "merge the shards' manifests given as operands"),
		OPT_STRING("boots", &o.boots, "LIST",
			   "the boots: \"BOOT ROUND SEED SIDE\" a line"),
		OPT_STRING("boots-dir", &o.boots_dir, "DIR",
			   "where the boots' directories are"),
		OPT_STRING("kernel-a", &o.kernel_a, "DIR",
			   "side A's kernel build (its meta.json)"),
		OPT_STRING("kernel-b", &o.kernel_b, "DIR",
			   "side B's kernel build; none: null"),
		OPT_STRING("date", &o.date, "UTC", "when the run started"),
		OPT_STRING("mode", &o.mode, "MODE", "icount, tcg or kvm"),
		OPT_ULONG("rounds", &o.rounds, "N", "A/B rounds"),
		OPT_BOOL("aa", &o.aa, "the run is an A/A run"),
		OPT_BOOL("checks", &o.checks,
			 "the in-boot check A/B (one toggles kernel)"),
		OPT_STRING("plan", &o.plan, "NAME", "the guest plan's name"),
		OPT_STRING("append", &o.append, "ARGS",
			   "what was appended to the kernel command line"),
		OPT_STRING("cmdline", &o.cmdline, "LINE",
			   "the kernel command line of round 0"),
		OPT_STRING("initramfs-sha256", &o.initramfs, "HEX",
			   "the image every boot booted"),
		OPT_STRING("cache-audit", &o.audit, "TEXT",
			   "what the boot cache's audit found"),
		OPT_STRING("shard", &o.shard, "K/N", "this run is shard K of N"),
		OPT_STRING("host-command", &o.host_command, "CMD",
			   "the command that reproduces the run"),
		OPT_END(),
	};
	json_t *m;
	int r = nsb_parse_options(&argc, argv, opts, &usage, 0), ret;

	if (r)
		return r == NSB_PARSE_HELP ? 0 : r;
	if (!out || (merge ? argc < 2 : argc > 1 || !o.boots ||
				!o.boots_dir)) {
		fprintf(stderr, WHO ": %s\n", merge ?
			"--merge needs --out and one or more manifests" :
			"needs --out, --boots and --boots-dir, no operands");
		nsb_usage_hint(&usage);
		return 2;
	}
	m = merge ? nsb_manifest_merge(argv + 1, argc - 1) : nsb_manifest(&o);
	if (!m)
		fprintf(stderr, WHO ": %s not written\n", out);
	ret = m && !nsb_json_write_atomic(out, m) ? 0 : 2;
	json_decref(m);
	return ret;
}
