// SPDX-License-Identifier: GPL-2.0
/*
 * stamp.c — the host's values into a guest's results files, in place
 * (stamp.h).
 *
 * A guest cannot know which side of an A/B it is, which boot, or how the
 * host built its kernel: it writes placeholders (@SIDE@, @BOOT@, ...) and
 * the host fills them in after the boot (guest/run-qemu.sh).  This is that
 * step, in C with jansson rather than sed or jq in shell: every value stays
 * data, a file that is not JSON is refused by name, and each file is
 * rewritten atomically (mkstemp, fsync, rename) or not at all.
 *
 * Order, whatever the order of the options: placeholders are filled, then
 * --default, then --kernel-meta, then --date, then --set (the caller's
 * last word).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "src/lib/base/nsbench.h"
#include "src/lib/io/samples.h"
#include "src/lib/io/cachesim.h"
#include "src/lib/io/stamp.h"

/* build.sh's meta.json field -> context key, set whenever it is given. */
static const struct nsb_pair kernel_keys[] = {
	{ "source", "kernel_source" },
	{ "source_commit", "kernel_source_commit" },
	{ "source_describe", "kernel_source_describe" },
	{ "series_sha256", "patch_series_sha256" },
	{ "key", "kernel_build_key" },
};

/* meta.json field -> context key, set only where the guest knew none. */
static const struct nsb_pair kernel_fallbacks[] = {
	{ "config_hash", "kernel_config_hash" },
	{ "release", "kernel_release" },
	{ "series", "patch_series" },
};

/* The --fill pair whose "@NAME@" starts at s (of n bytes), or NULL. */
static const struct nsb_pair *placeholder_at(const char *s, size_t n,
					 const struct nsb_pairs *fill)
{
	for (size_t i = 0; i < fill->n; i++) {
		size_t k = strlen(fill->p[i].key);

		if (k + 2 <= n && s[k + 1] == '@' &&
		    !memcmp(s + 1, fill->p[i].key, k))
			return &fill->p[i];
	}
	return NULL;
}

/*
 * One pass over s: each placeholder is replaced once, and a value put in is
 * never searched again (a series named "@BOOT@" stays that).  Returns the
 * result's length; writes it to out unless out is NULL (sizing pass).
 */
static size_t fill_into(const char *s, size_t len, const struct nsb_pairs *fill,
			char *out)
{
	size_t i = 0, o = 0;

	while (i < len) {
		const struct nsb_pair *p = s[i] == '@' ?
			placeholder_at(s + i, len - i, fill) : NULL;
		size_t n = p ? strlen(p->value) : 1;

		if (out)
			memcpy(out + o, p ? p->value : s + i, n);
		o += n;
		i += p ? strlen(p->key) + 2 : 1;
	}
	return o;
}

static int fill_string(json_t *str, const struct nsb_pairs *fill)
{
	const char *s = json_string_value(str);
	size_t len = json_string_length(str), n;
	char *out;
	int ret;

	if (!memchr(s, '@', len))
		return 0;
	n = fill_into(s, len, fill, NULL);
	out = malloc(n + 1);
	if (!out)
		return -1;
	fill_into(s, len, fill, out);
	ret = json_string_setn_nocheck(str, out, n);
	free(out);
	return ret;
}

/* Every string value in the document (not the keys), depth first. */
static int fill_walk(json_t *j, const struct nsb_pairs *fill)
{
	const char *key;
	json_t *v;
	size_t i;

	if (json_is_string(j))
		return fill_string(j, fill);
	if (json_is_object(j)) {
		json_object_foreach(j, key, v)
			if (fill_walk(v, fill))
				return -1;
	} else if (json_is_array(j)) {
		json_array_foreach(j, i, v)
			if (fill_walk(v, fill))
				return -1;
	}
	return 0;
}

/* What a guest writes when it could not tell. */
static bool unknown(json_t *v)
{
	const char *s = json_string_value(v);

	return !v || json_is_null(v) || (s && (!*s || !strcmp(s, "unknown")));
}

static void set_str(json_t *ctx, const char *key, const char *value)
{
	json_object_set_new(ctx, key, json_string(value));
}

static void stamp_kernel(json_t *ctx, json_t *meta)
{
	size_t i;

	for (i = 0; i < NSB_ARRAY_SIZE(kernel_keys); i++) {
		const char *s = nsb_json_str(meta, kernel_keys[i].key);

		if (s && *s)
			set_str(ctx, kernel_keys[i].value, s);
	}
	for (i = 0; i < NSB_ARRAY_SIZE(kernel_fallbacks); i++) {
		const char *s = nsb_json_str(meta, kernel_fallbacks[i].key);
		const char *key = kernel_fallbacks[i].value;

		if (s && unknown(json_object_get(ctx, key)))
			set_str(ctx, key, s);
	}
}

/* Does s match pattern, 'd' a digit, every other byte itself? */
static bool shaped(const char *s, const char *pattern)
{
	for (; *pattern; s++, pattern++)
		if (*pattern == 'd' ? !isdigit((unsigned char)*s) :
		    *s != *pattern)
			return false;
	return !*s;
}

bool nsb_stamp_date_ok(const char *s)
{
	struct tm tm = { 0 };
	const char *end = s ? strptime(s, "%Y-%m-%dT%H:%M:%S", &tm) : NULL;

	/* strptime takes "1-1-1T1:1:1" and blanks: the shape is checked */
	if (!end || end - s != 19 || !isdigit((unsigned char)s[0]) ||
	    !isdigit((unsigned char)s[18]))
		return false;
	return !strcmp(end, "Z") || shaped(end, "+dd:dd") ||
	       shaped(end, "-dd:dd");
}

/*
 * The host's date of the run.  The guest's own is its fixed clock, the
 * same in every boot: kept as guest_date (once: a file stamped again
 * keeps the guest's, not the host's of the first stamping).
 */
static void stamp_date(json_t *ctx, const char *date)
{
	json_t *guest = json_object_get(ctx, "date");

	if (!json_object_get(ctx, "guest_date") && json_is_string(guest))
		json_object_set(ctx, "guest_date", guest);
	set_str(ctx, "date", date);
}

/*
 * The file as every reader takes it (samples.c): stamp rewrote {} and
 * wrongly typed files, which every reader then refused, as if stamped
 * results.  Refused here, named, and left unchanged.
 */
static int check_results(const char *path)
{
	struct nsb_side side;
	int ret;

	/*
	 * "benchmarks": [] included: nsbench-bench writes no file when its
	 * filter matches nothing, and every reader refuses an empty one.
	 */
	nsb_side_init(&side, "stamp");
	ret = nsb_side_load(&side, path);
	nsb_side_free(&side);
	return ret;
}

int nsb_stamp_file(const char *path, const struct nsb_stamp *st)
{
	json_t *root, *ctx;
	size_t i;
	int ret = -1;

	root = nsb_json_load(path);
	if (!root)
		return -1;
	if (check_results(path)) {
		json_decref(root);
		return -1;
	}
	if (!json_is_object(root)) {
		nsb_bad(path, "not a results file (no JSON object)");
		goto out;
	}
	ctx = json_object_get(root, "context");
	if (!ctx) {
		ctx = json_object();
		json_object_set_new(root, "context", ctx);
	}
	if (!json_is_object(ctx)) {
		nsb_bad(path, "\"context\" is not an object");
		goto out;
	}
	if (fill_walk(root, &st->fill)) {
		nsb_bad(path, "out of memory filling placeholders");
		goto out;
	}
	for (i = 0; i < st->dflt.n; i++) {
		json_t *v = json_object_get(ctx, st->dflt.p[i].key);

		if (!v || json_is_null(v))
			set_str(ctx, st->dflt.p[i].key, st->dflt.p[i].value);
	}
	if (st->meta)
		stamp_kernel(ctx, st->meta);
	if (st->date)
		stamp_date(ctx, st->date);
	for (i = 0; i < st->set.n; i++)
		set_str(ctx, st->set.p[i].key, st->set.p[i].value);
	if (st->cs && nsb_cachesim_apply(st->cs, root, path))
		goto out;
	ret = nsb_json_write_atomic(path, root);
out:
	json_decref(root);
	return ret;
}
