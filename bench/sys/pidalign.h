/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pidalign.h — the pid counter put at the start of a block of pids before
 * a benchmark (nsbench-bench --pid-align=N; pidalign.c says why).
 */
#ifndef NSB_BENCH_SYS_PIDALIGN_H
#define NSB_BENCH_SYS_PIDALIGN_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * Whether a fork that got pid after one that got prev leaves the counter
 * at the start of a block of n pids: pid is the block's last, or pid is
 * in another block than prev (the last pids of prev's were taken, or the
 * counter wrapped).
 */
bool nsb_pid_block_ends(pid_t prev, pid_t pid, unsigned int n);

/*
 * Forks children that exit at once, and reaps them, until the last pid
 * handed out ends a block of n (n >= 2), so that the next fork starts
 * the next block; or, where that block's first pids are taken, until
 * the counter is past them.  At least one fork.  Returns the last pid
 * handed out, or -errno.
 */
pid_t nsb_pid_align(unsigned int n);

#endif /* NSB_BENCH_SYS_PIDALIGN_H */
