/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfctl.h — nsbench-bench --perf-control=DIR: sampling only while a
 * benchmark's timer runs, through perf record's control FIFOs.
 * See perfctl.c.
 */
#ifndef NSB_BENCH_PERFCTL_H
#define NSB_BENCH_PERFCTL_H

/*
 * Opens DIR/ctl and DIR/ack (made by the caller with mkfifo and handed
 * to `perf record -D -1 --control=fifo:DIR/ctl,DIR/ack`) and hooks the
 * shim's timer to them.  -1 after printing why.
 */
int nsb_perfctl_open(const char *dir);
/*
 * DIR/ops: the operations run while sampling was on.  -1 after printing
 * why, or if any enable/disable failed (the profile would be wrong).
 */
int nsb_perfctl_finish(void);

#endif /* NSB_BENCH_PERFCTL_H */
