// SPDX-License-Identifier: GPL-2.0
/*
 * strbuf.c — a string that grows as text is added (strbuf.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/base/strbuf.h"

/* Room for more bytes and the NUL; false (oom set) if there is none. */
static bool grow(struct nsb_sb *sb, size_t more)
{
	size_t want, alloc;
	char *p;

	if (sb->oom)
		return false;
	if (more >= (size_t)-1 - sb->len) {
		sb->oom = true;
		return false;
	}
	want = sb->len + more + 1;
	if (want <= sb->alloc)
		return true;
	alloc = sb->alloc ? sb->alloc : 64;
	while (alloc < want)
		alloc = alloc > (size_t)-1 / 2 ? want : alloc * 2;
	p = realloc(sb->buf, alloc);
	if (!p) {
		sb->oom = true;
		return false;
	}
	sb->buf = p;
	sb->alloc = alloc;
	return true;
}

void nsb_sb_add(struct nsb_sb *sb, const char *s)
{
	size_t n = strlen(s);

	if (!grow(sb, n))
		return;
	memcpy(sb->buf + sb->len, s, n + 1);
	sb->len += n;
}

void nsb_sb_vaddf(struct nsb_sb *sb, const char *fmt, va_list ap)
{
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(NULL, 0, fmt, again);
	va_end(again);
	if (n < 0) {
		sb->oom = true;
		return;
	}
	if (!grow(sb, (size_t)n))
		return;
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void nsb_sb_addf(struct nsb_sb *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	nsb_sb_vaddf(sb, fmt, ap);
	va_end(ap);
}

const char *nsb_sb_str(const struct nsb_sb *sb)
{
	return sb->buf ? sb->buf : "";
}

void nsb_sb_reset(struct nsb_sb *sb)
{
	sb->len = 0;
	if (sb->buf)
		*sb->buf = 0;
	sb->oom = false;
}

void nsb_sb_release(struct nsb_sb *sb)
{
	free(sb->buf);
	*sb = (struct nsb_sb)NSB_SB_INIT;
}
