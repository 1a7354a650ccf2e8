// SPDX-License-Identifier: GPL-2.0
/*
 * test_lsmfuse.c — the labelling FUSE server's buffers.  x86's memcpy
 * (memcpy_orig) copies 32 bytes or more backward when the source's low
 * byte, as a signed number, is less than the destination's, 4 insn
 * dearer; the kernel picks its own side of each FUSE copy from a slab
 * slot that follows the boot (lsmfuse.c).  The read buffer (destination
 * of each request header) sits at low byte 0x80, the least there is; the
 * replies' arguments (sources of the kernel's copies into its 8-aligned
 * out arguments) at 0x78, the greatest 8-aligned one.
 */
#include <stdbool.h>
#include <stdint.h>
#include <linux/fuse.h>

#include "tests/tap.h"
#include "workloads/lsmfuse.h"

/* memcpy_orig's test: backward when (s8)src < (s8)dst */
static bool backward(uintptr_t src, uintptr_t dst)
{
	return (int8_t)(uint8_t)src < (int8_t)(uint8_t)dst;
}

int main(void)
{
	size_t size = 0, again = 0, asize = 0;
	char *buf = nsb_fuse_read_buf(&size);
	uintptr_t arg = (uintptr_t)nsb_fuse_reply_arg(&asize);
	unsigned int low, back_in = 0, back_out = 0;

	plan_no_plan();
	is_int((uintptr_t)buf & 0xff, 0x80,
	       "the read buffer's low byte is 0x80 (-128 as memcpy compares)");
	ok(size >= FUSE_MIN_READ_BUFFER + 65536,
	   "it holds FUSE_MIN_READ_BUFFER + 64 KiB (%zu)", size);
	ok(nsb_fuse_read_buf(&again) == buf && again == size,
	   "one buffer, the same on every call");
	for (low = 0; low < 256; low++)
		back_in += backward(low, (uintptr_t)buf);
	is_int(back_in, 0, "a header copy into it runs forward from any slot");

	is_int(arg & 0xff, 0x78, "replies' arguments start at low byte 0x78");
	ok(asize >= sizeof(struct fuse_entry_out) &&
	   asize >= sizeof(struct fuse_init_out) &&
	   asize >= sizeof(struct fuse_statfs_out),
	   "the area holds the largest reply argument (%zu)", asize);
	for (low = 0; low < 256; low += 8)
		back_out += backward(arg, low);
	is_int(back_out, 0,
	       "a copy out of it runs forward into any 8-aligned destination");
	ok(backward(arg, 0x79) && !backward(arg + 7, 0x7f),
	   "the check can fail: 0x78 into 0x79 runs backward, 0x7f does not");
	return done_testing();
}
