/* SPDX-License-Identifier: GPL-2.0 */
/*
 * funcs.h — the guest kernel's functions by address, from its
 * System.map, for the cache-model plugin's attribution: which
 * functions' loads, misses and instructions move between a switch's
 * states.
 */
#ifndef NSB_GUEST_PLUGIN_FUNCS_H
#define NSB_GUEST_PLUGIN_FUNCS_H

#include <stddef.h>
#include <stdint.h>

/* x86-64: the kernel's half of the address space */
#define NSB_KERNEL_BASE	0xffff800000000000ull

struct nsb_func {
	uint64_t addr;
	char *name;
};

struct nsb_funcs {
	struct nsb_func *f;	/* text symbols, by address */
	size_t n;
};

/* Reads System.map's text symbols; -1 with *why set. */
int nsb_funcs_load(struct nsb_funcs *fs, const char *path, const char **why);
void nsb_funcs_free(struct nsb_funcs *fs);
/*
 * 1 + the index of the function holding vaddr, or 0: user space, or
 * below the first symbol.
 */
size_t nsb_funcs_find(const struct nsb_funcs *fs, uint64_t vaddr);

#endif /* NSB_GUEST_PLUGIN_FUNCS_H */
