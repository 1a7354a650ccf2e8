// SPDX-License-Identifier: GPL-2.0
/*
 * costplot.c — `nsbench plot --costs=FILE`: the headline figure of the
 * check costs from `nsbench report --json` (plots/costs.gp).  Labels go
 * to gnuplot in the data file, cleaned to a plain alphabet, and every
 * path as a quoted string value: nothing from a results file becomes
 * gnuplot code.
 */
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "src/costs.h"
#include "src/nsbench.h"

extern char **environ;

/* s as a gnuplot single-quoted string ('' is a quote). */
static void gp_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		if (*s != '\n')
			fputc(*s, f);
	}
	fputc('\'', f);
}

/* A label for the data file: letters, digits and / : . _ + - only. */
static void clean_label(char *buf, size_t len, const char *seed,
			const char *label)
{
	size_t i;

	snprintf(buf, len, "%s %s", seed, label);
	for (i = 0; buf[i]; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789/:._+- ", buf[i]))
			buf[i] = '_';
}

static double num(json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

/* The rows of a costs JSON as the template's data; returns the count. */
static int write_data(FILE *f, json_t *rows)
{
	json_t *r;
	size_t i;
	int n = 0;

	json_array_foreach(rows, i, r) {
		json_t *sh = json_object_get(r, "shift");
		char label[160];

		if (!json_is_object(sh))
			continue;	/* skipped or failed row */
		clean_label(label, sizeof(label),
			    nsb_json_str(r, "seed") ?: "?",
			    nsb_json_str(r, "label") ?: "?");
		fprintf(f, "%d %.6g %.6g %.6g %.6g %.6g %.6g \"%s\" %d\n", ++n,
			num(sh, "est"), num(sh, "lo"), num(sh, "hi"),
			num(r, "pct"), num(r, "pct_lo"), num(r, "pct_hi"),
			label, !json_is_true(json_object_get(r, "unreliable")));
	}
	return n;
}

static int gnuplot(const char *vars, const char *tmpl)
{
	const char *gp = getenv("NSB_GNUPLOT") ?: "gnuplot";
	char *argv[] = { (char *)gp, (char *)vars, (char *)tmpl, NULL };
	pid_t pid;
	int st, err = posix_spawnp(&pid, gp, NULL, NULL, argv, environ);

	if (err) {
		fprintf(stderr, "nsbench plot: cannot run %s: %s (install "
			"gnuplot-nox)\n", gp, strerror(err));
		return -1;
	}
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "nsbench plot: %s failed on %s\n", gp, tmpl);
		return -1;
	}
	return 0;
}

static int render(const char *dir, const char *out, const char *fmt,
		  const char *data, const char *templates, int nrows,
		  bool icount)
{
	char vars[4200], tmpl[4200];
	FILE *f;

	snprintf(vars, sizeof(vars), "%s/vars-%s.gp", dir, fmt);
	snprintf(tmpl, sizeof(tmpl), "%s/costs.gp", templates);
	f = fopen(vars, "w");
	if (!f)
		return -1;
	fprintf(f, "fmt = '%s'\nwidth = 1000\nheight = %d\nnrows = %d\n"
		"unit_label = '%s'\noutfile = ", fmt, 120 + 24 * nrows, nrows,
		icount ? "instructions" : "ns");
	gp_quote(f, out);
	fprintf(f, "\ndatafile = ");
	gp_quote(f, data);
	fprintf(f, "\ndir = ");
	gp_quote(f, templates);
	fprintf(f, "\ntitle_text = 'What each userns mount check costs "
		"(on - off, same boot)'\n");
	if (fclose(f))
		return -1;
	return gnuplot(vars, tmpl);
}

int nsb_costs_plot(const char *json, const char *out_dir, const char *stem,
		   const char *templates)
{
	static const char *const fmts[] = { "svg", "png" };
	char tmp[] = "/tmp/nsbench-costplot.XXXXXX", data[64], out[4200];
	json_t *root = nsb_json_load(json), *rows;
	int n, i, ret = 2;
	FILE *f;

	if (!root)
		return 2;
	rows = json_object_get(root, "rows");
	if (!json_is_array(rows)) {
		fprintf(stderr, "nsbench plot: %s: no 'rows' array (want the "
			"output of nsbench report --json)\n", json);
		goto out;
	}
	if (!mkdtemp(tmp)) {
		perror("nsbench plot: mkdtemp");
		goto out;
	}
	snprintf(data, sizeof(data), "%s/costs.dat", tmp);
	f = fopen(data, "w");
	if (!f)
		goto clean;
	n = write_data(f, rows);
	if (fclose(f))
		goto clean;
	if (!n) {
		fprintf(stderr, "nsbench plot: %s: no row with a shift\n", json);
		goto clean;
	}
	if (mkdir(out_dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "nsbench plot: %s: %s\n", out_dir,
			strerror(errno));
		goto clean;
	}
	for (i = 0; i < 2; i++) {
		snprintf(out, sizeof(out), "%s/%s-costs.%s", out_dir, stem,
			 fmts[i]);
		if (render(tmp, out, fmts[i], data, templates, n,
			   json_is_true(json_object_get(root, "icount"))))
			goto clean;
		printf("%s\n", out);
	}
	ret = 0;
clean:
	unlink(data);
	for (i = 0; i < 2; i++) {
		snprintf(out, sizeof(out), "%s/vars-%s.gp", tmp, fmts[i]);
		unlink(out);
	}
	rmdir(tmp);
out:
	json_decref(root);
	return ret;
}
