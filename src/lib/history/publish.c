// SPDX-License-Identifier: GPL-2.0
/*
 * publish.c — `nsbench history publish --out-dir=DIR`: the model of the site
 * (each benchmark's series, change points and latest verdict, by the
 * rules of histjudge.c that `changes` and `gate` use) and its atomic
 * writing: every page goes into DIR.tmp.XXXXXX beside DIR, which then
 * takes DIR's place in one rename, so a reader sees the old site or the
 * new one, never half of one.  The pages themselves: pubpages.c.
 *
 * Time: one pass over the records, a sort of the benchmark names, and
 * the change points of each series (as `history changes` computes them).
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/lib/history/histjudge.h"
#include "src/lib/render/html.h"
#include "src/lib/base/nsbench.h"
#include "src/lib/history/publish.h"
#include "src/lib/history/publish_internal.h"


/* --- the model ---------------------------------------------------------- */

/* "sys/exec" of "sys/exec/bin/init/d0", as summary and the A/B table cut. */
static size_t family_len(const char *name)
{
	const char *p = strchr(name, '/');

	if (!p)
		return strlen(name);
	return strchr(p + 1, '/') ? (size_t)(strchr(p + 1, '/') - name) :
				    (size_t)(p - name);
}

static int cmp_bench(const void *a, const void *b)
{
	const struct nsb_pub_bench *x = a, *y = b;

	return strcmp(x->name, y->name);
}

/*
 * The baseline of the latest verdict: the accepted run, as `gate`
 * takes it, where that holds a usable point of the series; else the
 * point before the newest.
 */
static const struct nsb_hrec *baseline(const struct nsb_history *h,
				       const struct nsb_pub_bench *b)
{
	const struct nsb_hrec *a = h->accepted ?
		nsb_history_find(h, h->accepted, b->name) : NULL;

	if (a && !strcmp(a->status, "ok") && a != b->last &&
	    !strcmp(a->unit, b->last->unit))
		return a;
	return b->n >= 2 && b->pts[b->n - 1] == b->last ? b->pts[b->n - 2] :
							  NULL;
}

static int judge(const struct nsb_pub *p, struct nsb_pub_bench *b)
{
	long k = nsb_history_series(p->h, b->name, &b->pts);

	if (k < 0)
		return -1;
	b->n = (size_t)k;
	b->vkind = nsb_history_vkind(b->pts, b->n);
	k = nsb_history_changes(b->pts, b->n, &p->o->cp, &b->cps);
	if (k < 0)
		return -1;
	b->ncp = (size_t)k;
	if (strcmp(b->last->status, "ok")) {
		b->verdict = !strcmp(b->last->status, "error") ? NSB_ERROR :
			     NSB_SKIP;
		return 0;
	}
	b->base = baseline(p->h, b);
	b->verdict = NSB_SKIP;
	if (b->base)
		b->verdict = nsb_history_verdict(b->base, b->last,
						 p->o->cp.threshold, b->pct,
						 &b->shift);
	return 0;
}

/* One entry per benchmark, its newest record found on its chain. */
static int collect(struct nsb_pub *p)
{
	const struct nsb_history *h = p->h;
	size_t i, j;
	json_t *first;

	p->b = calloc(json_object_size(h->bench_first) + 1, sizeof(*p->b));
	p->run_first = calloc(h->nruns + 1, sizeof(*p->run_first));
	if (!p->b || !p->run_first)
		return -1;
	for (i = 0; i < h->n; i++) {
		const struct nsb_hrec *r = &h->r[i];

		if (!p->run_first[r->run_index])
			p->run_first[r->run_index] = r;
		first = json_object_get(h->bench_first, r->bench);
		if ((size_t)json_integer_value(first) != i ||
		    (p->o->re && regexec(p->o->re, r->bench, 0, NULL, 0)))
			continue;
		for (j = i; h->r[j].next_same != NSB_HREC_END;)
			j = h->r[j].next_same;
		p->b[p->n].name = r->bench;
		p->b[p->n++].last = &h->r[j];
	}
	/* before the change points, which are most of publish's time */
	if (p->n > NSB_PUBLISH_MAX_PAGES) {
		nsb_err("%s: %zu benchmarks, over the site's "
			"limit of %d pages; nothing published (choose some "
			"with --benchmark=RE)\n", h->path, p->n,
			NSB_PUBLISH_MAX_PAGES);
		return -1;
	}
	qsort(p->b, p->n, sizeof(*p->b), cmp_bench);
	for (i = 0; i < p->n; i++) {
		p->b[i].family_len = family_len(p->b[i].name);
		nsb_html_stem(p->b[i].stem, sizeof(p->b[i].stem),
			      p->b[i].name);
		if (judge(p, &p->b[i]))
			return -1;
	}
	return 0;
}

/* --- links to what lies beside the history -------------------------------- */

static const char *const report_names[] = {
	"report.html", "report.md", "report.txt", NULL,
};

/* dir/name if it is a readable regular file: malloc'd, else NULL. */
static char *file_in(const char *dir, const char *name)
{
	struct stat st;
	char *path;

	if (asprintf(&path, "%s/%s", dir, name) < 0)
		return NULL;
	if (!stat(path, &st) && S_ISREG(st.st_mode) && !access(path, R_OK))
		return path;
	free(path);
	return NULL;
}

/*
 * name beside the run's first results file, or one directory up (an
 * A/B leaves its results in B/ and report.txt, costs.json one above).
 */
static char *beside_run(const struct nsb_pub *p, const char *run,
			const char *const *names)
{
	long ri = nsb_history_run_index(p->h, run);
	const struct nsb_hrec *r = ri >= 0 ? p->run_first[ri] : NULL;
	const char *f = r ? json_string_value(json_array_get(r->files, 0)) :
			NULL;
	char *d1, *d2, *hit = NULL;
	size_t i;

	if (!f || !*f)
		return NULL;
	d1 = strdup(f);
	d2 = strdup(f);
	if (d1 && d2) {
		char *a = dirname(d1), *b = dirname(dirname(d2));

		for (i = 0; names[i] && !hit; i++)
			hit = file_in(a, names[i]);
		for (i = 0; names[i] && !hit && strcmp(a, b); i++)
			hit = file_in(b, names[i]);
	}
	free(d1);
	free(d2);
	return hit;
}

/*
 * to (a file) relative to the directory from, both absolute and
 * canonical (realpath): "../results/ab-1/report.txt".
 */
static char *relative(const char *from, const char *to)
{
	const char *f = from, *t = to, *fe, *te;
	size_t up = 0, i;
	char *out, *o;

	/* past the common directories; the file's own name is never one */
	for (;;) {
		f += strspn(f, "/");
		t += strspn(t, "/");
		fe = f + strcspn(f, "/");
		te = t + strcspn(t, "/");
		if (!*f || !*te || fe - f != te - t ||
		    strncmp(f, t, (size_t)(fe - f)))
			break;
		f = fe;
		t = te;
	}
	for (; *f; f += strspn(f, "/"), up++)
		f += strcspn(f, "/");
	out = malloc(3 * up + strlen(t) + 1);
	if (!out)
		return NULL;
	for (o = out, i = 0; i < up; i++, o += 3)
		memcpy(o, "../", 3);
	strcpy(o, t);
	return out;
}

char *nsb_pub_run_link(const struct nsb_pub *p, const char *run,
		       const char **what)
{
	long ri = nsb_history_run_index(p->h, run);
	const struct nsb_hrec *r = ri >= 0 ? p->run_first[ri] : NULL;
	char *path = beside_run(p, run, report_names), *abs, *rel = NULL;
	const char *f;

	*what = "report";
	if (!path && r) {
		f = json_string_value(json_array_get(r->files, 0));
		path = f && !access(f, R_OK) ? strdup(f) : NULL;
		*what = "results";
	}
	abs = path ? realpath(path, NULL) : NULL;
	if (abs && p->root)
		rel = relative(p->root, abs);
	free(path);
	free(abs);
	return rel;
}

/*
 * The in-boot check-cost table: --costs, else a costs.json beside the
 * newest run (scripts/ab.sh writes it with the report).  A file given
 * or found that is not a costs.json is an error, not a page left out.
 */
static int load_costs(struct nsb_pub *p)
{
	static const char *const names[] = { "costs.json", NULL };
	const struct nsb_history *h = p->h;
	json_t *rows;

	if (p->o->costs)
		p->costs_path = strdup(p->o->costs);
	else if (h->nruns)
		p->costs_path = beside_run(p, h->runs[h->nruns - 1], names);
	if (!p->costs_path)
		return p->o->costs ? -1 : 0;
	p->costs = nsb_json_load(p->costs_path);
	if (!p->costs)
		return -1;
	rows = json_object_get(p->costs, "rows");
	if (!json_is_object(p->costs) || !json_is_array(rows)) {
		nsb_err("%s: not a costs.json (nsbench report "
			"--json): no \"rows\" array\n", p->costs_path);
		return -1;
	}
	/* what is shown passes the same cleaning as the history's text */
	return nsb_json_clean(p->costs);
}

/* --- writing the directory ------------------------------------------------ */

static int rm_entry(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	return remove(path);
}

/* A tree this command wrote (never follows a symlink out of it). */
static void rm_tree(const char *dir)
{
	if (dir && nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS))
		nsb_err("cannot remove %s: %s\n", dir,
			strerror(errno));
}

/*
 * The absolute path DIR will have: its parent made canonical, its own
 * name as given.  Links to reports are relative to it, so they resolve
 * once the directory is renamed into place.
 */
static int make_tmp(struct nsb_pub *p)
{
	char *d = strdup(p->out), *b = strdup(p->out), *parent = NULL;
	int ret = -1;

	if (!d || !b)
		goto out;
	parent = realpath(dirname(d), NULL);
	if (!parent) {
		nsb_err("%s: %s\n", p->out, strerror(errno));
		goto out;
	}
	if (asprintf(&p->root, "%s/%s", strcmp(parent, "/") ? parent : "",
		     basename(b)) < 0 ||
	    asprintf(&p->tmp, "%s.tmp.XXXXXX", p->out) < 0) {
		p->tmp = NULL;
		goto out;
	}
	if (!mkdtemp(p->tmp)) {
		nsb_err("%s: %s\n", p->tmp, strerror(errno));
		free(p->tmp);
		p->tmp = NULL;
		goto out;
	}
	/* mkdtemp's 0700: a site is for others to read */
	ret = chmod(p->tmp, 0755);
out:
	free(d);
	free(b);
	free(parent);
	return ret;
}

/* Is DIR a site of ours (its mark there), so that it may be replaced? */
static int check_old(const char *dir)
{
	struct stat st;
	char *mark;
	int ok;

	if (lstat(dir, &st))
		return errno == ENOENT ? 0 : -1;
	if (asprintf(&mark, "%s/" NSB_PUBLISH_MARK, dir) < 0)
		return -1;
	ok = S_ISDIR(st.st_mode) && !lstat(mark, &st) && S_ISREG(st.st_mode);
	free(mark);
	if (ok)
		return 1;
	nsb_err("%s exists and is not a site of this command "
		"(no " NSB_PUBLISH_MARK "); not replaced\n", dir);
	return -1;
}

/* DIR.tmp.XXXXXX becomes DIR in one step; the old site is removed. */
static int swap_in(struct nsb_pub *p)
{
	const char *out = p->out;
	int old = check_old(out);

	if (old < 0)
		return -1;
	if (!old && !rename(p->tmp, out))
		goto done;
	if (old && !renameat2(AT_FDCWD, p->tmp, AT_FDCWD, out,
			      RENAME_EXCHANGE)) {
		rm_tree(p->tmp);	/* now the old site */
		goto done;
	}
	nsb_err("cannot move %s to %s: %s\n", p->tmp, out,
		strerror(errno));
	return -1;
done:
	free(p->tmp);
	p->tmp = NULL;
	return 0;
}

static int write_mark(struct nsb_pub *p)
{
	json_t *m = json_pack("{s:s, s:s, s:s, s:I, s:I, s:O}", "generator",
			      nsb_prog(), "nsbench_version", nsb_version(),
			      "history", p->h->path,
			      "benchmarks", (json_int_t)p->n,
			      "runs", (json_int_t)p->h->nruns,
			      "pages", p->pages);
	char *path = NULL;
	int ret = -1;

	if (m && asprintf(&path, "%s/" NSB_PUBLISH_MARK, p->tmp) >= 0)
		ret = json_dump_file(m, path, JSON_INDENT(1) | JSON_SORT_KEYS);
	if (ret)
		nsb_err("cannot write %s\n", path ? path : "");
	json_decref(m);
	free(path);
	return ret;
}

static int write_pages(struct nsb_pub *p)
{
	char *b = NULL;
	size_t i;
	int ret;

	if (asprintf(&b, "%s/b", p->tmp) < 0)
		return -1;
	ret = mkdir(b, 0755);
	free(b);
	if (ret)
		return -1;
	for (i = 0; i < p->n; i++)
		if (p->b[i].n && nsb_pub_bench_page(p, &p->b[i]))
			return -1;
	if (nsb_pub_regressions(p) || (p->costs && nsb_pub_costs(p)))
		return -1;
	/* the index last: it links only pages that are there */
	return nsb_pub_index(p) ?: write_mark(p);
}

static void pub_free(struct nsb_pub *p)
{
	size_t i;

	for (i = 0; i < p->n; i++) {
		free(p->b[i].pts);
		free(p->b[i].cps);
	}
	free(p->b);
	free(p->run_first);
	if (p->tmp)
		rm_tree(p->tmp);
	free(p->tmp);
	free(p->root);
	free(p->out);
	free(p->costs_path);
	json_decref(p->costs);
	json_decref(p->pages);
}

/*
 * DIR without its trailing slashes: "site/" must become "site.tmp.X"
 * beside it, not "site/.tmp.X" inside the site it is to replace.
 * NULL for "/" (or nothing).
 */
static char *out_dir(const char *out)
{
	size_t len = strlen(out);

	while (len > 1 && out[len - 1] == '/')
		len--;
	if (!len || (len == 1 && out[0] == '/'))
		return NULL;
	return strndup(out, len);
}

int nsb_history_publish(const struct nsb_publish_opts *o,
			const struct nsb_history *h)
{
	struct nsb_pub p = { .o = o, .h = h, .pages = json_array(),
			     .out = out_dir(o->out) };
	int ret = 2;

	if (h->bad_lines && !o->skip_bad) {
		nsb_err("%s: %zu bad line(s), each named above; "
			"nothing published (--skip-bad-lines publishes the "
			"rest)\n", h->path, h->bad_lines);
		goto out;
	}
	if (!h->n) {
		nsb_err("%s: no results to publish\n", h->path);
		goto out;
	}
	if (!p.out || !*p.out) {
		nsb_err("--out=%s: not a directory to make\n",
			o->out);
		goto out;
	}
	if (!p.pages || collect(&p))
		goto out;
	if (!p.n) {
		nsb_err("no benchmark in %s matches\n", h->path);
		goto out;
	}
	if (load_costs(&p) || make_tmp(&p) ||
	    write_pages(&p) || swap_in(&p))
		goto out;
	printf("%s/index.html: %zu benchmark(s), %zu run(s)\n", p.out, p.n,
	       h->nruns);
	ret = 0;
out:
	pub_free(&p);
	return ret;
}
