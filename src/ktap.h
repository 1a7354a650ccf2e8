/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktap.h — verdicts as test points for CI systems: KTAP version 1 (the
 * kernel's Documentation/dev-tools/ktap.rst; a superset of what prove,
 * kselftest runners, KernelCI and LAVA read) and JUnit XML (GitLab,
 * Jenkins, GitHub test reporters).
 */
#ifndef NSB_KTAP_H
#define NSB_KTAP_H

#include <stddef.h>
#include <stdio.h>

enum nsb_tresult { NSB_T_OK, NSB_T_FAIL, NSB_T_SKIP };

struct nsb_tpoint {
	const char *name;	/* the benchmark; '#' and blanks are replaced */
	enum nsb_tresult result;
	char text[160];		/* after " # ": diagnostic or SKIP reason */
	char detail[240];	/* a "# " line before the result, or "" */
};

/*
 * KTAP version 1: header lines as "# " diagnostics, the plan, one result
 * line per point:  "ok 1 name # same +0.1 %", "not ok 2 name # regression
 * +3.2 %", "ok 3 name # SKIP reason".
 */
void nsb_ktap_print(FILE *f, const char *const *header, size_t nheader,
		    const struct nsb_tpoint *t, size_t n);
/* JUnit XML: one testsuite, a testcase per point, failure / skipped. */
void nsb_junit_print(FILE *f, const char *suite, const struct nsb_tpoint *t,
		     size_t n);

#endif /* NSB_KTAP_H */
