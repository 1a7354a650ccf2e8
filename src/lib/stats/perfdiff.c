// SPDX-License-Identifier: GPL-2.0
/*
 * perfdiff.c — `perf diff` of two perf.data files, summarised for the
 * report: the share of samples in the functions the user-namespace mount
 * checks live in, and the largest changes of any symbol.  perf does the
 * work (symbol resolution, matching); this only reads its
 * "baseline;delta;symbol" lines (-t ';').
 */
#include <errno.h>
#include <math.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "src/lib/base/mem.h"
#include "src/lib/base/nsbench.h"
#include "src/lib/stats/perfdiff.h"

extern char **environ;

#define TOP_N	5

/* The functions of the checks' hot paths, blank-separated lists. */
static const char *const check_funcs[] = {
#define NSB_CHECK(NAME, SEED, ON, LSM, FORM, OP, FUNCS, WHAT) FUNCS,
#include "kernel-patches/checks.def"
#undef NSB_CHECK
	NULL,
};

/* "[k] in_userns.isra.0" is in_userns: compare up to the first '.'. */
static bool is_check(const char *sym)
{
	const char *name = strstr(sym, "] "), *f;
	size_t len, n;
	int i;

	name = name ? name + 2 : sym;
	len = strcspn(name, ". ");
	for (i = 0; check_funcs[i]; i++)
		for (f = check_funcs[i]; *f; f += n + !!f[n]) {
			n = strcspn(f, " ");
			if (n == len && !strncmp(name, f, len))
				return true;
		}
	return false;
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\n'))
		*--e = 0;
	return s;
}

/* "0.22    ;+1.65% ;[.] sym" -> row; returns false for other lines. */
static bool parse_line(char *line, struct nsb_perf_row *r)
{
	char *base = line, *delta, *sym;

	if (*line == '#' || !(delta = strchr(line, ';')))
		return false;
	*delta++ = 0;
	sym = strchr(delta, ';');
	if (!sym)
		return false;
	*sym++ = 0;
	sym = trim(sym);
	if (!*sym)
		return false;
	r->base = strtod(trim(base), NULL);
	delta = trim(delta);
	/* perf leaves the delta blank for a symbol not sampled in patched */
	r->delta = *delta ? strtod(delta, NULL) : -r->base;
	r->sym = strdup(sym);
	r->check = is_check(sym);
	return r->sym != NULL;
}

static FILE *spawn_perf(const char *base, const char *patched, pid_t *pid)
{
	const char *perf = getenv("NSB_PERF") ?: "perf";
	char *argv[] = { (char *)perf, "diff", "-c", "delta", "-s", "symbol",
			 "-t", ";", (char *)base, (char *)patched, NULL };
	posix_spawn_file_actions_t fa;
	int fd[2], err;

	if (pipe(fd))
		return NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
	posix_spawn_file_actions_addclose(&fa, fd[0]);
	err = posix_spawnp(pid, perf, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fd[1]);
	if (err) {
		close(fd[0]);
		fprintf(stderr, "nsbench: cannot run %s: %s\n", perf,
			strerror(err));
		return NULL;
	}
	return fdopen(fd[0], "r");
}

static int add_row(struct nsb_perf *p, const struct nsb_perf_row *r)
{
	struct nsb_perf_row *nr = realloc(p->rows, (p->n + 1) * sizeof(*nr));

	if (!nr)
		return -ENOMEM;
	p->rows = nr;
	p->rows[p->n++] = *r;
	return 0;
}

static int check_input(const char *path)
{
	int fd;

	if (access(path, F_OK) && errno == ENOENT)
		return 0;	/* perf says so itself */
	fd = nsb_open_input(path, SIZE_MAX, NULL);

	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

int nsb_perf_diff(struct nsb_perf *p, const char *base, const char *patched)
{
	struct nsb_perf_row r;
	char *line = NULL;
	size_t cap = 0;
	int st, ret = 0;
	pid_t pid;
	FILE *f;

	memset(p, 0, sizeof(*p));
	p->base = base;
	p->patched = patched;
	/*
	 * perf reads them: regular files only (a FIFO would hang it); no
	 * size limit, a long perf record is large
	 */
	if (check_input(base) || check_input(patched))
		return -1;
	f = spawn_perf(base, patched, &pid);
	if (!f)
		return -1;
	while (getline(&line, &cap, f) > 0)
		if (parse_line(line, &r) && add_row(p, &r))
			ret = -ENOMEM;
	free(line);
	fclose(f);
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "nsbench: perf diff %s %s failed\n", base,
			patched);
		ret = -1;
	}
	if (!ret && !p->n) {
		fprintf(stderr, "nsbench: perf diff %s %s: no samples\n",
			base, patched);
		ret = -1;
	}
	return ret;
}

void nsb_perf_free(struct nsb_perf *p)
{
	nsb_free_each(p->rows, p->n, sizeof(*p->rows),
		      offsetof(struct nsb_perf_row, sym));
	memset(p, 0, sizeof(*p));
}

static void print_row(FILE *f, bool md, const struct nsb_perf_row *r)
{
	if (md) {
		fputs("| ", f);
		nsb_md_put_code(f, r->sym);
		fprintf(f, " | %.2f %% | %.2f %% | %+.2f %% |\n", r->base,
			r->base + r->delta, r->delta);
	}
	else
		fprintf(f, "  %-40.40s %6.2f%% %6.2f%% %+7.2f%%\n", r->sym,
			r->base, r->base + r->delta, r->delta);
}

static void header(FILE *f, bool md, const char *what)
{
	if (md)
		fprintf(f, "\n| %s | base | patched | delta |\n"
			"|---|---:|---:|---:|\n", what);
	else
		fprintf(f, "  %-40s %7s %7s %8s\n", what, "base", "patched",
			"delta");
}

/* Indices of the TOP_N largest |delta| rows into top[]; returns count. */
static size_t largest(const struct nsb_perf *p, size_t *top)
{
	size_t i, j, k = 0;

	for (i = 0; i < p->n; i++) {
		for (j = k; j > 0 && fabs(p->rows[top[j - 1]].delta) <
		     fabs(p->rows[i].delta); j--)
			if (j < TOP_N)
				top[j] = top[j - 1];
		if (j < TOP_N)
			top[j] = i;
		if (k < TOP_N)
			k++;
	}
	return k;
}

void nsb_perf_print(FILE *f, bool md, const struct nsb_perf *p)
{
	size_t top[TOP_N], i, k, checks = 0;

	fprintf(f, md ? "\n### perf diff\n\nShare of all samples (`perf diff "
		"-c delta -s symbol %s %s`).\n" : "\nperf diff (share of all "
		"samples; perf diff -c delta -s symbol\n  %s %s)\n", p->base,
		p->patched);
	header(f, md, "check functions");
	for (i = 0; i < p->n; i++) {
		if (!p->rows[i].check)
			continue;
		print_row(f, md, &p->rows[i]);
		checks++;
	}
	if (!checks)
		fprintf(f, md ? "| (none sampled) | | | |\n" :
			"  (none of the check functions was sampled)\n");
	header(f, md, "largest changes");
	k = largest(p, top);
	for (i = 0; i < k; i++)
		print_row(f, md, &p->rows[top[i]]);
}
