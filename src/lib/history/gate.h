/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gate.h — the CI gate: the newest run (of the history, or results files)
 * against a baseline, one verdict per benchmark by the rule of `nsbench
 * compare`, on the results files where they are, else on the samples
 * the history keeps of them (see gate.c).
 */
#ifndef NSB_GATE_H
#define NSB_GATE_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define NSB_GATE_THRESHOLD	1	/* percent, native/KVM/TCG rows */

enum nsb_gate_fmt { NSB_GATE_TEXT, NSB_GATE_KTAP, NSB_GATE_JUNIT };

struct nsb_gate_opts {
	const char *history;	/* the history file */
	const char *baseline;	/* last-accepted, previous, a run, a file */
	const char *results_dir, *run_id;
	double threshold;
	bool threshold_given;	/* icount: only then a filter */
	bool have_re;
	regex_t re;		/* --benchmark */
	char **files;		/* NEW.json...: the new run, else the newest */
	size_t nfiles;
	char **bases;		/* --baseline given more than once: files */
	size_t nbases;
};

struct nsb_gate;

/*
 * The verdicts: the history loaded, both sides resolved and compared.
 * NULL after "PROG: why" on stderr, PROG what the command set
 * (nsb_set_prog: "nsbench gate"); no benchmark to gate is one too.
 * o is copied; what it points to must outlive the gate.
 */
struct nsb_gate *nsb_gate_run(const struct nsb_gate_opts *o);
void nsb_gate_free(struct nsb_gate *g);
/* The verdicts that fail the gate: regressions, failed rows. */
size_t nsb_gate_failures(const struct nsb_gate *g);
/* The verdicts as text (with the rule and provenance), KTAP or JUnit. */
void nsb_gate_print(FILE *f, const struct nsb_gate *g,
		    enum nsb_gate_fmt fmt);
/* The same into path atomically (nothing if path is NULL); 0 or -1. */
int nsb_gate_write(const struct nsb_gate *g, const char *path,
		   enum nsb_gate_fmt fmt);

#endif /* NSB_GATE_H */
