// SPDX-License-Identifier: GPL-2.0
/*
 * options.c — the option parser and help of every nsbench command and of
 * nsbench-bench (see options.h).
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/base/options.h"

/* An option's argument column in the help; longer options wrap. */
#define HELP_COL	22

struct lookup {
	const char *name;	/* as typed, after "--" */
	size_t len;		/* up to '=' */
	const struct nsb_option *exact, *prefix;
	int nprefix;
};

/* Walks opts and the tables it includes for l->name. */
static void lookup(const struct nsb_option *opts, struct lookup *l)
{
	for (; opts->type != NSB_OPTION_END; opts++) {
		if (opts->type == NSB_OPTION_INCLUDE) {
			if (opts->value)
				lookup(opts->value, l);
			continue;
		}
		if (!opts->name || strncmp(opts->name, l->name, l->len))
			continue;
		if (!opts->name[l->len])
			l->exact = opts;
		else if (l->nprefix++ == 0)
			l->prefix = opts;
	}
}

static bool takes_arg(const struct nsb_option *o)
{
	return o->type != NSB_OPTION_BOOL;
}

static int set_number(const struct nsb_option *o, const char *arg)
{
	char *end;
	double d;
	unsigned long u;

	if (o->type == NSB_OPTION_DOUBLE) {
		d = strtod(arg, &end);
		if (!*arg || *end || !isfinite(d) || d < 0)
			return -1;
		*(double *)o->value = d;
		return 0;
	}
	if (*arg == '-')
		return -1;
	u = strtoul(arg, &end, 0);
	if (!*arg || *end)
		return -1;
	*(unsigned long *)o->value = u;
	return 0;
}

static int set_choice(const struct nsb_option *o, const char *arg)
{
	for (int i = 0; o->choices[i]; i++)
		if (!strcmp(o->choices[i], arg)) {
			*(int *)o->value = i;
			return 0;
		}
	return -1;
}

/* Stores arg (NULL: none given) where o says; 0, -1 bad value, -2 said. */
static int apply(const struct nsb_option *o, const char *arg)
{
	switch (o->type) {
	case NSB_OPTION_BOOL:
		*(bool *)o->value = true;
		return 0;
	case NSB_OPTION_STRING:
		*(const char **)o->value = arg;
		return 0;
	case NSB_OPTION_DOUBLE:
	case NSB_OPTION_ULONG:
		return set_number(o, arg);
	case NSB_OPTION_CHOICE:
		return set_choice(o, arg);
	case NSB_OPTION_CALLBACK:
		return o->cb(o, arg);
	default:
		return -1;
	}
}

__attribute__((format(printf, 2, 3)))
static int fail(const struct nsb_usage *u, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", u->who);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	nsb_usage_hint(u);
	return NSB_PARSE_ERROR;
}

/*
 * One "--name[=value]" at argv[*i]; its value may be argv[*i + 1].
 * Returns NSB_PARSE_OK, NSB_PARSE_ERROR, or -1 when it is unknown.
 */
static int parse_long(int argc, char **argv, int *i,
		      const struct nsb_option *opts, const struct nsb_usage *u)
{
	struct lookup l = { .name = argv[*i] + 2 };
	const struct nsb_option *o;
	const char *eq = strchr(l.name, '='), *arg = NULL;
	int r;

	l.len = eq ? (size_t)(eq - l.name) : strlen(l.name);
	lookup(opts, &l);
	o = l.exact ? l.exact : l.nprefix == 1 ? l.prefix : NULL;
	if (!o && l.nprefix > 1)
		return fail(u, "option '%s' is ambiguous", argv[*i]);
	if (!o)
		return -1;
	if (eq && !takes_arg(o))
		return fail(u, "--%s takes no value", o->name);
	if (eq)
		arg = eq + 1;
	else if (takes_arg(o) && !(o->flags & NSB_OPT_OPTARG)) {
		if (*i + 1 >= argc)
			return fail(u, "--%s needs a value", o->name);
		arg = argv[++*i];
	}
	r = apply(o, arg);
	if (r == -1)
		return fail(u, "--%s: bad value '%s'", o->name,
			    arg ? arg : "");
	return r ? NSB_PARSE_ERROR : NSB_PARSE_OK;
}

int nsb_parse_options(int *argc, char **argv, const struct nsb_option *opts,
		      const struct nsb_usage *u, unsigned flags)
{
	int n = *argc, kept = 1, i, r;

	for (i = 1; i < n; i++) {
		char *a = argv[i];

		if (!strcmp(a, "--")) {
			if (!(flags & NSB_PARSE_KEEP_DASHDASH))
				i++;
			break;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			nsb_usage_with_options(stdout, u, opts);
			return NSB_PARSE_HELP;
		}
		if (a[0] != '-' || !a[1]) {
			argv[kept++] = a;
			if (flags & NSB_PARSE_STOP_AT_OPERAND) {
				i++;
				break;
			}
			continue;
		}
		r = strncmp(a, "--", 2) ? -1 : parse_long(n, argv, &i, opts, u);
		if (r == -1 && (flags & NSB_PARSE_KEEP_UNKNOWN)) {
			argv[kept++] = a;
			continue;
		}
		if (r == -1)
			return fail(u, "unknown option '%s'", a);
		if (r)
			return r;
	}
	while (i < n)
		argv[kept++] = argv[i++];
	argv[kept] = NULL;
	*argc = kept;
	return NSB_PARSE_OK;
}

int nsb_split_sides(const struct nsb_usage *u, int argc, char **argv)
{
	int sep;

	for (sep = 1; sep < argc && strcmp(argv[sep], "--"); sep++)
		;
	if (sep == 1 || sep + 1 >= argc) {
		fprintf(stderr, "%s: need BASE... -- PATCHED...\n", u->who);
		nsb_usage_hint(u);
		return -1;
	}
	return sep;
}

/* --- help ------------------------------------------------------------- */

/* "--name=ARGH", "--name[=ARGH]" or "--name"; its width. */
static int put_option(FILE *f, const struct nsb_option *o)
{
	const char *argh = o->argh;
	int w;

	w = fprintf(f, "  --%s", o->name);
	if (o->type == NSB_OPTION_CHOICE && !argh) {
		for (int i = 0; o->choices[i]; i++)
			w += fprintf(f, "%s%s", i ? "|" : "=", o->choices[i]);
		return w;
	}
	if (!takes_arg(o))
		return w;
	if (o->flags & NSB_OPT_OPTARG)
		return w + fprintf(f, "[=%s]", argh ? argh : "N");
	return w + fprintf(f, "=%s", argh ? argh : "VALUE");
}

/* Each line of text, the first after the option, the rest indented. */
static void put_help(FILE *f, int col, const char *text)
{
	const char *nl;

	if (col > HELP_COL - 2) {
		fputc('\n', f);
		col = 0;
	}
	do {
		nl = strchr(text, '\n');
		fprintf(f, "%*s%.*s\n", HELP_COL - col, "",
			nl ? (int)(nl - text) : (int)strlen(text), text);
		col = 0;
		text = nl ? nl + 1 : NULL;
	} while (text && *text);
}

static void put_options(FILE *f, const struct nsb_option *o)
{
	for (; o->type != NSB_OPTION_END; o++) {
		if (o->type == NSB_OPTION_INCLUDE && o->value)
			put_options(f, o->value);
		else if (o->type == NSB_OPTION_GROUP)
			fprintf(f, "\n%s\n", o->help);
		else if (o->help)
			put_help(f, put_option(f, o), o->help);
	}
}

/* every synopsis line after the first lines up under the first */
static void put_synopsis(FILE *f, const char *s)
{
	const char *nl;

	for (int first = 1; s && *s; first = 0, s = nl ? nl + 1 : "") {
		nl = strchr(s, '\n');
		fprintf(f, "%s%.*s\n", first ? "usage: " : "       ",
			nl ? (int)(nl - s) : (int)strlen(s), s);
	}
}

void nsb_usage_hint(const struct nsb_usage *u)
{
	put_synopsis(stderr, u->synopsis);
	fprintf(stderr, "(%s --help lists the options)\n", u->who);
}

void nsb_usage_with_options(FILE *f, const struct nsb_usage *u,
			    const struct nsb_option *opts)
{
	put_synopsis(f, u->synopsis);
	if (u->about)
		fprintf(f, "\n%s", u->about);
	fputc('\n', f);
	put_options(f, opts);
	fprintf(f, "  -h, --help%*sthis help\n", HELP_COL - 12, "");
	if (u->epilog)
		fprintf(f, "\n%s", u->epilog);
}

int nsb_opt_regex(regex_t *re, bool *have, const char *arg)
{
	if (*have)
		regfree(re);
	*have = !regcomp(re, arg, REG_EXTENDED | REG_NOSUB);
	return *have ? 0 : -1;
}
