// SPDX-License-Identifier: GPL-2.0
/*
 * gate_out.c — the CI gate's report (gate.h) rendered from what gate.c
 * decided: the text report, KTAP and JUnit, the header lines that say
 * the rule, the runs and what a noisy run could have detected; as
 * compare.c computes and compare_out.c renders.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/base/escape.h"
#include "src/lib/history/gate_out.h"
#include "src/lib/base/jsonio.h"
#include "src/lib/base/nsbench.h"

size_t nsb_gate_failures(const struct nsb_gate *g)
{
	size_t i, k = 0;

	for (i = 0; i < g->n; i++)
		k += g->t[i].result == NSB_T_FAIL;
	return k;
}

/* "kernel 6.1.0 (commit abc), series none, icount" of a side. */
static void provenance(const struct side *s, char *buf, size_t len)
{
	const struct nsb_hrec *r = s->n ? &s->r[0] : NULL;

	if (!r) {
		snprintf(buf, len, "-");
		return;
	}
	snprintf(buf, len, "kernel %s%s%s%s, series %s, %s",
		 r->kernel_release ? r->kernel_release : "?",
		 r->kernel_commit ? " (commit " : "",
		 r->kernel_commit ? r->kernel_commit : "",
		 r->kernel_commit ? ")" : "", r->series ? r->series : "?",
		 r->mode ? r->mode : "?");
}

/*
 * The fewest samples a run (rounds, paired) for any 95 % CI of the shift:
 * Hodges-Lehmann's Moses interval of 4 against 4 covers 1 - 2/70 (of 3
 * against 3 only 90 %); the sign-test CI of 6 rounds' differences covers
 * 1 - 2/64 (of 5, 94 %).
 */
#define MIN_SAMPLES_95	4
#define MIN_ROUNDS_95	6

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

/*
 * What the runs at hand could have detected, one line, or "": a step the
 * gate did not flag is no evidence of no step when the runs are too
 * short to see it.  Too few samples for a 95 % CI: how many more a run;
 * else the noisy rows' median MDE and the samples needed for the band.
 */
static void detectable(const struct nsb_gate *g, char *buf, size_t len)
{
	size_t want = g->short_paired ? MIN_ROUNDS_95 : MIN_SAMPLES_95;
	size_t *need;
	double *mde;

	*buf = 0;
	if (g->nshort) {
		snprintf(buf, len, "detectable: nothing at " NSB_CI_S
			 " %% in %zu noisy "
			 "row(s): %zu %s a run; a " NSB_CI_S
			 " %% CI needs %zu, %zu more "
			 "(--benchmark_repetitions)", g->nshort, g->short_n,
			 g->short_paired ? "round(s)" : "sample(s)", want,
			 want > g->short_n ? want - g->short_n : 0);
		return;
	}
	if (!g->nmde)
		return;
	mde = nsb_sorted_copy(g->mde, g->nmde);
	need = malloc(g->nmde * sizeof(*need));
	if (mde && need) {
		memcpy(need, g->need, g->nmde * sizeof(*need));
		qsort(need, g->nmde, sizeof(*need), cmp_size);
		snprintf(buf, len, "detectable: the smallest change these runs "
			 "resolve at " NSB_CI_S
			 " %% is about %.2f %% (median of %zu noisy "
			 "row(s)); the rule's band needs about %zu samples a run",
			 mde[g->nmde / 2], g->nmde, need[g->nmde / 2]);
	}
	free(mde);
	free(need);
}

#define NHDR 7

/* Which rule decided, per unit of the rows gated: one line. */
static void rule(const struct nsb_gate *g, char *buf, size_t len)
{
	char ic[160] = "", nat[96] = "";

	if (g->icount && g->o.threshold_given)
		snprintf(ic, sizeof(ic), "icount rows against +-%g insn, "
			 "failing only at %g %% or more (--threshold)",
			 NSB_ICOUNT_BAND, g->o.threshold);
	else if (g->icount)
		snprintf(ic, sizeof(ic), "icount rows against +-%g insn, "
			 "every regression fails", NSB_ICOUNT_BAND);
	if (g->native)
		snprintf(nat, sizeof(nat), "timed rows against +-%g %% "
			 "(--threshold) with p < " NSB_ALPHA_S, g->o.threshold);
	snprintf(buf, len, "rule: %s%s%s", ic, *ic && *nat ? "; " : "", nat);
	if (!*ic && !*nat)
		snprintf(buf, len, "rule: none (no row compared)");
}

static void header(const struct nsb_gate *g, char lines[NHDR][256])
{
	char prov[200], thr[48] = "";

	/* under icount alone a threshold is there only if the user gave one */
	if (g->native || !g->icount || g->o.threshold_given)
		snprintf(thr, sizeof(thr), ", threshold %g %%", g->o.threshold);
	snprintf(lines[0], 256, "%s: run %s against %s%s%s%s%s", nsb_prog(),
		 g->cur.run ? g->cur.run : "?",
		 g->base.run ? g->base.run : "no baseline",
		 g->base.run ? " (" : "", g->base.run ? g->base.how : "",
		 g->base.run ? ")" : "", thr);
	snprintf(lines[1], 256, "method: %s", g->method);
	rule(g, lines[5], 256);
	snprintf(lines[2], 256, "nsbench %s", nsb_version());
	provenance(&g->base, prov, sizeof(prov));
	snprintf(lines[3], 256, "base: %s", prov);
	provenance(&g->cur, prov, sizeof(prov));
	snprintf(lines[4], 256, "new:  %s", prov);
	detectable(g, lines[6], 256);
}

static void print_ktap(FILE *f, const struct nsb_gate *g)
{
	char lines[NHDR][256];
	const char *hdr[NHDR] = { lines[0], lines[1], lines[5], lines[2],
				  lines[3], lines[4], lines[6] };

	header(g, lines);
	nsb_ktap_print(f, hdr, lines[6][0] ? NHDR : NHDR - 1, g->t, g->n);
	/* the kselftest runner's closing line: an error row as error */
	nsb_ktap_totals(f, g->t, g->n);
}

static void print_text(FILE *f, const struct nsb_gate *g)
{
	/* header()'s lines in print order: run, method, rule, base, new */
	static const int order[] = { 0, 1, 5, 3, 4 };
	char lines[NHDR][256];
	size_t i, k[NSB_ERROR + 1] = { 0 }, under = 0;
	size_t fail = nsb_gate_failures(g);

	header(g, lines);
	/*
	 * Run ids, names, kernels and paths come from the command line and
	 * files: a newline in one must not make a line of its own (a forged
	 * "ok 1" for whatever reads the log), so each goes out escaped.
	 */
	for (i = 0; i < NSB_ARRAY_SIZE(order); i++)
		nsb_put_line(f, lines[order[i]]);
	fputc('\n', f);
	for (i = 0; i < g->n; i++) {
		k[g->v[i]]++;
		fprintf(f, "%-7s ", g->t[i].result == NSB_T_FAIL ? "FAIL" :
			g->t[i].result == NSB_T_SKIP ? "skip" : "ok");
		nsb_put_line(f, g->t[i].name);
		fputs("        ", f);
		nsb_put_line(f, g->t[i].text);
	}
	fprintf(f, "\n%s: %zu regression(s)", fail ? "FAIL" : "PASS",
		k[NSB_SLOWER]);
	/* regressions the user's threshold let through are still counted */
	for (i = 0; i < g->n; i++)
		under += g->v[i] == NSB_SLOWER && g->t[i].result != NSB_T_FAIL;
	if (under)
		fprintf(f, " (%zu under your %g %% threshold)", under,
			g->o.threshold);
	fprintf(f, ", %zu error(s), %zu same, %zu improvement(s), %zu noisy, "
		"%zu skipped, of %zu\n", k[NSB_ERROR], k[NSB_SAME],
		k[NSB_FASTER], k[NSB_NOISY], k[NSB_SKIP], g->n);
	if (lines[6][0])
		nsb_put_line(f, lines[6]);
}

void nsb_gate_print(FILE *f, const struct nsb_gate *g,
		    enum nsb_gate_fmt fmt)
{
	if (fmt == NSB_GATE_KTAP)
		print_ktap(f, g);
	else if (fmt == NSB_GATE_JUNIT)
		nsb_junit_print(f, nsb_prog(), g->t, g->n);
	else
		print_text(f, g);
}

/* Extra outputs (--ktap=FILE, --junit=FILE), written atomically. */
int nsb_gate_write(const struct nsb_gate *g, const char *path,
		   enum nsb_gate_fmt fmt)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	if (!path)
		return 0;
	f = open_memstream(&text, &len);
	if (!f)
		return -1;
	nsb_gate_print(f, g, fmt);
	if (fclose(f)) {
		free(text);
		return -1;
	}
	ret = nsb_write_file_atomic(path, text, len);
	free(text);
	return ret;
}
