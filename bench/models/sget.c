// SPDX-License-Identifier: GPL-2.0
/*
 * sget — the superblock list walk of every mount of a keyed filesystem
 * (mqueue per IPC namespace, proc per PID namespace): sget_fc() walks
 * fs_type->fs_supers under sb_lock calling test() on each superblock, and
 * since the series compares s_user_ns on the one it finds.
 *
 *	models/sget/<spin|rcu>/<stock|now>/<hit|miss>/supers:N/writers:W
 *
 * spin: 6.1's global spinlock; rcu: the same walk as a liburcu RCU reader
 * (the reviewer's question: would RCU make it cheaper under contention?).
 * stock: no s_user_ns compare; now: the compare on the found superblock.
 * miss: the key is not on the list (a mount in a new IPC namespace, the
 * full walk); hit: it sits in the middle (a second mount of an existing
 * one).  writers: 0, or 1 thread churning mounts/umounts on the list.
 */
#define _LGPL_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include <urcu.h>
#include <urcu/rcuhlist.h>

#include "bench/gbench.h"
#include "bench/registry.h"
#include "bench/models/kmodel.h"
#include "bench/models/sget.h"

static bool test_keyed_super(struct super_block *sb, void *key)
{
	return sb->s_fs_info == key;
}

/* 6.1 sget_fc()'s lookup half; returns the superblock, NULL, or EBUSY. */
__attribute__((noinline))
struct super_block *sget_walk_spin(struct sb_list *l,
				   bool (*test)(struct super_block *, void *),
				   void *key, struct user_namespace *user_ns,
				   bool userns_check)
{
	struct super_block *old;

	pthread_spin_lock(&l->lock);
	cds_hlist_for_each_entry_2(old, &l->head, s_instances) {
		if (test(old, key))
			goto share_extant_sb;
	}
	pthread_spin_unlock(&l->lock);
	return NULL;

share_extant_sb:
	if (userns_check && user_ns != old->s_user_ns) {
		pthread_spin_unlock(&l->lock);
		return SGET_EBUSY;
	}
	old->s_count++;				/* grab_super() */
	pthread_spin_unlock(&l->lock);
	return old;
}

/* The same lookup as an RCU reader; the caller is a registered thread. */
__attribute__((noinline))
struct super_block *sget_walk_rcu(struct sb_list *l,
				  bool (*test)(struct super_block *, void *),
				  void *key, struct user_namespace *user_ns,
				  bool userns_check)
{
	struct super_block *old, *found = NULL;

	rcu_read_lock();
	cds_hlist_for_each_entry_rcu_2(old, &l->head, s_instances) {
		if (test(old, key)) {
			found = old;
			break;
		}
	}
	if (found && userns_check && user_ns != found->s_user_ns)
		found = SGET_EBUSY;
	else if (found)		/* grab_super(): atomic_inc_not_zero */
		__atomic_fetch_add(&found->s_count, 1, __ATOMIC_RELAXED);
	rcu_read_unlock();
	return found;
}

static struct super_block *sb_new(long key, struct user_namespace *owner)
{
	struct super_block *sb = calloc(1, sizeof(*sb));

	if (sb) {
		sb->s_fs_info = (void *)key;
		sb->s_user_ns = owner;
	}
	return sb;
}

int sb_list_fill(struct sb_list *l, int n, struct user_namespace *owner)
{
	pthread_spin_init(&l->lock, PTHREAD_PROCESS_PRIVATE);
	pthread_mutex_init(&l->writer_lock, NULL);
	CDS_INIT_HLIST_HEAD(&l->head);
	/* Keys 1..n, so key k sits at position n - k from the head. */
	for (long k = 1; k <= n; k++) {
		struct super_block *sb = sb_new(k, owner);

		if (!sb)
			return -1;
		cds_hlist_add_head_rcu(&sb->s_instances, &l->head);
	}
	return 0;
}

void sb_list_free(struct sb_list *l)
{
	struct super_block *sb;
	struct cds_hlist_node *pos, *next;

	cds_hlist_for_each_safe(pos, next, &l->head) {
		sb = caa_container_of(pos, struct super_block, s_instances);
		free(sb);
	}
	CDS_INIT_HLIST_HEAD(&l->head);
	pthread_spin_destroy(&l->lock);
	pthread_mutex_destroy(&l->writer_lock);
}

struct churn {
	struct sb_list *list;
	bool rcu;
	atomic_bool stop;
	long cycles;
};

/* The work of a mount outside the lock (~1 µs of allocation, fill_super). */
static void mount_work(void)
{
	for (volatile int i = 0; i < 300; i++)
		;
}

static void churn_once(struct churn *c, struct super_block *sb)
{
	struct sb_list *l = c->list;

	if (c->rcu) {
		pthread_mutex_lock(&l->writer_lock);
		cds_hlist_add_head_rcu(&sb->s_instances, &l->head);
		pthread_mutex_unlock(&l->writer_lock);
		mount_work();
		pthread_mutex_lock(&l->writer_lock);
		cds_hlist_del_rcu(&sb->s_instances);
		pthread_mutex_unlock(&l->writer_lock);
		synchronize_rcu();	/* before the superblock is reused */
	} else {
		pthread_spin_lock(&l->lock);
		cds_hlist_add_head(&sb->s_instances, &l->head);
		pthread_spin_unlock(&l->lock);
		mount_work();
		pthread_spin_lock(&l->lock);
		cds_hlist_del(&sb->s_instances);
		pthread_spin_unlock(&l->lock);
	}
	mount_work();
}

static void *churn_thread(void *arg)
{
	struct churn *c = arg;
	struct super_block *sb = sb_new(-1, &init_user_ns);

	if (!sb)
		return NULL;
	rcu_register_thread();
	while (!atomic_load_explicit(&c->stop, memory_order_relaxed)) {
		churn_once(c, sb);
		c->cycles++;
	}
	rcu_unregister_thread();
	free(sb);
	return NULL;
}

struct variant {
	const char *name;
	bool rcu, userns_check, hit;
};

static void run(struct gb_state *s, const struct variant *v)
{
	int n = gb_range(s, 0), writers = gb_range(s, 1);
	long key = v->hit ? (n + 1) / 2 : n + 1;
	struct churn churn = { .rcu = v->rcu };
	struct sb_list list;
	pthread_t writer;
	bool writing = false;
	sget_walk_fn walk = v->rcu ? sget_walk_rcu : sget_walk_spin;

	if (sb_list_fill(&list, n, &init_user_ns)) {
		gb_error(s, "out of memory");
		goto out;
	}
	rcu_register_thread();
	churn.list = &list;
	if (writers && pthread_create(&writer, NULL, churn_thread, &churn)) {
		gb_error(s, "cannot start the writer thread");
		goto out_rcu;
	}
	writing = writers;
	if ((walk(&list, test_keyed_super, (void *)key, &init_user_ns,
		  v->userns_check) != NULL) != v->hit) {
		gb_error(s, "fixture: key %ld not %s", key,
			 v->hit ? "found" : "missing");
		goto out_rcu;
	}
	gb_for_each_iteration(s)
		gb_do_not_optimize(walk(&list, test_keyed_super, (void *)key,
					&init_user_ns, v->userns_check));
	gb_set_items_processed(s, gb_iterations(s));
out_rcu:
	if (writing) {
		atomic_store(&churn.stop, true);
		pthread_join(writer, NULL);
		gb_counter(s, "writer_cycles", churn.cycles, GB_COUNTER_RATE);
	}
	rcu_unregister_thread();
out:
	sb_list_free(&list);
}

/* The family as data: one body, one row per variant. */
static const struct variant variants[] = {
	{ "spin/stock/hit", false, false, true },
	{ "spin/stock/miss", false, false, false },
	{ "spin/now/hit", false, true, true },
	{ "spin/now/miss", false, true, false },
	{ "rcu/stock/hit", true, false, true },
	{ "rcu/stock/miss", true, false, false },
	{ "rcu/now/hit", true, true, true },
	{ "rcu/now/miss", true, true, false },
};

static void bm(struct gb_state *s)
{
	run(s, gb_data(s));
}

void nsb_register_sget(enum nsb_tier tier)
{
	static const int64_t full_n[] = { 1, 8, 64, 512, 4096 };
	static const int64_t quick_n[] = { 1, 64, 4096 };
	struct nsb_sweep ns = tier == NSB_TIER_FULL ? NSB_SWEEP(full_n) :
						      NSB_SWEEP(quick_n);

	for (size_t i = 0; i < NSB_ARRAY_SIZE(variants); i++) {
		struct gb_bench *b = nsb_register_model("sget",
							variants[i].name, bm,
							&variants[i]);

		gb_arg_names(b, "supers", "writers", NULL);
		for (size_t k = 0; k < ns.n; k++)
			for (int64_t w = 0; w <= 1; w++) {
				int64_t args[2] = { ns.v[k], w };

				gb_args(b, 2, args);
			}
	}
}
