// SPDX-License-Identifier: GPL-2.0
/*
 * import_hyperfine.c — `nsbench import-hyperfine IN.json OUT.json`:
 * hyperfine's --export-json output as an nsbench results file, converted
 * by src/lib/io/hyperfine.c.
 */
#include <stdio.h>

#include "src/lib/io/hyperfine.h"
#include "src/lib/base/nsbench.h"
#include "src/lib/base/options.h"
#include "src/cmd/cli.h"

static const struct nsb_usage import_usage = {
	.who = "nsbench import-hyperfine",
	.synopsis = "nsbench import-hyperfine [--prefix=P] [--label=L] "
		    "[--mode=M] IN.json OUT.json",
};

int cmd_import_hyperfine(int argc, char **argv)
{
	struct nsb_run_info info = { .label = "hyperfine" };
	const char *prefix = "hyperfine";
	const struct nsb_option opts[] = {
		OPT_STRING("prefix", &prefix, "P",
			   "benchmark name prefix (default hyperfine)"),
		OPT_STRING("label", &info.label, "L",
			   "nsbench_label of the results (default hyperfine)"),
		OPT_STRING("mode", &info.mode, "M",
			   "native | kvm | tcg | icount (default native)"),
		OPT_END(),
	};
	json_t *out;
	int ret;

	ret = nsb_parse_options(&argc, argv, opts, &import_usage, 0);
	if (ret)
		return ret == NSB_PARSE_HELP ? 0 : ret;
	if (argc != 3) {
		fprintf(stderr, "nsbench import-hyperfine: need IN.json and "
			"OUT.json\n");
		nsb_usage_hint(&import_usage);
		return 2;
	}
	out = nsb_hyperfine_import(argv[1], prefix, &info);
	if (!out)
		return 2;
	/* nsb_json_write_atomic says why it cannot write */
	ret = nsb_json_write_atomic(argv[2], out);
	json_decref(out);
	return ret ? 2 : 0;
}
