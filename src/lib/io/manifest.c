// SPDX-License-Identifier: GPL-2.0
/*
 * manifest.c — the manifest.json of a kernel A/B run (manifest.h):
 * written from what the run left on disk, or merged from the manifests
 * of its shards.  Every value is data: strings go through jansson.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/lib/io/manifest.h"
#include "src/lib/base/nsbench.h"
#include "src/lib/io/samples.h"
#include "src/lib/stats/costs.h"


/*
 * What names a kernel in build.sh's meta.json: an object without any of
 * them ({} say) describes no kernel, and stamping or recording it would
 * pass garbage off as the kernel's identity.
 */
static const char *const identity[] = {
	"key", "source", "source_commit", "release", "config_hash",
};

json_t *nsb_kernel_meta_load(const char *path)
{
	json_t *j = nsb_json_load(path), *v;
	bool named = false;
	size_t i;

	if (!j)
		return NULL;
	if (!json_is_object(j)) {
		nsb_bad(path, "not a JSON object (build.sh's meta.json)");
		goto bad;
	}
	for (i = 0; i < NSB_ARRAY_SIZE(identity); i++) {
		v = json_object_get(j, identity[i]);
		if (v && !json_is_string(v)) {
			nsb_bad(path, "\"%s\": not a string", identity[i]);
			goto bad;
		}
		named |= v && *json_string_value(v);
	}
	if (named)
		return j;
	nsb_bad(path, "no kernel in it: none of \"key\", \"source\", "
		"\"source_commit\", \"release\", \"config_hash\" (want "
		"build.sh's meta.json)");
bad:
	json_decref(j);
	return NULL;
}

/* DIR/meta.json as built (scripts/kernel/build.sh), or null. */
static json_t *kernel_meta(const char *dir)
{
	char path[PATH_MAX];

	if (!dir || !*dir)
		return json_null();
	snprintf(path, sizeof(path), "%s/meta.json", dir);
	return nsb_kernel_meta_load(path);
}

/* A number as jq writes it: 25, not 25.0. */
static json_t *number(double v)
{
	if (v == floor(v) && fabs(v) < 1e15)
		return json_integer((json_int_t)v);
	return json_real(v);
}

/* One boot's row from what its directory holds. */
static json_t *boot_row(const char *dir, long b, long r, long s,
			const char *side)
{
	char path[PATH_MAX], *src, *wall, *end;
	bool booted;
	json_t *row;
	double w;

	snprintf(path, sizeof(path), "%s/r%02ld-%s.source", dir, r, side);
	booted = !access(path, F_OK);
	src = nsb_first_line(path);
	if (src)
		src[strcspn(src, " ")] = 0;
	snprintf(path, sizeof(path), "%s/r%02ld-%s/wall_seconds", dir, r,
		 side);
	wall = nsb_first_line(path);
	w = wall ? strtod(wall, &end) : 0;
	if (!wall || end == wall || *end || !isfinite(w))
		w = 0;
	row = json_pack("{s:I, s:I, s:I, s:s, s:s, s:s, s:s, s:o}",
			"boot", (json_int_t)b, "round", (json_int_t)r,
			"seed", (json_int_t)s, "side", side,
			"lsm", side[1] ? side + 2 : "none",
			"status", booted ? "ok" : "fail",
			"source", src && *src ? src : "none", "wall_seconds",
			number(w));
	free(src);
	free(wall);
	return row;
}

/*
 * A side of the boot list: A or B, the kernel; "+LSM" after it, a boot of
 * that kernel with the LSM active (lsm=LSM on its command line), LSM one
 * that a row of kernel-patches/checks.def lives in, as the cost families.
 */
static bool valid_side(const char *side)
{
	const char *lsm[NSB_COST_LSM_MAX];
	size_t i, n = nsb_cost_lsms(lsm, NSB_COST_LSM_MAX);

	if ((side[0] != 'A' && side[0] != 'B') || (side[1] && side[1] != '+'))
		return false;
	if (!side[1])
		return true;
	for (i = 0; i < n && i < NSB_COST_LSM_MAX; i++)
		if (strcmp(lsm[i], "none") && !strcmp(side + 2, lsm[i]))
			return true;
	return false;
}

/* The LSMs a side may name, for the message: "selinux or smack". */
static void side_lsms(char *buf, size_t len)
{
	const char *lsm[NSB_COST_LSM_MAX], *any[NSB_COST_LSM_MAX];
	size_t i, k = 0, used = 0, n = nsb_cost_lsms(lsm, NSB_COST_LSM_MAX);

	for (i = 0; i < n && i < NSB_COST_LSM_MAX; i++)
		if (strcmp(lsm[i], "none"))
			any[k++] = lsm[i];
	*buf = 0;
	for (i = 0; i < k && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 !i ? "" : i + 1 < k ? ", " : " or ",
					 any[i]);
}

/*
 * The most boots, rounds and seeds a list may name: ab.sh's seeds are
 * below 2^31, its rounds and boots a few dozen.  A number past it (or
 * past long, where sscanf's %ld gave LONG_MAX) is a broken list.
 */
#define BOOT_NUM_MAX	2147483647L

/* A decimal field of a boot line, in [min, BOOT_NUM_MAX]; else -1. */
static long boot_num(char **p, long min)
{
	char *end;
	long v;

	*p += strspn(*p, " \t");
	if (**p < '0' || **p > '9')
		return -1;
	errno = 0;
	v = strtol(*p, &end, 10);
	if (errno || v < min || v > BOOT_NUM_MAX || !strchr(" \t", *end))
		return -1;
	*p = end;
	return v;
}

/* The rows of LIST ("BOOT ROUND SEED SIDE" a line), or NULL after why. */
static json_t *boot_rows(const char *list, const char *dir)
{
	size_t len, n = 0;
	char *text = nsb_read_input(list, NSB_INPUT_MAX, &len), *line, *next;
	char *p, *rest;
	json_t *rows;
	long b, r, s;
	const char *side;

	if (!text)
		return NULL;
	/* a NUL ended the line for fgets: "1 1 1 B\0junk" read as valid */
	if (memchr(text, 0, len)) {
		nsb_bad(list, "a NUL byte: not a boot list");
		free(text);
		return NULL;
	}
	rows = json_array();
	for (line = text; rows && *line; line = next) {
		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = 0;
		n++;
		p = line;
		b = boot_num(&p, 1);
		r = b < 0 ? -1 : boot_num(&p, 1);
		s = r < 0 ? -1 : boot_num(&p, 0);
		p += strspn(p, " \t");
		side = p;
		p += strcspn(p, " \t");
		rest = p + strspn(p, " \t");
		*p = 0;
		if (s < 0 || !valid_side(side) || *rest) {
			char lsms[256];

			side_lsms(lsms, sizeof(lsms));
			nsb_bad_at(list, n, "want \"BOOT ROUND SEED SIDE\" "
				   "(whole numbers up to %ld; SIDE A or B, or "
				   "A+LSM or B+LSM, LSM %s)", BOOT_NUM_MAX,
				   lsms);
			json_decref(rows);
			rows = NULL;
			break;
		}
		if (json_array_append_new(rows, boot_row(dir, b, r, s, side))) {
			json_decref(rows);
			rows = NULL;
		}
	}
	if (rows && !json_array_size(rows)) {
		nsb_bad(list, "no boots: an empty list");
		json_decref(rows);
		rows = NULL;
	}
	free(text);
	return rows;
}

static json_t *str_or_null(const char *s)
{
	return s && *s ? json_string(s) : json_null();
}

json_t *nsb_manifest(const struct nsb_manifest_opts *o)
{
	char host[256] = "unknown";
	json_t *a = kernel_meta(o->kernel_a), *b = kernel_meta(o->kernel_b);
	json_t *boots = boot_rows(o->boots, o->boots_dir);

	gethostname(host, sizeof(host) - 1);
	if (!a || !b || !boots) {
		json_decref(a);
		json_decref(b);
		json_decref(boots);
		return NULL;
	}
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:I, s:b, s:b, s:s, s:s, "
			 "s:s, s:s, s:s, s:o, s:o, s:o, s:o}",
			 "date", o->date ?: "", "host", host,
			 "nsbench_version", nsb_version(), "mode", o->mode ?: "",
			 "host_command", o->host_command ?: "",
			 "rounds", (json_int_t)o->rounds, "aa", o->aa,
			 "checks", o->checks, "plan", o->plan ?: "",
			 "append", o->append ?: "", "cmdline", o->cmdline ?: "",
			 "initramfs_sha256", o->initramfs ?: "",
			 "cache_audit", o->audit ?: "",
			 "shard", str_or_null(o->shard), "A", a, "B", b,
			 "boots", boots);
}

static int by_boot(const void *x, const void *y)
{
	json_int_t a = json_integer_value(json_object_get(*(json_t **)x,
							  "boot"));
	json_int_t b = json_integer_value(json_object_get(*(json_t **)y,
							  "boot"));

	return (a > b) - (a < b);
}

/* An integer member of a boot row in [min, BOOT_NUM_MAX]. */
static bool row_int(json_t *row, const char *key, long min)
{
	json_t *v = json_object_get(row, key);

	return json_is_integer(v) && json_integer_value(v) >= min &&
	       json_integer_value(v) <= BOOT_NUM_MAX;
}

/*
 * A shard's boots as manifest() writes them: {"boot": 1, ...} rows, not
 * [1, "x", null, {}] (which merged, then sorted as boot 0).
 */
static int check_boots(const char *path, json_t *boots)
{
	static const char *const ints[] = { "boot", "round", "seed" };
	const char *side, *st;
	json_t *row, *w;
	size_t i, k;

	if (!json_array_size(boots))
		return nsb_bad(path, "boots: empty");
	json_array_foreach(boots, i, row) {
		side = nsb_json_str(row, "side");
		st = nsb_json_str(row, "status");
		w = json_object_get(row, "wall_seconds");
		if (!json_is_object(row))
			return nsb_bad(path, "boots[%zu]: expected an object, "
				       "got %s", i, nsb_json_type_name(row));
		for (k = 0; k < 3; k++)
			if (!row_int(row, ints[k], k < 2))
				return nsb_bad(path, "boots[%zu].%s: expected a "
					       "whole number >= %d, at most "
					       "%ld", i, ints[k], k < 2,
					       BOOT_NUM_MAX);
		if (!side || !valid_side(side))
			return nsb_bad(path, "boots[%zu].side: expected \"A\" "
				       "or \"B\", or \"A+LSM\" or \"B+LSM\"",
				       i);
		if (!st || (strcmp(st, "ok") && strcmp(st, "fail")))
			return nsb_bad(path, "boots[%zu].status: expected "
				       "\"ok\" or \"fail\"", i);
		if (!nsb_json_str(row, "source"))
			return nsb_bad(path, "boots[%zu].source: expected a "
				       "string", i);
		if (!json_is_number(w) || !(json_number_value(w) >= 0) ||
		    !isfinite(json_number_value(w)))
			return nsb_bad(path, "boots[%zu].wall_seconds: expected "
				       "a number >= 0", i);
	}
	return 0;
}

/* Appends a shard's boots to rows and its name to shards; 0 or -1. */
static int take_shard(const char *path, json_t *m, json_t *rows,
		      json_t *shards)
{
	json_t *boots = json_object_get(m, "boots"), *sh;

	if (!json_is_array(boots))
		return nsb_bad(path, "no \"boots\" array: not a manifest");
	if (check_boots(path, boots))
		return -1;
	if (json_array_extend(rows, boots))
		return -1;
	sh = json_object_get(m, "shard");
	if (sh && !json_is_null(sh) && json_array_append(shards, sh))
		return -1;
	return 0;
}

json_t *nsb_manifest_merge(char **files, int n)
{
	json_t *first = NULL, *rows = json_array(), *shards = json_array();
	json_t **sorted = NULL, *boots = json_array();
	size_t i, nb;

	for (int k = 0; k < n; k++) {
		json_t *m = nsb_json_load(files[k]);

		if (!m || !json_is_object(m) ||
		    take_shard(files[k], m, rows, shards)) {
			if (m && !json_is_object(m))
				nsb_bad(files[k], "not a JSON object");
			json_decref(m);
			goto fail;
		}
		if (!first)
			first = m;
		else
			json_decref(m);
	}
	nb = json_array_size(rows);
	sorted = calloc(nb + 1, sizeof(*sorted));
	if (!sorted || !first)
		goto fail;
	for (i = 0; i < nb; i++)
		sorted[i] = json_array_get(rows, i);
	qsort(sorted, nb, sizeof(*sorted), by_boot);
	for (i = 0; i < nb; i++)
		json_array_append(boots, sorted[i]);
	json_object_del(first, "shard");
	json_object_set_new(first, "boots", boots);
	json_object_set_new(first, "shards", shards);
	free(sorted);
	json_decref(rows);
	return first;
fail:
	free(sorted);
	json_decref(first);
	json_decref(rows);
	json_decref(shards);
	json_decref(boots);
	return NULL;
}
