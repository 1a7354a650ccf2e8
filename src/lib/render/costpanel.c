// SPDX-License-Identifier: GPL-2.0
/*
 * costpanel.c — the check-cost chart's layout (costplot.h): the rows of
 * each family in panels with their own x range, the panels on pages, and
 * each page's size, margins and ticks in pixels, measured from the text
 * actually drawn.  gnuplot sizes a margin from its own guess of a font's
 * width and spaces ticks by the range alone; both cut labels or ran them
 * together (`-35000-30000-25000`), so the numbers are made here.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/render/costplot.h"
#include "src/lib/render/gnuplot.h"
#include "src/lib/render/rowplot.h"
#include "src/lib/render/table.h"
#include "src/lib/render/ticks.h"

#define PAGE_PX		800.0	/* panels of one page: ~930 px with title */
#define PANEL_ROWS	32	/* rows of one panel: 764 px, inside a page */
#define LABEL_MAX	100	/* bytes of a row label; make run's are < 50 */
#define FONT_PX		11.0	/* common.gp: svg Sans 11, png Sans 10 */
#define PLOT_PX		560.0	/* the x axis of every panel */
#define MIN_PX		10.0	/* narrower, a CI hides under its ~8 px marker */
#define TICK_GAP	18.0	/* pixels between two tick labels */
#define MAX_TICKS	8
#define TOP_PX		92.0	/* the title's two lines and the legend */
#define HEAD_PX		26.0	/* a panel's title */
#define ROW_PX		22.0
#define AXIS_PX		24.0	/* a panel's tick labels */
#define GAP_PX		10.0
#define BOTTOM_PX	44.0	/* the axis name under the last panel */
#define PAD		0.06	/* of a range, either side */
#define PAGE_PANELS	16	/* PAGE_PX holds 9 of the smallest */

/* --- panels ------------------------------------------------------------ */

static double size_of(const struct nsb_cp_point *p)
{
	return fmax(fmax(fabs(p->lo), fabs(p->hi)), fabs(p->est));
}

/* The x range of points idx[0..n), with 0 in it or not, padded. */
static void range_of(const struct nsb_cp *cp, const size_t *idx, size_t n,
		     bool zero, double *lo, double *hi)
{
	double a = zero ? 0 : INFINITY, b = zero ? 0 : -INFINITY, pad;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct nsb_cp_point *p = &cp->pt[idx[i]];

		a = fmin(a, fmin(p->lo, p->est));
		b = fmax(b, fmax(p->hi, p->est));
	}
	pad = (b - a) * PAD;
	/* a flat panel (an A/A: all zero) still gets an axis */
	if (!(pad > fabs(b) * 1e-9))
		pad = fmax(fabs(b) * 0.01, 1);
	*lo = a - pad;
	*hi = b + pad;
}

/*
 * The step the table prints a shift in (nsb_fmt_shift): whole
 * instructions from 10 up, else tenths.  A CI narrower than that
 * ("+24 [+24, +24]") is a point to the reader of the table, and drawn
 * as one; a wider one must show as a whisker.
 */
static double printed_step(const struct nsb_cp_point *p)
{
	return fmax(fabs(p->lo), fabs(p->hi)) >= 10 ? 1 : 0.1;
}

/*
 * Whether p reads on the axis lo..hi: its CI a few pixels wide where
 * the table prints one, else its shift a few pixels off zero where the
 * table prints one.
 */
static bool visible(const struct nsb_cp_point *p, double lo, double hi)
{
	double px = PLOT_PX / (hi - lo), step = printed_step(p);

	if (p->hi - p->lo >= step)
		return (p->hi - p->lo) * px >= MIN_PX;
	return fabs(p->est) < step / 2 || fabs(p->est) * px >= MIN_PX;
}

/*
 * idx: points by size, largest first.  How many of them share the first
 * one's axis with every one readable (at most PANEL_ROWS), and that
 * axis.  The first alone decides whether 0 is on it: a narrow CI far
 * from zero (-30,440..-30,430) is drawn zoomed or not at all.
 */
static size_t band(const struct nsb_cp *cp, const size_t *idx, size_t n,
		   struct nsb_cp_panel *pn)
{
	size_t m, i;
	double lo, hi;

	range_of(cp, idx, 1, true, &pn->lo, &pn->hi);
	pn->zoomed = !visible(&cp->pt[idx[0]], pn->lo, pn->hi);
	if (pn->zoomed)
		range_of(cp, idx, 1, false, &pn->lo, &pn->hi);
	for (m = 1; m < n && m < PANEL_ROWS; m++) {
		range_of(cp, idx, m + 1, !pn->zoomed, &lo, &hi);
		for (i = 0; i <= m && visible(&cp->pt[idx[i]], lo, hi); i++)
			;
		if (i <= m)
			break;
		pn->lo = lo;
		pn->hi = hi;
	}
	return m;
}

/* Insertion sort (stable; a family is small) by size, or by index. */
static void sort_idx(const struct nsb_cp *cp, size_t *idx, size_t n,
		     bool by_size)
{
	size_t i, j, v;

	for (i = 1; i < n; i++) {
		v = idx[i];
		for (j = i; j > 0; j--) {
			if (by_size ? size_of(&cp->pt[idx[j - 1]]) >=
				      size_of(&cp->pt[v]) : idx[j - 1] < v)
				break;
			idx[j] = idx[j - 1];
		}
		idx[j] = v;
	}
}

/* The panels of family fam's cost rows, or of its decided rows. */
static int family_panels(struct nsb_cp *cp, size_t fam, bool decides,
			 size_t *idx)
{
	size_t n = 0, i, m, first = cp->npan;

	for (i = 0; i < cp->npt; i++)
		if (cp->pt[i].fam == fam &&
		    (cp->pt[i].verdict == NSB_CP_DECIDES) == decides)
			idx[n++] = i;
	sort_idx(cp, idx, n, true);
	for (i = 0; i < n; i += m) {
		struct nsb_cp_panel *pn = &cp->pan[cp->npan];

		m = band(cp, idx + i, n - i, pn);
		pn->rows = malloc(m * sizeof(*pn->rows));
		if (!pn->rows)
			return -1;
		memcpy(pn->rows, idx + i, m * sizeof(*pn->rows));
		sort_idx(cp, pn->rows, m, false);
		pn->n = m;
		pn->fam = fam;
		pn->band = (int)(cp->npan++ - first);
		pn->step = nsb_tick_step(pn->lo, pn->hi, PLOT_PX, FONT_PX,
					 TICK_GAP, MAX_TICKS);
	}
	for (i = first; i < cp->npan; i++)
		cp->pan[i].nbands = (int)(cp->npan - first);
	return 0;
}

static double panel_px(const struct nsb_cp_panel *pn)
{
	return HEAD_PX + (double)pn->n * ROW_PX + AXIS_PX + GAP_PX;
}

/* Whole panels to a page, as many as PAGE_PX holds. */
static int paginate(struct nsb_cp *cp)
{
	double used = 0;
	size_t i;

	cp->page = calloc(cp->npan + 2, sizeof(*cp->page));
	if (!cp->page)
		return -1;
	cp->np = 0;
	for (i = 0; i < cp->npan; i++) {
		if (used > 0 && (used + panel_px(&cp->pan[i]) > PAGE_PX ||
				 i - cp->page[cp->np] == PAGE_PANELS)) {
			cp->page[++cp->np] = i;
			used = 0;
		}
		used += panel_px(&cp->pan[i]);
	}
	if (cp->npan)
		cp->page[++cp->np] = cp->npan;
	return 0;
}

int nsb_cp_panels(struct nsb_cp *cp)
{
	size_t *idx = calloc(cp->npt + 1, sizeof(*idx)), f;
	int ret = -1, d;

	cp->pan = calloc(cp->npt + 1, sizeof(*cp->pan));
	if (!idx || !cp->pan)
		goto out;
	for (f = 0; f < cp->nfam; f++)
		for (d = 0; d < 2; d++)
			if (family_panels(cp, f, d, idx))
				goto out;
	ret = paginate(cp);
out:
	free(idx);
	return ret;
}

/* --- a page ------------------------------------------------------------ */

/*
 * The label drawn: a row's label loses the "lsm/LSM/" its panel's title
 * already names, unless a row of its family is named what is left.
 */
static const char *shown_label(const struct nsb_cp *cp,
			       const struct nsb_cp_point *p)
{
	const char *lsm = cp->fam[p->fam].lsm, *rest;
	size_t n = strlen(lsm), i;

	if (!n || strncmp(p->label, "lsm/", 4) ||
	    strncmp(p->label + 4, lsm, n) || p->label[4 + n] != '/')
		return p->label;
	rest = p->label + 5 + n;
	for (i = 0; i < cp->npt; i++)
		if (cp->pt[i].fam == p->fam && !strcmp(cp->pt[i].label, rest))
			return p->label;
	return *rest ? rest : p->label;
}

/* The panel's title: its check and LSM, and why it has a scale apart. */
static void panel_title(char *buf, size_t len, const struct nsb_cp *cp,
			const struct nsb_cp_panel *pn)
{
	const struct nsb_cp_family *f = &cp->fam[pn->fam];
	const char *lsm = nsb_cost_lsm_title(f->lsm);
	size_t used;

	if (!strcmp(lsm, "no LSM"))	/* an LSM the table has no name for */
		lsm = strcmp(f->lsm, "none") ? f->lsm : "";
	used = (size_t)snprintf(buf, len, "%s%s%s%s%s", f->seed,
				*f->check ? " " : "", f->check,
				*lsm ? ", under " : "", lsm);
	if (used < len && cp->pt[pn->rows[0]].verdict == NSB_CP_DECIDES)
		used += (size_t)snprintf(buf + used, len - used, " - decided "
					 "operations: behaviour, not cost");
	else if (used < len && pn->nbands > 1)
		used += (size_t)snprintf(buf + used, len - used, " - %s "
					 "shifts, own scale (%d of %d)",
					 pn->band ? "smaller" : "largest",
					 pn->band + 1, pn->nbands);
	if (used < len && pn->zoomed)
		snprintf(buf + used, len - used, "; zoomed, 0 off the axis");
}

/* "+24 [+10, +38]  +0.03%  slower*": the table's numbers and words. */
static void right_text(char *buf, size_t len, const struct nsb_cp_point *p)
{
	struct nsb_interval s = { .est = p->est, .lo = p->lo, .hi = p->hi };
	char sh[96];

	nsb_fmt_shift(sh, sizeof(sh), &s);
	snprintf(buf, len, "%s  %+.2f%%  %s", sh, p->pct, p->word);
}

/* What a field of at most max bytes shows (nsb_gp_field cuts there). */
static double field_px(const char *s, size_t max)
{
	char buf[1024];

	snprintf(buf, sizeof(buf), "%.*s", (int)max, s);
	return nsb_text_px(buf, FONT_PX);
}

struct widths {
	double label, right, title;	/* pixels of the widest drawn */
};

/*
 * Panel pn's rows: "row est lo hi verdict reliable label right title",
 * then the end of a data block; the widths of what they show.
 */
static void panel_rows(FILE *f, const struct nsb_cp *cp,
		       const struct nsb_cp_panel *pn, struct widths *w)
{
	char title[300], right[160];
	size_t j;

	panel_title(title, sizeof(title), cp, pn);
	w->title = fmax(w->title, field_px(title, sizeof(title)));
	for (j = 0; j < pn->n; j++) {
		const struct nsb_cp_point *p = &cp->pt[pn->rows[j]];
		const char *label = shown_label(cp, p);

		right_text(right, sizeof(right), p);
		w->label = fmax(w->label, field_px(label, LABEL_MAX));
		w->right = fmax(w->right, field_px(right, sizeof(right)));
		fprintf(f, "%zu %.9g %.9g %.9g %d %d ", j + 1, p->est, p->lo,
			p->hi, p->verdict, !p->unreliable);
		nsb_gp_field(f, label, LABEL_MAX);
		fputc(' ', f);
		nsb_gp_field(f, right, sizeof(right));
		fputc(' ', f);
		nsb_gp_field(f, title, sizeof(title));
		fputc('\n', f);
	}
	fputs("\n\n", f);
}

/* Panel pn's ticks, "x label", then the end of a data block. */
static void panel_ticks(FILE *f, const struct nsb_cp_panel *pn)
{
	double amax = fmax(fabs(pn->lo), fabs(pn->hi)), k;
	char label[48];
	int n = 0;

	for (k = ceil(pn->lo / pn->step); k * pn->step <= pn->hi &&
	     n < 4 * MAX_TICKS; k++, n++) {
		nsb_tick_label(label, sizeof(label), k * pn->step, pn->step,
			       amax);
		fprintf(f, "%.9g ", k * pn->step);
		nsb_gp_field(f, label, sizeof(label));
		fputc('\n', f);
	}
	fputs("\n\n", f);
}

/* "array NAME[N] = [v, ...]" of the page's panels a..b-1. */
static void put_array(struct nsb_sb *sb, const char *name,
		      const double *v, size_t n)
{
	size_t i;

	nsb_sb_addf(sb, "array %s[%zu] = [", name, n);
	for (i = 0; i < n; i++)
		nsb_sb_addf(sb, "%s%.9g", i ? ", " : "", v[i]);
	nsb_sb_add(sb, "]\n");
}

/* Sizes, margins and panel places in pixels, as gnuplot's numbers. */
static void geometry(const struct nsb_cp *cp, size_t a, size_t b,
		     const struct widths *w, struct nsb_rowchart *ch)
{
	double lm = w->label + 24, rm = w->right + 24, y = TOP_PX, width;
	double v[5][PAGE_PANELS];
	size_t i, n = b - a;

	width = lm + PLOT_PX + rm;
	/* a panel's title starts at its axis; the page's is centred */
	width = fmax(width, lm + w->title + 16);
	width = fmax(width, nsb_text_px(nsb_sb_str(&ch->title), FONT_PX) + 40);
	width = fmax(width, 820);	/* the legend's one line */
	for (i = 0; i < n; i++) {
		const struct nsb_cp_panel *pn = &cp->pan[a + i];

		y += HEAD_PX;
		v[0][i] = (double)pn->n;
		v[1][i] = y;
		y += (double)pn->n * ROW_PX;
		v[2][i] = y;
		v[3][i] = pn->lo;
		v[4][i] = pn->hi;
		y += AXIS_PX + GAP_PX;
	}
	ch->height = (int)ceil(y - GAP_PX + BOTTOM_PX);
	ch->width = (int)ceil(width);
	for (i = 0; i < n; i++) {
		v[1][i] = 1 - v[1][i] / ch->height;	/* screen: from below */
		v[2][i] = 1 - v[2][i] / ch->height;
	}
	nsb_sb_addf(&ch->nums, "npanels = %zu\nlmf = %.6f\nrmf = %.6f\n"
		    "keyy = %.6f\n", n, lm / ch->width,
		    (lm + PLOT_PX) / ch->width, 1 - (TOP_PX - 24) / ch->height);
	put_array(&ch->nums, "pn", v[0], n);
	put_array(&ch->nums, "ptop", v[1], n);
	put_array(&ch->nums, "pbot", v[2], n);
	put_array(&ch->nums, "xlo", v[3], n);
	put_array(&ch->nums, "xhi", v[4], n);
}

int nsb_cp_page(const struct nsb_cp *cp, int k, FILE *f,
		struct nsb_rowchart *ch)
{
	size_t a = cp->page[k], b = cp->page[k + 1], i;
	struct widths w = { 0 };
	int rows = 0;

	for (i = a; i < b; i++) {
		panel_rows(f, cp, &cp->pan[i], &w);
		rows += (int)cp->pan[i].n;
	}
	for (i = a; i < b; i++)
		panel_ticks(f, &cp->pan[i]);
	geometry(cp, a, b, &w, ch);
	return rows;
}
