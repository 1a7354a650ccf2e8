/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nstree.h — chains of model user namespaces below a root, for the
 * in_userns() walk: node[0] is the root, node[depth] the leaf.
 */
#ifndef NSB_NSTREE_H
#define NSB_NSTREE_H

#include <stdbool.h>
#include <stddef.h>

#include "bench/models/kmodel.h"

struct ns_chain {
	int depth;
	struct user_namespace **node;	/* depth + 1 entries */
	void *pages;			/* spread mode: one mapping */
	size_t pages_len;
};

/*
 * Builds depth namespaces below root.  spread: each node on a page of its
 * own, pages in shuffled order (seeded), so a cold walk takes a cache and
 * TLB miss per step as in a kernel whose namespaces were allocated over
 * time; otherwise plain malloc.  Returns 0 or -1.
 */
int ns_chain_build(struct ns_chain *c, struct user_namespace *root,
		   int depth, bool spread, unsigned int seed);
void ns_chain_free(struct ns_chain *c);
/* Evicts the cache lines a walk reads (clflush), then fences. */
void ns_chain_flush(const struct ns_chain *c);

static inline struct user_namespace *ns_chain_leaf(const struct ns_chain *c)
{
	return c->node[c->depth];
}

#endif /* NSB_NSTREE_H */
