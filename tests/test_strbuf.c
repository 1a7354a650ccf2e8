// SPDX-License-Identifier: GPL-2.0
/*
 * test_strbuf.c — the growing string of src/lib/base/strbuf.c: text
 * longer than any fixed buffer it replaced comes back whole, an empty
 * one reads "", reset keeps its memory, and a failed add is sticky.
 */
#include <stdlib.h>
#include <string.h>

#include "src/lib/base/strbuf.h"
#include "tests/tap.h"

int main(void)
{
	struct nsb_sb sb = NSB_SB_INIT;
	size_t i, alloc;
	bool whole = true;

	plan_no_plan();
	ok(!strcmp(nsb_sb_str(&sb), "") && !sb.buf, "empty: \"\", no memory");

	/* 20,000 bytes: past the 8192 of the charts' numbers it replaced */
	for (i = 0; i < 2000; i++)
		nsb_sb_addf(&sb, "%04zu-6789\n", i);
	ok(sb.len == 20000 && strlen(nsb_sb_str(&sb)) == 20000 && !sb.oom,
	   "20000 bytes added by addf, all there (len %zu)", sb.len);
	for (i = 0; i < 2000 && whole; i++) {
		char want[11];

		snprintf(want, sizeof(want), "%04zu-6789\n", i);
		whole = !memcmp(sb.buf + 10 * i, want, 10);
	}
	ok(whole, "in order, none cut");

	alloc = sb.alloc;
	nsb_sb_reset(&sb);
	nsb_sb_add(&sb, "a");
	nsb_sb_add(&sb, "");
	nsb_sb_addf(&sb, "%s%d", "b", 1);
	ok(!strcmp(nsb_sb_str(&sb), "ab1") && sb.alloc == alloc,
	   "reset: empty, memory kept; add and addf append");

	sb.oom = true;
	nsb_sb_add(&sb, "lost");
	ok(!strcmp(nsb_sb_str(&sb), "ab1"), "after a failed add, no more");
	nsb_sb_release(&sb);
	ok(!sb.buf && !sb.len && !sb.alloc && !sb.oom, "release: INIT again");
	return done_testing();
}
