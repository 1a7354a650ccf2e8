/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli.h — the nsbench subcommands, cmd_<name>() for each row of
 * src/cmd/commands.h: seen by main.c and by the files that implement one,
 * not by the library code beside them.
 */
#ifndef NSB_CLI_H
#define NSB_CLI_H

#define NSB_CMD(name, summary) int cmd_##name(int argc, char **argv);
#include "src/cmd/commands.h"
#undef NSB_CMD

#endif /* NSB_CLI_H */
