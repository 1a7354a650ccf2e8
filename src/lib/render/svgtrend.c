// SPDX-License-Identifier: GPL-2.0
/*
 * svgtrend.c — a benchmark's history as an SVG chart written here, not
 * by gnuplot: one process for a whole site instead of one per benchmark
 * (200 benchmarks took gnuplot minutes), and every string from the
 * history goes through nsb_html_put, so a name cannot become markup.
 * The look follows plots/trend.gp: runs evenly spaced, oldest first, the
 * median and its CI per run, change points dashed with their size and
 * each segment's median in orange, as `nsbench history plot` draws them.
 */
#include <math.h>
#include <string.h>

#include "src/lib/history/history.h"
#include "src/lib/stats/changepoint.h"
#include "src/lib/stats/compare.h"
#include "src/lib/render/html.h"
#include "src/lib/render/svgtrend.h"
#include "src/lib/render/ticks.h"

#define W	960.0
#define H	400.0
#define ML	90.0	/* room for the y labels, at least */
#define MR	20.0
#define FONT_PX	11.0	/* pubpages.c's svg.trend font-size */
#define MT	20.0
#define MB	80.0	/* room for the slanted run labels */

struct frame {
	size_t n;
	double lo, hi;	/* y range */
	double ml;	/* the left margin: the widest y label's */
	int vkind;		/* enum nsb_vkind */
};

static double fx(const struct frame *fr, double i)
{
	double w = W - fr->ml - MR;

	return fr->n > 1 ? fr->ml + i * w / (double)(fr->n - 1) :
	       fr->ml + w / 2;
}

static double fy(const struct frame *fr, double v)
{
	return MT + (fr->hi - v) / (fr->hi - fr->lo) * (H - MT - MB);
}

static void frame_of(struct frame *fr, const struct nsb_hrec *const *pts,
		     size_t n)
{
	double pad;
	size_t i;

	fr->n = n;
	fr->lo = INFINITY;
	fr->hi = -INFINITY;
	for (i = 0; i < n; i++) {
		fr->lo = fmin(fr->lo, pts[i]->ci_lo);
		fr->hi = fmax(fr->hi, pts[i]->ci_hi);
	}
	pad = (fr->hi - fr->lo) * 0.08;
	/* a flat series still gets a band, wide enough to show digits */
	if (!(pad > fabs(fr->hi) * 1e-6))
		pad = fabs(fr->hi) * 0.01 + 1;
	fr->lo -= pad;
	fr->hi += pad;
}

/* A step of 1, 2 or 5 times a power of ten: about five gridlines. */
static double tick_step(double range)
{
	double raw = range / 5, p = pow(10, floor(log10(raw))), m = raw / p;

	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

/*
 * The y labels, or (f NULL) the margin they need: "1234567 insn" is
 * wider than a fixed margin and was cut at the canvas's edge.
 */
static double y_axis(FILE *f, const struct frame *fr)
{
	double step = tick_step(fr->hi - fr->lo), k0 = ceil(fr->lo / step), v;
	double wide = 0;
	char buf[32];
	int k;

	if (f)
		fprintf(f, "<g class=\"axis\">\n");
	/* counted, not summed: a step under v's precision cannot stall it */
	for (k = 0; k < 12 && (v = (k0 + k) * step) <= fr->hi; k++) {
		nsb_fmt_value(buf, sizeof(buf), v, fr->vkind);
		wide = fmax(wide, nsb_text_px(buf, FONT_PX));
		if (!f)
			continue;
		fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" "
			"y2=\"%.1f\" class=\"grid\"/><text x=\"%.1f\" "
			"y=\"%.1f\" text-anchor=\"end\">", fr->ml, W - MR,
			fy(fr, v), fy(fr, v), fr->ml - 6, fy(fr, v) + 4);
		nsb_html_put(f, buf);
		fputs("</text>\n", f);
	}
	if (f)
		fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" "
			"y2=\"%.1f\" class=\"frame\"/></g>\n", fr->ml,
			W - MR, H - MB, H - MB);
	return fmax(ML, wide + 12);
}

/* The label of a run: its kernel commit, else its date. */
static void run_label(char *buf, size_t len, const struct nsb_hrec *r)
{
	const char *t = r->timestamp ? r->timestamp : "?";

	if (r->kernel_commit && *r->kernel_commit)
		snprintf(buf, len, "%.12s", r->kernel_commit);
	else
		snprintf(buf, len, "%.*s", (int)strcspn(t, "T"), t);
}

static void x_labels(FILE *f, const struct frame *fr,
		     const struct nsb_hrec *const *pts)
{
	size_t every = (fr->n + 14) / 15, i;
	char label[32];

	fputs("<g class=\"axis\">\n", f);
	/*
	 * Ending at their run, slanting down-left: the last run's label
	 * stays on the canvas, the first one's has the y labels' margin.
	 */
	for (i = 0; i < fr->n; i += every) {
		run_label(label, sizeof(label), pts[i]);
		fprintf(f, "<text text-anchor=\"end\" transform=\"translate("
			"%.1f,%.1f) rotate(-30)\">", fx(fr, (double)i),
			H - MB + 14);
		nsb_html_put(f, label);
		fputs("</text>\n", f);
	}
	fputs("</g>\n", f);
}

static void band(FILE *f, const struct frame *fr,
		 const struct nsb_hrec *const *pts)
{
	size_t i;

	fputs("<polygon class=\"ci\" points=\"", f);
	for (i = 0; i < fr->n; i++)
		fprintf(f, "%.1f,%.1f ", fx(fr, (double)i),
			fy(fr, pts[i]->ci_hi));
	for (i = fr->n; i-- > 0;)
		fprintf(f, "%.1f,%.1f ", fx(fr, (double)i),
			fy(fr, pts[i]->ci_lo));
	fputs("\"/>\n<polyline class=\"median\" points=\"", f);
	for (i = 0; i < fr->n; i++)
		fprintf(f, "%.1f,%.1f ", fx(fr, (double)i),
			fy(fr, pts[i]->median));
	fputs("\"/>\n", f);
}

/* Each run a point; its tooltip says which run it is and what it held. */
static void points(FILE *f, const struct frame *fr,
		   const struct nsb_hrec *const *pts, int vkind)
{
	char m[32], lo[32], hi[32];
	size_t i;

	fputs("<g class=\"pts\">\n", f);
	for (i = 0; i < fr->n; i++) {
		const struct nsb_hrec *r = pts[i];

		nsb_fmt_value(m, sizeof(m), r->median, vkind);
		nsb_fmt_value(lo, sizeof(lo), r->ci_lo, vkind);
		nsb_fmt_value(hi, sizeof(hi), r->ci_hi, vkind);
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\"><title>",
			fx(fr, (double)i), fy(fr, r->median));
		nsb_html_printf(f, "#%zu %s: %s [%s, %s] %s", i, r->run, m, lo,
				hi, r->kernel_commit ? r->kernel_commit :
				r->kernel_release ? r->kernel_release : "");
		fputs("</title></circle>\n", f);
	}
	fputs("</g>\n", f);
}

static void changes(FILE *f, const struct frame *fr, const struct nsb_cp *cps,
		    size_t ncp)
{
	size_t i;

	for (i = 0; i < ncp; i++) {
		double x = fx(fr, (double)cps[i].index - 0.5);
		char text[48];
		bool left;

		if (!isfinite(cps[i].pct))
			continue;
		snprintf(text, sizeof(text), "change %+.2f %%", cps[i].pct);
		/* right of its line, or left where the canvas ends first */
		left = x + 4 + nsb_text_px(text, FONT_PX) > W;
		fprintf(f, "<line class=\"cp\" x1=\"%.1f\" x2=\"%.1f\" "
			"y1=\"%.1f\" y2=\"%.1f\"/><text class=\"cpl\" "
			"x=\"%.1f\" y=\"%.1f\"%s>%s</text>\n", x, x, MT,
			H - MB, left ? x - 4 : x + 4,
			MT + 12 + 14.0 * (double)(i % 3),
			left ? " text-anchor=\"end\"" : "", text);
	}
	/* each segment's median, as the change-point analysis sees it */
	for (i = 0; ncp && i <= ncp; i++) {
		size_t from = i ? cps[i - 1].index : 0;
		size_t to = i < ncp ? cps[i].index : fr->n;
		double m = i < ncp ? cps[i].before : cps[ncp - 1].after;

		if (!isfinite(m) || to <= from)
			continue;
		fprintf(f, "<line class=\"seg\" x1=\"%.1f\" x2=\"%.1f\" "
			"y1=\"%.1f\" y2=\"%.1f\"/>\n", fx(fr, (double)from),
			fx(fr, (double)(to - 1)), fy(fr, m), fy(fr, m));
	}
}

void nsb_svg_trend(FILE *f, const struct nsb_hrec *const *pts, size_t n,
		   const struct nsb_cp *cps, size_t ncp, int vkind)
{
	struct frame fr;

	if (!n)
		return;
	frame_of(&fr, pts, n);
	fr.vkind = vkind;
	fr.ml = y_axis(NULL, &fr);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"trend\" "
		"viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"trend: "
		"median and CI per run, %zu change point(s)\">\n", W, H, ncp);
	y_axis(f, &fr);
	band(f, &fr, pts);
	changes(f, &fr, cps, ncp);
	points(f, &fr, pts, vkind);
	x_labels(f, &fr, pts);
	fputs("</svg>\n", f);
}
