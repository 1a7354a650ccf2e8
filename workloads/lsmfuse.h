/* SPDX-License-Identifier: GPL-2.0 */
/* lsmfuse.h — a minimal labelling FUSE server (see lsmfuse.c). */
#ifndef NSB_WORKLOADS_LSMFUSE_H
#define NSB_WORKLOADS_LSMFUSE_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Mounts the server's filesystem on dir: files "f*" whose xattr named
 * xattr is label.  Returns 0 with *server its pid (it exits when the
 * mount goes), or -errno.
 */
int nsb_fuse_mount(const char *dir, const char *xattr, const char *label,
		   pid_t *server);

/*
 * One mount and umount of the server's filesystem on dir (a new
 * superblock, so the LSM decides its labelling anew), served by a thread
 * of this process.  0 or -errno.
 */
int nsb_fuse_mount_cycle(const char *dir, const char *xattr,
			 const char *label);

/*
 * The server's read buffer and its size: its address's low byte is
 * 0x80, so the kernel's header copy into it takes one path whatever the
 * request's address (lsmfuse.c).  One buffer: one server per process.
 */
char *nsb_fuse_read_buf(size_t *size);
/*
 * Where replies' arguments are built, and its size: low byte 0x78, so
 * the kernel's copy out of it takes one path into any 8-aligned
 * destination (lsmfuse.c).
 */
void *nsb_fuse_reply_arg(size_t *size);

#endif /* NSB_WORKLOADS_LSMFUSE_H */
