// SPDX-License-Identifier: GPL-2.0
/*
 * rowplot.c — rows of a JSON file as row charts (see rowplot.h).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/render/gnuplot.h"
#include "src/lib/render/rowplot.h"

/* Chart k: its data file, then its SVG and PNG; -1 after saying why. */
static int one(const struct nsb_rowplot *p, const char *tmp, int k,
	       const char *out_dir, const char *stem, const char *templates)
{
	struct nsb_rowchart ch = { .unit = "" };
	struct nsb_gp_args a = { .kind = p->kind };
	char *data = NULL, *base = NULL, *nums = NULL, name[48];
	int rows, ret = -1;
	FILE *f;

	snprintf(name, sizeof(name), "%s-%d.dat", p->kind, k);
	f = nsb_gp_create(tmp, name, &data);
	if (!f)
		return -1;
	rows = p->chart(f, k, &ch, p->arg);
	if (fclose(f) || rows < 0 || ch.title.oom || ch.nums.oom)
		goto out;
	if (asprintf(&base, "%s/%s-%s%s", out_dir, stem, p->kind,
		     ch.part) < 0) {
		base = NULL;
		goto out;
	}
	if (asprintf(&nums, "width = %d\nheight = %d\nnrows = %d\n%s",
		     ch.width ?: 1000, ch.height ?: p->top + 24 * rows, rows,
		     nsb_sb_str(&ch.nums)) < 0) {
		nums = NULL;
		goto out;
	}
	a.title = nsb_sb_str(&ch.title);
	a.unit = ch.unit;
	a.datafile = data;
	ret = nsb_gp_plot_rows(tmp, templates, &a, base, nums, p->who);
out:
	nsb_sb_release(&ch.title);
	nsb_sb_release(&ch.nums);
	free(base);
	free(nums);
	free(data);
	return ret;
}

int nsb_rowplot(const struct nsb_rowplot *p, const char *out_dir,
		const char *stem, const char *templates)
{
	char tmp[PATH_MAX] = "";
	int k, ret = 2;

	if (nsb_gp_start(p->who, out_dir, tmp, sizeof(tmp), p->tmp))
		goto out;
	for (k = 0; k < p->n; k++)
		if (one(p, tmp, k, out_dir, stem, templates))
			goto out;
	ret = 0;
out:
	if (*tmp)
		nsb_gp_rmtmp(tmp);
	return ret;
}
