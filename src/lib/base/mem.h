/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mem.h — freeing an array whose elements each own one allocation: the
 * loop every such _free() function wrote for itself, written once.
 */
#ifndef NSB_MEM_H
#define NSB_MEM_H

#include <stddef.h>

/*
 * Frees the pointer at byte offset off in each of the n elements of arr
 * (each size bytes; off from offsetof), then arr itself.  arr may be NULL
 * when n is 0.
 */
void nsb_free_each(void *arr, size_t n, size_t size, size_t off);

#endif /* NSB_MEM_H */
