/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sget.h — the model fs_type->fs_supers list and its two lookups, shared
 * by the benchmark and the tests.
 */
#ifndef NSB_SGET_H
#define NSB_SGET_H

#include <pthread.h>
#include <stdbool.h>

#include <urcu/hlist.h>

#include "bench/models/kmodel.h"

struct sb_list {
	pthread_spinlock_t lock;	/* sb_lock */
	pthread_mutex_t writer_lock;	/* RCU variant: writers only */
	struct cds_hlist_head head;
};

/* ERR_PTR(-EBUSY): the key's superblock belongs to another userns. */
#define SGET_EBUSY ((struct super_block *)-16L)

typedef struct super_block *(*sget_walk_fn)(struct sb_list *l,
		bool (*test)(struct super_block *, void *), void *key,
		struct user_namespace *user_ns, bool userns_check);

struct super_block *sget_walk_spin(struct sb_list *l,
				   bool (*test)(struct super_block *, void *),
				   void *key, struct user_namespace *user_ns,
				   bool userns_check);
/* Callers must be registered RCU reader threads. */
struct super_block *sget_walk_rcu(struct sb_list *l,
				  bool (*test)(struct super_block *, void *),
				  void *key, struct user_namespace *user_ns,
				  bool userns_check);

/* n superblocks with keys (s_fs_info) 1..n owned by @owner. */
int sb_list_fill(struct sb_list *l, int n, struct user_namespace *owner);
void sb_list_free(struct sb_list *l);

#endif /* NSB_SGET_H */
