/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stamp.h — the host's values into a guest's results files, in place: a
 * guest writes placeholders (@SIDE@, @BOOT@, ...) the host fills after the
 * boot.  Placeholders are filled, then the defaults, then the kernel's
 * meta.json, then the host's date, then the values set (the caller's last
 * word).
 */
#ifndef NSB_STAMP_H
#define NSB_STAMP_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#define NSB_STAMP_MAX_PAIRS 64

struct nsb_pair {
	const char *key, *value;
};

struct nsb_pairs {
	struct nsb_pair p[NSB_STAMP_MAX_PAIRS];
	size_t n;
};

struct nsb_cachesim;

/* --fill, --default, --set; --kernel-meta; --date; --cachesim */
struct nsb_stamp {
	struct nsb_pairs fill, dflt, set;
	json_t *meta;		/* build.sh's meta.json, or NULL */
	/*
	 * The run's date from the host's clock, or NULL.  A guest runs a
	 * fixed clock (the same image gives the same numbers), so its own
	 * "date" is that fixed instant: kept as guest_date, and date is
	 * this one.  Applied before --set.
	 */
	const char *date;
	struct nsb_cachesim *cs;	/* the cache model's records, or NULL */
};

/* Is s a date the readers take: YYYY-MM-DDTHH:MM:SS, then Z or +-HH:MM? */
bool nsb_stamp_date_ok(const char *s);

/* One file stamped, rewritten atomically or not at all; 0 or -1 (named). */
int nsb_stamp_file(const char *path, const struct nsb_stamp *st);

#endif /* NSB_STAMP_H */
