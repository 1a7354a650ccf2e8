/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nsbench.h — what nearly every file of libnsb and its users needs: the
 * headers of the small base files (base.h's definitions, version, JSON
 * and text files, escaping, the provenance context, the messages' prefix),
 * one include instead of six.
 */
#ifndef NSB_NSBENCH_H
#define NSB_NSBENCH_H

#include "src/lib/base/base.h"
#include "src/lib/base/context.h"
#include "src/lib/base/escape.h"
#include "src/lib/base/jsonio.h"
#include "src/lib/base/prog.h"
#include "src/lib/base/version.h"

#endif /* NSB_NSBENCH_H */
