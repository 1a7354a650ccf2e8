// SPDX-License-Identifier: GPL-2.0
/*
 * cachemodel.c — set-associative LRU caches and the I1/D1/LL hierarchy
 * (see cachemodel.h).  Each set keeps its ways in recency order, most
 * recent first: a hit moves its way to the front, a miss drops the last
 * (the least recently used) and puts the new line in front.  With 8 or
 * 16 ways that is a short memmove, and the order is the LRU state itself.
 * The accesses themselves are inline, in cachemodel.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "guest/plugin/cachemodel.h"

static bool pow2(unsigned int v)
{
	return v && !(v & (v - 1));
}

static unsigned int log2u(unsigned int v)
{
	unsigned int s = 0;

	while (v >>= 1)
		s++;
	return s;
}

int nsb_cache_geom_parse(const char *s, struct nsb_cache_geom *g,
			 const char **why)
{
	unsigned long v[3];
	char *end;
	int i;

	for (i = 0; i < 3; i++) {
		errno = 0;
		if (*s < '0' || *s > '9')
			goto bad;
		v[i] = strtoul(s, &end, 10);
		if (errno || v[i] == 0 || v[i] > (1ul << 30))
			goto bad;
		if (i < 2 && *end != ':')
			goto bad;
		s = end + (i < 2);
	}
	if (*end)
		goto bad;
	*g = (struct nsb_cache_geom){ v[0], v[1], v[2] };
	return 0;
bad:
	*why = "want SIZE:ASSOC:LINE: three decimal numbers of bytes, ways "
	       "and bytes, each 1 to 2^30";
	return -1;
}

int nsb_cache_init(struct nsb_cache *c, const struct nsb_cache_geom *g,
		   const char **why)
{
	memset(c, 0, sizeof(*c));
	if (!pow2(g->line) || g->line < 4) {
		*why = "the line size must be a power of two of 4 bytes or more";
		return -1;
	}
	if (!g->assoc || g->size % ((unsigned long)g->assoc * g->line)) {
		*why = "the size must be a multiple of ways x line size";
		return -1;
	}
	c->sets = g->size / (g->assoc * g->line);
	if (!pow2(c->sets)) {
		*why = "size / (ways x line size), the number of sets, must be "
		       "a power of two";
		return -1;
	}
	c->size = g->size;
	c->assoc = g->assoc;
	c->line = g->line;
	c->line_shift = log2u(g->line);
	c->tags = calloc((size_t)c->sets * c->assoc, sizeof(*c->tags));
	c->set_gen = calloc(c->sets, sizeof(*c->set_gen));
	if (!c->tags || !c->set_gen) {
		nsb_cache_free(c);
		*why = "out of memory";
		return -1;
	}
	return 0;
}

void nsb_cache_free(struct nsb_cache *c)
{
	free(c->tags);
	free(c->set_gen);
	c->tags = NULL;
	c->set_gen = NULL;
}

void nsb_cache_flush(struct nsb_cache *c)
{
	/* after 2^32 flushes a stale generation could match: clear all */
	if (++c->gen == 0) {
		memset(c->tags, 0, (size_t)c->sets * c->assoc *
		       sizeof(*c->tags));
		memset(c->set_gen, 0, c->sets * sizeof(*c->set_gen));
	}
}

int nsb_hier_init(struct nsb_hier *h, const struct nsb_cache_geom *i1,
		  const struct nsb_cache_geom *d1,
		  const struct nsb_cache_geom *ll, const char **why)
{
	memset(h, 0, sizeof(*h));
	if (nsb_cache_init(&h->i1, i1, why))
		return -1;
	if (nsb_cache_init(&h->d1, d1, why))
		goto free_i1;
	if (nsb_cache_init(&h->ll, ll, why))
		goto free_d1;
	return 0;
free_d1:
	nsb_cache_free(&h->d1);
free_i1:
	nsb_cache_free(&h->i1);
	return -1;
}

void nsb_hier_free(struct nsb_hier *h)
{
	nsb_cache_free(&h->i1);
	nsb_cache_free(&h->d1);
	nsb_cache_free(&h->ll);
}

void nsb_hier_flush(struct nsb_hier *h)
{
	nsb_cache_flush(&h->i1);
	nsb_cache_flush(&h->d1);
	nsb_cache_flush(&h->ll);
}
