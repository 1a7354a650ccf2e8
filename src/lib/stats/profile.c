// SPDX-License-Identifier: GPL-2.0
/*
 * profile.c — where a benchmark's instructions go (profile.h says what
 * the numbers mean): loading profiles (profile_import.c writes them),
 * pooling base against patched by round, and the profiles of the A/B
 * report's shifted rows; profile_out.c renders them.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <gsl/gsl_sort.h>

#include "src/lib/stats/compare.h"
#include "src/lib/base/nsbench.h"
#include "src/lib/stats/profile.h"

/* --- profiles: loading ------------------------------------------------ */

void nsb_prof_set_init(struct nsb_prof_set *s, const char *label)
{
	memset(s, 0, sizeof(*s));
	s->label = label;
}

static void profile_free(struct nsb_profile *p)
{
	free(p->file);
	free(p->sym);
	free(p->round);
	json_decref(p->root);
}

void nsb_prof_set_free(struct nsb_prof_set *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		profile_free(&s->p[i]);
	free(s->p);
	s->p = NULL;
	s->n = s->cap = 0;
}

bool nsb_prof_set_has(const struct nsb_prof_set *s, const char *benchmark)
{
	size_t i;

	for (i = 0; s && i < s->n; i++)
		if (!strcmp(s->p[i].benchmark, benchmark))
			return true;
	return false;
}


/* A number > 0 (period, ops) or an integer >= 0 (samples) at obj[key]. */
static int get_num(const char *path, const char *where, json_t *obj,
		   const char *key, bool count, double *v)
{
	json_t *j = json_object_get(obj, key);

	if (count ? !json_is_integer(j) : !json_is_number(j))
		return nsb_bad_at(path, 0, "%s%s: expected %s, got %s", where, key,
			      count ? "an integer" : "a number", nsb_json_type_name(j));
	*v = json_number_value(j);
	if (count ? *v < 0 || *v > (double)NSB_PROF_MAX_SAMPLES : !(*v > 0) ||
	    *v > 1e18)
		return nsb_bad_at(path, 0, "%s%s: %g is out of range", where, key,
			      *v);
	return 0;
}

static int get_str(const char *path, const char *where, json_t *obj,
		   const char *key, const char **s)
{
	json_t *j = json_object_get(obj, key);

	if (!json_is_string(j))
		return nsb_bad_at(path, 0, "%s%s: expected a string, got %s",
			      where, key, nsb_json_type_name(j));
	*s = json_string_value(j);
	return 0;
}

static int load_symbols(const char *path, json_t *arr, struct nsb_profile *p)
{
	char where[48];
	double sum = 0;
	json_t *e, *k;
	size_t i;

	if (!json_is_array(arr))
		return nsb_bad_at(path, 0, "symbols: expected an array");
	p->sym = calloc(json_array_size(arr) + 1, sizeof(*p->sym));
	if (!p->sym)
		return nsb_bad_at(path, 0, "out of memory");
	json_array_foreach(arr, i, e) {
		struct nsb_prof_sym *s = &p->sym[i];

		snprintf(where, sizeof(where), "symbols[%zu].", i);
		k = json_object_get(e, "kernel");
		if (get_str(path, where, e, "symbol", &s->symbol) ||
		    get_str(path, where, e, "dso", &s->dso) ||
		    get_num(path, where, e, "samples", true, &s->samples))
			return -1;
		if (!json_is_boolean(k))
			return nsb_bad_at(path, 0, "%skernel: expected true or "
				      "false", where);
		s->kernel = json_is_true(k);
		sum += s->samples;
	}
	p->nsym = i;
	if (sum != p->samples)
		return nsb_bad_at(path, 0, "samples: %.0f, but the symbols' sum "
			      "to %.0f", p->samples, sum);
	return 0;
}

static int load_profile(const char *path, struct nsb_profile *p)
{
	json_t *v, *ctx;

	p->file = strdup(path);
	if (!p->file)
		return nsb_bad_at(path, 0, "out of memory");
	p->root = nsb_json_load(path);
	if (!p->root)
		return -1;
	v = json_object_get(p->root, "nsbench_profile");
	if (!json_is_integer(v) || json_integer_value(v) !=
	    NSB_PROFILE_VERSION)
		return nsb_bad_at(path, 0, "nsbench_profile: expected %d (not a "
			      "profile of this nsbench?)", NSB_PROFILE_VERSION);
	ctx = json_object_get(p->root, "context");
	if (!json_is_object(ctx))
		return nsb_bad_at(path, 0, "context: expected an object");
	if (get_str(path, "", p->root, "benchmark", &p->benchmark) ||
	    get_str(path, "", p->root, "event", &p->event) ||
	    get_num(path, "", p->root, "period", false, &p->period) ||
	    get_num(path, "", p->root, "ops", false, &p->ops) ||
	    get_num(path, "", p->root, "samples", true, &p->samples) ||
	    load_symbols(path, json_object_get(p->root, "symbols"), p))
		return -1;
	p->icount = nsb_ctx_icount(ctx);
	if (nsb_json_str(ctx, "nsbench_round") && !(p->round = nsb_round_key(ctx)))
		return nsb_bad_at(path, 0, "out of memory");
	return 0;
}

static int load_file(struct nsb_prof_set *s, const char *path)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		struct nsb_profile *np = realloc(s->p, cap * sizeof(*np));

		if (!np)
			return nsb_bad_at(path, 0, "out of memory");
		s->p = np;
		s->cap = cap;
	}
	memset(&s->p[s->n], 0, sizeof(s->p[s->n]));
	/* counted even on failure: nsb_prof_set_free frees what it holds */
	return load_profile(path, &s->p[s->n++]);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The directory's *.profile.json, sorted. */
static char **dir_profiles(const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **list = NULL, **nl, *p;
	size_t cap = 0;

	*n = 0;
	if (!d) {
		nsb_bad_at(dir, 0, "%s", strerror(errno));
		return NULL;
	}
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (len <= 13 || strcmp(e->d_name + len - 13, ".profile.json"))
			continue;
		if (*n + 1 >= cap) {
			cap = cap ? 2 * cap : 16;
			nl = realloc(list, cap * sizeof(*nl));
			if (!nl)
				goto fail;
			list = nl;
		}
		if (asprintf(&p, "%s/%s", dir, e->d_name) < 0)
			goto fail;
		list[(*n)++] = p;
	}
	closedir(d);
	if (!list)
		list = calloc(1, sizeof(*list));
	if (list)
		qsort(list, *n, sizeof(*list), cmp_str);
	return list;
fail:
	closedir(d);
	while (*n)
		free(list[--*n]);
	free(list);
	nsb_bad_at(dir, 0, "out of memory");
	return NULL;
}

int nsb_prof_set_load(struct nsb_prof_set *s, const char *path)
{
	struct stat st;
	char **list;
	size_t i, n;
	int ret = 0;

	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return load_file(s, path);
	list = dir_profiles(path, &n);
	if (!list)
		return -1;
	/* an empty directory is a wrong path, not an empty profile */
	if (!n) {
		free(list);
		return nsb_bad_at(path, 0, "no *.profile.json in this "
				  "directory");
	}
	for (i = 0; i < n && !ret; i++)
		ret = load_file(s, list[i]);
	for (i = 0; i < n; i++)
		free(list[i]);
	free(list);
	return ret;
}

/* --- pooling: base against patched, by round -------------------------- */

/* A symbol's samples in one profile, on its way into the matrix. */
struct sref {
	const struct nsb_prof_sym *s;
	double period;
	int side;
	size_t round;
};

/* The profiles of one benchmark, both sides. */
struct pool {
	const struct nsb_profile **p[2];
	size_t np[2];
	const char **rounds;		/* common, sorted */
	size_t k;
	double *ops[2];			/* per round */
	double *v[2];			/* v[side][id * k + r]: per op */
	double *tot[2];			/* per round: all samples, per op */
	double *unit[2];		/* per round: per op value of a sample */
};

static int cmp_sref(const void *pa, const void *pb)
{
	const struct sref *a = pa, *b = pb;
	int c = strcmp(a->s->dso, b->s->dso);

	if (!c)
		c = strcmp(a->s->symbol, b->s->symbol);
	return c ? c : (int)a->s->kernel - (int)b->s->kernel;
}

/* The benchmark's profiles of a side that carry a round. */
static int gather(const struct nsb_prof_set *s, const char *benchmark,
		  struct pool *pl, int side, size_t *dropped)
{
	size_t i, n = 0;

	pl->p[side] = calloc(s->n + 1, sizeof(*pl->p[side]));
	if (!pl->p[side])
		return -1;
	for (i = 0; i < s->n; i++) {
		if (strcmp(s->p[i].benchmark, benchmark))
			continue;
		if (!s->p[i].round)
			(*dropped)++;
		else
			pl->p[side][n++] = &s->p[i];
	}
	pl->np[side] = n;
	return 0;
}

/* Every profile's event must be the first's; c->period if they agree. */
static int check_events(struct pool *pl, struct nsb_prof_cmp *c)
{
	const struct nsb_profile *first = pl->np[0] ? pl->p[0][0] : NULL;
	size_t i;
	int k;

	if (!first)
		return 0;
	c->event = first->event;
	c->period = first->period;
	c->icount = true;
	for (k = 0; k < 2; k++)
		for (i = 0; i < pl->np[k]; i++) {
			const struct nsb_profile *p = pl->p[k][i];

			if (strcmp(p->event, c->event))
				return nsb_bad_at(p->file, 0, "event '%s', but %s "
					      "has '%s': refusing to pool",
					      p->event, first->file, c->event);
			if (p->period != c->period)
				c->period = 0;
			c->icount &= p->icount;
		}
	return 0;
}

static size_t round_index(const struct pool *pl, const char *round)
{
	const char **r = bsearch(&round, pl->rounds, pl->k,
				 sizeof(*pl->rounds), cmp_str);

	return r ? (size_t)(r - pl->rounds) : (size_t)-1;
}

/* The rounds both sides have, sorted (each side's sorted, then merged). */
static int common_rounds(struct pool *pl)
{
	const char **r[2];
	size_t i, j, n[2];
	int k;

	for (k = 0; k < 2; k++) {
		r[k] = calloc(pl->np[k] + 1, sizeof(*r[k]));
		if (!r[k])
			goto fail;
		for (i = 0; i < pl->np[k]; i++)
			r[k][i] = pl->p[k][i]->round;
		qsort(r[k], pl->np[k], sizeof(*r[k]), cmp_str);
		n[k] = pl->np[k];
	}
	pl->rounds = r[0];	/* common ones compacted into it */
	for (i = j = 0; i < n[0]; i++) {
		if (pl->k && !strcmp(pl->rounds[pl->k - 1], r[0][i]))
			continue;
		while (j < n[1] && strcmp(r[1][j], r[0][i]) < 0)
			j++;
		if (j < n[1] && !strcmp(r[1][j], r[0][i]))
			pl->rounds[pl->k++] = r[0][i];
	}
	free(r[1]);
	return 0;
fail:
	free(r[0]);
	return -1;
}

/*
 * The references of every symbol of every paired profile, sorted by
 * symbol: equal keys are neighbours, so ids come from one pass.
 */
static struct sref *symbol_refs(const struct pool *pl, size_t *n)
{
	struct sref *refs;
	size_t i, j, total = 0;
	int k;

	for (k = 0; k < 2; k++)
		for (i = 0; i < pl->np[k]; i++)
			total += pl->p[k][i]->nsym;
	refs = malloc((total + 1) * sizeof(*refs));
	if (!refs)
		return NULL;
	*n = 0;
	for (k = 0; k < 2; k++)
		for (i = 0; i < pl->np[k]; i++) {
			const struct nsb_profile *p = pl->p[k][i];
			size_t r = round_index(pl, p->round);

			for (j = 0; r != (size_t)-1 && j < p->nsym; j++)
				refs[(*n)++] = (struct sref){ &p->sym[j],
					p->period, k, r };
		}
	qsort(refs, *n, sizeof(*refs), cmp_sref);
	return refs;
}

/* Ops and all samples per side and round, for the per-op values. */
static int round_totals(struct pool *pl, size_t *dropped)
{
	size_t i, r;
	int k;

	for (k = 0; k < 2; k++) {
		pl->ops[k] = calloc(pl->k + 1, sizeof(double));
		pl->tot[k] = calloc(pl->k + 1, sizeof(double));
		pl->unit[k] = calloc(pl->k + 1, sizeof(double));
		if (!pl->ops[k] || !pl->tot[k] || !pl->unit[k])
			return -1;
		for (i = 0; i < pl->np[k]; i++) {
			const struct nsb_profile *p = pl->p[k][i];

			r = round_index(pl, p->round);
			if (r == (size_t)-1) {
				(*dropped)++;
				continue;
			}
			/* several profiles of a round: their sums, pooled */
			pl->ops[k][r] += p->ops;
			pl->tot[k][r] += p->samples * p->period;
			pl->unit[k][r] += p->samples;
		}
		for (r = 0; r < pl->k; r++) {
			pl->tot[k][r] /= pl->ops[k][r];
			pl->unit[k][r] = pl->unit[k][r] > 0 ?
				pl->tot[k][r] / pl->unit[k][r] : 0;
		}
	}
	return 0;
}

/*
 * The matrix v[side][id * k + r] (a symbol absent from a round: 0) and
 * one row per distinct symbol.
 */
static int fill_matrix(struct pool *pl, struct nsb_prof_cmp *c)
{
	size_t i, n = 0, id = 0, k = pl->k;
	struct sref *refs = symbol_refs(pl, &n);
	int ret = -1, s;

	c->sym = calloc(n + 1, sizeof(*c->sym));
	if (!refs || !c->sym)
		goto out;
	for (i = 0; i < n; i++) {
		if (i && cmp_sref(&refs[i - 1], &refs[i]))
			id++;
		c->sym[id] = (struct nsb_prof_row){ .symbol = refs[i].s->symbol,
			.dso = refs[i].s->dso, .kernel = refs[i].s->kernel,
			.id = id };
	}
	c->nsym = n ? id + 1 : 0;
	for (s = 0; s < 2; s++)
		if (!(pl->v[s] = calloc(c->nsym * k + 1, sizeof(double))))
			goto out;
	for (i = id = 0; i < n; i++) {
		const struct sref *r = &refs[i];

		if (i && cmp_sref(&refs[i - 1], r))
			id++;
		pl->v[r->side][id * k + r->round] += r->s->samples * r->period;
	}
	for (s = 0; s < 2; s++)
		for (i = 0; i < c->nsym * k; i++)
			pl->v[s][i] /= pl->ops[s][i % k];
	ret = 0;
out:
	free(refs);
	return ret;
}

/*
 * The shift of per-round differences d[0..k) with the report rows'
 * statistics: median and sign-test CI (nsb_median_ci).  Significant:
 * the CI has its 95 % coverage (enough rounds) and excludes 0.
 */
static void shift_of(const double *d, size_t k, double *buf,
		     struct nsb_interval *r, bool *significant)
{
	memcpy(buf, d, k * sizeof(*buf));
	gsl_sort(buf, 1, k);
	nsb_median_ci(buf, k, NSB_ALPHA, r);
	*significant = r->level >= 1 - NSB_ALPHA - 1e-9 &&
		       (r->lo > 0 || r->hi < 0);
}

/* Base, patched and shift of a row from its per-round values. */
static void row_stats(struct nsb_prof_row *row, const double *a,
		      const double *b, double *d, size_t k, double *buf)
{
	size_t r;

	for (r = 0; r < k; r++)
		d[r] = b[r] - a[r];
	row->base = nsb_median_of(a, k, buf);
	row->patched = nsb_median_of(b, k, buf);
	shift_of(d, k, buf, &row->shift, &row->significant);
}

static int cmp_row(const void *pa, const void *pb)
{
	const struct nsb_prof_row *a = pa, *b = pb;
	double x = fabs(a->shift.est), y = fabs(b->shift.est);
	int c;

	if (x != y)
		return x < y ? 1 : -1;
	c = strcmp(a->symbol, b->symbol);
	return c ? c : strcmp(a->dso, b->dso);
}

/*
 * Counting noise: a per-op value v of a round stands on v / u samples
 * (u = the per-op value of one sample), so Poisson gives it a variance
 * of v * u, and a difference the sum of both sides'.  The median of k
 * such differences has a standard error of about 1.2533 sd / sqrt(k).
 * With hundreds of symbols each tested, a CI that excludes 0 is not
 * enough (about 3 % of them would, by chance): a shift must also exceed
 * NSB_PROF_FLOOR_Z standard errors of noise, which by chance one symbol
 * in ~16,000 does.
 */
static double noise_floor(const struct pool *pl, const double *a,
			  const double *b)
{
	double var = 0;
	size_t r;

	for (r = 0; r < pl->k; r++)
		var += a[r] * pl->unit[0][r] + b[r] * pl->unit[1][r];
	return NSB_PROF_FLOOR_Z * 1.2533 * sqrt(var / pl->k / pl->k);
}

static void apply_floor(struct nsb_prof_row *row, const struct pool *pl,
			const double *a, const double *b)
{
	row->floor = noise_floor(pl, a, b);
	row->significant = row->significant &&
			   fabs(row->shift.est) > row->floor;
}

static int compute_rows(struct pool *pl, struct nsb_prof_cmp *c)
{
	size_t i, k = pl->k;
	double *buf = malloc((k + 1) * sizeof(*buf));

	c->d = malloc((c->nsym * k + 1) * sizeof(*c->d));
	c->dtotal = malloc((k + 1) * sizeof(*c->dtotal));
	if (!buf || !c->d || !c->dtotal) {
		free(buf);
		return -1;
	}
	for (i = 0; i < c->nsym; i++) {
		row_stats(&c->sym[i], pl->v[0] + i * k, pl->v[1] + i * k,
			  c->d + i * k, k, buf);
		apply_floor(&c->sym[i], pl, pl->v[0] + i * k, pl->v[1] + i * k);
		c->nsig += c->sym[i].significant;
	}
	c->total = (struct nsb_prof_row){ .symbol = "total", .dso = "" };
	row_stats(&c->total, pl->tot[0], pl->tot[1], c->dtotal, k, buf);
	apply_floor(&c->total, pl, pl->tot[0], pl->tot[1]);
	qsort(c->sym, c->nsym, sizeof(*c->sym), cmp_row);
	free(buf);
	return 0;
}

static void pool_free(struct pool *pl)
{
	int k;

	for (k = 0; k < 2; k++) {
		free(pl->p[k]);
		free(pl->ops[k]);
		free(pl->v[k]);
		free(pl->tot[k]);
		free(pl->unit[k]);
	}
	free(pl->rounds);
}

int nsb_prof_compare(const struct nsb_prof_set *a, const struct nsb_prof_set *b,
		     const char *benchmark, struct nsb_prof_cmp *c)
{
	struct pool pl = { 0 };
	int ret = -1;

	memset(c, 0, sizeof(*c));
	c->benchmark = benchmark;
	if (gather(a, benchmark, &pl, 0, &c->dropped) ||
	    gather(b, benchmark, &pl, 1, &c->dropped) ||
	    common_rounds(&pl))
		goto oom;
	if (check_events(&pl, c))
		goto out;
	c->rounds = pl.k;
	ret = 1;
	if (pl.k < 2)
		goto out;
	if (round_totals(&pl, &c->dropped) || fill_matrix(&pl, c) ||
	    compute_rows(&pl, c))
		goto oom;
	ret = 0;
	goto out;
oom:
	fprintf(stderr, "nsbench: %s: out of memory\n", benchmark);
	ret = -1;
out:
	pool_free(&pl);
	if (ret)
		nsb_prof_cmp_free(c);
	c->rounds = pl.k;
	return ret;
}

void nsb_prof_cmp_free(struct nsb_prof_cmp *c)
{
	free(c->sym);
	free(c->d);
	free(c->dtotal);
	c->sym = NULL;
	c->d = c->dtotal = NULL;
	c->nsym = c->nsig = 0;
}

int nsb_prof_rest(const struct nsb_prof_cmp *c,
		  const struct nsb_prof_row *const *listed, size_t n,
		  struct nsb_interval *r)
{
	size_t k = c->rounds, i, j;
	double *rest = malloc((k + 1) * sizeof(*rest));
	double *buf = malloc((k + 1) * sizeof(*buf));
	bool sig;

	if (!rest || !buf) {
		free(rest);
		free(buf);
		return -1;
	}
	for (j = 0; j < k; j++) {
		rest[j] = c->dtotal[j];
		for (i = 0; i < n; i++)
			rest[j] -= c->d[listed[i]->id * k + j];
	}
	shift_of(rest, k, buf, r, &sig);
	free(rest);
	free(buf);
	return 0;
}

/* --- the report's blocks ---------------------------------------------- */

int nsb_prof_sides_load(struct nsb_prof_sides *p, const char *base,
			const char *patched)
{
	memset(p, 0, sizeof(*p));
	nsb_prof_set_init(&p->base, "base");
	nsb_prof_set_init(&p->patched, "patched");
	return nsb_prof_set_load(&p->base, base) ||
	       nsb_prof_set_load(&p->patched, patched) ? -1 : 0;
}

static bool shifted(const struct nsb_row *r)
{
	return r->e.verdict == NSB_SLOWER || r->e.verdict == NSB_FASTER;
}

int nsb_prof_sides_prepare(struct nsb_prof_sides *p,
			   const struct nsb_comparison *c)
{
	size_t i;
	int ret;

	p->cmp = calloc(c->n + 1, sizeof(*p->cmp));
	p->state = calloc(c->n + 1, sizeof(*p->state));
	if (!p->cmp || !p->state) {
		fprintf(stderr, "nsbench: out of memory\n");
		return -1;
	}
	p->n = c->n;
	for (i = 0; i < c->n; i++) {
		const struct nsb_row *r = &c->rows[i];

		if (!shifted(r) || !nsb_prof_set_has(&p->base, r->name) ||
		    !nsb_prof_set_has(&p->patched, r->name))
			continue;
		ret = nsb_prof_compare(&p->base, &p->patched, r->name,
				       &p->cmp[i]);
		if (ret < 0)
			return -1;
		p->state[i] = ret ? NSB_PROF_FEW : NSB_PROF_DONE;
	}
	return 0;
}

void nsb_prof_sides_free(struct nsb_prof_sides *p)
{
	size_t i;

	for (i = 0; p->cmp && i < p->n; i++)
		nsb_prof_cmp_free(&p->cmp[i]);
	free(p->cmp);
	free(p->state);
	nsb_prof_set_free(&p->base);
	nsb_prof_set_free(&p->patched);
	memset(p, 0, sizeof(*p));
}
