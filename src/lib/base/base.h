/* SPDX-License-Identifier: GPL-2.0 */
/*
 * base.h — the few definitions every C part of nsbench shares (the
 * command and its library, nsbench-bench, the workloads, the C tests),
 * with no include of its own: a part that needs only these does not pull
 * in the library's headers.  nsbench.h includes it.
 */
#ifndef NSB_BASE_H
#define NSB_BASE_H

#define NSB_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif /* NSB_BASE_H */
