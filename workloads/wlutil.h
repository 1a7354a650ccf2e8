/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wlutil.h — small process and namespace helpers of the fixture library.
 */
#ifndef NSB_WORKLOADS_WLUTIL_H
#define NSB_WORKLOADS_WLUTIL_H

#include <sys/types.h>

#include "src/lib/base/base.h"

/* Sleeps us microseconds, on through signals. */
void nsb_sleep_us(unsigned long us);

/* PR_SET_PDEATHSIG(SIGKILL); exits at once if the parent is gone. */
void nsb_die_with_parent(void);
/* Maps 0..65535 to 0..65535 in pid's (new) user namespace. */
int nsb_write_maps(pid_t pid);
/* SOCK_SEQPACKET messages: an int, optionally with an fd (SCM_RIGHTS). */
int nsb_send_int(int sock, int v);
int nsb_recv_int(int sock);		/* the int, or -EPIPE */
int nsb_send_fd(int sock, int fd);
/* The fd; or -1 with *err the int the peer sent instead (-errno). */
int nsb_recv_fd(int sock, int *err);
/* 1 if fd's mount is in the caller's mount namespace, 0 if not, -1 error. */
int nsb_mount_in_my_ns(int fd);
/* ioctl(NS_GET_PARENT): a new fd, or -1 with errno (EPERM at the top). */
int nsb_ns_get_parent(int fd);

/*
 * 1 if pid's mount namespace is owned by pid's own user namespace
 * (NS_GET_USERNS), 0 if not, -1 on error.
 */
int nsb_mntns_owned_by_userns(pid_t pid);

#endif /* NSB_WORKLOADS_WLUTIL_H */
