// SPDX-License-Identifier: GPL-2.0
/*
 * nstree.c — model user-namespace chains (see nstree.h).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "bench/models/nstree.h"

#define PAGE 4096

/* Fisher-Yates with rand_r: deterministic for a seed. */
static void shuffle(int *v, int n, unsigned int *seed)
{
	for (int i = n - 1; i > 0; i--) {
		int j = rand_r(seed) % (i + 1), t = v[i];

		v[i] = v[j];
		v[j] = t;
	}
}

static struct user_namespace *node_in_page(char *pages, int page,
					   unsigned int *seed)
{
	/* A random cache-line offset, so nodes do not all alias one set. */
	size_t lines = (PAGE - sizeof(struct user_namespace)) / 64;

	return (void *)(pages + (size_t)page * PAGE +
			(size_t)(rand_r(seed) % (lines + 1)) * 64);
}

int ns_chain_build(struct ns_chain *c, struct user_namespace *root,
		   int depth, bool spread, unsigned int seed)
{
	int *order = NULL;

	memset(c, 0, sizeof(*c));
	c->depth = depth;
	c->node = calloc(depth + 1, sizeof(*c->node));
	if (!c->node)
		return -1;
	c->node[0] = root;
	if (spread && depth) {
		c->pages_len = (size_t)depth * PAGE;
		c->pages = mmap(NULL, c->pages_len, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		order = malloc(depth * sizeof(*order));
		if (c->pages == MAP_FAILED || !order) {
			c->pages = NULL;
			free(order);
			ns_chain_free(c);
			return -1;
		}
		for (int i = 0; i < depth; i++)
			order[i] = i;
		shuffle(order, depth, &seed);
	}
	for (int i = 1; i <= depth; i++) {
		struct user_namespace *ns;

		ns = order ? node_in_page(c->pages, order[i - 1], &seed) :
			     calloc(1, sizeof(*ns));
		if (!ns) {
			ns_chain_free(c);
			return -1;
		}
		memset(ns, 0, sizeof(*ns));
		ns->parent = c->node[i - 1];
		ns->level = c->node[i - 1]->level + 1;
		c->node[i] = ns;
	}
	free(order);
	return 0;
}

void ns_chain_free(struct ns_chain *c)
{
	if (!c->node)
		return;
	if (c->pages)
		munmap(c->pages, c->pages_len);
	else
		for (int i = 1; i <= c->depth; i++)
			free(c->node[i]);
	free(c->node);
	memset(c, 0, sizeof(*c));
}

void ns_chain_flush(const struct ns_chain *c)
{
	for (int i = 1; i <= c->depth; i++)
		__builtin_ia32_clflush(&c->node[i]->parent);
	__builtin_ia32_mfence();
}
