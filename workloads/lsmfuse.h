/* SPDX-License-Identifier: GPL-2.0 */
/* lsmfuse.h — a minimal labelling FUSE server (see lsmfuse.c). */
#ifndef NSB_WORKLOADS_LSMFUSE_H
#define NSB_WORKLOADS_LSMFUSE_H

#include <sys/types.h>

/*
 * Mounts the server's filesystem on dir: files "f*" whose xattr named
 * xattr is label.  Returns 0 with *server its pid (it exits when the
 * mount goes), or -errno.
 */
int nsb_fuse_mount(const char *dir, const char *xattr, const char *label,
		   pid_t *server);

#endif /* NSB_WORKLOADS_LSMFUSE_H */
