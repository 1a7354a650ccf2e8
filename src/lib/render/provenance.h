/* SPDX-License-Identifier: GPL-2.0 */
/*
 * provenance.h — the "Provenance" and "Reproduce" sections of a report:
 * a number without its kernel, config, mode and host is not a result.
 * Text within 72 columns (hashes shortened), or Markdown (hashes whole).
 */
#ifndef NSB_PROVENANCE_H
#define NSB_PROVENANCE_H

#include <stdbool.h>
#include <stdio.h>

#include "src/lib/base/strbuf.h"

struct nsb_comparison;
struct nsb_costs;
struct nsb_side;

/*
 * Distinct values of a context key over a side's files, "a, b", else
 * "unknown", added to out.
 */
void nsb_ctx_values(const struct nsb_side *s, const char *key,
		    struct nsb_sb *out);
/*
 * Both sides' kernels (and the A/A side's), mode, host, runs, CI job,
 * then how to reproduce the report and the run.
 */
void nsb_prov_comparison(FILE *f, bool md, const struct nsb_comparison *c);
/*
 * The same for a check-cost run (the toggles kernel and its stock
 * files); command: the host command that reproduces the run, or NULL for
 * the one the results recorded.
 */
void nsb_prov_costs(FILE *f, bool md, const struct nsb_costs *c,
		    const char *command);

#endif /* NSB_PROVENANCE_H */
