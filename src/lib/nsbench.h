/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nsbench.h — what nearly every file of libnsb and its users needs: the
 * headers of the small base files (base.h's definitions, version, JSON
 * and text files, escaping, the provenance context), one include instead
 * of five.
 */
#ifndef NSB_NSBENCH_H
#define NSB_NSBENCH_H

#include "src/lib/base.h"
#include "src/lib/context.h"
#include "src/lib/escape.h"
#include "src/lib/jsonio.h"
#include "src/lib/version.h"

#endif /* NSB_NSBENCH_H */
