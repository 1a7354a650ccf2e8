/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktap.h — verdicts as test points for CI systems: KTAP version 1 (the
 * kernel's Documentation/dev-tools/ktap.rst; a superset of what prove,
 * kselftest runners, KernelCI and LAVA read) and JUnit XML (GitLab,
 * Jenkins, GitHub test reporters).
 */
#ifndef NSB_KTAP_H
#define NSB_KTAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum nsb_tresult { NSB_T_OK, NSB_T_FAIL, NSB_T_SKIP };

/*
 * An error row is a failure whose text starts with NSB_T_ERROR_PREFIX:
 * the benchmark did not run (a crash, a refused fixture), as opposed to
 * a regression it measured.  KTAP gives it the ERROR directive, JUnit an
 * <error>, and the totals count it as an error, not a failure.
 */
#define NSB_T_ERROR_PREFIX	"error: "

struct nsb_tpoint {
	const char *name;	/* the benchmark; '#', blanks replaced */
	enum nsb_tresult result;
	char text[160];		/* the verdict after the name; the SKIP or
				 * ERROR directive's reason */
	char detail[240];	/* a "# " line before the result, or "" */
	bool has_time;		/* measured in wall-clock time, not icount */
	double seconds;		/* then: the new run's median (JUnit) */
};

bool nsb_tpoint_error(const struct nsb_tpoint *t);

/*
 * KTAP version 1: the plan on the line after the version line (the only
 * place the kernel's kunit_parser.py looks for it, so a log cut short is
 * a crash, not a pass), the header lines as "# " diagnostics, then one
 * result line per point, the verdict in the description where kunit.py
 * parse shows it:  "ok 1 name same +0.1 % (...)", "not ok 2 name
 * regression +3.2 % (...)", "not ok 3 name # ERROR why", "ok 4 name #
 * SKIP why".
 */
void nsb_ktap_print(FILE *f, const char *const *header, size_t nheader,
		    const struct nsb_tpoint *t, size_t n);
/* kselftest's closing line: "# Totals: pass:N fail:N ... error:N". */
void nsb_ktap_totals(FILE *f, const struct nsb_tpoint *t, size_t n);
/*
 * JUnit XML: one testsuite, a testcase per point with <failure>, <error>
 * or <skipped>; time= where the point has a measured time.
 */
void nsb_junit_print(FILE *f, const char *suite, const struct nsb_tpoint *t,
		     size_t n);

#endif /* NSB_KTAP_H */
