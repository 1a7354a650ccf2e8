/* SPDX-License-Identifier: GPL-2.0 */
/*
 * context.h — the provenance context of a run (context.c; see
 * results/README.md).
 */
#ifndef NSB_CONTEXT_H
#define NSB_CONTEXT_H

struct nsb_run_info {
	const char *label;	/* "native-quick" */
	const char *mode;	/* native | kvm | tcg | icount */
	const char *tier;	/* quick | full */
	const char *series;	/* patch series, "none" natively */
	const char *config_hash;/* NULL: computed from /proc/config.gz or /boot */
	const char *round, *seed, *boot, *side;	/* A/B only, else NULL */
};
/* Calls add(key, value) for each nsbench context key. */
void nsb_context_collect(const struct nsb_run_info *info,
			 void (*add)(const char *key, const char *value));
/* results/<UTC>-<host>-<label>.json under dir; returns malloc'd path. */
char *nsb_results_path(const char *dir, const char *label);

#endif /* NSB_CONTEXT_H */
