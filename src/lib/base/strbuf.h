/* SPDX-License-Identifier: GPL-2.0 */
/*
 * strbuf.h — a string that grows as text is added (strbuf.c), for text
 * whose length the data decides: a chart's title, a report's field, the
 * numbers handed to gnuplot.  A fixed char[N] cut such text where N
 * fell; this one does not (git's strbuf, in small).
 *
 * A failed allocation leaves the text as it was and sets oom, which
 * stays set: a writer adds freely and checks oom once at the end.
 */
#ifndef NSB_STRBUF_H
#define NSB_STRBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

struct nsb_sb {
	char *buf;		/* NULL until text is added */
	size_t len, alloc;
	bool oom;		/* an add failed; the text lacks it */
};

#define NSB_SB_INIT	{ NULL, 0, 0, false }

void nsb_sb_add(struct nsb_sb *sb, const char *s);
void nsb_sb_addf(struct nsb_sb *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void nsb_sb_vaddf(struct nsb_sb *sb, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* The text; "" while empty, never NULL. */
const char *nsb_sb_str(const struct nsb_sb *sb);
/* Empty again, its memory kept for the next text. */
void nsb_sb_reset(struct nsb_sb *sb);
/* Its memory freed; NSB_SB_INIT again. */
void nsb_sb_release(struct nsb_sb *sb);

#endif /* NSB_STRBUF_H */
