// SPDX-License-Identifier: GPL-2.0
/*
 * nsbench — the command-line front end: `nsbench <command> [args]`.
 * Commands are rows of src/cmd/commands.h, as in perf's command table.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "src/lib/base/nsbench.h"
#include "src/cmd/cli.h"

struct nsb_cmd {
	const char *name;
	const char *summary;
	int (*fn)(int argc, char **argv);
};

static const struct nsb_cmd commands[] = {
#define NSB_CMD(n, s) { #n, s, cmd_##n },
#include "src/cmd/commands.h"
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

static const struct nsb_cmd *find_command(const char *typed)
{
	const struct nsb_cmd *c;

	for (c = commands; c->name; c++)
		if (same_command(typed, c->name))
			return c;
	return NULL;
}

/* A command's name as users type it: '-' for '_'. */
static void put_name(FILE *f, const char *name, int width)
{
	int len = 0;

	for (; *name; name++, len++)
		fputc(*name == '_' ? '-' : *name, f);
	for (; len < width; len++)
		fputc(' ', f);
}

/* Laid out for help2man, which makes the man page of it (install.mk). */
static void usage(FILE *f)
{
	const struct nsb_cmd *c;

	fputs("Usage: nsbench <command> [options]\n"
	      "  or:  nsbench help <command>\n"
	      "  or:  nsbench --version\n"
	      "\n"
	      "What the user-namespace mount checks cost the kernel's exec, open, stat and\n"
	      "mount paths: compare, report, plot and gate the results of nsbench-bench runs.\n"
	      "\n"
	      "Commands:\n", f);
	for (c = commands; c->name; c++) {
		fputs("  ", f);
		put_name(f, c->name, 18);
		fprintf(f, "%s\n", c->summary);
	}
	fputs("\n"
	      "Options:\n"
	      "  -h, --help        this help; after a command, its help\n"
	      "  --version         the version (git describe at build time)\n"
	      "\n"
	      "A command's options: 'nsbench <command> --help', 'nsbench <command> -h' or\n"
	      "'nsbench help <command>'.\n", f);
}

/*
 * Edit distance of a and b (restricted Damerau-Levenshtein, as git's
 * help.c: insertions, deletions, substitutions and swaps of neighbours
 * cost 1), with '-' and '_' the same letter; MAX_NAME and longer are far.
 */
#define MAX_NAME	32

static int distance(const char *a, const char *b)
{
	int d[MAX_NAME + 1][MAX_NAME + 1], i, j, la = strlen(a), lb = strlen(b);

	if (la >= MAX_NAME || lb >= MAX_NAME)
		return MAX_NAME;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			int cost = a[i - 1] != b[j - 1] &&
				   !(strchr("-_", a[i - 1]) &&
				     strchr("-_", b[j - 1]));
			int v = d[i - 1][j - 1] + cost;

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

/*
 * The command a typo most likely meant: the nearest, if within a third
 * of its length (at least 1, at most 3: "hist" is not "gate"), and the
 * only one that near; else NULL.
 */
static const struct nsb_cmd *nearest_command(const char *typed)
{
	const struct nsb_cmd *c, *best = NULL;
	int d, min = MAX_NAME, ties = 0;

	for (c = commands; c->name; c++) {
		d = distance(typed, c->name);
		if (d < min) {
			min = d;
			best = c;
			ties = 0;
		} else if (d == min) {
			ties++;
		}
	}
	if (!best || ties)
		return NULL;
	d = (int)strlen(best->name) / 3;
	return min <= (d < 1 ? 1 : d > 3 ? 3 : d) ? best : NULL;
}

/*
 * One line, as git does: what was wrong and what would have been right,
 * the likeliest command first.
 */
static int unknown_command(const char *typed)
{
	const struct nsb_cmd *c, *near = nearest_command(typed);

	fprintf(stderr, "nsbench: '%s' is not a command", typed);
	if (near) {
		fputs("; did you mean '", stderr);
		put_name(stderr, near->name, 0);
		fputs("'?", stderr);
	}
	fputs(near ? " commands:" : "; commands:", stderr);
	for (c = commands; c->name; c++) {
		fputc(' ', stderr);
		put_name(stderr, c->name, 0);
	}
	fputc('\n', stderr);
	return 2;
}

/*
 * -h wherever --help works: the commands parse --help, so -h is spelled
 * out for them.  Arguments after "--" are operands and stay as they are;
 * an option's value "-h" must then be written --opt=-h.
 */
static void spell_out_help(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "-h"))
			argv[i] = (char *)"--help";
}

/* `nsbench help CMD`: CMD --help. */
static int help_command(const char *typed)
{
	const struct nsb_cmd *c = find_command(typed);
	char *argv[3] = { (char *)typed, (char *)"--help", NULL };

	if (!c)
		return unknown_command(typed);
	return c->fn(2, argv);
}

static bool is_help(const char *arg)
{
	return !strcmp(arg, "--help") || !strcmp(arg, "-h") ||
	       !strcmp(arg, "help");
}

/*
 * Every command's standard output, checked once: a report or a KTAP log
 * written into a full disk (or /dev/full) must not exit 0.  Exit 2
 * unless the command already failed harder.
 */
static int flush_stdout(int ret)
{
	if (!nsb_flush_stdout())
		return ret;
	return ret > 2 ? ret : 2;
}

int main(int argc, char **argv)
{
	const struct nsb_cmd *c;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	/* nsbench help CMD; nsbench help, -h, --help (alone or twice) */
	if (is_help(argv[1]) && argc > 2 && !is_help(argv[2]))
		return help_command(argv[2]);
	if (is_help(argv[1])) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("nsbench %s\n", nsb_version());
		return 0;
	}
	c = find_command(argv[1]);
	if (!c)
		return unknown_command(argv[1]);
	/*
	 * Not a terminal: one buffer for what a command prints (a report,
	 * a KTAP log), so a write error shows at the final flush with its
	 * errno (ENOSPC), not in a flush midway whose errno is lost.
	 */
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, NULL, _IOFBF, 1 << 20);
	spell_out_help(argc - 1, argv + 1);
	return flush_stdout(c->fn(argc - 1, argv + 1));
}
