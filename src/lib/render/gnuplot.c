// SPDX-License-Identifier: GPL-2.0
/*
 * gnuplot.c — the one way nsbench runs gnuplot (see gnuplot.h): private
 * temporary files, labels cleaned into data fields, strings passed as
 * arguments of `gnuplot -c`, templates found beside the program.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "src/lib/render/gnuplot.h"
#include "src/lib/base/shquote.h"
#include "src/lib/base/nsbench.h"

extern char **environ;

/* --- temporary files -------------------------------------------------- */

/*
 * What a SIGINT, SIGTERM or SIGHUP must undo (a killed plot left its
 * /tmp/nsbench-*.XXXXXX behind): the private directory, the output being
 * rendered, gnuplot itself.  Written before they exist, read by the
 * handler only.
 */
static char sig_tmpdir[PATH_MAX], sig_out[PATH_MAX];
static volatile pid_t sig_child;

/* The flat directory's files, then it: no malloc, no stdio (a handler). */
static void rm_flat_signal_safe(const char *dir)
{
	struct dent {
		uint64_t ino;
		int64_t off;
		unsigned short reclen;
		unsigned char type;
		char name[];
	} *d;
	char buf[4096] __attribute__((aligned(8)));
	int pass, fd;
	long n, off;

	/* unlinking while reading may skip a name: a second pass */
	for (pass = 0; pass < 2 && rmdir(dir); pass++) {
		fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			return;
		while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0)
			for (off = 0; off < n; off += d->reclen) {
				d = (struct dent *)(buf + off);
				if (strcmp(d->name, ".") && strcmp(d->name, ".."))
					unlinkat(fd, d->name, 0);
			}
		close(fd);
	}
}

static void on_signal(int sig)
{
	int saved = errno;

	if (sig_child > 0)
		kill(sig_child, SIGTERM);
	if (sig_out[0])
		unlink(sig_out);
	if (sig_tmpdir[0])
		rm_flat_signal_safe(sig_tmpdir);
	errno = saved;
	signal(sig, SIG_DFL);
	raise(sig);
}

static void catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa = { .sa_handler = on_signal };
	size_t i;

	sigemptyset(&sa.sa_mask);
	for (i = 0; i < NSB_ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
}

/* s into the handler's buffer dst, with the signals held meanwhile. */
static void sig_set(char *dst, size_t len, const char *s)
{
	sigset_t all, old;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	if (!s || strlen(s) >= len)
		dst[0] = 0;
	else
		memcpy(dst, s, strlen(s) + 1);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

int nsb_gp_mktmp(char *buf, size_t len, const char *what)
{
	const char *t = getenv("TMPDIR");

	if (!t || t[0] != '/')
		t = "/tmp";
	if ((size_t)snprintf(buf, len, "%s/nsbench-%s.XXXXXX", t, what) >=
	    len)
		return -1;
	catch_signals();
	if (!mkdtemp(buf))
		return -1;
	sig_set(sig_tmpdir, sizeof(sig_tmpdir), buf);
	return 0;
}

int nsb_gp_start(const char *who, const char *out_dir, char *buf,
		 size_t len, const char *what)
{
	if (mkdir(out_dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "%s: %s: %s\n", who, out_dir, strerror(errno));
		return -1;
	}
	if (nsb_gp_mktmp(buf, len, what)) {
		fprintf(stderr, "%s: private directory: %s\n", who,
			strerror(errno));
		*buf = 0;
		return -1;
	}
	return 0;
}

void nsb_gp_rmtmp(const char *dir)
{
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!d)
		return;
	/* a flat directory of our own files */
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlinkat(dirfd(d), e->d_name, 0);
	closedir(d);
	rmdir(dir);
	if (!strcmp(dir, sig_tmpdir))
		sig_set(sig_tmpdir, sizeof(sig_tmpdir), NULL);
}

FILE *nsb_gp_create(const char *dir, const char *name, char **path)
{
	char *p = NULL;
	FILE *f = NULL;
	int fd;

	if (asprintf(&p, "%s/%s", dir, name) < 0)
		return NULL;
	fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd >= 0) {
		f = fdopen(fd, "w");
		if (!f)
			close(fd);
	}
	if (f && path)
		*path = p;
	else
		free(p);
	return f;
}

/* --- text that goes to gnuplot as data -------------------------------- */

/* Length of the valid UTF-8 sequence at s, 0 if there is none. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;

	if (*s < 0x80)
		return 1;
	if (*s >= 0xc2 && *s <= 0xdf)
		n = 2;
	else if (*s >= 0xe0 && *s <= 0xef)
		n = 3;
	else if (*s >= 0xf0 && *s <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* overlong forms, surrogates and what XML refuses */
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90) ||
	    (s[0] == 0xef && s[1] == 0xbf && s[2] >= 0xbe))
		return 0;
	return n;
}

/*
 * Copies the clean form of s into dst (cap bytes with the NUL; whole
 * characters only); dst may be s.  field: for a data field, where a quote,
 * a backslash or a newline would end or escape it.
 */
static void clean_into(char *dst, size_t cap, const char *s, bool field)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t used = 0, w;

	while (*p) {
		w = utf8_len(p);
		if (used + (w ? w : 1) >= cap)
			break;
		if (w > 1) {
			memmove(dst + used, p, w);
			used += w;
			p += w;
			continue;
		}
		if (!w)
			dst[used] = '?';
		else if (*p == '\n' && !field)
			dst[used] = '\n';
		else if (*p < 0x20 || *p == 0x7f)
			dst[used] = ' ';
		else if (field && *p == '"')
			dst[used] = '\'';
		else if (field && *p == '\\')
			dst[used] = '/';
		else
			dst[used] = (char)*p;
		used++;
		p++;
	}
	dst[used] = 0;
}

void nsb_gp_field(FILE *f, const char *s, size_t max)
{
	char buf[1024];

	if (max >= sizeof(buf))
		max = sizeof(buf) - 1;
	clean_into(buf, max + 1, s, true);
	fprintf(f, "\"%s\"", buf);
}

void nsb_gp_clean(char *s)
{
	clean_into(s, strlen(s) + 1, s, false);
}

void nsb_gp_file_part(char *buf, size_t len, const char *s)
{
	size_t i;

	snprintf(buf, len, "%s", s);
	for (i = 0; buf[i]; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", buf[i]))
			buf[i] = '_';
	if (buf[0] == '.')
		buf[0] = '_';	/* no hidden file, no ".." */
}

/* --- templates -------------------------------------------------------- */

bool nsb_gp_has_templates(const char *dir)
{
	char p[PATH_MAX];

	if ((size_t)snprintf(p, sizeof(p), "%s/plot.gp", dir) >= sizeof(p))
		return false;
	return !access(p, R_OK);
}

/* Owned by us or root and not writable by others: nobody else's code. */
static bool trusted(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return false;
	return (st.st_uid == 0 || st.st_uid == geteuid()) &&
	       !(st.st_mode & S_IWOTH);
}

static bool usable_dir(const char *dir)
{
	char p[PATH_MAX];

	if ((size_t)snprintf(p, sizeof(p), "%s/plot.gp", dir) >= sizeof(p))
		return false;
	return nsb_gp_has_templates(dir) && trusted(dir) && trusted(p);
}

const char *nsb_gp_templates(const char *given, const char *who)
{
	static const char *const rel[] = {
		"../share/nsbench/plots", "../plots", "../../plots",
	};
	static char found[PATH_MAX];
	char exe[PATH_MAX], *slash;
	ssize_t n;
	size_t i;

	if (given) {
		if (nsb_gp_has_templates(given))
			return given;
		fprintf(stderr, "%s: %s: no plot.gp (--templates=DIR or "
			"NSB_PLOTS names nsbench's plots/ directory)\n", who,
			given);
		return NULL;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	slash = n > 0 ? memrchr(exe, '/', (size_t)n) : NULL;
	for (i = 0; slash && i < NSB_ARRAY_SIZE(rel); i++) {
		*slash = 0;
		if ((size_t)snprintf(found, sizeof(found), "%s/%s", exe,
				     rel[i]) < sizeof(found) &&
		    usable_dir(found))
			return found;
	}
	if (usable_dir("plots"))
		return "plots";
	fprintf(stderr, "%s: no templates beside the program (../share/"
		"nsbench/plots, ../plots) or in ./plots: give "
		"--templates=DIR\n", who);
	return NULL;
}

/* --- running ---------------------------------------------------------- */

static int spawn_wait(char **argv, const char *who)
{
	pid_t pid;
	int st, err;

	err = posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ);
	if (err) {
		fprintf(stderr, "%s: cannot run %s: %s (install gnuplot-nox)\n",
			who, argv[0], strerror(err));
		return -1;
	}
	sig_child = pid;
	err = waitpid(pid, &st, 0);
	sig_child = 0;
	if (err < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "%s: %s failed on %s/%s.gp\n", who, argv[0],
			argv[5], argv[3]);
		return -1;
	}
	return 0;
}

/*
 * Did gnuplot write the whole file?  On a full disk it exits 0 and
 * leaves an empty or cut SVG/PNG: an SVG ends with its </svg>, a PNG
 * with its IEND chunk.
 */
static bool complete(int fd, const char *out)
{
	static const char png_end[] = "IEND\xae\x42\x60\x82";
	const char *ext = strrchr(out, '.');
	char tail[64];
	struct stat st;
	size_t n;
	ssize_t r;

	if (fstat(fd, &st) || st.st_size <= 0)
		return false;
	n = st.st_size < (off_t)sizeof(tail) ? (size_t)st.st_size :
	    sizeof(tail);
	r = pread(fd, tail, n, st.st_size - (off_t)n);
	if (r != (ssize_t)n)
		return false;
	if (ext && !strcmp(ext, ".png"))
		return n >= 8 && !memcmp(tail + n - 8, png_end, 8);
	if (ext && !strcmp(ext, ".svg")) {
		while (n && strchr(" \t\r\n", tail[n - 1]))
			n--;
		return n >= 6 && !memcmp(tail + n - 6, "</svg>", 6);
	}
	return true;
}

/*
 * "cannot write OUT: why": errno if set, else a full file system if the
 * output's is, else what gnuplot left.
 */
static void write_error(const char *who, const char *out, int err,
			const char *dir)
{
	struct statvfs vfs;

	if (!err && !statvfs(dir, &vfs) && !vfs.f_bavail)
		err = ENOSPC;
	fprintf(stderr, "%s: cannot write %s: %s\n", who, out,
		err ? strerror(err) : "gnuplot left an incomplete file");
}

/*
 * gnuplot opens its output itself and follows a symlink planted at its
 * name (as root: the link's target is overwritten).  It renders to a
 * file of our own, made with mkstemp beside the output (O_EXCL: nothing
 * can be planted there), checked complete, then renamed into place as
 * nsb_write_file_atomic does.
 */
static int run_to(char **argv, const char *out, const char *who)
{
	char *copy = strdup(out), *dir, *tmp = NULL;
	const char *base = strrchr(out, '/'), *ext;
	int fd = -1, ret = -1, err = 0;
	mode_t mask;

	base = base ? base + 1 : out;
	/* the output's extension kept last: what a reader of names sees */
	ext = strrchr(base, '.') ?: "";
	dir = copy ? dirname(copy) : NULL;
	if (!dir || asprintf(&tmp, "%s/.%.*s.XXXXXX%s", dir,
			     (int)(ext - base) ?: (int)strlen(base), base,
			     ext) < 0) {
		tmp = NULL;
		err = ENOMEM;
		goto fail;
	}
	catch_signals();
	fd = mkostemps(tmp, (int)strlen(ext), O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		goto fail;
	}
	sig_set(sig_out, sizeof(sig_out), tmp);
	mask = umask(0);
	umask(mask);
	/* what gnuplot's own open() gave it: 0644 as the umask allows */
	fchmod(fd, 0644 & ~mask);
	argv[6] = tmp;
	if (spawn_wait(argv, who))
		goto out;
	if (!complete(fd, out))
		goto fail;
	if (fsync(fd)) {
		err = errno;
		goto fail;
	}
	if (rename(tmp, out)) {
		err = errno;
		goto fail;
	}
	ret = 0;
	goto out;
fail:
	write_error(who, out, err, dir ? dir : ".");
out:
	if (fd >= 0)
		close(fd);
	if (ret && tmp)
		unlink(tmp);
	sig_set(sig_out, sizeof(sig_out), NULL);
	argv[6] = (char *)out;
	free(tmp);
	free(copy);
	return ret;
}

int nsb_gp_run(const char *templates, const struct nsb_gp_args *a,
	       const char *who, FILE *log)
{
	char *driver = NULL, *title = strdup(a->title ?: "");
	char *unit = strdup(a->unit ?: "");
	char *argv[12];
	int i, ret = -1;

	if (!title || !unit || asprintf(&driver, "%s/plot.gp", templates) < 0)
		goto out;
	/* shown text: no control characters, no broken UTF-8 */
	nsb_gp_clean(title);
	nsb_gp_clean(unit);
	argv[0] = (char *)(getenv("NSB_GNUPLOT") ?: "gnuplot");
	argv[1] = "-c";
	argv[2] = driver;
	argv[3] = (char *)a->kind;
	argv[4] = (char *)a->vars;
	argv[5] = (char *)templates;
	argv[6] = (char *)a->outfile;
	argv[7] = (char *)a->datafile;
	argv[8] = title;
	argv[9] = unit;
	argv[10] = (char *)(a->extra ?: "");
	argv[11] = NULL;
	for (i = 0; log && argv[i]; i++) {
		nsb_sh_word(log, "", argv[i]);
		fputc(argv[i + 1] ? ' ' : '\n', log);
	}
	ret = run_to(argv, a->outfile, who);
out:
	free(driver);
	free(title);
	free(unit);
	return ret;
}

static int plot_rows_as(const char *dir, const char *templates,
			struct nsb_gp_args *a, const char *out_base,
			const char *fmt, const char *nums, const char *who)
{
	char *vars = NULL, *out = NULL, name[32];
	int ret = -1;
	FILE *f;

	if (asprintf(&out, "%s.%s", out_base, fmt) < 0)
		return -1;
	snprintf(name, sizeof(name), "vars-%s.gp", fmt);
	f = nsb_gp_create(dir, name, &vars);
	if (!f)
		goto out;
	fprintf(f, "fmt = \"%s\"\n%s\n", fmt, nums);
	if (!fclose(f)) {
		a->vars = vars;
		a->outfile = out;
		ret = nsb_gp_run(templates, a, who, NULL);
		if (!ret)
			printf("%s\n", out);
	}
	unlink(vars);
	free(vars);
out:
	free(out);
	return ret;
}

int nsb_gp_plot_rows(const char *dir, const char *templates,
		     struct nsb_gp_args *a, const char *out_base,
		     const char *nums, const char *who)
{
	static const char *const fmts[] = { "svg", "png" };

	for (size_t i = 0; i < NSB_ARRAY_SIZE(fmts); i++)
		if (plot_rows_as(dir, templates, a, out_base, fmts[i], nums,
				 who))
			return -1;
	return 0;
}
