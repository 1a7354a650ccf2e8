// SPDX-License-Identifier: GPL-2.0
/*
 * mem.c — see mem.h.
 */
#include <stdlib.h>
#include <string.h>

#include "src/lib/base/mem.h"

void nsb_free_each(void *arr, size_t n, size_t size, size_t off)
{
	char *base = arr;
	size_t i;

	for (i = 0; i < n; i++) {
		void *p;

		/* memcpy: the member is a char * or size_t *, not a void * */
		memcpy(&p, base + i * size + off, sizeof(p));
		free(p);
	}
	free(arr);
}
