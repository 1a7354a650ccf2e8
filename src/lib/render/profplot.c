// SPDX-License-Identifier: GPL-2.0
/*
 * profplot.c — `nsbench plot profile FILE`: per benchmark of `nsbench
 * profile --json`, the symbols' shifts per op with their CIs as a bar
 * chart (plots/profile.gp).  Symbol names are data from perf: each goes
 * to gnuplot as a cleaned, quoted field of the data file (nsb_gp_field),
 * never as code.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/render/gnuplot.h"
#include "src/lib/base/nsbench.h"
#include "src/lib/stats/profile.h"
#include "src/lib/render/rowplot.h"

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

/* Benchmark k: <stem>-profile-<name>.{svg,png}. */
static int profile_chart(FILE *f, int k, struct nsb_rowchart *ch, void *arg)
{
	json_t *b = json_array_get(arg, (size_t)k);
	const char *name = nsb_json_str(b, "benchmark") ?: "?";

	ch->unit = nsb_json_str(b, "unit") ?: "insn";
	nsb_sb_addf(&ch->title, "Where the instructions go: %s (patched - "
		    "base, %lld rounds)", name,
		    (long long)json_integer_value(json_object_get(b, "rounds")));
	if (ch->title.buf)
		nsb_gp_clean(ch->title.buf);
	ch->part[0] = '-';
	nsb_gp_file_part(ch->part + 1, 128, name);
	return write_data(f, b);
}

int nsb_prof_plot(const char *json, const char *out_dir, const char *stem,
		  const char *templates)
{
	json_t *root = nsb_json_load(json), *arr;
	struct nsb_rowplot p = {
		.who = nsb_prog(), .kind = "profile", .tmp = "profplot",
		.top = 140,
		.chart = profile_chart,
	};
	int ret = 2;

	if (!root)
		return 2;
	arr = json_object_get(root, "benchmarks");
	if (!json_is_integer(json_object_get(root, "nsbench_profile_compare"))
	    || !json_is_array(arr) || !json_array_size(arr)) {
		nsb_err("%s: no 'benchmarks' (want the output "
			"of nsbench profile --json)\n", json);
		goto out;
	}
	if (json_array_size(arr) > NSB_GP_MAX_CHARTS)
		nsb_err("%s: %zu benchmarks; the first %d "
			"plotted, %zu left out\n", json, json_array_size(arr),
			NSB_GP_MAX_CHARTS,
			json_array_size(arr) - NSB_GP_MAX_CHARTS);
	p.arg = arr;
	p.n = json_array_size(arr) > NSB_GP_MAX_CHARTS ? NSB_GP_MAX_CHARTS :
	      (int)json_array_size(arr);
	ret = nsb_rowplot(&p, out_dir, stem, templates);
out:
	json_decref(root);
	return ret;
}
