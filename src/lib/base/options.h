/* SPDX-License-Identifier: GPL-2.0 */
/*
 * options.h — one option table per command, in the style of perf's
 * parse-options: each row names the option, the variable it sets, its
 * argument and its help line.  The parser and the help text both come
 * from the table, so an option cannot be parsed without being documented.
 *
 *	const struct nsb_option opts[] = {
 *		OPT_STRING("label", &label, "NAME", "results file label"),
 *		OPT_BOOL("rounds", &rounds, "show every round"),
 *		OPT_END(),
 *	};
 *	r = nsb_parse_options(&argc, argv, opts, &usage, 0);
 *	if (r)
 *		return r == NSB_PARSE_HELP ? 0 : 2;
 *
 * Options are long (--name=VALUE or --name VALUE; a unique prefix of the
 * name is accepted, as getopt_long does); -h and --help print the help
 * generated from the table.
 */
#ifndef NSB_OPTIONS_H
#define NSB_OPTIONS_H

#include <regex.h>
#include <stdbool.h>
#include <stdio.h>

enum nsb_opt_type {
	NSB_OPTION_END,
	NSB_OPTION_GROUP,	/* a heading in the help, no option */
	NSB_OPTION_INCLUDE,	/* the rows of another table (value) */
	NSB_OPTION_BOOL,	/* bool *: set to true */
	NSB_OPTION_STRING,	/* const char **: the argument */
	NSB_OPTION_DOUBLE,	/* double *: a finite number >= 0 */
	NSB_OPTION_ULONG,	/* unsigned long *: decimal, 0x hex or 0 octal */
	NSB_OPTION_CHOICE,	/* int *: index of the argument in choices */
	NSB_OPTION_CALLBACK,	/* cb(opt, arg) */
};

/* The argument may be left out (--name alone): cb gets NULL. */
#define NSB_OPT_OPTARG	(1u << 0)

struct nsb_option {
	enum nsb_opt_type type;
	const char *name;		/* without the leading "--" */
	void *value;			/* what the type says; cb's data */
	const char *argh;		/* "FILE" in "--out=FILE" */
	const char *help;		/* lines separated by '\n' */
	const char *const *choices;	/* NULL-terminated, for CHOICE */
	/* 0, or -1: "--name: bad value 'arg'" is said; -2: cb said why */
	int (*cb)(const struct nsb_option *opt, const char *arg);
	unsigned flags;
};

#define OPT_END()		{ .type = NSB_OPTION_END }
#define OPT_GROUP(h)		{ .type = NSB_OPTION_GROUP, .help = (h) }
#define OPT_INCLUDE(tbl)	{ .type = NSB_OPTION_INCLUDE, .value = (void *)(tbl) }
#define OPT_BOOL(n, v, h) \
	{ .type = NSB_OPTION_BOOL, .name = (n), .value = (v), .help = (h) }
#define OPT_STRING(n, v, a, h) { .type = NSB_OPTION_STRING, .name = (n), \
	.value = (v), .argh = (a), .help = (h) }
#define OPT_DOUBLE(n, v, a, h) { .type = NSB_OPTION_DOUBLE, .name = (n), \
	.value = (v), .argh = (a), .help = (h) }
#define OPT_ULONG(n, v, a, h) { .type = NSB_OPTION_ULONG, .name = (n), \
	.value = (v), .argh = (a), .help = (h) }
/* a: NULL shows the choices, "text|markdown|json" */
#define OPT_CHOICE(n, v, c, a, h) { .type = NSB_OPTION_CHOICE, .name = (n), \
	.value = (v), .choices = (c), .argh = (a), .help = (h) }
#define OPT_CALLBACK(n, v, a, h, f) { .type = NSB_OPTION_CALLBACK, \
	.name = (n), .value = (v), .argh = (a), .help = (h), .cb = (f) }
#define OPT_CALLBACK_OPTARG(n, v, a, h, f) { .type = NSB_OPTION_CALLBACK, \
	.name = (n), .value = (v), .argh = (a), .help = (h), .cb = (f), \
	.flags = NSB_OPT_OPTARG }

/* What a command prints as its help, around the options. */
struct nsb_usage {
	const char *who;	/* "nsbench compare": prefixes every error */
	const char *synopsis;	/* after "usage: "; lines separated by '\n' */
	const char *about;	/* between the synopsis and the options */
	const char *epilog;	/* after the options */
};

/* flags of nsb_parse_options() */
/* "--" stays in the operands (BASE... -- PATCHED...); else it is dropped */
#define NSB_PARSE_KEEP_DASHDASH		(1u << 0)
/* the first operand ends the options (a subcommand's own arguments) */
#define NSB_PARSE_STOP_AT_OPERAND	(1u << 1)
/* an unknown --option is an operand (passed through to someone else) */
#define NSB_PARSE_KEEP_UNKNOWN		(1u << 2)

/* nsb_parse_options() returns one of these */
#define NSB_PARSE_OK	0
#define NSB_PARSE_HELP	1	/* --help: the help is on stdout */
#define NSB_PARSE_ERROR	2	/* said why on stderr, then the synopsis */

/*
 * Parses argv[1..*argc) against opts.  On NSB_PARSE_OK argv[0] stays and
 * argv[1..*argc) are the operands, in order.
 */
int nsb_parse_options(int *argc, char **argv, const struct nsb_option *opts,
		      const struct nsb_usage *u, unsigned flags);
/*
 * BASE... -- PATCHED...: operands (parsed with NSB_PARSE_KEEP_DASHDASH)
 * split at their first "--".  Returns its index in argv, or -1 after
 * "WHO: need BASE... -- PATCHED..." and the synopsis when a side is empty.
 */
int nsb_split_sides(const struct nsb_usage *u, int argc, char **argv);
/* The synopsis and where the options are, on stderr: after an error. */
void nsb_usage_hint(const struct nsb_usage *u);
/* The help: synopsis, about, the options from the table, epilog. */
void nsb_usage_with_options(FILE *f, const struct nsb_usage *u,
			    const struct nsb_option *opts);
/*
 * An option's extended regex (REG_NOSUB), for an OPT_CALLBACK: the last one
 * given counts.  Frees re if *have, compiles arg into it; *have says if
 * it did.  0, or -1 when arg is no regex.
 */
int nsb_opt_regex(regex_t *re, bool *have, const char *arg);

#endif /* NSB_OPTIONS_H */
