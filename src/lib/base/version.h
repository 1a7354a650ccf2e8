/* SPDX-License-Identifier: GPL-2.0 */
/*
 * version.h — the version nsbench stamps into results (version.c).
 */
#ifndef NSB_VERSION_H
#define NSB_VERSION_H

const char *nsb_version(void);

#endif /* NSB_VERSION_H */
