// SPDX-License-Identifier: GPL-2.0
/*
 * histio.c — reading and appending the CI history (see history.h).
 *
 * A history outlives many CI jobs and machines, so the reader trusts no
 * line: a corrupt, truncated or incomplete one is reported with its line
 * number and skipped, and reading goes on.  The writer only ever appends.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "src/history.h"
#include "src/nsbench.h"
#include "src/samples.h"
#include "src/stats.h"

/* --- reading ---------------------------------------------------------- */

struct loader {
	struct nsb_history *h;
	FILE *err;
	size_t cap;
	json_t *runs;		/* run id -> index in h->runs */
	json_t *seen;		/* "run\x1fbench" -> index in h->r */
};

static void __attribute__((format(printf, 3, 4)))
skip_line(struct loader *l, size_t line, const char *fmt, ...)
{
	va_list ap;

	l->h->bad_lines++;
	fprintf(l->err, "%s:%zu: ", l->h->path, line);
	va_start(ap, fmt);
	vfprintf(l->err, fmt, ap);
	va_end(ap);
	fputs("; line skipped\n", l->err);
}

/* A string member, "" if absent and optional; NULL if it is wrong. */
static const char *str_member(json_t *o, const char *key, bool required,
			      const char **missing)
{
	json_t *v = json_object_get(o, key);

	if (!v && !required)
		return NULL;
	if (!json_is_string(v) || (required && !*json_string_value(v)))
		*missing = key;
	return json_string_value(v);
}

static int num_member(json_t *o, const char *key, double *out,
		      const char **missing)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_number(v)) {
		*missing = key;
		return -1;
	}
	*out = json_number_value(v);
	return 0;
}

static long run_index(struct loader *l, const char *run)
{
	struct nsb_history *h = l->h;
	json_t *i = json_object_get(l->runs, run);
	const char **runs;

	if (i)
		return (long)json_integer_value(i);
	runs = realloc(h->runs, (h->nruns + 1) * sizeof(*runs));
	if (!runs)
		return -1;
	h->runs = runs;
	runs[h->nruns] = run;
	if (json_object_set_new(l->runs, run, json_integer((json_int_t)
							   h->nruns)))
		return -1;
	return (long)h->nruns++;
}

const char *nsb_hrec_parse(json_t *o, struct nsb_hrec *r)
{
	const char *bad = NULL;
	json_t *n = json_object_get(o, "n");

	memset(r, 0, sizeof(*r));
	r->run = str_member(o, "run", true, &bad);
	r->bench = str_member(o, "benchmark", true, &bad);
	r->status = str_member(o, "status", true, &bad);
	r->unit = str_member(o, "unit", true, &bad);
	r->mode = str_member(o, "mode", false, &bad);
	r->why = str_member(o, "why", false, &bad);
	r->timestamp = str_member(o, "timestamp", false, &bad);
	r->kernel_release = str_member(o, "kernel_release", false, &bad);
	r->kernel_commit = str_member(o, "kernel_commit", false, &bad);
	r->series = str_member(o, "series", false, &bad);
	r->config_hash = str_member(o, "config_hash", false, &bad);
	r->version = str_member(o, "nsbench_version", false, &bad);
	r->files = json_object_get(o, "files");
	if (bad)
		return bad;
	if (r->files && !json_is_array(r->files))
		return "files";
	if (!json_is_integer(n) || json_integer_value(n) < 0)
		return "n";
	r->n = (size_t)json_integer_value(n);
	if (strcmp(r->status, "ok"))
		return NULL;
	if (!r->n)
		return "n";
	if (num_member(o, "median", &r->median, &bad) ||
	    num_member(o, "ci_lo", &r->ci_lo, &bad) ||
	    num_member(o, "ci_hi", &r->ci_hi, &bad) ||
	    num_member(o, "ci_level", &r->ci_level, &bad))
		return bad;
	return NULL;
}

static int add_result(struct loader *l, json_t *o, size_t line)
{
	struct nsb_history *h = l->h;
	struct nsb_hrec r, *nr;
	const char *bad = nsb_hrec_parse(o, &r);
	char *key = NULL;
	json_t *dup;
	long ri;

	if (bad) {
		skip_line(l, line, "result without a valid \"%s\"", bad);
		return 0;
	}
	if (asprintf(&key, "%s\x1f%s", r.run, r.bench) < 0)
		return -1;
	dup = json_object_get(l->seen, key);
	if (dup) {
		skip_line(l, line, "run %s, %s again (first on line %zu)",
			  r.run, r.bench, h->r[json_integer_value(dup)].line);
		free(key);
		return 0;
	}
	if (h->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		nr = realloc(h->r, l->cap * sizeof(*nr));
		if (!nr)
			goto fail;
		h->r = nr;
	}
	ri = run_index(l, r.run);
	if (ri < 0 || json_object_set_new(l->seen, key,
					  json_integer((json_int_t)h->n)))
		goto fail;
	r.line = line;
	r.run_index = (size_t)ri;
	h->r[h->n++] = r;
	free(key);
	return 0;
fail:
	free(key);
	return -1;
}

static int add_line(struct loader *l, const char *text, size_t line)
{
	json_error_t e;
	const char *type;
	json_t *o;
	int ret = 0;

	if (!text[strspn(text, " \t\r\n")])
		return 0;	/* blank: nothing lost */
	o = json_loads(text, JSON_REJECT_DUPLICATES, &e);
	if (!o) {
		skip_line(l, line, "column %d: %s", e.column, e.text);
		return 0;
	}
	if (json_array_append_new(l->h->lines, o))
		return -1;
	type = json_is_object(o) ? nsb_json_str(o, "type") : NULL;
	if (!type)
		skip_line(l, line, "not an object with a \"type\"");
	else if (!strcmp(type, "result"))
		ret = add_result(l, o, line);
	else if (!strcmp(type, "accept") && nsb_json_str(o, "run"))
		l->h->accepted = nsb_json_str(o, "run");
	else
		skip_line(l, line, "unknown type \"%s\" or no \"run\"", type);
	return ret;
}

int nsb_history_load(struct nsb_history *h, const char *path, FILE *err)
{
	struct loader l = { .h = h, .err = err };
	size_t line = 0, cap = 0;
	char *buf = NULL;
	int ret = -1;
	FILE *f;

	memset(h, 0, sizeof(*h));
	h->path = path;
	h->lines = json_array();
	l.runs = json_object();
	l.seen = json_object();
	if (!h->lines || !l.runs || !l.seen)
		goto out;
	f = fopen(path, "r");
	if (!f) {
		ret = errno == ENOENT ? 0 : -1;
		if (ret)
			fprintf(err, "nsbench: %s: %s\n", path, strerror(errno));
		goto out;
	}
	/* getline: a truncated last line arrives without its '\n' */
	while (getline(&buf, &cap, f) >= 0)
		if (add_line(&l, buf, ++line))
			goto close;
	ret = ferror(f) ? -1 : 0;
	if (ret)
		fprintf(err, "nsbench: %s: read error\n", path);
close:
	fclose(f);
out:
	free(buf);
	json_decref(l.runs);
	json_decref(l.seen);
	return ret;
}

void nsb_history_free(struct nsb_history *h)
{
	free(h->r);
	free(h->runs);
	json_decref(h->lines);
	memset(h, 0, sizeof(*h));
}

long nsb_history_run_index(const struct nsb_history *h, const char *run)
{
	size_t i;

	for (i = 0; i < h->nruns; i++)
		if (!strcmp(h->runs[i], run))
			return (long)i;
	return -1;
}

bool nsb_history_has_run(const struct nsb_history *h, const char *run)
{
	return nsb_history_run_index(h, run) >= 0;
}

const struct nsb_hrec *nsb_history_find(const struct nsb_history *h,
					const char *run, const char *bench)
{
	size_t i;

	for (i = h->n; i-- > 0;)
		if (!strcmp(h->r[i].run, run) && !strcmp(h->r[i].bench, bench))
			return &h->r[i];
	return NULL;
}

static bool same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

long nsb_history_series(const struct nsb_history *h, const char *bench,
			const struct nsb_hrec ***out)
{
	const struct nsb_hrec *newest = NULL, **pts;
	size_t i, k = 0;

	*out = NULL;
	for (i = h->n; i-- > 0 && !newest;)
		if (!strcmp(h->r[i].bench, bench) &&
		    !strcmp(h->r[i].status, "ok"))
			newest = &h->r[i];
	if (!newest)
		return 0;
	pts = malloc(h->n * sizeof(*pts));
	if (!pts)
		return -1;
	for (i = 0; i < h->n; i++) {
		const struct nsb_hrec *r = &h->r[i];

		if (!strcmp(r->bench, bench) && !strcmp(r->status, "ok") &&
		    same(r->mode, newest->mode) &&
		    !strcmp(r->unit, newest->unit))
			pts[k++] = r;
	}
	*out = pts;
	return (long)k;
}

/* --- records of a run ------------------------------------------------- */

char *nsb_history_run_id(const char *file)
{
	const char *base = strrchr(file, '/');
	size_t len;

	base = base ? base + 1 : file;
	len = strlen(base);
	if (len > 5 && !strcmp(base + len - 5, ".json"))
		len -= 5;
	return strndup(base, len);
}

void nsb_history_utc(const char *date, char *buf, size_t len)
{
	struct tm tm = { 0 };
	const char *end = date ? strptime(date, "%Y-%m-%dT%H:%M:%S", &tm) :
			  NULL;
	time_t t;
	int sign, hh, mm;

	t = end ? timegm(&tm) : time(NULL);
	/* Google Benchmark writes local time with an offset: +01:00 */
	if (end && (*end == '+' || *end == '-') &&
	    sscanf(end + 1, "%2d:%2d", &hh, &mm) == 2) {
		sign = *end == '+' ? 1 : -1;
		t -= sign * (hh * 3600 + mm * 60);
	}
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
}

static void set_str(json_t *o, const char *key, const char *v)
{
	if (v)
		json_object_set_new(o, key, json_string(v));
}

static int fill_samples(json_t *o, const struct nsb_series *s)
{
	struct nsb_summary sum;

	if (!s->n) {
		set_str(o, "status", s->errors ? "error" : "skip");
		json_object_set_new(o, "n", json_integer(0));
		set_str(o, "why", s->why ? s->why : "no samples");
		return 0;
	}
	if (nsb_summarize(s->v, s->n, &sum))
		return -1;
	set_str(o, "status", "ok");
	json_object_set_new(o, "n", json_integer((json_int_t)s->n));
	json_object_set_new(o, "median", json_real(sum.median));
	json_object_set_new(o, "ci_lo", json_real(sum.ci_lo));
	json_object_set_new(o, "ci_hi", json_real(sum.ci_hi));
	json_object_set_new(o, "ci_level", json_real(sum.ci_level));
	return 0;
}

/* Why a run ended early, or NULL if it finished (results/README.md). */
static const char *incomplete(const struct nsb_side *side)
{
	size_t i;

	for (i = 0; i < side->nfiles; i++) {
		const char *c = nsb_json_str(side->ctx[i], "nsbench_complete");

		if (c && !strcmp(c, "false"))
			return nsb_json_str(side->ctx[i], "nsbench_end_reason") ?:
			       "incomplete";
	}
	return NULL;
}

static json_t *one_record(const struct nsb_side *side,
			  const struct nsb_series *s, const char *run,
			  const char *stamp, json_t *files)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	set_str(o, "type", "result");
	set_str(o, "run", run);
	set_str(o, "benchmark", s->name);
	if (fill_samples(o, s)) {
		json_decref(o);
		return NULL;
	}
	set_str(o, "unit", side->unit);
	set_str(o, "metric", nsb_metric);
	set_str(o, "mode", nsb_side_ctx(side, "nsbench_mode"));
	set_str(o, "timestamp", stamp);
	set_str(o, "kernel_release", nsb_side_ctx(side, "kernel_release"));
	set_str(o, "kernel_commit", nsb_side_ctx(side, "kernel_commit"));
	set_str(o, "series", nsb_side_ctx(side, "patch_series"));
	set_str(o, "config_hash", nsb_side_ctx(side, "kernel_config_hash"));
	set_str(o, "nsbench_version", nsb_side_ctx(side, "nsbench_version"));
	set_str(o, "host", nsb_side_ctx(side, "host_name"));
	set_str(o, "end_reason", incomplete(side));
	json_object_set(o, "files", files);
	return o;
}

json_t *nsb_history_records(char **files, size_t nfiles, const char *run_id)
{
	struct nsb_side side;
	char stamp[32], *run = NULL;
	json_t *arr = NULL, *o, *paths = json_array();
	size_t i;

	nsb_side_init(&side, "run");
	for (i = 0; i < nfiles; i++)
		if (nsb_side_load(&side, files[i]))
			goto out;
	run = run_id ? strdup(run_id) : nsb_history_run_id(files[0]);
	arr = json_array();
	if (!run || !arr || !paths)
		goto fail;
	for (i = 0; i < nfiles; i++)
		if (json_array_append_new(paths, json_string(files[i])))
			goto fail;
	nsb_history_utc(nsb_side_ctx(&side, "date"), stamp, sizeof(stamp));
	for (i = 0; i < side.n; i++) {
		o = one_record(&side, &side.s[i], run, stamp, paths);
		if (!o || json_array_append_new(arr, o))
			goto fail;
	}
	goto out;
fail:
	json_decref(arr);
	arr = NULL;
out:
	free(run);
	json_decref(paths);
	nsb_side_free(&side);
	return arr;
}

json_t *nsb_history_accept_record(const char *run, const char *note)
{
	char stamp[32];

	nsb_history_utc(NULL, stamp, sizeof(stamp));
	return json_pack("{s:s, s:s, s:s, s:s}", "type", "accept", "run", run,
			 "timestamp", stamp, "note", note ? note : "");
}

/* --- appending -------------------------------------------------------- */

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* One line per object, compact; the whole run in one buffer. */
static char *lines_of(json_t *arr, size_t *len)
{
	char *text = NULL, *line;
	size_t i, n = 0;
	FILE *f = open_memstream(&text, &n);
	json_t *o;

	if (!f)
		return NULL;
	json_array_foreach(arr, i, o) {
		line = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
		if (!line) {
			fclose(f);
			free(text);
			return NULL;
		}
		fprintf(f, "%s\n", line);
		free(line);
	}
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	*len = n;
	return text;
}

/* Does the file end in the middle of a line (a crash mid-write)? */
static bool ends_mid_line(int fd)
{
	struct stat st;
	char c;

	return !fstat(fd, &st) && st.st_size > 0 &&
	       pread(fd, &c, 1, st.st_size - 1) == 1 && c != '\n';
}

/*
 * Why O_APPEND and not a rewrite through nsb_write_file_atomic: two CI
 * jobs sharing a history would each rename a copy made before the other's
 * append, and the last rename would silently drop the other's runs.  With
 * O_APPEND the kernel moves the offset to the end and writes in one step,
 * and the flock() serialises appenders on one host (and on NFS, where
 * flock maps to fcntl locks), so runs never interleave or overwrite; all
 * lines of a run go in one write().  The worst a crash can leave is a
 * truncated last line: the reader reports and skips it, and the next
 * append first ends that line so the new records stay whole.  fsync before
 * reporting success, so a CI job that says "appended" has appended.
 */
int nsb_history_append(const char *path, json_t *arr)
{
	size_t len = 0;
	char *text = lines_of(arr, &len);
	int fd, ret = -1;

	if (!text)
		return -1;
	fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		goto out;
	if (flock(fd, LOCK_EX))
		goto close;
	if (ends_mid_line(fd) && write_all(fd, "\n", 1))
		goto close;
	if (write_all(fd, text, len) || fsync(fd))
		goto close;
	ret = 0;
close:
	close(fd);	/* drops the lock */
out:
	if (ret)
		fprintf(stderr, "nsbench: cannot append to %s: %s\n", path,
			strerror(errno));
	free(text);
	return ret;
}
