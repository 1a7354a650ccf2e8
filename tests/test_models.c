// SPDX-License-Identifier: GPL-2.0
/*
 * test_models — the model checks' forms agree on their answers wherever
 * their semantics coincide (so the benchmarks compare equal work), over
 * randomized namespace trees, mounts and superblock lists; the fixtures
 * build what they claim.
 */
#define _LGPL_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include <urcu.h>
#include <urcu/rcuhlist.h>

#include "bench/models/kmodel.h"
#include "bench/models/nstree.h"
#include "bench/models/secattr.h"
#include "bench/models/sget.h"
#include "tests/tap.h"

#define TREE_NODES 300

/* Node 0 is init_user_ns; node i's parent is a random earlier node. */
static struct user_namespace *tree[TREE_NODES];

static void build_random_tree(unsigned int *seed)
{
	tree[0] = &init_user_ns;
	for (int i = 1; i < TREE_NODES; i++) {
		struct user_namespace *p = tree[rand_r(seed) % i];

		tree[i] = calloc(1, sizeof(*tree[i]));
		tree[i]->parent = p;
		tree[i]->level = p->level + 1;
	}
}

static void free_tree(void)
{
	for (int i = 1; i < TREE_NODES; i++)
		free(tree[i]);
}

/* Reference: the ancestor relation by explicit depth-first reasoning. */
static bool is_ancestor_or_self(const struct user_namespace *a,
				const struct user_namespace *b)
{
	while (b->level > a->level)
		b = b->parent;
	return a == b;
}

static void test_in_userns(unsigned int *seed)
{
	int agree = 0, hits = 0, pairs = 20000;

	for (int k = 0; k < pairs; k++) {
		struct user_namespace *a = tree[rand_r(seed) % TREE_NODES];
		struct user_namespace *b = tree[rand_r(seed) % TREE_NODES];
		bool want = is_ancestor_or_self(a, b);

		hits += want;
		agree += in_userns_2015(b, a) == want &&
			 in_userns_now(a, b) == want;
	}
	is_int(agree, pairs, "in_userns 2015 and now agree on %d random pairs",
	       pairs);
	ok(hits > 100 && hits < pairs - 100,
	   "the pairs mix hits (%d) and misses", hits);
}

static void test_chains(void)
{
	static const int depths[] = { 0, 1, 2, 4, 8, 16, 32 };

	for (int spread = 0; spread <= 1; spread++)
		for (int i = 0; i < 7; i++) {
			struct ns_chain c;
			const struct user_namespace *ns;
			int steps = 0;

			if (ns_chain_build(&c, &init_user_ns, depths[i], spread, 7)) {
				ok(0, "chain of depth %d builds", depths[i]);
				continue;
			}
			for (ns = ns_chain_leaf(&c); ns != &init_user_ns;
			     ns = ns->parent)
				steps++;
			ok(steps == depths[i] && ns_chain_leaf(&c)->level ==
			   depths[i], "%s chain really has depth %d",
			   spread ? "spread" : "packed", depths[i]);
			ns_chain_flush(&c);
			ns_chain_free(&c);
		}
}

static void test_mnt_may_suid(unsigned int *seed)
{
	static char ns_a, ns_b;
	struct file_system_type fs = { "tmpfs", FS_USERNS_MOUNT };
	struct cred cred = { 0 };
	struct nsproxy nsproxy = { .mnt_ns = (void *)&ns_a };
	struct task_struct task = { &cred, &nsproxy };
	int right = 0, init_agree = 0, init_total = 0, n = 5000;

	current = &task;
	for (int k = 0; k < n; k++) {
		struct user_namespace *owner = rand_r(seed) % 3 ? &init_user_ns :
					       tree[rand_r(seed) % TREE_NODES];
		struct mnt_namespace *mns = (void *)(rand_r(seed) % 4 ? &ns_a :
						     &ns_b);
		int flags = rand_r(seed) % 4 ? 0 : MNT_NOSUID;
		struct vfsmount *m = model_mount_alloc(owner, &fs, mns, flags);
		bool nosuid = flags & MNT_NOSUID, same = mns == (void *)&ns_a;

		cred.user_ns = tree[rand_r(seed) % TREE_NODES];
		right += mnt_may_suid_stock(m) == !nosuid &&
			 mnt_may_suid_2015(m) == (!nosuid && same) &&
			 mnt_may_suid_now(m) == (!nosuid && same &&
				is_ancestor_or_self(owner, cred.user_ns));
		if (owner == &init_user_ns) {
			init_total++;
			init_agree += mnt_may_suid_2015(m) == mnt_may_suid_now(m);
		}
		model_mount_free(m);
	}
	current = NULL;
	is_int(right, n, "mnt_may_suid forms give their documented answers");
	is_int(init_agree, init_total,
	       "on init-owned mounts 2015 and now agree (%d mounts)", init_total);
}

static void test_may_open_dev(unsigned int *seed)
{
	struct file_system_type ext4 = { "ext4", 0 };
	int agree = 0, n = 5000;

	for (int k = 0; k < n; k++) {
		struct user_namespace *owner = rand_r(seed) % 2 ? &init_user_ns :
					       tree[rand_r(seed) % TREE_NODES];
		struct path p = {
			model_mount_alloc(owner, &ext4, NULL,
					  rand_r(seed) % 2 ? MNT_NODEV : 0),
			NULL,
		};

		/* alloc_super sets SB_I_NODEV exactly where 2015 refused. */
		agree += may_open_dev_2015(&p) == may_open_dev_now(&p) &&
			 (!may_open_dev_now(&p) || may_open_dev_stock(&p));
		model_mount_free(p.mnt);
	}
	is_int(agree, n, "may_open_dev 2015 and SB_I_NODEV forms agree");
}

static bool key_test(struct super_block *sb, void *key)
{
	return sb->s_fs_info == key;
}

static void test_sget(unsigned int *seed)
{
	struct sb_list l;
	int agree = 0, busy_right = 0, n = 2000;
	struct user_namespace *other = tree[1 + rand_r(seed) % (TREE_NODES - 1)];

	rcu_register_thread();
	sb_list_fill(&l, 300, &init_user_ns);
	for (int k = 0; k < n; k++) {
		void *key = (void *)(long)(rand_r(seed) % 400);
		struct user_namespace *me = rand_r(seed) % 2 ? &init_user_ns : other;
		bool present = (long)key >= 1 && (long)key <= 300;
		struct super_block *spin = sget_walk_spin(&l, key_test, key, me, true);
		struct super_block *rcu = sget_walk_rcu(&l, key_test, key, me, true);
		struct super_block *stock = sget_walk_spin(&l, key_test, key, me,
							   false);

		agree += spin == rcu;
		busy_right += present ?
			(me == &init_user_ns ? spin == stock && spin->s_fs_info == key :
					       spin == SGET_EBUSY) :
			spin == NULL && stock == NULL;
	}
	sb_list_free(&l);
	rcu_unregister_thread();
	is_int(agree, n, "sget spinlock and RCU walks find the same superblock");
	is_int(busy_right, n,
	       "the s_user_ns compare gives EBUSY exactly for another owner");
}

struct churner {
	struct sb_list *l;
	atomic_bool stop;
	long cycles;
};

static void *churn(void *arg)
{
	struct churner *c = arg;
	struct super_block *sb = calloc(1, sizeof(*sb));

	sb->s_fs_info = (void *)-1L;
	rcu_register_thread();
	while (!atomic_load(&c->stop)) {
		pthread_mutex_lock(&c->l->writer_lock);
		cds_hlist_add_head_rcu(&sb->s_instances, &c->l->head);
		pthread_mutex_unlock(&c->l->writer_lock);
		pthread_mutex_lock(&c->l->writer_lock);
		cds_hlist_del_rcu(&sb->s_instances);
		pthread_mutex_unlock(&c->l->writer_lock);
		synchronize_rcu();
		c->cycles++;
	}
	rcu_unregister_thread();
	free(sb);
	return NULL;
}

/* A reader racing a writer never loses an existing superblock. */
static void test_sget_rcu_under_churn(void)
{
	struct sb_list l;
	struct churner c = { .l = &l };
	pthread_t t;
	int found = 0, n = 20000;

	rcu_register_thread();
	sb_list_fill(&l, 64, &init_user_ns);
	pthread_create(&t, NULL, churn, &c);
	for (int k = 0; k < n || !c.cycles; k++)
		found += sget_walk_rcu(&l, key_test, (void *)(long)(1 + k % 64),
				       &init_user_ns, true) != NULL;
	atomic_store(&c.stop, true);
	pthread_join(t, NULL);
	sb_list_free(&l);
	rcu_unregister_thread();
	ok(found >= n, "RCU reader found all %d keys while the writer churned", n);
}

static void test_secattr(void)
{
	static struct user_namespace child = { .parent = &init_user_ns, .level = 1 };
	int right = 0, total = 0;

	for (int lsm = LSM_SELINUX; lsm <= LSM_SMACK; lsm++)
		for (int form = FORM_STOCK; form <= FORM_NOW; form++)
			for (int owner = 0; owner <= 1; owner++) {
				struct super_block sb = {
					.s_user_ns = owner ? &child : &init_user_ns,
				};
				struct sb_security sbsec;
				struct xattr x = {
					lsm == LSM_SELINUX ? "security.selinux" :
					"security.SMACK64",
					"system_u:object_r:type9_t:s0", NULL,
				};
				struct model_inode ino = { &sb, &x, -1 };
				bool fetched, want_fetch = !owner || form == FORM_STOCK ||
					(lsm == LSM_SMACK && form == FORM_NOW);

				secattr_mount(&sb, &sbsec, lsm, form);
				fetched = secattr_instantiate(&ino, lsm, form) == 9;
				right += fetched == want_fetch;
				right += (secattr_setxattr(&ino, form) != 0) ==
					 (owner && form == FORM_2015);
				right += (secattr_permission(&ino, lsm, form) != 0) ==
					 (owner && lsm == LSM_SMACK && form == FORM_NOW);
				total += 3;
			}
	is_int(right, total, "label policies: fetch/skip, setxattr, permission");
	is_int(secattr_label_lookup("system_u:object_r:type577_t:s0"), 577,
	       "label table finds a context");
	is_int(secattr_label_lookup("unconfined_u:bogus"), -1,
	       "label table misses an unknown context");
}

int main(void)
{
	unsigned int seed = 20150715;	/* the series' posting date */

	plan_no_plan();
	build_random_tree(&seed);
	test_in_userns(&seed);
	test_chains();
	test_mnt_may_suid(&seed);
	test_may_open_dev(&seed);
	test_sget(&seed);
	test_sget_rcu_under_churn();
	test_secattr();
	free_tree();
	return done_testing();
}
