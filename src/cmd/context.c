// SPDX-License-Identifier: GPL-2.0
/*
 * context.c — `nsbench context`: the provenance lib/context.c collects
 * for every results file, for this machine, as JSON.
 */
#include <stdio.h>

#include "src/lib/base/nsbench.h"
#include "src/lib/base/options.h"
#include "src/cmd/cli.h"

static json_t *context_json;

static void add_to_json(const char *key, const char *value)
{
	json_object_set_new(context_json, key, json_string(value));
}

int cmd_context(int argc, char **argv)
{
	static const struct nsb_usage usage = {
		.who = "nsbench context",
		.synopsis = "nsbench context",
		.about = "The context block nsbench writes into results files "
			 "(kernel,\nconfig, host, CPU), for this machine, as "
			 "JSON on stdout.\n",
	};
	static const struct nsb_option opts[] = { OPT_END() };
	struct nsb_run_info info = { .label = "context" };
	int r = nsb_parse_options(&argc, argv, opts, &usage, 0);

	if (r)
		return r == NSB_PARSE_HELP ? 0 : r;
	if (argc > 1) {
		fprintf(stderr, "nsbench context: unexpected argument '%s'\n",
			argv[1]);
		nsb_usage_hint(&usage);
		return 2;
	}
	context_json = json_object();
	nsb_context_collect(&info, add_to_json);
	json_dumpf(context_json, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	putchar('\n');
	json_decref(context_json);
	return 0;
}
