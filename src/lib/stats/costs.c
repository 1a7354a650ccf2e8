// SPDX-License-Identifier: GPL-2.0
/*
 * costs.c — the in-boot check-cost engine (costs.h): load the blocks of a
 * toggles run, pair on against off inside each boot, pool the rounds;
 * costs_out.c renders the tables.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "src/lib/stats/costs.h"
#include "src/lib/base/nsbench.h"

/* The registry's rows, in its order: the report's (seed patch order). */
const struct nsb_check nsb_checks[] = {
#define NSB_CHECK(NAME, SEED, ON, LSM, FORM, OP, FUNCS, WHAT)		\
	{ .sw = #NAME, .seed = SEED, .what = WHAT, .path = OP,		\
	  .form = FORM, .on = ON, .lsm = #LSM, .funcs = FUNCS },
#include "kernel-patches/checks.def"
#undef NSB_CHECK
	{ .sw = NULL },
};

/* Adds l to lsm[0..*n) unless there; counts past max, stores up to it. */
static void add_lsm(const char **lsm, size_t max, size_t *n, const char *l)
{
	size_t j;

	for (j = 0; j < *n && j < max; j++)
		if (!strcmp(lsm[j], l))
			return;
	if (*n < max)
		lsm[*n] = l;
	(*n)++;
}

size_t nsb_cost_lsms(const char **lsm, size_t max)
{
	size_t i, n = 0;

	add_lsm(lsm, max, &n, "none");
	for (i = 0; nsb_checks[i].sw; i++)
		add_lsm(lsm, max, &n, nsb_checks[i].lsm);
	return n;
}

const char *nsb_cost_lsm_title(const char *lsm)
{
	/* how the LSMs spell their own names; another as checks.def does */
	return !strcmp(lsm, "selinux") ? "SELinux" :
	       !strcmp(lsm, "smack") ? "Smack" :
	       !strcmp(lsm, "none") ? "no LSM" : lsm;
}

/* --- input ------------------------------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Appends dir's *.json files, sorted, to list[*n..]. */
static int expand_dir(const char *dir, char ***list, size_t *n, size_t *cap)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t first = *n;

	if (!d)
		return nsb_bad(dir, "%s", strerror(errno));
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		char *p;

		if (len < 6 || strcmp(e->d_name + len - 5, ".json"))
			continue;
		if (*n + 2 > *cap) {
			char **nl = realloc(*list, (*cap = *cap * 2 + 16) *
					    sizeof(*nl));

			if (!nl)
				break;
			*list = nl;
		}
		if (asprintf(&p, "%s/%s", dir, e->d_name) < 0)
			break;
		(*list)[(*n)++] = p;
	}
	closedir(d);
	if (e)
		return nsb_bad(dir, "out of memory");
	qsort(*list + first, *n - first, sizeof(**list), cmp_str);
	return 0;
}

char **nsb_costs_expand(char **args, int n)
{
	size_t k = 0, cap = (size_t)n + 16;
	char **list = calloc(cap, sizeof(*list));
	struct stat st;
	int i, empty = 0;
	size_t before;

	for (i = 0; list && i < n; i++) {
		if (!stat(args[i], &st) && S_ISDIR(st.st_mode)) {
			before = k;
			if (expand_dir(args[i], &list, &k, &cap))
				goto fail;
			/* said, not silently skipped: a wrong path looks so */
			if (k == before) {
				nsb_bad(args[i], "no *.json results file in "
					"this directory");
				empty++;
			}
			continue;
		}
		if (k + 2 > cap) {
			char **nl = realloc(list, (cap *= 2) * sizeof(*nl));

			if (!nl)
				goto fail;
			list = nl;
		}
		if (!(list[k++] = strdup(args[i])))
			goto fail;
	}
	/* nothing at all: an error (a stock side may be empty alone) */
	if (list && !k && empty)
		goto fail;
	if (list)
		list[k] = NULL;
	return list;
fail:
	while (k)
		free(list[--k]);
	free(list);
	return NULL;
}

void nsb_costs_init(struct nsb_costs *c)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	c->o = (struct nsb_cmp_opts){ .threshold = 2.0, .seed = 20150204UL,
				      .reps = 2000 };
	c->aa_limit = 1.0;
	c->nlsm = nsb_cost_lsms(c->lsm, NSB_COST_LSM_MAX);
	if (c->nlsm > NSB_COST_LSM_MAX) {
		fprintf(stderr, "nsbench: kernel-patches/checks.def names "
			"%zu LSMs, more than %d\n", c->nlsm, NSB_COST_LSM_MAX);
		c->nlsm = 0;
		return;		/* no families: the caller's out of memory */
	}
	while (nsb_checks[c->nfam].sw)
		c->nfam++;
	c->nfam *= c->nlsm;
	c->fam = calloc(c->nfam, sizeof(*c->fam));
	for (i = 0; c->fam && i < c->nfam; i++) {
		struct nsb_cost_family *f = &c->fam[i];

		f->chk = &nsb_checks[i / c->nlsm];
		f->lsm = c->lsm[i % c->nlsm];
		nsb_side_init(&f->on, "on");
		nsb_side_init(&f->off, "off");
		nsb_side_init(&f->off1, "first off block");
		nsb_side_init(&f->off2, "second off block");
		nsb_side_init(&f->stock, "stock");
		nsb_costs_cs_init(f);
	}
}

static struct nsb_cost_family *family(struct nsb_costs *c, const char *sw,
				      const char *lsm)
{
	size_t i;

	for (i = 0; i < c->nfam; i++)
		if (!strcmp(c->fam[i].chk->sw, sw) &&
		    !strcmp(c->fam[i].lsm, lsm))
			return &c->fam[i];
	return NULL;
}

/* The unit of every side must agree: instructions never mix with ns. */
static int same_unit(struct nsb_costs *c, const struct nsb_side *s,
		     const char *path)
{
	if (!s->unit)
		return 0;
	if (!c->unit) {
		c->unit = s->unit;
		c->unit_file = path;
		c->icount = s->icount;
		return 0;
	}
	if (!strcmp(c->unit, s->unit))
		return 0;
	return nsb_bad(path, "time unit means \"%s\" but %s has \"%s\"; "
		   "refusing to mix them", s->unit, c->unit_file, c->unit);
}

static int load_into(struct nsb_costs *c, struct nsb_side *s,
		     const char *path)
{
	return nsb_side_load(s, path) || same_unit(c, s, path) ? -1 : 0;
}

static void set_metric(struct nsb_cost_family *f)
{
	f->on.metric = f->stock.metric = "nsb_on";
	f->off1.metric = "nsb_off1";
	f->off2.metric = "nsb_off2";
}

/*
 * Benchmarks whose operation the check decides (nsbench-bench's
 * nsb_decides: the op succeeds with the switch off and fails with it
 * on, or the other way round) measure two different operations.
 */
static void note_decides(struct nsb_cost_family *f, json_t *root)
{
	json_t *b, *on, *off;
	size_t i;

	json_array_foreach(json_object_get(root, "benchmarks"), i, b) {
		const char *name = nsb_json_str(b, "name");

		if (!name)
			continue;
		if (json_is_number(json_object_get(b, "nsb_decides"))) {
			if (!f->decides)
				f->decides = json_object();
			json_object_set_new(f->decides, name, json_true());
		}
		/* nsbench-bench's proof of a fixture per state */
		off = json_object_get(b, "nsb_result_off");
		on = json_object_get(b, "nsb_result_on");
		if (!json_is_number(off) || !json_is_number(on))
			continue;
		if (!f->states)
			f->states = json_object();
		json_object_set_new(f->states, name, json_pack("[O,O]", off,
							       on));
	}
}

int nsb_costs_load(struct nsb_costs *c, const char *path)
{
	json_t *root = nsb_json_load(path), *ctx;
	const char *sw, *applied, *lsm;
	struct nsb_cost_family *f;
	int ret = -1;

	if (!root)
		return -1;
	ctx = json_object_get(root, "context");
	sw = nsb_json_str(ctx, "nsbench_check");
	applied = nsb_json_str(ctx, "nsbench_check_applied");
	/* files from before the LSM boots: no LSM was active */
	lsm = nsb_json_str(ctx, "nsbench_lsm");
	lsm = lsm ? lsm : "none";
	if (!sw) {
		nsb_bad(path, "context.nsbench_check: missing (not an in-boot "
		    "check A/B: nsbench-bench --interleave; two kernels "
		    "compare with BASE... -- PATCHED...)");
		goto out;
	}
	f = family(c, sw, "none");
	if (!f) {
		nsb_bad(path, "context.nsbench_check: '%s' is not a switch of "
		    "the userns-checks-toggles series", sw);
		goto out;
	}
	f = family(c, sw, lsm);
	if (!f) {
		nsb_bad(path, "context.nsbench_lsm: '%s' is not none, selinux "
		    "or smack", lsm);
		goto out;
	}
	if (!applied || (strcmp(applied, "yes") && strcmp(applied, "no"))) {
		nsb_bad(path, "context.nsbench_check_applied: want \"yes\" or "
		    "\"no\", got %s", applied ? applied : "nothing");
		goto out;
	}
	set_metric(f);
	if (!strcmp(applied, "no")) {
		/* stock: its unswitched "on" chunks against the toggles' */
		ret = load_into(c, &f->stock, path);
		if (!ret && !c->stock_ctx)
			c->stock_ctx = json_incref(ctx);
		c->nstock++;
		goto out;
	}
	c->nfiles++;
	if (!c->ctx)
		c->ctx = json_incref(ctx);
	/* "off" pools both off states: per round their mean */
	note_decides(f, root);
	f->off.metric = "nsb_off1";
	ret = load_into(c, &f->on, path) || load_into(c, &f->off1, path) ||
	      load_into(c, &f->off2, path) || load_into(c, &f->off, path);
	f->off.metric = "nsb_off2";
	ret = ret || load_into(c, &f->off, path) ||
	      nsb_costs_cs_load(c, f, root, path);
out:
	json_decref(root);
	return ret ? -1 : 0;
}

/* --- statistics --------------------------------------------------------- */

/*
 * A row's A/A residual: the median over rounds of off2 - off1, as the
 * cost itself is the median of on - off.  The rounds' spread is in the
 * cost's own CI already.
 */
static double residual(const struct nsb_cost_row *r)
{
	return fabs(r->aa.shift.est);
}

static int cost_row(struct nsb_costs *c, struct nsb_cost_family *f,
		    struct nsb_series *on, struct nsb_cost_row *r)
{
	struct nsb_series *off = nsb_side_find(&f->off, on->name);
	struct nsb_series *o1 = nsb_side_find(&f->off1, on->name);
	struct nsb_series *o2 = nsb_side_find(&f->off2, on->name);
	struct nsb_series *st = nsb_side_find(&f->stock, on->name);
	struct nsb_series none = { .name = on->name };
	json_t *states;

	memset(r, 0, sizeof(*r));
	r->name = on->name;
	r->decides = json_object_get(f->decides, on->name) != NULL;
	states = json_object_get(f->states, on->name);
	if (states) {
		r->has_states = true;
		r->states_differ = !json_equal(json_array_get(states, 0),
					       json_array_get(states, 1));
	}
	if (nsb_effect(&c->o, off ? off : &none, on, &r->cost))
		return -1;
	if (o1 && o2 && o1->n && o2->n) {
		if (nsb_effect(&c->o, o1, o2, &r->aa))
			return -1;
		r->has_aa = r->aa.verdict < NSB_SKIP;
	}
	if (st && st->n) {
		if (nsb_effect(&c->o, st, on, &r->toggles))
			return -1;
		r->has_stock = r->toggles.verdict < NSB_SKIP;
	}
	/*
	 * A row is a finding only where off against off, in the same boot,
	 * stays within the limit: else the blocks differ by more than the
	 * switch can be credited with.
	 */
	if (r->cost.verdict < NSB_SKIP) {
		if (!r->has_aa)
			r->unreliable = true;
		else if (c->icount)
			r->unreliable = residual(r) > c->aa_limit;
		else
			r->unreliable = r->aa.verdict != NSB_SAME;
	}
	/* a row the check decides times two operations: no residual of it */
	if (r->has_aa && !r->decides && residual(r) > f->aa_max)
		f->aa_max = residual(r);
	/*
	 * Beyond the limit the row still says what it can: its verdict is
	 * taken against the residual itself, not against 1 instruction.
	 */
	if (r->unreliable && r->has_aa && c->icount &&
	    r->cost.verdict < NSB_SKIP)
		nsb_icount_verdict(&r->cost, residual(r));
	/* where the check cannot act, a shift must clear the row's noise */
	r->control = r->has_states && !r->states_differ;
	if (r->control && r->cost.verdict < NSB_SKIP) {
		enum nsb_verdict v = r->cost.verdict;

		r->noise = nsb_control_verdict(&r->cost, r->has_aa ?
					       residual(r) : 0);
		r->within_noise = r->cost.verdict != v;
	}
	return nsb_costs_cs_row(c, f, on, r);
}

/* Is r the control of row x: same name but for the depth, alike? */
static bool control_of(const struct nsb_cost_row *r,
		       const struct nsb_cost_row *x)
{
	const char *d = strstr(x->name, "/depth:");

	return r->control && r->cost.verdict < NSB_SKIP && d &&
	       !strncmp(r->name, x->name, (size_t)(d - x->name)) &&
	       !strncmp(r->name + (d - x->name), "/depth:0/", 9);
}

static void net_of_controls(struct nsb_cost_family *f)
{
	size_t i, j;

	for (i = 0; i < f->n; i++) {
		struct nsb_cost_row *x = &f->rows[i];

		if (!x->states_differ || x->decides ||
		    x->cost.verdict >= NSB_SKIP)
			continue;
		for (j = 0; j < f->n; j++) {
			const struct nsb_interval *c = &f->rows[j].cost.shift;

			if (!control_of(&f->rows[j], x))
				continue;
			x->has_net = true;
			x->net = (struct nsb_interval){
				.est = x->cost.shift.est - c->est,
				.lo = x->cost.shift.lo - c->hi,
				.hi = x->cost.shift.hi - c->lo,
				.level = x->cost.shift.level,
			};
			break;
		}
	}
}

int nsb_costs_compute(struct nsb_costs *c)
{
	size_t i, j, total = 0;

	if (!c->nfiles) {
		fprintf(stderr, "nsbench: no results file of a kernel with "
			"the userns_checks switches (%zu stock file(s)): "
			"nothing to compare\n", c->nstock);
		return -1;
	}
	/* One instruction is what icount resolves; else percent. */
	c->o.abs_threshold = c->icount ? NSB_ICOUNT_BAND : 0;
	for (i = 0; i < c->nfam; i++) {
		struct nsb_cost_family *f = &c->fam[i];

		if (!f->on.n)
			continue;
		f->rows = calloc(f->on.n, sizeof(*f->rows));
		if (!f->rows)
			return -1;
		for (j = 0; j < f->on.n; j++)
			if (cost_row(c, f, &f->on.s[j], &f->rows[f->n++]))
				return -1;
		net_of_controls(f);
		total += f->n;
	}
	if (!total) {
		fprintf(stderr, "nsbench: no benchmark ran with a switch on\n");
		return -1;
	}
	return 0;
}

void nsb_costs_free(struct nsb_costs *c)
{
	size_t i, j;

	for (i = 0; c->fam && i < c->nfam; i++) {
		struct nsb_cost_family *f = &c->fam[i];

		nsb_side_free(&f->on);
		nsb_side_free(&f->off);
		nsb_side_free(&f->off1);
		nsb_side_free(&f->off2);
		nsb_side_free(&f->stock);
		nsb_costs_cs_free(f);
		for (j = 0; j < f->n; j++)
			json_decref(f->rows[j].cs_funcs);
		free(f->rows);
		json_decref(f->decides);
		json_decref(f->states);
	}
	free(c->fam);
	json_decref(c->ctx);
	json_decref(c->stock_ctx);
	free(c->cs_model);
	memset(c, 0, sizeof(*c));
}

