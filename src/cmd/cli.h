/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli.h — the nsbench subcommands, cmd_<name>() for each row of
 * src/cmd/commands.h: seen by main.c and by the files that implement one,
 * never by the library (src/lib/); and what those files share.
 */
#ifndef NSB_CLI_H
#define NSB_CLI_H

#define NSB_CMD(name, summary) int cmd_##name(int argc, char **argv);
#include "src/cmd/commands.h"
#undef NSB_CMD

/*
 * The command line shared by compare, report and plot ab (compare.c):
 * parses the common options and the command's own (extra, NULL: none),
 * then BASE... -- PATCHED..., loads and compares.  Returns 0,
 * NSB_PARSE_HELP (the help was printed: exit 0), or 2 after printing why.
 */
struct nsb_comparison;
struct nsb_option;
struct nsb_usage;
int nsb_compare_main(struct nsb_comparison *c, int argc, char **argv,
		     const struct nsb_option *extra, const struct nsb_usage *u);

#endif /* NSB_CLI_H */
