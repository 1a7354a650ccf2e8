/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cachemodel.h — the cache model of the cache-model plugin, apart from
 * QEMU so the tests drive it with a hand-worked trace.
 *
 * Like Cachegrind's: an I1 and a D1 in front of one unified last-level
 * cache (LL), each set-associative with true LRU replacement, write-
 * allocate, no prefetcher, no TLB, one core.  Addresses are physical (the
 * plugin gives guest physical addresses), so the LL's sets are those of
 * the real hardware.  An access that crosses a line boundary touches
 * both lines, as Cachegrind counts it.  Misses count per level: an
 * access that misses D1 and LL is one D1 miss and one LL miss.
 */
#ifndef NSB_GUEST_PLUGIN_CACHEMODEL_H
#define NSB_GUEST_PLUGIN_CACHEMODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct nsb_cache {
	unsigned int size, assoc, line;	/* bytes, ways, bytes */
	unsigned int sets, line_shift;
	/* per set, its ways most recently used first; 0 = empty, else tag+1 */
	uint64_t *tags;
	/*
	 * A set whose generation is not the cache's is empty: a flush is
	 * one increment (the cold model flushes at every operation, and
	 * clearing an 8 MiB LL's tags each time cost more than the model).
	 */
	uint32_t *set_gen;
	uint32_t gen;
};

/* Geometry "SIZE:ASSOC:LINE" in bytes, e.g. "32768:8:64". */
struct nsb_cache_geom {
	unsigned int size, assoc, line;
};

/*
 * The default geometry: an Intel Skylake client core (Core i7-6700):
 * I1 32 KiB 8-way, D1 32 KiB 8-way, L3 8 MiB 16-way (the LL), 64-byte
 * lines.  Its L2 is not modelled, as Cachegrind models none between L1
 * and the last level.
 */
#define NSB_CACHE_DEFAULT_I1	{ 32768, 8, 64 }
#define NSB_CACHE_DEFAULT_D1	{ 32768, 8, 64 }
#define NSB_CACHE_DEFAULT_LL	{ 8388608, 16, 64 }
#define NSB_CACHE_MODEL_NAME	"Skylake client (i7-6700)"

/*
 * The estimated cycles of Cachegrind's and KCachegrind's "cycle
 * estimation": every instruction 1, every L1 miss 10 more, every LL
 * miss 100 more.
 */
#define NSB_CYCLES_L1_MISS	10
#define NSB_CYCLES_LL_MISS	100

struct nsb_hier {
	struct nsb_cache i1, d1, ll;
	uint64_t i1_miss, d1_miss, ll_miss;
};

/* Parses "SIZE:ASSOC:LINE"; -1 with *why set on a bad or impossible one. */
int nsb_cache_geom_parse(const char *s, struct nsb_cache_geom *g,
			 const char **why);
/* 0, or -1 with *why set (sizes that are no powers of two, too small). */
int nsb_cache_init(struct nsb_cache *c, const struct nsb_cache_geom *g,
		   const char **why);
void nsb_cache_free(struct nsb_cache *c);
/* Every line invalid: the next access to each misses. */
void nsb_cache_flush(struct nsb_cache *c);

int nsb_hier_init(struct nsb_hier *h, const struct nsb_cache_geom *i1,
		  const struct nsb_cache_geom *d1,
		  const struct nsb_cache_geom *ll, const char **why);
void nsb_hier_free(struct nsb_hier *h);
void nsb_hier_flush(struct nsb_hier *h);
/*
 * The accesses, inline: the plugin makes one call per guest load or
 * store and per fetched line.
 */

/* One access to the line holding addr; true on a hit. */
static inline bool nsb_cache_access_line(struct nsb_cache *c, uint64_t addr)
{
	uint64_t block = addr >> c->line_shift;
	size_t s = block & (c->sets - 1);
	uint64_t *set = c->tags + s * c->assoc;
	uint64_t tag = block + 1;	/* 0 is an empty way */
	unsigned int w;

	if (c->set_gen[s] != c->gen) {
		memset(set, 0, c->assoc * sizeof(*set));
		c->set_gen[s] = c->gen;
	}
	if (set[0] == tag)
		return true;	/* most accesses: the most recent line */
	for (w = 1; w < c->assoc; w++) {
		if (set[w] != tag)
			continue;
		memmove(set + 1, set, w * sizeof(*set));
		set[0] = tag;
		return true;
	}
	memmove(set + 1, set, (c->assoc - 1) * sizeof(*set));
	set[0] = tag;
	return false;
}

/* Each line of [addr, addr + size) through l1, then the LL on a miss. */
static inline void nsb_hier_lines(struct nsb_hier *h, struct nsb_cache *l1,
				  uint64_t *miss, uint64_t addr,
				  unsigned int size)
{
	uint64_t line = addr >> l1->line_shift;
	uint64_t last = (addr + (size ? size : 1) - 1) >> l1->line_shift;

	for (; line <= last; line++) {
		if (nsb_cache_access_line(l1, line << l1->line_shift))
			continue;
		(*miss)++;
		if (!nsb_cache_access_line(&h->ll, line << l1->line_shift))
			h->ll_miss++;
	}
}

/* A data access of size bytes at addr: each line it touches, D1 then LL. */
static inline void nsb_hier_data(struct nsb_hier *h, uint64_t addr,
				 unsigned int size)
{
	nsb_hier_lines(h, &h->d1, &h->d1_miss, addr, size);
}

/* An instruction fetch of size bytes at addr: I1 then LL. */
static inline void nsb_hier_fetch(struct nsb_hier *h, uint64_t addr,
				  unsigned int size)
{
	nsb_hier_lines(h, &h->i1, &h->i1_miss, addr, size);
}

#endif /* NSB_GUEST_PLUGIN_CACHEMODEL_H */
