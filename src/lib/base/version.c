// SPDX-License-Identifier: GPL-2.0
#include "src/lib/base/version.h"

#ifndef NSBENCH_VERSION
#define NSBENCH_VERSION "unknown"
#endif

const char *nsb_version(void)
{
	return NSBENCH_VERSION;
}
