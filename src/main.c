// SPDX-License-Identifier: GPL-2.0
/*
 * nsbench — the command-line front end: `nsbench <command> [args]`.
 * Commands are rows of src/commands.h, as in perf's command table.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "src/nsbench.h"

struct nsb_cmd {
	const char *name;
	const char *summary;
	int (*fn)(int argc, char **argv);
};

static const struct nsb_cmd commands[] = {
#define NSB_CMD(n, s) { #n, s, cmd_##n },
#include "src/commands.h"
#undef NSB_CMD
	{ NULL, NULL, NULL },
};

/* Command names are C identifiers; users type them with '-' for '_'. */
static bool same_command(const char *typed, const char *name)
{
	for (; *typed && *name; typed++, name++)
		if (*typed != *name && !(*typed == '-' && *name == '_'))
			return false;
	return !*typed && !*name;
}

static void usage(FILE *f)
{
	const struct nsb_cmd *c;

	fprintf(f, "usage: nsbench <command> [options]   (nsbench %s)\n\n",
		nsb_version());
	for (c = commands; c->name; c++) {
		char shown[32];

		snprintf(shown, sizeof(shown), "%s", c->name);
		for (char *p = shown; *p; p++)
			if (*p == '_')
				*p = '-';
		fprintf(f, "  %-16s %s\n", shown, c->summary);
	}
	fprintf(f, "\n'nsbench <command> --help' for a command's options.\n");
}

int main(int argc, char **argv)
{
	const struct nsb_cmd *c;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("nsbench %s\n", nsb_version());
		return 0;
	}
	for (c = commands; c->name; c++)
		if (same_command(argv[1], c->name))
			return c->fn(argc - 1, argv + 1);
	fprintf(stderr, "nsbench: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
