// SPDX-License-Identifier: GPL-2.0
/*
 * profplot.c — `nsbench plot --profile=FILE`: per benchmark of `nsbench
 * profile --json`, the symbols' shifts per op with their CIs as a bar
 * chart (plots/profile.gp).  Symbol names are data from perf: each goes
 * to gnuplot as a cleaned, quoted field of the data file (nsb_gp_field),
 * never as code.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/lib/gnuplot.h"
#include "src/lib/nsbench.h"
#include "src/lib/profile.h"

#define WHO "nsbench plot"
#define LABEL_MAX 60	/* bytes of a symbol on the axis */

static double num(json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

static void data_row(FILE *f, int i, json_t *row, const char *label)
{
	json_t *sh = json_object_get(row, "shift");

	fprintf(f, "%d %.6g %.6g %.6g %d ", i, num(sh, "est"), num(sh, "lo"),
		num(sh, "hi"), json_is_true(json_object_get(row,
							      "significant")));
	nsb_gp_field(f, label, LABEL_MAX);
	fputc('\n', f);
}

/* The symbols, then the total; returns the rows written. */
static int write_data(FILE *f, json_t *b)
{
	json_t *syms = json_object_get(b, "symbols"), *s;
	const char *dso;
	char label[512];
	size_t i;
	int n = 0;

	json_array_foreach(syms, i, s) {
		dso = nsb_json_str(s, "dso") ?: "";
		if (json_is_true(json_object_get(s, "kernel")) &&
		    !strcmp(dso, "[kernel.kallsyms]"))
			snprintf(label, sizeof(label), "%s",
				 nsb_json_str(s, "symbol") ?: "?");
		else
			snprintf(label, sizeof(label), "%s (%s)",
				 nsb_json_str(s, "symbol") ?: "?", dso);
		data_row(f, ++n, s, label);
	}
	data_row(f, ++n, json_object_get(b, "total"), "total (all samples)");
	return n;
}

/* One benchmark: <stem>-profile-<name>.{svg,png}. */
static int plot_one(const char *tmp, json_t *b, int k, const char *out_dir,
		    const char *stem, const char *templates)
{
	const char *name = nsb_json_str(b, "benchmark") ?: "?";
	char *data = NULL, *base = NULL, dname[32], part[128], title[300];
	struct nsb_gp_args a = {
		.kind = "profile", .title = title,
		.unit = nsb_json_str(b, "unit") ?: "insn",
	};
	int n, ret = -1;
	FILE *f;

	snprintf(dname, sizeof(dname), "profile-%d.dat", k);
	f = nsb_gp_create(tmp, dname, &data);
	if (!f)
		return -1;
	n = write_data(f, b);
	if (fclose(f))
		goto out;
	snprintf(title, sizeof(title), "Where the instructions go: %s "
		 "(patched - base, %lld rounds)", name,
		 (long long)json_integer_value(json_object_get(b, "rounds")));
	nsb_gp_clean(title);
	nsb_gp_file_part(part, sizeof(part), name);
	if (asprintf(&base, "%s/%s-profile-%s", out_dir, stem, part) < 0)
		goto out;
	a.datafile = data;
	ret = nsb_gp_plot_rows(tmp, templates, &a, base, 140 + 24 * n, n, WHO);
	free(base);
out:
	free(data);
	return ret;
}

int nsb_prof_plot(const char *json, const char *out_dir, const char *stem,
		  const char *templates)
{
	json_t *root = nsb_json_load(json), *arr, *b;
	char tmp[PATH_MAX] = "";
	size_t i;
	int ret = 2;

	if (!root)
		return 2;
	arr = json_object_get(root, "benchmarks");
	if (!json_is_integer(json_object_get(root, "nsbench_profile_compare"))
	    || !json_is_array(arr) || !json_array_size(arr)) {
		fprintf(stderr, WHO ": %s: no 'benchmarks' (want the output "
			"of nsbench profile --json)\n", json);
		goto out;
	}
	if (nsb_gp_start(WHO, out_dir, tmp, sizeof(tmp), "profplot"))
		goto out;
	if (json_array_size(arr) > NSB_GP_MAX_CHARTS)
		fprintf(stderr, WHO ": %s: %zu benchmarks; the first %d "
			"plotted, %zu left out\n", json, json_array_size(arr),
			NSB_GP_MAX_CHARTS,
			json_array_size(arr) - NSB_GP_MAX_CHARTS);
	json_array_foreach(arr, i, b) {
		if (i >= NSB_GP_MAX_CHARTS)
			break;
		if (plot_one(tmp, b, (int)i, out_dir, stem, templates))
			goto out;
	}
	ret = 0;
out:
	if (*tmp)
		nsb_gp_rmtmp(tmp);
	json_decref(root);
	return ret;
}
