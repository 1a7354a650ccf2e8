// SPDX-License-Identifier: GPL-2.0
/*
 * stamp.c — `nsbench stamp [OPTION]... FILE...`: the host's values into
 * the results files a guest wrote (guest/run-qemu.sh runs it per boot),
 * by src/lib/io/stamp.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/io/cachesim.h"
#include "src/lib/io/manifest.h"
#include "src/lib/base/nsbench.h"
#include "src/lib/base/options.h"
#include "src/lib/io/stamp.h"
#include "src/cmd/cli.h"

#define WHO "nsbench stamp"

static int add_pair(const struct nsb_option *opt, const char *value)
{
	struct nsb_pairs *ps = opt->value;
	char *arg = (char *)value;	/* argv's own string: ours to cut */
	char *eq = strchr(arg, '=');

	if (!eq || eq == arg) {
		fprintf(stderr, WHO ": --%s wants NAME=VALUE, not '%s'\n",
			opt->name, arg);
		return -2;
	}
	if (ps->n == NSB_STAMP_MAX_PAIRS) {
		fprintf(stderr, WHO ": more than %d --%s options\n", NSB_STAMP_MAX_PAIRS,
			opt->name);
		return -2;
	}
	*eq = 0;
	ps->p[ps->n++] = (struct nsb_pair){ arg, eq + 1 };
	return 0;
}

static const struct nsb_usage usage = {
	.who = WHO,
	.synopsis = "nsbench stamp [OPTION]... FILE...",
	.about = "The host's values into results files a guest wrote, in "
		 "place, each file\nrewritten atomically or not at all "
		 "(guest/run-qemu.sh runs it per boot).\n",
	.epilog = "Applied in that order, whatever the order given.  Exit 0 "
		  "when every FILE\nwas stamped, 2 at the first that could not "
		  "be (named; it is unchanged).\n",
};

/* --kernel-meta=FILE: build.sh's meta.json, loaded now. */
static int load_meta(const struct nsb_option *opt, const char *arg)
{
	struct nsb_stamp *st = opt->value;

	json_decref(st->meta);
	st->meta = nsb_kernel_meta_load(arg);
	return st->meta ? 0 : -2;
}

/* --cachesim=FILE: the cache-model plugin's records, loaded now. */
static int load_cachesim(const struct nsb_option *opt, const char *arg)
{
	struct nsb_stamp *st = opt->value;

	if (st->cs) {
		fprintf(stderr, WHO ": --cachesim given twice\n");
		return -2;
	}
	st->cs = calloc(1, sizeof(*st->cs));
	if (!st->cs || nsb_cachesim_load(st->cs, arg)) {
		free(st->cs);
		st->cs = NULL;
		return -2;
	}
	return 0;
}

/* --date=UTC: checked now, not after a boot's files were half stamped. */
static int take_date(const struct nsb_option *opt, const char *arg)
{
	const char **date = opt->value;

	if (!nsb_stamp_date_ok(arg)) {
		fprintf(stderr, WHO ": --date wants YYYY-MM-DDTHH:MM:SS and Z "
			"or +-HH:MM, not '%s'\n", arg);
		return -2;
	}
	*date = arg;
	return 0;
}

/* The options; then argv[1..*argc) the files.  0, NSB_PARSE_HELP or 2. */
static int parse(int *argc, char **argv, struct nsb_stamp *st)
{
	const struct nsb_option opts[] = {
		OPT_CALLBACK("fill", &st->fill, "NAME=VALUE",
			     "replace @NAME@ in every string value", add_pair),
		OPT_CALLBACK("default", &st->dflt, "KEY=VALUE",
			     "context KEY = VALUE where the file has none",
			     add_pair),
		OPT_CALLBACK("kernel-meta", st, "FILE",
			     "the kernel as built (build.sh's meta.json): its\n"
			     "source, commit, describe, series hash and build\n"
			     "key; its config hash, release and series where\n"
			     "the context has none (\"\" or \"unknown\")",
			     load_meta),
		OPT_CALLBACK("date", &st->date, "UTC",
			     "the run's date from the host's clock; the\n"
			     "guest's own (its fixed clock) is kept as\n"
			     "guest_date",
			     take_date),
		OPT_CALLBACK("set", &st->set, "KEY=VALUE", "context KEY = VALUE",
			     add_pair),
		OPT_CALLBACK("cachesim", st, "FILE",
			     "the cache-model plugin's records of the boot\n"
			     "(guest/plugin/nsb-cachesim.c): per interleaved\n"
			     "entry and state, nsb_STATE_cs_COUNT counters",
			     load_cachesim),
		OPT_END(),
	};
	int r = nsb_parse_options(argc, argv, opts, &usage, 0);

	if (r)
		return r;
	if (*argc < 2) {
		fprintf(stderr, WHO ": no results file given\n");
		return 2;
	}
	return 0;
}

int cmd_stamp(int argc, char **argv)
{
	struct nsb_stamp st = { 0 };
	int ret = parse(&argc, argv, &st);

	for (int i = 1; !ret && i < argc; i++)
		if (nsb_stamp_file(argv[i], &st))
			ret = 2;
	json_decref(st.meta);
	if (st.cs)
		nsb_cachesim_free(st.cs);
	free(st.cs);
	return ret == NSB_PARSE_HELP ? 0 : ret;
}
