// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c — rank statistics for benchmark comparisons.  Distribution
 * functions, quantiles and random numbers come from GSL; what is written
 * here is the counting (ranks, exact null distributions by dynamic
 * programming) that GSL does not offer.  Conventions match SciPy 1.10
 * (mannwhitneyu, wilcoxon) so tests can check against it.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "src/lib/stats/stats.h"

/* Largest sizes for which the exact null distributions are used. */
#define EXACT_MAX_N	50

double *nsb_sorted_copy(const double *x, size_t n)
{
	double *s = malloc((n ? n : 1) * sizeof(*s));

	if (!s)
		return NULL;
	if (n)
		memcpy(s, x, n * sizeof(*s));
	gsl_sort(s, 1, n);
	return s;
}

double nsb_median_of(const double *x, size_t n, double *buf)
{
	memcpy(buf, x, n * sizeof(*buf));
	gsl_sort(buf, 1, n);
	return gsl_stats_median_from_sorted_data(buf, 1, n);
}

/*
 * The CI rule of stats.h, given the null CDF of the rank statistic as a
 * callback: k is the largest k >= 1 with cdf(k - 1) <= alpha/2.  The
 * small slack keeps an exact equality (possible for U) on the safe side
 * of rounding.
 */
static size_t ci_rank(double (*cdf)(long k, const void *arg),
		      const void *arg, size_t m, double alpha, double *level)
{
	size_t k = 1;

	while (k + 1 <= (m + 1) / 2 &&
	       cdf((long)k, arg) <= alpha / 2 * (1 + 1e-9))
		k++;
	*level = 1 - 2 * cdf((long)k - 1, arg);
	if (*level < 0)
		*level = 0;
	return k;
}

static void interval_from_sorted(const double *v, size_t m, size_t k,
				 struct nsb_interval *r)
{
	r->lo = v[k - 1];
	r->hi = v[m - k];
}

/* --- summary and the CI of a median ----------------------------------- */

static double binom_cdf(long k, const void *arg)
{
	size_t n = *(const size_t *)arg;

	return k < 0 ? 0 : gsl_cdf_binomial_P((unsigned int)k, 0.5,
					      (unsigned int)n);
}

void nsb_median_ci(const double *sorted, size_t n, double alpha,
		   struct nsb_interval *r)
{
	size_t k = ci_rank(binom_cdf, &n, n, alpha, &r->level);

	r->est = gsl_stats_median_from_sorted_data(sorted, 1, n);
	interval_from_sorted(sorted, n, k, r);
}

/*
 * How a statistic over n values starts: its result r (size bytes) zeroed,
 * x sorted into a new *v.  0, -EINVAL without values, or -ENOMEM.
 */
static int sorted_start(void *r, size_t size, const double *x, size_t n,
			double **v)
{
	memset(r, 0, size);
	if (!n)
		return -EINVAL;
	*v = nsb_sorted_copy(x, n);
	return *v ? 0 : -ENOMEM;
}

int nsb_summarize(const double *x, size_t n, struct nsb_summary *s)
{
	struct nsb_interval ci;
	double *v;
	int ret = sorted_start(s, sizeof(*s), x, n, &v);

	if (ret)
		return ret;
	s->n = n;
	s->min = v[0];
	s->max = v[n - 1];
	s->mean = gsl_stats_mean(v, 1, n);
	s->sd = n > 1 ? gsl_stats_sd_m(v, 1, n, s->mean) : 0;
	s->cv = s->mean != 0 ? s->sd / fabs(s->mean) : 0;
	nsb_median_ci(v, n, NSB_ALPHA, &ci);
	s->median = ci.est;
	s->ci_lo = ci.lo;
	s->ci_hi = ci.hi;
	s->ci_level = ci.level;
	free(v);
	return 0;
}

/* --- ranks ------------------------------------------------------------ */

struct ranked {
	double v;
	size_t idx;
};

static int cmp_ranked(const void *a, const void *b)
{
	return nsb_cmp_double(&((const struct ranked *)a)->v,
			      &((const struct ranked *)b)->v);
}

/*
 * Average ranks (1-based) of v[0..n) into rank[]; returns sum(t^3 - t)
 * over the groups of t tied values (0: no ties), or -1 on ENOMEM.
 */
static double rank_avg(const double *v, size_t n, double *rank)
{
	struct ranked *r = malloc((n ? n : 1) * sizeof(*r));
	double ties = 0;
	size_t i, j, k;

	if (!r)
		return -1;
	for (i = 0; i < n; i++)
		r[i] = (struct ranked){ v[i], i };
	qsort(r, n, sizeof(*r), cmp_ranked);
	for (i = 0; i < n; i = j) {
		double t;

		for (j = i + 1; j < n && r[j].v == r[i].v; j++)
			;
		t = (double)(j - i);
		ties += t * t * t - t;
		for (k = i; k < j; k++)
			rank[r[k].idx] = (double)(i + j + 1) / 2;
	}
	free(r);
	return ties;
}

/* --- Mann-Whitney U --------------------------------------------------- */

/*
 * Null distribution of U for sizes (m, n) without ties: cdf[u] = P(U <= u),
 * u = 0..m*n.  Counts the m-subsets of ranks 1..m+n by rank sum; additions
 * only, so counts are exact while they fit a double's 53 bits and carry a
 * relative error of ~1e-16 beyond.
 */
static double *mwu_null_cdf(size_t m, size_t n)
{
	size_t N = m + n, maxw = m * (2 * N - m + 1) / 2, i, k, w;
	size_t minw = m * (m + 1) / 2, mn = m * n;
	double *c = calloc((m + 1) * (maxw + 1), sizeof(*c));
	double *cdf = malloc((mn + 1) * sizeof(*cdf));
	double total = 0, acc = 0;

	if (!c || !cdf)
		goto fail;
#define C(k, w) c[(k) * (maxw + 1) + (w)]
	C(0, 0) = 1;
	for (i = 1; i <= N; i++)
		for (k = (i < m ? i : m); k >= 1; k--)
			for (w = maxw; w >= i; w--)
				C(k, w) += C(k - 1, w - i);
	for (w = minw; w <= maxw; w++)
		total += C(m, w);
	for (w = minw; w <= maxw; w++) {
		acc += C(m, w);
		cdf[w - minw] = acc / total;
	}
#undef C
	free(c);
	return cdf;
fail:
	free(c);
	free(cdf);
	return NULL;
}

/*
 * The last table, kept: a comparison asks for the same sizes row after
 * row, and building the table for 50 x 50 costs ~10^7 additions.
 */
static const double *mwu_cdf_cached(size_t m, size_t n)
{
	static double *cdf;
	static size_t cm, cn;
	double *fresh;

	if (cdf && cm == m && cn == n)
		return cdf;
	fresh = mwu_null_cdf(m, n);
	if (!fresh)
		return NULL;
	free(cdf);
	cdf = fresh;
	cm = m;
	cn = n;
	return cdf;
}

struct cdf_table {
	const double *cdf;
	long max;
};

static double table_cdf(long k, const void *arg)
{
	const struct cdf_table *t = arg;

	if (k < 0)
		return 0;
	return k >= t->max ? 1 : t->cdf[k];
}

int nsb_mann_whitney(const double *x, size_t nx, const double *y, size_t ny,
		     enum nsb_method method, struct nsb_mwu *r)
{
	size_t N = nx + ny, i;
	double *all, *rank, ties, r1 = 0, mu, s, umax;

	memset(r, 0, sizeof(*r));
	if (!nx || !ny)
		return -EINVAL;
	all = malloc(N * sizeof(*all));
	rank = malloc(N * sizeof(*rank));
	if (!all || !rank) {
		free(all);
		free(rank);
		return -ENOMEM;
	}
	memcpy(all, x, nx * sizeof(*x));
	memcpy(all + nx, y, ny * sizeof(*y));
	ties = rank_avg(all, N, rank);
	for (i = 0; i < nx; i++)
		r1 += rank[i];
	free(all);
	free(rank);
	if (ties < 0)
		return -ENOMEM;

	r->u = r1 - (double)nx * (nx + 1) / 2;
	umax = fmax(r->u, (double)nx * ny - r->u);
	if (method == NSB_AUTO)
		method = ties == 0 && nx <= EXACT_MAX_N && ny <= EXACT_MAX_N ?
			 NSB_EXACT : NSB_ASYMPTOTIC;
	if (method == NSB_EXACT) {
		const double *cdf = mwu_cdf_cached(nx, ny);
		long umin = (long)((double)nx * ny - umax);

		if (!cdf)
			return -ENOMEM;
		/* P(U >= umax) = P(U <= mn - umax) by symmetry. */
		r->p = fmin(1, 2 * cdf[umin]);
		r->exact = true;
		return 0;
	}
	/* Normal approximation, tie-corrected, with continuity correction. */
	mu = (double)nx * ny / 2;
	s = sqrt((double)nx * ny / 12 *
		 ((N + 1) - ties / ((double)N * (N - 1))));
	r->z = s > 0 ? (umax - mu - 0.5) / s : 0;
	r->p = s > 0 ? fmin(1, 2 * gsl_cdf_ugaussian_Q(r->z)) : 1;
	return 0;
}

/* Normal-approximation k of the CI rule for a statistic of mean mu, sd s. */
static size_t ci_rank_normal(double mu, double s, size_t m, double alpha,
			     double *level)
{
	double z = gsl_cdf_ugaussian_Qinv(alpha / 2);
	double k = floor(mu - z * s + 0.5);

	if (k < 1)
		k = 1;
	if (k > (double)(m + 1) / 2)
		k = (double)((m + 1) / 2);
	*level = 1 - 2 * gsl_cdf_ugaussian_P((k - 1 + 0.5 - mu) / s);
	return (size_t)k;
}

static bool has_ties(const double *sorted, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (sorted[i] == sorted[i - 1])
			return true;
	return false;
}

/* --- order statistics of pairwise values ----------------------------- */

/*
 * A sorted matrix: row r holds at(r, c) for c in [first(r), cols), the
 * values growing along each row and down each column.  The pairwise
 * differences y_c - x_r (rows taken from the largest x down) and the
 * Walsh averages (d_r + d_c) / 2, c >= r, are such matrices.  Their
 * order statistics are found by selection: a random candidate as pivot,
 * a count of the values below it in O(rows + cols) along the staircase,
 * and the candidates narrowed to one side (Johnson and Mizoguchi 1978;
 * Monahan's HLQEST, 1984).  That is O((rows + cols) log(rows cols))
 * time and O(rows) memory, where sorting all the values took 8 rows
 * cols bytes: 3.2 GB for 20,000 samples a side.  The values compared are
 * computed by the one expression at(), so the counts are exact.
 */
struct smat {
	const double *x, *y;	/* sorted ascending */
	size_t rows, cols;
	bool walsh;		/* (x_r + x_c) / 2, else y_c - x_(rows-1-r) */
	unsigned long long rng;
};

static double smat_at(const struct smat *m, size_t r, size_t c)
{
	if (m->walsh)
		return (m->x[r] + m->x[c]) / 2;
	return m->y[c] - m->x[m->rows - 1 - r];
}

static size_t smat_first(const struct smat *m, size_t r)
{
	return m->walsh ? r : 0;
}

/*
 * Per row, the first column whose value is >= v (or > v if above) into
 * b[]; returns how many values lie before those columns.  The boundary
 * only moves left from one row to the next: one walk of the staircase.
 */
static size_t smat_split(const struct smat *m, double v, bool above,
			 size_t *b)
{
	size_t r, p = m->cols, n = 0, f;

	for (r = 0; r < m->rows; r++) {
		f = smat_first(m, r);
		while (p > f && (above ? smat_at(m, r, p - 1) > v :
				 smat_at(m, r, p - 1) >= v))
			p--;
		b[r] = p > f ? p : f;
		n += b[r] - f;
	}
	return n;
}

static unsigned long long smat_rand(struct smat *m)
{
	/* xorshift64: fixed seed, the same answer every time */
	m->rng ^= m->rng << 13;
	m->rng ^= m->rng >> 7;
	m->rng ^= m->rng << 17;
	return m->rng;
}

/* A candidate value, uniformly among those in [lo[r], hi[r]) per row. */
static double smat_pivot(struct smat *m, const size_t *lo, const size_t *hi,
			 size_t total)
{
	size_t pick = (size_t)(smat_rand(m) % total), r;

	for (r = 0; pick >= hi[r] - lo[r]; r++)
		pick -= hi[r] - lo[r];
	return smat_at(m, r, lo[r] + pick);
}

/* The value of rank k (from 0) among the remaining candidates. */
static double smat_pick(const struct smat *m, const size_t *lo,
			const size_t *hi, size_t total, size_t k, int *err)
{
	double *buf = malloc((total ? total : 1) * sizeof(*buf)), v;
	size_t r, c, n = 0;

	if (!buf) {
		*err = -ENOMEM;
		return NAN;
	}
	for (r = 0; r < m->rows; r++)
		for (c = lo[r]; c < hi[r]; c++)
			buf[n++] = smat_at(m, r, c);
	gsl_sort(buf, 1, n);
	v = buf[k];
	free(buf);
	return v;
}

/* The value of rank k (from 0) of the matrix. */
static double smat_select(struct smat *m, size_t k, int *err)
{
	size_t *lo = malloc(3 * (m->rows ? m->rows : 1) * sizeof(*lo));
	size_t *hi = lo + m->rows, *b = hi + m->rows;
	size_t r, total, left = 0, n;
	double v;

	if (!lo) {
		*err = -ENOMEM;
		return NAN;
	}
	for (r = 0; r < m->rows; r++) {
		lo[r] = smat_first(m, r);
		hi[r] = m->cols;
	}
	m->rng = 0x9e3779b97f4a7c15ULL;
	for (;;) {
		for (r = 0, total = 0; r < m->rows; r++)
			total += hi[r] - lo[r];
		if (total <= 2 * (m->rows + m->cols)) {
			v = smat_pick(m, lo, hi, total, k - left, err);
			break;
		}
		v = smat_pivot(m, lo, hi, total);
		n = smat_split(m, v, false, b);
		if (k < n) {
			for (r = 0; r < m->rows; r++)
				hi[r] = b[r] < hi[r] ? b[r] : hi[r];
			continue;
		}
		n = smat_split(m, v, true, b);
		if (k < n)
			break;		/* v itself, tied or not */
		for (r = 0; r < m->rows; r++)
			lo[r] = b[r] > lo[r] ? b[r] : lo[r];
		left = n;
	}
	free(lo);
	return v;
}

/* Median, as gsl_stats_median_from_sorted_data takes it, of all M values. */
static double smat_median(struct smat *m, size_t M, int *err)
{
	if (M % 2)
		return smat_select(m, M / 2, err);
	return (smat_select(m, M / 2 - 1, err) +
		smat_select(m, M / 2, err)) / 2;
}

int nsb_hodges_lehmann(const double *x, size_t nx, const double *y,
		       size_t ny, double alpha, struct nsb_interval *r)
{
	size_t m = nx * ny, k, N = nx + ny;
	struct smat mt = { .rows = nx, .cols = ny };
	double *sx, *sy, *all;
	int err = 0;
	bool tied;

	memset(r, 0, sizeof(*r));
	if (!nx || !ny)
		return -EINVAL;
	sx = nsb_sorted_copy(x, nx);
	sy = nsb_sorted_copy(y, ny);
	all = malloc(N * sizeof(*all));
	if (!sx || !sy || !all) {
		err = -ENOMEM;
		goto out;
	}
	mt.x = sx;
	mt.y = sy;
	r->est = smat_median(&mt, m, &err);

	memcpy(all, x, nx * sizeof(*x));
	memcpy(all + nx, y, ny * sizeof(*y));
	gsl_sort(all, 1, N);
	tied = has_ties(all, N);
	if (!tied && nx <= EXACT_MAX_N && ny <= EXACT_MAX_N) {
		const double *cdf = mwu_cdf_cached(nx, ny);
		struct cdf_table t = { cdf, (long)m };

		if (!cdf) {
			err = -ENOMEM;
			goto out;
		}
		k = ci_rank(table_cdf, &t, m, alpha, &r->level);
	} else {
		double *rank = malloc(N * sizeof(*rank));
		double ties = rank ? rank_avg(all, N, rank) : -1;
		double s = sqrt((double)m / 12 *
				((N + 1) - ties / ((double)N * (N - 1))));

		free(rank);
		if (ties < 0 || s <= 0) {
			/* all values equal: every difference is 0 */
			k = 1;
			r->level = 0;
		} else {
			k = ci_rank_normal((double)m / 2, s, m, alpha,
					   &r->level);
		}
	}
	/* [v_(k), v_(m + 1 - k)], from 1 */
	r->lo = smat_select(&mt, k - 1, &err);
	r->hi = smat_select(&mt, m - k, &err);
out:
	free(sx);
	free(sy);
	free(all);
	return err;
}

/* --- Wilcoxon signed-rank --------------------------------------------- */

/* cdf[t] = P(T+ <= t) for n untied non-zero differences. */
static double *signrank_null_cdf(size_t n)
{
	size_t M = n * (n + 1) / 2, r, t;
	double *c = calloc(M + 1, sizeof(*c)), total;

	if (!c)
		return NULL;
	c[0] = 1;
	for (r = 1; r <= n; r++)
		for (t = M; t >= r; t--)
			c[t] += c[t - r];
	total = ldexp(1, (int)n);
	for (t = 1; t <= M; t++)
		c[t] += c[t - 1];
	for (t = 0; t <= M; t++)
		c[t] /= total;
	return c;
}

/* Non-zero d[] into nz[], returning how many. */
static size_t nonzero(const double *d, size_t n, double *nz)
{
	size_t i, m = 0;

	for (i = 0; i < n; i++)
		if (d[i] != 0)
			nz[m++] = d[i];
	return m;
}

int nsb_wilcoxon(const double *d, size_t n, enum nsb_method method,
		 struct nsb_signrank *r)
{
	double *nz = malloc((n ? n : 1) * sizeof(*nz));
	double *absd = malloc((n ? n : 1) * sizeof(*absd));
	double *rank = malloc((n ? n : 1) * sizeof(*rank));
	double ties, mn, se;
	size_t m, i;
	int ret = -ENOMEM;

	memset(r, 0, sizeof(*r));
	if (!nz || !absd || !rank)
		goto out;
	m = nonzero(d, n, nz);
	r->n = m;
	r->p = 1;
	ret = 0;
	if (!m)
		goto out;
	for (i = 0; i < m; i++)
		absd[i] = fabs(nz[i]);
	ties = rank_avg(absd, m, rank);
	if (ties < 0) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < m; i++) {
		if (nz[i] > 0)
			r->t_plus += rank[i];
		else
			r->t_minus += rank[i];
	}
	r->t = fmin(r->t_plus, r->t_minus);
	if (method == NSB_AUTO)
		method = ties == 0 && m <= EXACT_MAX_N ? NSB_EXACT :
			 NSB_ASYMPTOTIC;
	if (method == NSB_EXACT) {
		double *cdf = signrank_null_cdf(m);

		if (!cdf) {
			ret = -ENOMEM;
			goto out;
		}
		/* P(T+ <= min) = P(T+ >= max) by symmetry. */
		r->p = fmin(1, 2 * cdf[(size_t)r->t]);
		r->exact = true;
		free(cdf);
		goto out;
	}
	/* Normal approximation with tie correction, no continuity term. */
	mn = (double)m * (m + 1) / 4;
	se = sqrt(((double)m * (m + 1) * (2 * m + 1) - ties / 2) / 24);
	r->z = se > 0 ? (r->t - mn) / se : 0;
	r->p = se > 0 ? fmin(1, 2 * gsl_cdf_ugaussian_Q(fabs(r->z))) : 1;
out:
	free(nz);
	free(absd);
	free(rank);
	return ret;
}

int nsb_walsh(const double *d, size_t n, double alpha, struct nsb_interval *r)
{
	size_t M = n * (n + 1) / 2, k;
	struct smat mt = { .rows = n, .cols = n, .walsh = true };
	double *sorted;
	int err = sorted_start(r, sizeof(*r), d, n, &sorted);

	if (err)
		return err;
	mt.x = sorted;
	r->est = smat_median(&mt, M, &err);

	if (!has_ties(sorted, n) && n <= EXACT_MAX_N) {
		double *cdf = signrank_null_cdf(n);
		struct cdf_table t = { cdf, (long)M };

		if (!cdf) {
			free(sorted);
			return -ENOMEM;
		}
		k = ci_rank(table_cdf, &t, M, alpha, &r->level);
		free(cdf);
	} else {
		double s = sqrt((double)n * (n + 1) * (2 * n + 1) / 24);

		k = ci_rank_normal((double)M / 2, s, M, alpha, &r->level);
	}
	r->lo = smat_select(&mt, k - 1, &err);
	r->hi = smat_select(&mt, M - k, &err);
	free(sorted);
	return err;
}

/* --- bootstrap -------------------------------------------------------- */

/*
 * One side of the bootstrap: its values sorted, the sorted place of each
 * original one, and a count per place.  A resample is n draws of an
 * original place (the draws nsbench always made, so the same seed gives
 * the same ratios); its median is read off the running sum of the counts
 * per sorted place: O(n) with a small constant, where a selection on a
 * copy of the resample cost 15 s for 100,000 samples a side.
 */
struct boot_side {
	double *sorted;
	size_t *place;
	unsigned int *cnt;
	size_t n;
};

static int boot_side_init(struct boot_side *b, const double *x, size_t n)
{
	struct ranked *r = malloc(n * sizeof(*r));
	size_t i;

	b->n = n;
	b->sorted = malloc(n * sizeof(*b->sorted));
	b->place = malloc(n * sizeof(*b->place));
	b->cnt = malloc(n * sizeof(*b->cnt));
	if (!r || !b->sorted || !b->place || !b->cnt) {
		free(r);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		r[i] = (struct ranked){ x[i], i };
	qsort(r, n, sizeof(*r), cmp_ranked);
	for (i = 0; i < n; i++) {
		b->sorted[i] = r[i].v;
		b->place[r[i].idx] = i;
	}
	free(r);
	return 0;
}

static void boot_side_free(struct boot_side *b)
{
	free(b->sorted);
	free(b->place);
	free(b->cnt);
}

/* The median of one resample, as gsl_stats_median would give it. */
static double counted_median(gsl_rng *rng, struct boot_side *b)
{
	size_t i, k, acc = 0, h = (b->n - 1) / 2;
	double v;

	memset(b->cnt, 0, b->n * sizeof(*b->cnt));
	for (i = 0; i < b->n; i++)
		b->cnt[b->place[gsl_rng_uniform_int(rng, b->n)]]++;
	for (k = 0; acc + b->cnt[k] <= h; k++)
		acc += b->cnt[k];
	v = b->sorted[k];
	if (b->n % 2 || acc + b->cnt[k] > h + 1)
		return v;
	for (k++; !b->cnt[k]; k++)
		;
	return 0.5 * (v + b->sorted[k]);
}

/*
 * The sorted places holding the draws of rank r[0] and r[1] (from 0,
 * r[0] <= r[1]) among c draws that fell in places [a, b): the counts of
 * a multinomial drawn lazily down a binary split of the places, one
 * binomial per level, both ranks together until they part.
 */
static void tree_ranks(gsl_rng *rng, size_t a, size_t b, unsigned int c,
		       const size_t r[2], size_t place[2], int which)
{
	size_t mid, rr[2];
	unsigned int left;

	while (b - a > 1) {
		mid = a + (b - a) / 2;
		left = gsl_ran_binomial(rng, (double)(mid - a) / (double)(b - a),
					c);
		if (which < 0 && r[0] < left && r[1] >= left) {
			/* they part: each on its own side */
			tree_ranks(rng, a, mid, left, r, place, 0);
			rr[0] = rr[1] = r[1] - left;
			tree_ranks(rng, mid, b, c - left, rr, place, 1);
			return;
		}
		if (r[which < 0 ? 0 : which] < left) {
			b = mid;
			c = left;
		} else {
			rr[0] = r[0] - left;
			rr[1] = r[1] - left;
			r = rr;
			a = mid;
			c -= left;
		}
	}
	if (which < 0)
		place[0] = place[1] = a;
	else
		place[which] = a;
}

/*
 * Large samples: the same bootstrap distribution of the median in
 * O(log n) a resample instead of O(n), from other random numbers (so
 * above BOOT_COUNTED the ratios are not those of nsbench before 2026-12,
 * which took 15 s for 100,000 samples a side).
 */
#define BOOT_COUNTED	4096

static double tree_median(gsl_rng *rng, struct boot_side *b)
{
	size_t r[2] = { (b->n - 1) / 2, b->n / 2 }, place[2];

	tree_ranks(rng, 0, b->n, (unsigned int)b->n, r, place, -1);
	if (place[0] == place[1])
		return b->sorted[place[0]];
	return 0.5 * (b->sorted[place[0]] + b->sorted[place[1]]);
}

static double resampled_median(gsl_rng *rng, struct boot_side *b)
{
	return b->n <= BOOT_COUNTED ? counted_median(rng, b) :
	       tree_median(rng, b);
}

int nsb_boot_ratio(const double *x, size_t nx, const double *y, size_t ny,
		   unsigned long seed, size_t reps, double alpha,
		   struct nsb_interval *r)
{
	struct boot_side bx = { 0 }, by = { 0 };
	double *ratio = NULL, mx, my;
	size_t b, got = 0;
	gsl_rng *rng = NULL;
	bool constant;
	int ret = -ENOMEM;

	memset(r, 0, sizeof(*r));
	r->est = r->lo = r->hi = NAN;
	if (!nx || !ny || !reps)
		return -EINVAL;
	if (boot_side_init(&bx, x, nx) || boot_side_init(&by, y, ny))
		goto out;
	/* constant sides (one sample each, say): no draw changes a ratio */
	constant = bx.sorted[0] == bx.sorted[nx - 1] &&
		   by.sorted[0] == by.sorted[ny - 1];
	ratio = malloc(reps * sizeof(*ratio));
	rng = constant ? NULL : gsl_rng_alloc(gsl_rng_mt19937);
	if (!ratio || (!constant && !rng))
		goto out;
	ret = 0;
	mx = gsl_stats_median_from_sorted_data(bx.sorted, 1, nx);
	my = gsl_stats_median_from_sorted_data(by.sorted, 1, ny);
	if (mx == 0)
		goto out;	/* no ratio to a zero baseline */
	r->est = my / mx;
	if (rng)
		gsl_rng_set(rng, seed);
	for (b = 0; b < reps; b++) {
		double vx = constant ? mx : resampled_median(rng, &bx);
		double vy = constant ? my : resampled_median(rng, &by);

		if (vx != 0)
			ratio[got++] = vy / vx;
	}
	if (!got)
		goto out;
	if (!constant)
		gsl_sort(ratio, 1, got);
	r->lo = gsl_stats_quantile_from_sorted_data(ratio, 1, got, alpha / 2);
	r->hi = gsl_stats_quantile_from_sorted_data(ratio, 1, got,
						    1 - alpha / 2);
	r->level = 1 - alpha;
out:
	gsl_rng_free(rng);
	boot_side_free(&bx);
	boot_side_free(&by);
	free(ratio);
	return ret;
}

/* --- power ------------------------------------------------------------ */

/*
 * Normal-theory sizes, divided by the asymptotic relative efficiency of
 * the rank tests against the t test for normal data (3/pi): the rank
 * tests need ~5 % more samples.  Benchmark noise is rarely normal, so read
 * these as the order of magnitude they are.
 */
static double z_sum(void)
{
	return gsl_cdf_ugaussian_Qinv(NSB_ALPHA / 2) +
	       gsl_cdf_ugaussian_Pinv(NSB_POWER);
}

double nsb_mde(double sx, size_t nx, double sy, size_t ny)
{
	double var = 0;

	if (nx)
		var += sx * sx / (double)nx;
	if (ny)
		var += sy * sy / (double)ny;
	return z_sum() * sqrt(var / (3 / M_PI));
}

size_t nsb_n_needed(double sx, double sy, bool paired, double delta)
{
	/*
	 * Below these sizes no outcome of the exact test reaches p < 0.05:
	 * 2 / C(8, 4) = 0.029 for U, 2 / 2^6 = 0.031 for the signed rank.
	 */
	size_t floor_n = paired ? 6 : 4;
	double n;

	if (!(delta > 0) || !isfinite(delta))
		return 0;
	n = z_sum() * z_sum() * (sx * sx + sy * sy) / (delta * delta) /
	    (3 / M_PI);
	/* NaN or huge: no size_t holds it (a cast would be undefined) */
	if (!(n <= 1e9))
		return (size_t)1e9;
	return n < (double)floor_n ? floor_n : (size_t)ceil(n);
}

/* --- multiple comparisons --------------------------------------------- */

/* The p-values sorted with their places, as ranks sort the samples. */
int nsb_holm(const double *p, size_t n, double *adj)
{
	struct ranked *s = malloc((n ? n : 1) * sizeof(*s));
	double run = 0;
	size_t i;

	if (!s)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		s[i] = (struct ranked){ p[i], i };
	qsort(s, n, sizeof(*s), cmp_ranked);
	for (i = 0; i < n; i++) {
		double a = fmin(1, (double)(n - i) * s[i].v);

		run = fmax(run, a);
		adj[s[i].idx] = run;
	}
	free(s);
	return 0;
}
