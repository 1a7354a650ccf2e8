// SPDX-License-Identifier: GPL-2.0
/*
 * gate.c — the CI gate (gate.h): the newest run against a baseline, one
 * verdict per benchmark (gate_out.c renders them as text, KTAP or
 * JUnit); `nsbench gate` (its command line in src/cmd/gate.c) exits 1 on
 * a regression beyond the threshold.
 *
 * One rule, whatever is at hand: the verdicts are those of `nsbench
 * compare` (src/lib/stats/compare.h: paired by A/B round where it can,
 * Hodges-Lehmann otherwise, at 95 %), run on the results files of both
 * runs when they are there, else on the samples the history keeps of
 * them — the same values, so the same verdict and exit status.  A CI job
 * whose results files are gone must not fail a pair that passes with
 * them (nor pass one that fails).
 *
 * Only records written before the history kept samples fall back to the
 * medians: the change's interval is the widest the two medians' CIs
 * allow, [new lo - base hi, new hi - base lo], at the lower of their
 * levels, judged by the same rule (noisy below 95 %).
 */
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/lib/stats/compare.h"
#include "src/lib/base/escape.h"
#include "src/lib/history/gate.h"
#include "src/lib/history/gate_out.h"
#include "src/lib/history/histjudge.h"
#include "src/lib/history/history.h"
#include "src/lib/render/ktap.h"
#include "src/lib/base/mem.h"
#include "src/lib/base/nsbench.h"

/*
 * The most samples of one benchmark in one run the gate takes: a full
 * tier has a few hundred; 200k took 5 s (over 10 s with the sanitizers),
 * mostly reading the files twice (records, then the comparison).
 */
#define GATE_MAX_SAMPLES	100000

/* --- the two sides ---------------------------------------------------- */

static bool readable(const char *path)
{
	return path && !access(path, R_OK);
}

static int add_file(struct side *s, const char *path)
{
	char **f;

	/* every record of a run names the same files: a set, not a walk */
	if (!s->seen_files)
		s->seen_files = json_object();
	if (!s->seen_files)
		return -1;
	if (json_object_get(s->seen_files, path))
		return 0;
	f = realloc(s->files, (s->nfiles + 1) * sizeof(*f));
	if (!f)
		return -1;
	s->files = f;
	s->files[s->nfiles] = strdup(path);
	if (!s->files[s->nfiles] ||
	    json_object_set_new(s->seen_files, path, json_true()))
		return -1;
	s->nfiles++;
	return 0;
}

/* The benchmark -> record index of a side, built once. */
static int index_side(struct side *s)
{
	size_t i;

	s->index = json_object();
	for (i = 0; s->index && i < s->n; i++)
		if (json_object_set_new(s->index, s->r[i].bench,
					json_integer((json_int_t)i)))
			return -1;
	return s->index ? 0 : -1;
}

/*
 * The results files of a history run: the files its records name, if
 * all are still there, else DIR/RUN.json.  None is fine: the gate then
 * works from the summaries.
 */
static int find_files(struct nsb_gate *g, struct side *s)
{
	char *path = NULL;
	const char *f;
	json_t *v;
	size_t i, j;
	int ret = 0;

	s->own_files = true;
	for (i = 0; i < s->n; i++) {
		if (!s->r[i].files)
			goto dir;
		json_array_foreach(s->r[i].files, j, v) {
			f = json_string_value(v);
			if (!readable(f))
				goto dir;
			if (add_file(s, f))
				return -1;
		}
	}
	if (s->nfiles)
		return 0;
dir:
	for (i = 0; i < s->nfiles; i++)
		free(s->files[i]);
	s->nfiles = 0;
	json_object_clear(s->seen_files);
	if (!g->o.results_dir)
		return 0;
	if (asprintf(&path, "%s/%s.json", g->o.results_dir, s->run) < 0)
		return -1;
	if (readable(path))
		ret = add_file(s, path);
	free(path);
	return ret;
}

static int side_from_history(struct nsb_gate *g, struct side *s)
{
	size_t i;

	s->r = calloc(g->h.n ? g->h.n : 1, sizeof(*s->r));
	if (!s->r)
		return -1;
	for (i = 0; i < g->h.n; i++)
		if (!strcmp(g->h.r[i].run, s->run))
			s->r[s->n++] = g->h.r[i];
	return index_side(s) ?: find_files(g, s);
}

static int side_from_files(struct side *s, char **files, size_t n,
			   const char *run_id)
{
	const char *bad;
	json_t *o;
	size_t i;

	s->files = files;
	s->nfiles = n;
	s->json = nsb_history_records(files, n, run_id);
	if (!s->json)
		return -1;
	s->r = calloc(json_array_size(s->json) + 1, sizeof(*s->r));
	if (!s->r)
		return -1;
	json_array_foreach(s->json, i, o) {
		bad = nsb_hrec_parse(o, &s->r[s->n]);
		if (bad) {
			nsb_err("%s: bad %s\n", files[0],
				bad);
			return -1;
		}
		/* refused before the comparison reads every file again */
		if (s->r[s->n].n > GATE_MAX_SAMPLES) {
			nsb_err("%s: %s: %zu samples, over "
				"the gate's limit of %d a run\n", files[0],
				s->r[s->n].bench, (size_t)s->r[s->n].n,
				GATE_MAX_SAMPLES);
			return -1;
		}
		s->n++;
	}
	/* no records at all still has a name: the first file's */
	s->run = s->n ? s->r[0].run : run_id;
	if (!s->run)
		s->run = s->own_run = nsb_history_run_id(files[0]);
	return s->run ? index_side(s) : -1;
}

static void side_free(struct side *s)
{
	if (s->own_files)
		nsb_free_each(s->files, s->nfiles, sizeof(*s->files), 0);
	free(s->r);
	free(s->own_run);
	json_decref(s->json);
	json_decref(s->index);
	json_decref(s->seen_files);
}

static const struct nsb_hrec *side_find(const struct side *s,
					const char *bench)
{
	json_t *i = json_object_get(s->index, bench);

	return i ? &s->r[json_integer_value(i)] : NULL;
}

static bool ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);

	return a >= b && !strcmp(s + a - b, tail);
}

/*
 * A name for a baseline of several files (side A of an A/B): their
 * directory when they share one.  The returned string is static.
 */
static const char *files_name(char **files, size_t n)
{
	static char dir[256];
	const char *slash = strrchr(files[0], '/');
	size_t len = slash ? (size_t)(slash - files[0]) : 0, i;

	for (i = 1; len && i < n; i++)
		if (strncmp(files[i], files[0], len + 1) ||
		    strchr(files[i] + len + 1, '/'))
			len = 0;
	if (!len || len >= sizeof(dir))
		return "baseline files";
	memcpy(dir, files[0], len);
	dir[len] = 0;
	return dir;
}

/* Returns 0, 1 if there is no baseline yet, -1 on error. */
static int resolve_base(struct nsb_gate *g)
{
	const char *b = g->o.baseline;
	long i;

	if (g->o.nbases > 1) {
		g->base.how = "results files";
		return side_from_files(&g->base, g->o.bases, g->o.nbases,
				       files_name(g->o.bases, g->o.nbases));
	}
	if (!strcmp(b, "last-accepted")) {
		g->base.run = g->h.accepted;
		g->base.how = "last accepted";
		if (!g->base.run)
			snprintf(g->why_none, sizeof(g->why_none),
				 "no accepted run in %s yet (nsbench history "
				 "accept RUN)", g->o.history);
	} else if (!strcmp(b, "previous")) {
		i = nsb_history_run_index(&g->h, g->cur.run);
		i = i < 0 ? (long)g->h.nruns - 1 : i - 1;
		g->base.run = i >= 0 ? g->h.runs[i] : NULL;
		g->base.how = "previous run";
		if (!g->base.run)
			snprintf(g->why_none, sizeof(g->why_none),
				 "no run before %s", g->cur.run);
	} else if (ends_with(b, ".json") && readable(b)) {
		g->base.how = "results file";
		return side_from_files(&g->base, (char **)&g->o.baseline, 1,
				       NULL);
	} else if (nsb_history_has_run(&g->h, b)) {
		g->base.run = b;
		g->base.how = "named";
	} else {
		nsb_err("no run '%s' in %s (and no such "
			"results file)\n", b, g->o.history);
		return -1;
	}
	if (!g->base.run)
		return 1;
	/* a baseline that is not there is an error, never a pass */
	if (!nsb_history_has_run(&g->h, g->base.run)) {
		nsb_err("%s:%zu: the accepted baseline "
			"run '%s' is not in the history\n", g->o.history,
			g->h.accepted_line, g->base.run);
		return -1;
	}
	if (!strcmp(g->base.run, g->cur.run)) {
		nsb_err("the baseline is the new run "
			"itself (%s)\n", g->cur.run);
		return -1;
	}
	return side_from_history(g, &g->base);
}

static int resolve_new(struct nsb_gate *g)
{
	if (g->o.nfiles)
		return side_from_files(&g->cur, g->o.files, g->o.nfiles,
				       g->o.run_id);
	if (!g->h.nruns) {
		nsb_err("%s has no runs\n", g->o.history);
		return -1;
	}
	g->cur.run = g->h.runs[g->h.nruns - 1];
	return side_from_history(g, &g->cur);
}

/* --- verdicts as test points ------------------------------------------ */

static bool wanted(const struct nsb_gate *g, const char *name)
{
	return !g->o.have_re || !regexec(&g->o.re, name, 0, NULL, 0);
}

static struct nsb_tpoint *new_point(struct nsb_gate *g, const char *name,
				    enum nsb_verdict v)
{
	struct nsb_tpoint *t;
	enum nsb_verdict *nv;

	if (g->n == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 32;
		t = realloc(g->t, g->cap * sizeof(*t));
		if (t)
			g->t = t;
		nv = realloc(g->v, g->cap * sizeof(*nv));
		if (nv)
			g->v = nv;
		if (!t || !nv)
			return NULL;
	}
	t = &g->t[g->n];
	memset(t, 0, sizeof(*t));
	t->name = strdup(name);
	if (!t->name)
		return NULL;
	g->v[g->n++] = v;
	return t;
}

/* A skip, or a failure when the new run itself failed (a crash?). */
static int point_unusable(struct nsb_gate *g, const char *name, bool fail,
			  const char *why)
{
	struct nsb_tpoint *t = new_point(g, name, fail ? NSB_ERROR :
					 NSB_SKIP);

	if (!t)
		return -1;
	t->result = fail ? NSB_T_FAIL : NSB_T_SKIP;
	snprintf(t->text, sizeof(t->text), "%s%.150s", fail ? "error: " : "",
		 why);
	return 0;
}

/*
 * An interval at the coverage it has: "95%" where it reaches 95 %, else
 * its own ("75%": the median of 3 rounds; compare's note says so too).
 */
static void level_pct(char *buf, size_t len, double level)
{
	if (level >= 1 - NSB_ALPHA - 1e-9)
		level = 1 - NSB_ALPHA;
	snprintf(buf, len, "%.0f%%", 100 * level);
}

/*
 * Under icount the verdict is taken on instructions against +-band;
 * a --threshold the user gave is a filter beside it
 * (src/lib/stats/compare.h).
 */
static bool under_threshold(const struct nsb_gate *g, enum nsb_verdict v,
			    double pct)
{
	return g->o.threshold_given && (v == NSB_SLOWER || v == NSB_FASTER) &&
	       fabs(pct) < g->o.threshold;
}

/*
 * ci: what the interval of the change is ("95% CI"); insn: under icount
 * the shift and its interval in instructions and the band they were
 * judged against, else NULL.
 */
static int point_verdict(struct nsb_gate *g, const char *name,
			 enum nsb_verdict v, const double pct[3],
			 const double val[2], const double insn[4],
			 const char *note, const char *ci)
{
	struct nsb_tpoint *t = new_point(g, name, v);
	bool icount = insn != NULL, under = icount &&
		      under_threshold(g, v, pct[0]);
	char a[32], b[32], why[64] = "";

	if (!t)
		return -1;
	t->result = v == NSB_SLOWER && !under ? NSB_T_FAIL : NSB_T_OK;
	if (under)
		snprintf(why, sizeof(why), ", under your %g %% threshold, "
			 "not gated", g->o.threshold);
	if (icount)
		snprintf(t->text, sizeof(t->text), "%s %+.2f %% (%+.1f insn, "
			 "%s %+.1f..%+.1f insn against +-%g)%s%s%s",
			 nsb_verdict_change(v), pct[0], insn[0], ci, insn[1],
			 insn[2], insn[3], why,
			 v == NSB_NOISY ? ", not gated" : "",
			 v == NSB_NOISY && note && *note ? ": " : "");
	else
		snprintf(t->text, sizeof(t->text), "%s %+.2f %% (%s %+.2f.."
			 "%+.2f %%)%s%s", nsb_verdict_change(v), pct[0], ci, pct[1],
			 pct[2], v == NSB_NOISY ? ", not gated" : "",
			 v == NSB_NOISY && note && *note ? ": " : "");
	if (v == NSB_NOISY && note && *note)
		snprintf(t->text + strlen(t->text),
			 sizeof(t->text) - strlen(t->text), "%s", note);
	nsb_fmt_value(a, sizeof(a), val[0], icount);
	nsb_fmt_value(b, sizeof(b), val[1], icount);
	snprintf(t->detail, sizeof(t->detail), "%s: median %s -> %s", name,
		 a, b);
	/* JUnit time=: the new median, where it is time, not instructions */
	if (!icount) {
		t->has_time = true;
		t->seconds = val[1] * 1e-9;
	}
	return 0;
}

/* The options of the comparison: the same for files and history. */
static struct nsb_cmp_opts gate_opts(const struct nsb_gate *g, bool icount)
{
	struct nsb_cmp_opts o = nsb_cmp_defaults;

	o.threshold = g->o.threshold;
	o.threshold_given = g->o.threshold_given;
	/* icount: the instrument's resolution, as nsb_compare_load() sets */
	if (icount)
		o.abs_threshold = NSB_ICOUNT_BAND;
	return o;
}

/*
 * A noisy row's lesson for the summary: too few samples for a 95 % CI at
 * all, or the smallest change the runs could have detected (its MDE).
 */
static int note_noisy(struct nsb_gate *g, const struct nsb_effect *e,
		      size_t na, size_t nb)
{
	size_t n = e->paired ? e->rounds : na < nb ? na : nb, *need;
	double *mde;

	if (e->verdict != NSB_NOISY)
		return 0;
	if (e->shift.level < 1 - NSB_ALPHA - 1e-9) {
		if (!g->nshort++ || n < g->short_n)
			g->short_n = n;
		g->short_paired |= e->paired;
		return 0;
	}
	if (!(e->mde_pct > 0) || !isfinite(e->mde_pct))
		return 0;
	mde = realloc(g->mde, (g->nmde + 1) * sizeof(*mde));
	if (mde)
		g->mde = mde;
	need = realloc(g->need, (g->nmde + 1) * sizeof(*need));
	if (need)
		g->need = need;
	if (!mde || !need)
		return -1;
	g->mde[g->nmde] = e->mde_pct;
	g->need[g->nmde++] = e->n_needed;
	return 0;
}

/* One verdict of the comparison engine as a test point, either path. */
static int point_effect(struct nsb_gate *g, const char *name,
			const struct nsb_effect *e, const double val[2],
			bool icount, size_t na, size_t nb)
{
	double pct[3] = { e->pct, e->lo_pct, e->hi_pct };
	double insn[4] = { e->shift.est, e->shift.lo, e->shift.hi, e->band };
	char ci[32];

	if (note_noisy(g, e, na, nb))
		return -1;
	level_pct(ci, sizeof(ci), e->shift.level);
	strcat(ci, " CI");
	return point_verdict(g, name, e->verdict, pct, val,
			     icount ? insn : NULL, e->note, ci);
}

static int history_row(struct nsb_gate *g, const struct nsb_hrec *r)
{
	const struct nsb_hrec *a = side_find(&g->base, r->bench);
	struct nsb_cmp_opts o;
	struct nsb_effect e;
	double val[2];
	char why[160];
	bool icount;

	if (strcmp(r->status, "ok"))
		return point_unusable(g, r->bench, !strcmp(r->status, "error"),
				      r->why ? r->why : r->status);
	if (!a || strcmp(a->status, "ok")) {
		snprintf(why, sizeof(why), "baseline %s: %s", g->base.run,
			 a ? (a->why ? a->why : a->status) : "not measured");
		return point_unusable(g, r->bench, false, why);
	}
	if (strcmp(a->unit, r->unit)) {
		snprintf(why, sizeof(why), "units differ: %s against %s",
			 r->unit, a->unit);
		return point_unusable(g, r->bench, false, why);
	}
	icount = !strcmp(r->unit, NSB_UNIT_ICOUNT);
	o = gate_opts(g, icount);
	/* the rule of histjudge.c, which `history publish` shows too */
	if (!a->samples || !r->samples)
		g->legacy++;
	if (nsb_history_effect(&o, a, r, &e))
		return -1;
	g->icount |= icount;
	g->native |= !icount;
	val[0] = a->median;
	val[1] = r->median;
	return point_effect(g, r->bench, &e, val, icount, a->n, r->n);
}

static int gate_history(struct nsb_gate *g)
{
	size_t i;

	for (i = 0; i < g->cur.n; i++)
		if (wanted(g, g->cur.r[i].bench) &&
		    history_row(g, &g->cur.r[i]))
			return -1;
	if (g->legacy)
		snprintf(g->method, sizeof(g->method), "history medians and "
			 "their CIs for %zu row(s) recorded without samples "
			 "(results files of both runs not found)", g->legacy);
	else
		snprintf(g->method, sizeof(g->method), "nsbench compare on "
			 "the samples the history keeps (results files of "
			 "both runs not found)");
	return 0;
}

static int compare_row(struct nsb_gate *g, const struct nsb_comparison *c,
		       const struct nsb_row *r)
{
	const struct nsb_effect *e = &r->e;
	double val[2] = { r->sa.median, r->sb.median };

	if (e->verdict == NSB_SKIP || e->verdict == NSB_ERROR)
		return point_unusable(g, r->name, r->b->errors && !r->b->n,
				      e->note);
	return point_effect(g, r->name, e, val, c->base.icount, r->a->n,
			    r->b->n);
}

/* The comparison engine on the accepted baseline's and this run's files. */
static int run_compare(struct nsb_gate *g, struct nsb_comparison *c)
{
	struct nsb_cmp_opts o = gate_opts(g, false);

	nsb_comparison_init(c, &o);
	if (!nsb_compare_load(c, &(struct nsb_cmp_files){
		.base = g->base.files, .nbase = g->base.nfiles,
		.patched = g->cur.files, .npatched = g->cur.nfiles,
	}))
		return 0;
	nsb_err("the results files cannot be compared "
		"(see above)\n");
	return -1;
}

static int gate_compare(struct nsb_gate *g)
{
	struct nsb_comparison c;
	size_t i;
	int ret = -1;

	if (run_compare(g, &c))
		goto out;
	snprintf(g->method, sizeof(g->method), "nsbench compare on the "
		 "results files (%s)", c.n && c.rows[0].e.paired ?
		 "paired by A/B round" : "Hodges-Lehmann, unpaired");
	g->icount = c.base.icount;
	g->native = !c.base.icount;
	for (i = 0; i < c.n; i++)
		if (wanted(g, c.rows[i].name) && compare_row(g, &c, &c.rows[i]))
			goto out;
	/* benchmarks new in this run: compare skips them, say so */
	for (i = 0; i < c.patched.n; i++)
		if (wanted(g, c.patched.s[i].name) &&
		    !nsb_side_find(&c.base, c.patched.s[i].name) &&
		    point_unusable(g, c.patched.s[i].name, false,
				   "not in the baseline run"))
			goto out;
	ret = 0;
out:
	nsb_comparison_free(&c);
	return ret;
}

static int gate_none(struct nsb_gate *g)
{
	size_t i;

	snprintf(g->method, sizeof(g->method), "none: %.190s", g->why_none);
	for (i = 0; i < g->cur.n; i++)
		if (wanted(g, g->cur.r[i].bench) &&
		    point_unusable(g, g->cur.r[i].bench, false, "no baseline"))
			return -1;
	return 0;
}

/*
 * A history records the paths its runs' files had; a later run may have
 * written new files under the same names.  Those are not the baseline's.
 */
static void drop_shared_files(struct side *base, const struct side *cur)
{
	size_t i, j;

	for (i = 0; base->own_files && i < base->nfiles; i++)
		for (j = 0; j < cur->nfiles; j++)
			if (!strcmp(base->files[i], cur->files[j]))
				goto drop;
	return;
drop:
	nsb_err("%s names the new run's file %s; "
		"using the history's summaries of %s\n", base->run,
		base->files[i], base->run);
	for (i = 0; i < base->nfiles; i++)
		free(base->files[i]);
	base->nfiles = 0;
}

static int evaluate(struct nsb_gate *g)
{
	int r;

	if (nsb_history_load(&g->h, g->o.history, stderr) || resolve_new(g))
		return -1;
	r = resolve_base(g);
	if (r < 0)
		return -1;
	if (r > 0)
		return gate_none(g);
	drop_shared_files(&g->base, &g->cur);
	if (g->base.nfiles && g->cur.nfiles)
		return gate_compare(g);
	return gate_history(g);
}

void nsb_gate_free(struct nsb_gate *g)
{
	size_t i;

	if (!g)
		return;
	for (i = 0; i < g->n; i++)
		free((char *)g->t[i].name);
	free(g->t);
	free(g->v);
	free(g->mde);
	free(g->need);
	side_free(&g->base);
	side_free(&g->cur);
	nsb_history_free(&g->h);
	free(g);
}

struct nsb_gate *nsb_gate_run(const struct nsb_gate_opts *o)
{
	struct nsb_gate *g = calloc(1, sizeof(*g));

	if (!g)
		return NULL;
	g->o = *o;
	if (evaluate(g))
		goto bad;
	if (!g->n) {
		nsb_err("no benchmark to gate\n");
		goto bad;
	}
	return g;
bad:
	nsb_gate_free(g);
	return NULL;
}
