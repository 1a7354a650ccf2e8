// SPDX-License-Identifier: GPL-2.0
/*
 * test_options.c — the option parser every command uses
 * (src/lib/base/options.c): each type stores what it should, bad values
 * and unknown or ambiguous options are errors, operands come back in
 * order around "--", and the help lists every option of the table,
 * included ones too.
 */
#include <stdlib.h>

#include "src/lib/base/options.h"
#include "tests/tap.h"

struct vals {
	const char *label;
	bool flag;
	double pct;
	unsigned long n;
	int fmt;
	const char *last_cb;
	int ncb;
};

static const char *const fmts[] = { "text", "markdown", "json", NULL };

static const struct nsb_usage usage = {
	.who = "test", .synopsis = "test [options] A... -- B...",
	.about = "About.\n", .epilog = "Epilog.\n",
};

static int count_cb(const struct nsb_option *opt, const char *arg)
{
	struct vals *v = opt->value;

	if (arg && !strcmp(arg, "bad"))
		return -1;
	v->last_cb = arg ? arg : "(none)";
	v->ncb++;
	return 0;
}

static struct vals v;

static const struct nsb_option included[] = {
	OPT_ULONG("count", &v.n, "N", "a count"),
	OPT_END(),
};

static const struct nsb_option opts[] = {
	OPT_STRING("label", &v.label, "NAME", "a label"),
	OPT_BOOL("flag", &v.flag, "a flag\nover two lines"),
	OPT_DOUBLE("threshold", &v.pct, "PCT", "a percentage"),
	OPT_CHOICE("format", &v.fmt, fmts, NULL, "a format"),
	OPT_CALLBACK("aa", &v, "FILE", "repeatable", count_cb),
	OPT_CALLBACK_OPTARG("false-alarms", &v, "N", "optional", count_cb),
	OPT_INCLUDE(included),
	OPT_STRING("format-extra", &v.label, "X", "shares a prefix"),
	OPT_END(),
};

/* Parses a copy of the words of line; the operands joined by ' '. */
static int parse(const char *line, unsigned flags, char *ops, size_t len)
{
	static char buf[512];
	char *argv[32], *w;
	int argc = 0, r;

	snprintf(buf, sizeof(buf), "%s", line);
	argv[argc++] = "test";
	for (w = strtok(buf, " "); w && argc < 31; w = strtok(NULL, " "))
		argv[argc++] = w;
	argv[argc] = NULL;
	memset(&v, 0, sizeof(v));
	r = nsb_parse_options(&argc, argv, opts, &usage, flags);
	*ops = 0;
	for (int i = 1; !r && i < argc; i++)
		snprintf(ops + strlen(ops), len - strlen(ops), "%s%s",
			 i > 1 ? " " : "", argv[i]);
	return r;
}

static void test_types(void)
{
	char ops[256];

	is_int(parse("--label=x --flag --threshold 2.5 --format=json "
		     "--count=0x10", 0, ops, sizeof(ops)), NSB_PARSE_OK,
	       "every type parses");
	is_str(v.label, "x", "--label=x");
	ok(v.flag, "--flag");
	ok(v.pct == 2.5, "--threshold 2.5 (value in the next word)");
	is_int(v.fmt, 2, "--format=json is choice 2");
	is_int((int)v.n, 16, "--count=0x10 from the included table");
	is_int(parse("--aa=1 --aa=2 --false-alarms --false-alarms=7", 0, ops,
		     sizeof(ops)), NSB_PARSE_OK, "callbacks");
	is_int(v.ncb, 4, "a callback runs once per option given");
	is_str(v.last_cb, "7", "the optional argument");
	parse("--false-alarms x", 0, ops, sizeof(ops));
	is_str(ops, "x", "an optional argument is never the next word");
	parse("--lab=y", 0, ops, sizeof(ops));
	is_str(v.label, "y", "a unique prefix names the option");
	parse("--format=text", 0, ops, sizeof(ops));
	is_int(v.fmt, 0, "an exact name wins over a longer one it prefixes");
}

static void test_errors(void)
{
	char ops[256];

	is_int(parse("--threshold=abc", 0, ops, sizeof(ops)), NSB_PARSE_ERROR,
	       "a bad number");
	is_int(parse("--threshold=-1", 0, ops, sizeof(ops)), NSB_PARSE_ERROR,
	       "a negative percentage");
	is_int(parse("--threshold=inf", 0, ops, sizeof(ops)), NSB_PARSE_ERROR,
	       "an infinite one");
	is_int(parse("--count=-1", 0, ops, sizeof(ops)), NSB_PARSE_ERROR,
	       "a negative count");
	is_int(parse("--format=xml", 0, ops, sizeof(ops)), NSB_PARSE_ERROR,
	       "a choice not in the list");
	is_int(parse("--aa=bad", 0, ops, sizeof(ops)), NSB_PARSE_ERROR,
	       "a callback's bad value");
	is_int(parse("--nope", 0, ops, sizeof(ops)), NSB_PARSE_ERROR,
	       "an unknown option");
	is_int(parse("-x", 0, ops, sizeof(ops)), NSB_PARSE_ERROR,
	       "an unknown short option");
	is_int(parse("--f", 0, ops, sizeof(ops)), NSB_PARSE_ERROR,
	       "an ambiguous prefix");
	is_int(parse("--flag=1", 0, ops, sizeof(ops)), NSB_PARSE_ERROR,
	       "a value for a flag");
	is_int(parse("--label", 0, ops, sizeof(ops)), NSB_PARSE_ERROR,
	       "a missing value");
	is_int(parse("a --help b", 0, ops, sizeof(ops)), NSB_PARSE_HELP,
	       "--help anywhere before --");
}

static void test_operands(void)
{
	char ops[256];

	parse("a --flag b -- c --flag", 0, ops, sizeof(ops));
	is_str(ops, "a b c --flag", "operands in order; after -- all are");
	parse("a --flag b -- c --help", NSB_PARSE_KEEP_DASHDASH, ops,
	      sizeof(ops));
	is_str(ops, "a b -- c --help", "KEEP_DASHDASH keeps the separator");
	parse("sub --flag x --label=y", NSB_PARSE_STOP_AT_OPERAND, ops,
	      sizeof(ops));
	is_str(ops, "sub --flag x --label=y", "STOP_AT_OPERAND");
	ok(!v.flag, "nothing after the first operand is parsed");
	is_int(parse("--benchmark_filter=x --flag --v=2", NSB_PARSE_KEEP_UNKNOWN,
		     ops, sizeof(ops)), NSB_PARSE_OK, "KEEP_UNKNOWN");
	is_str(ops, "--benchmark_filter=x --v=2", "unknown options kept");
	ok(v.flag, "known ones taken");
	parse("-", 0, ops, sizeof(ops));
	is_str(ops, "-", "'-' alone is an operand (stdin)");
}

static void test_sides(void)
{
	char *ok_argv[] = { "test", "a", "b", "--", "c", NULL };
	char *no_sep[] = { "test", "a", "b", NULL };
	char *no_base[] = { "test", "--", "c", NULL };
	char *no_patched[] = { "test", "a", "--", NULL };

	is_int(nsb_split_sides(&usage, 5, ok_argv), 3,
	       "BASE... -- PATCHED...: the index of --");
	is_int(nsb_split_sides(&usage, 3, no_sep), -1, "no --");
	is_int(nsb_split_sides(&usage, 3, no_base), -1, "no BASE");
	is_int(nsb_split_sides(&usage, 3, no_patched), -1, "no PATCHED");
}

static void test_help(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	nsb_usage_with_options(f, &usage, opts);
	fclose(f);
	ok(!strncmp(text, "usage: test [options] A... -- B...\n\nAbout.\n",
		    40), "synopsis, then about");
	ok(strstr(text, "  --label=NAME        a label\n") != NULL,
	   "an option and its help, in the help column");
	ok(strstr(text, "  --flag              a flag\n"
			"                      over two lines\n") != NULL,
	   "a help of two lines");
	ok(strstr(text, "--format=text|markdown|json") != NULL,
	   "a choice lists its values");
	ok(strstr(text, "--false-alarms[=N]") != NULL,
	   "an optional argument in brackets");
	ok(strstr(text, "--count=N") != NULL, "included rows are listed");
	ok(strstr(text, "-h, --help") != NULL, "-h, --help");
	ok(len > 8 && !strcmp(text + len - 8, "Epilog.\n"), "epilog last");
	free(text);
}

int main(void)
{
	plan_no_plan();
	test_types();
	test_errors();
	test_operands();
	test_sides();
	test_help();
	return done_testing();
}
