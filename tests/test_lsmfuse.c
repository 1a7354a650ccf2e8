// SPDX-License-Identifier: GPL-2.0
/*
 * test_lsmfuse.c — the labelling FUSE server's read buffer: its low
 * byte is 0x80, so the kernel's memcpy of each request header into it
 * takes one direction from every slot of the fuse_request slab
 * (lsmfuse.c), and it holds the largest request the kernel may send.
 */
#include <stdint.h>
#include <linux/fuse.h>

#include "tests/tap.h"
#include "workloads/lsmfuse.h"

int main(void)
{
	size_t size = 0, again = 0;
	char *buf = nsb_fuse_read_buf(&size);

	plan_no_plan();
	is_int((uintptr_t)buf & 0xff, 0x80,
	       "the read buffer's low byte is 0x80 (-128 as memcpy compares)");
	ok(size >= FUSE_MIN_READ_BUFFER + 65536,
	   "it holds FUSE_MIN_READ_BUFFER + 64 KiB (%zu)", size);
	ok(nsb_fuse_read_buf(&again) == buf && again == size,
	   "one buffer, the same on every call");
	return done_testing();
}
