/* SPDX-License-Identifier: GPL-2.0 */
/*
 * profile_import.h — one boot's perf profile of a benchmark's timed
 * region as a profile JSON (profile.h): from the `perf report --stdio -q
 * -t '\t' --sort dso,sym -F sample,dso,sym` table, the run's results
 * JSON, the operations run while sampling and perf's period.
 */
#ifndef NSB_PROFILE_IMPORT_H
#define NSB_PROFILE_IMPORT_H

#include <stdbool.h>

struct nsb_prof_import_opts {
	const char *symbols;	/* the perf report table */
	const char *bench;	/* the run's results: one benchmark */
	const char *ops_file, *event, *label, *out;
	const char *probes;	/* instead of period: the boot's probes.txt */
	unsigned long long ops, period;
};

/* s as a whole count of at most max into *v; false if it is not one. */
bool nsb_prof_count(const char *s, unsigned long long max,
		    unsigned long long *v);
/*
 * Reads and checks every input, then writes o->out atomically: bad input
 * writes nothing.  0, or 2 after "file:line: why" on stderr.
 */
int nsb_prof_import(struct nsb_prof_import_opts *o);

#endif /* NSB_PROFILE_IMPORT_H */
