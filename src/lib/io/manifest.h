/* SPDX-License-Identifier: GPL-2.0 */
/*
 * manifest.h — the manifest.json of a kernel A/B run (scripts/ab.sh):
 * the run's settings, each side's kernel (its meta.json) and a row per
 * boot; or the shards' manifests merged into one.
 */
#ifndef NSB_MANIFEST_H
#define NSB_MANIFEST_H

#include <stdbool.h>

#include <jansson.h>

struct nsb_manifest_opts {
	const char *date, *mode, *plan, *append, *cmdline, *initramfs;
	const char *audit, *shard, *host_command, *kernel_a, *kernel_b;
	const char *boots;	/* "BOOT ROUND SEED SIDE" a line */
	const char *boots_dir;	/* the boots' directories */
	unsigned long rounds;
	bool aa, checks;
};

/*
 * A kernel's meta.json (scripts/kernel/build.sh): an object naming the
 * kernel; NULL after saying why, the file named.
 */
json_t *nsb_kernel_meta_load(const char *path);
/* The manifest of one run (or shard); NULL after why, named. */
json_t *nsb_manifest(const struct nsb_manifest_opts *o);
/* The first manifest, with every shard's boots sorted and their names. */
json_t *nsb_manifest_merge(char **files, int n);

#endif /* NSB_MANIFEST_H */
