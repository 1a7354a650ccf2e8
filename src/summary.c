// SPDX-License-Identifier: GPL-2.0
/*
 * summary.c — `nsbench summary FILE...`: one run's results as short
 * tables a person can read at a glance, one per benchmark family, with
 * the last argument of the name (depth:N, supers:N, ...) as the columns:
 *
 *   models/in_userns            median ns (CV % where repeated)
 *     variant            depth:   0     1     2     4     8    16    32
 *     2015/hot/hit              3.4   4.4   6.2   5.9  12.3  27.6  38.9
 *
 * For comparisons use `nsbench compare`; this only describes one side.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/nsbench.h"
#include "src/samples.h"
#include "src/stats.h"

#define MAX_COLS 12
#define CELL_WIDTH 10

/* A benchmark name cut into family, variant and its last argument. */
struct cut {
	char family[96];	/* "models/in_userns" */
	char variant[128];	/* "2015/hot/hit" */
	char key[32];		/* "depth", or "" if no last argument */
	char value[32];		/* "8" */
};

/*
 * Google Benchmark appends the run options it was given to the name
 * (".../iterations:400/manual_time"); they are not arguments.
 */
static void strip_run_options(char *name)
{
	static const char *const opts[] = {
		"/iterations:", "/manual_time", "/real_time", "/min_time:",
		"/repeats:", "/threads:", "/process_time",
	};
	char *p;

	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if ((p = strstr(name, opts[i])))
			*p = 0;
}

static void cut_name(const char *full, struct cut *c)
{
	char name[256];
	const char *second, *rest, *last;
	size_t flen;

	snprintf(name, sizeof(name), "%s", full);
	strip_run_options(name);
	second = strchr(name, '/');
	memset(c, 0, sizeof(*c));
	second = second ? strchr(second + 1, '/') : NULL;
	flen = second ? (size_t)(second - name) : strlen(name);
	snprintf(c->family, sizeof(c->family), "%.*s", (int)flen, name);
	rest = second ? second + 1 : "";
	last = strrchr(rest, '/');
	last = last ? last + 1 : rest;
	if (strchr(last, ':')) {
		snprintf(c->key, sizeof(c->key), "%.*s",
			 (int)(strchr(last, ':') - last), last);
		snprintf(c->value, sizeof(c->value), "%s", strchr(last, ':') + 1);
		snprintf(c->variant, sizeof(c->variant), "%.*s",
			 (int)(last > rest ? last - rest - 1 : 0), rest);
	} else {
		snprintf(c->variant, sizeof(c->variant), "%s", rest);
	}
	if (!c->variant[0])
		snprintf(c->variant, sizeof(c->variant), "-");
}

/* Three significant digits without an exponent. */
static void fmt_value(char *buf, size_t len, double v)
{
	if (v < 10)
		snprintf(buf, len, "%.2f", v);
	else if (v < 100)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.0f", v);
}

/* Right-aligned in width columns, counting "±" as one column. */
static void print_cell(const char *text, int width)
{
	int cols = 0;

	for (const char *p = text; *p; p++)
		cols += ((unsigned char)*p & 0xc0) != 0x80;
	printf(" %*s%s", width > cols ? width - cols : 0, "", text);
}

static void cell(char *buf, size_t len, const struct nsb_series *s)
{
	struct nsb_summary sum;
	char v[32];

	if (!s) {
		snprintf(buf, len, "-");
		return;
	}
	if (!s->n) {
		snprintf(buf, len, s->skipped ? "skip" : "error");
		return;
	}
	nsb_summarize(s->v, s->n, &sum);
	fmt_value(v, sizeof(v), sum.median);
	if (sum.n > 1)
		snprintf(buf, len, "%s±%.0f%%", v, sum.cv * 100);
	else
		snprintf(buf, len, "%s", v);
}

/* Columns: the distinct last-argument values of a family, as they come. */
static int family_columns(const struct nsb_side *side, const char *family,
			  char cols[MAX_COLS][32], char *key)
{
	int ncols = 0;

	for (size_t i = 0; i < side->n; i++) {
		struct cut c;
		int j;

		cut_name(side->s[i].name, &c);
		if (strcmp(c.family, family) || !c.key[0])
			continue;
		snprintf(key, 32, "%s", c.key);
		for (j = 0; j < ncols && strcmp(cols[j], c.value); j++)
			;
		if (j == ncols && ncols < MAX_COLS)
			snprintf(cols[ncols++], 32, "%s", c.value);
	}
	return ncols;
}

static const struct nsb_series *find_cell(const struct nsb_side *side,
					  const char *family,
					  const char *variant, const char *value)
{
	for (size_t i = 0; i < side->n; i++) {
		struct cut c;

		cut_name(side->s[i].name, &c);
		if (!strcmp(c.family, family) && !strcmp(c.variant, variant) &&
		    !strcmp(c.value, value))
			return &side->s[i];
	}
	return NULL;
}

static bool seen_before(const struct nsb_side *side, size_t upto,
			const struct cut *c, bool variant_too)
{
	for (size_t i = 0; i < upto; i++) {
		struct cut o;

		cut_name(side->s[i].name, &o);
		if (!strcmp(o.family, c->family) &&
		    (!variant_too || !strcmp(o.variant, c->variant)))
			return true;
	}
	return false;
}

static void print_family(const struct nsb_side *side, const char *family)
{
	char cols[MAX_COLS][32], key[32] = "", buf[48];
	int ncols = family_columns(side, family, cols, key);

	printf("\n%s\n  %-34s", family, ncols ? "variant" : "benchmark");
	if (ncols)
		printf("%s:", key);
	for (int j = 0; j < ncols; j++)
		print_cell(cols[j], CELL_WIDTH);
	printf("\n");
	for (size_t i = 0; i < side->n; i++) {
		struct cut c;

		cut_name(side->s[i].name, &c);
		if (strcmp(c.family, family) || seen_before(side, i, &c, true))
			continue;
		printf("  %-34.34s%*s", c.variant, ncols ? (int)strlen(key) + 1 : 0,
		       "");
		if (!ncols || !c.key[0]) {
			cell(buf, sizeof(buf), &side->s[i]);
			print_cell(buf, CELL_WIDTH);
		}
		for (int j = 0; ncols && c.key[0] && j < ncols; j++) {
			cell(buf, sizeof(buf), find_cell(side, family, c.variant,
							 cols[j]));
			print_cell(buf, CELL_WIDTH);
		}
		if (!side->s[i].n && side->s[i].why)
			printf("  (%s)", side->s[i].why);
		printf("\n");
	}
}

static void usage(FILE *f)
{
	fprintf(f, "usage: nsbench summary [--metric=real_time|cpu_time] FILE...\n"
		"  One run's results (nsbench/Google Benchmark or hyperfine JSON),\n"
		"  one table per benchmark family: median per benchmark (and CV\n"
		"  where repeated), the name's last argument as columns.\n");
}

int cmd_summary(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "metric", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct nsb_side side;
	int c, ret = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'm':
			nsb_metric = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind == argc) {
		usage(stderr);
		return 2;
	}
	nsb_side_init(&side, "run");
	for (int i = optind; i < argc; i++)
		if (nsb_side_load(&side, argv[i]))
			ret = 2;
	if (!ret) {
		const char *unit = side.unit ? side.unit : NSB_UNIT_WALL;

		printf("median per operation, %s; ±CV where repeated\n", unit);
		for (size_t i = 0; i < side.n; i++) {
			struct cut cu;

			cut_name(side.s[i].name, &cu);
			if (!seen_before(&side, i, &cu, false))
				print_family(&side, cu.family);
		}
	}
	nsb_side_free(&side);
	return ret;
}
