// SPDX-License-Identifier: GPL-2.0
/*
 * funcs.c — System.map's text symbols, sorted, looked up by address
 * (funcs.h).  Called when a block is translated, never per access.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guest/plugin/funcs.h"

#define MAX_SYMBOLS	(1u << 20)

static int cmp_func(const void *a, const void *b)
{
	const struct nsb_func *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

/* One "ADDR TYPE NAME" line, if a text symbol: 1, else 0; -1 no memory. */
static int parse_line(char *line, struct nsb_func *out)
{
	char type, name[256];
	unsigned long long a;

	if (sscanf(line, "%llx %c %255s", &a, &type, name) != 3)
		return 0;
	if (type != 't' && type != 'T' && type != 'w' && type != 'W')
		return 0;
	out->addr = a;
	out->name = strdup(name);
	return out->name ? 1 : -1;
}

int nsb_funcs_load(struct nsb_funcs *fs, const char *path, const char **why)
{
	FILE *f = fopen(path, "r");
	char line[512];
	size_t cap = 0;
	int r;

	memset(fs, 0, sizeof(*fs));
	if (!f) {
		*why = "cannot open the System.map";
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		if (fs->n == cap) {
			struct nsb_func *p;

			cap = cap ? 2 * cap : 4096;
			p = cap <= MAX_SYMBOLS ?
			    realloc(fs->f, cap * sizeof(*p)) : NULL;
			if (!p)
				goto nomem;
			fs->f = p;
		}
		r = parse_line(line, &fs->f[fs->n]);
		if (r < 0)
			goto nomem;
		fs->n += r;
	}
	fclose(f);
	if (!fs->n) {
		*why = "no text symbols in the System.map";
		return -1;
	}
	qsort(fs->f, fs->n, sizeof(*fs->f), cmp_func);
	return 0;
nomem:
	fclose(f);
	nsb_funcs_free(fs);
	*why = "out of memory (or more than 2^20 symbols)";
	return -1;
}

void nsb_funcs_free(struct nsb_funcs *fs)
{
	size_t i;

	for (i = 0; i < fs->n; i++)
		free(fs->f[i].name);
	free(fs->f);
	memset(fs, 0, sizeof(*fs));
}

size_t nsb_funcs_find(const struct nsb_funcs *fs, uint64_t vaddr)
{
	size_t lo = 0, hi = fs->n;

	if (vaddr < NSB_KERNEL_BASE || !fs->n || vaddr < fs->f[0].addr)
		return 0;
	/* the last symbol at or below vaddr */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (fs->f[mid].addr <= vaddr)
			lo = mid;
		else
			hi = mid;
	}
	return lo + 1;
}
