/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hyperfine.h — hyperfine's --export-json output as nsbench results
 * (results/README.md), so whole-process workloads reach compare, report
 * and plot in the one format.
 */
#ifndef NSB_HYPERFINE_H
#define NSB_HYPERFINE_H

#include <jansson.h>

struct nsb_run_info;

/*
 * The results of hyperfine's file in: one "iteration" entry per run,
 * named <prefix>/<command>[/<param>:<value>...], the context of info
 * (and this host and date).  NULL after "nsbench: in: why" on stderr.
 */
json_t *nsb_hyperfine_import(const char *in, const char *prefix,
			     const struct nsb_run_info *info);

#endif /* NSB_HYPERFINE_H */
