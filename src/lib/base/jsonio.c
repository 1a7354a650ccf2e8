// SPDX-License-Identifier: GPL-2.0
/*
 * jsonio.c — input and output files.  Inputs: only regular files, of at
 * most a size no real run reaches, read with a clear error that names the
 * file (a FIFO would block a CI job forever, /dev/zero would eat its
 * memory).  Outputs: written atomically (a temporary file made with
 * mkstemp in the same directory, fsync, rename), so a reader or a crash
 * never leaves half a results file behind and nobody can plant the
 * temporary file's name.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/lib/base/escape.h"
#include "src/lib/base/jsonio.h"

int nsb_bad_at(const char *path, size_t line, const char *fmt, ...)
{
	va_list ap;

	if (line)
		fprintf(stderr, "nsbench: %s:%zu: ", path, line);
	else
		fprintf(stderr, "nsbench: %s: ", path);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

int nsb_open_input(const char *path, size_t max, off_t *size)
{
	struct stat st;
	int fd;

	/* O_NONBLOCK: opening a FIFO must not wait for a writer */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		fprintf(stderr, "nsbench: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		fprintf(stderr, "nsbench: %s: not a regular file\n", path);
		goto fail;
	}
	if ((unsigned long long)st.st_size > max) {
		fprintf(stderr, "nsbench: %s: %lld bytes, over the limit of "
			"%zu MiB for an input file\n", path,
			(long long)st.st_size, max >> 20);
		goto fail;
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK))
		goto fail;
	if (size)
		*size = st.st_size;
	return fd;
fail:
	close(fd);
	return -1;
}

char *nsb_read_input(const char *path, size_t max, size_t *len)
{
	size_t cap, n = 0;
	char *buf, *nb;
	off_t size;
	ssize_t r = 0;
	int fd = nsb_open_input(path, max, &size);

	if (fd < 0)
		return NULL;
	cap = (size_t)size + 1;
	buf = malloc(cap + 1);
	while (buf) {
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
		if (n < cap)
			continue;
		/* it grew while we read: up to the limit, no further */
		if (n > max) {
			fprintf(stderr, "nsbench: %s: grew past the limit of "
				"%zu MiB while being read\n", path, max >> 20);
			goto fail;
		}
		cap = 2 * cap < max + 1 ? 2 * cap : max + 1;
		nb = realloc(buf, cap + 1);
		if (!nb)
			goto fail;
		buf = nb;
	}
	if (!buf || r < 0) {
		fprintf(stderr, "nsbench: %s: %s\n", path,
			buf ? strerror(errno) : "out of memory");
		goto fail;
	}
	close(fd);
	buf[n] = 0;
	*len = n;
	return buf;
fail:
	close(fd);
	free(buf);
	return NULL;
}

/* Is text[i..] the bare word w, not part of a longer one? */
static bool word_at(const char *text, size_t len, size_t i, const char *w)
{
	size_t n = strlen(w);

	return i + n <= len && !memcmp(text + i, w, n) &&
	       (i + n == len || !strchr("abcdefghijklmnopqrstuvwxyz"
					"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_",
					text[i + n]));
}

/*
 * Google Benchmark writes NaN for a counter it cannot compute (the CV of
 * a counter that is always 0) and JSON has no NaN: jansson refuses the
 * whole file.  Outside strings, NaN and [-]Infinity read as null, which
 * the loaders refuse wherever a number is needed, naming the field.
 * Returns a malloc'd copy, or NULL if there is nothing to replace.
 */
static char *nan_to_null(const char *text, size_t len, size_t *out_len)
{
	static const char *const words[] = { "NaN", "Infinity", "-Infinity" };
	bool in_str = false, found = false;
	char *out = NULL;
	size_t i, k = 0, w;

	for (i = 0; i < len; i++) {
		if (in_str) {
			if (text[i] == '\\')
				i++;
			else if (text[i] == '"')
				in_str = false;
		} else if (text[i] == '"') {
			in_str = true;
		} else if (text[i] == 'N' || text[i] == 'I' || text[i] == '-') {
			for (w = 0; w < 3 && !word_at(text, len, i, words[w]);
			     w++)
				;
			found |= w < 3;
		}
	}
	if (!found)
		return NULL;
	/* "NaN" -> "null" grows by one byte: at most len / 3 more */
	out = malloc(len + len / 3 + 2);
	if (!out)
		return NULL;
	for (i = 0, in_str = false; i < len; i++) {
		if (in_str) {
			if (text[i] == '\\' && i + 1 < len)
				out[k++] = text[i++];
			else if (text[i] == '"')
				in_str = false;
		} else if (text[i] == '"') {
			in_str = true;
		} else {
			for (w = 0; w < 3 && !word_at(text, len, i, words[w]);
			     w++)
				;
			if (w < 3) {
				memcpy(out + k, "null", 4);
				k += 4;
				i += strlen(words[w]) - 1;
				continue;
			}
		}
		out[k++] = text[i];
	}
	out[k] = 0;
	*out_len = k;
	return out;
}

/*
 * A NUL byte is never JSON text (in a string it is written \u0000), but
 * jansson's reader takes one as the end of its buffer and reads on: a
 * NUL right after a number was skipped and the file accepted.  Said as
 * the parser says its errors, "path:LINE:COLUMN: invalid JSON: ...".
 */
static bool has_nul(const char *path, const char *text, size_t len)
{
	const char *nul = memchr(text, 0, len), *p;
	size_t line = 1, col = 1;

	if (!nul)
		return false;
	for (p = text; p < nul; p++, col++)
		if (*p == '\n') {
			line++;
			col = 0;
		}
	fprintf(stderr, "%s:%zu:%zu: invalid JSON: a NUL byte (byte %zu)\n",
		path, line, col, (size_t)(nul - text) + 1);
	return true;
}

json_t *nsb_json_load(const char *path)
{
	json_error_t err;
	json_t *root;
	size_t len, fixed_len;
	char *text = nsb_read_input(path, NSB_INPUT_MAX, &len), *fixed;

	if (!text)
		return NULL;
	if (!len) {
		fprintf(stderr, "nsbench: %s: empty file (an interrupted "
			"run?)\n", path);
		free(text);
		return NULL;
	}
	if (has_nul(path, text, len)) {
		free(text);
		return NULL;
	}
	fixed = nan_to_null(text, len, &fixed_len);
	if (fixed) {
		free(text);
		text = fixed;
		len = fixed_len;
	}
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
	if (!root)
		fprintf(stderr, "%s:%d:%d: invalid JSON: %s\n", path, err.line,
			err.column, err.text);
	free(text);
	if (root && nsb_json_clean(root)) {
		fprintf(stderr, "nsbench: %s: out of memory\n", path);
		json_decref(root);
		return NULL;
	}
	return root;
}

/*
 * Once, where every JSON input is read (and each history line): no
 * reader and no writer downstream has to know which of its strings came
 * from elsewhere.  A key that needs it is moved to its clean name.
 */
int nsb_json_clean(json_t *j)
{
	const char *key;
	json_t *v, *moved;
	void *tmp;
	char *c;
	size_t i;

	switch (json_typeof(j)) {
	case JSON_STRING:
		if (!nsb_has_ctl(json_string_value(j)))
			return 0;
		c = nsb_text_clean(json_string_value(j));
		i = c ? (size_t)json_string_set(j, c) : (size_t)-1;
		free(c);
		return i ? -1 : 0;
	case JSON_ARRAY:
		json_array_foreach(j, i, v)
			if (nsb_json_clean(v))
				return -1;
		return 0;
	case JSON_OBJECT:
		json_object_foreach_safe(j, tmp, key, v) {
			if (nsb_json_clean(v))
				return -1;
			if (!nsb_has_ctl(key))
				continue;
			c = nsb_text_clean(key);
			moved = json_incref(v);
			if (!c || json_object_del(j, key) ||
			    json_object_set_new(j, c, moved)) {
				free(c);
				return -1;
			}
			free(c);
		}
		return 0;
	default:
		return 0;
	}
}

const char *nsb_json_str(json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

static int write_all(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t n = write(fd, data, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

/* The directory of path, for the temporary file and its fsync. */
static char *dir_of(const char *path)
{
	char *copy = strdup(path), *d;

	if (!copy)
		return NULL;
	d = strdup(dirname(copy));
	free(copy);
	return d;
}

/* What the file gets: 0644 as the user's umask allows, as open() did. */
static mode_t file_mode(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return 0644 & ~mask;
}

/*
 * mkstemp: a name nobody can predict, created with O_EXCL (a planted
 * file or symlink of that name makes it fail, never write elsewhere).
 * rename replaces path itself: a symlink at path is replaced, not
 * followed.  The directory's fsync makes the rename last.
 */
int nsb_write_file_atomic(const char *path, const char *data, size_t len)
{
	char *dir = dir_of(path), *tmp = NULL, *slash = strrchr(path, '/');
	int fd = -1, dfd, saved;

	if (!dir || asprintf(&tmp, "%s/.%s.XXXXXX", dir,
			     slash ? slash + 1 : path) < 0) {
		tmp = NULL;
		errno = ENOMEM;
		goto fail;
	}
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		goto fail;
	if (fchmod(fd, file_mode()) || write_all(fd, data, len) ||
	    fsync(fd)) {
		close(fd);
		goto fail_unlink;
	}
	if (close(fd) || rename(tmp, path))
		goto fail_unlink;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	free(tmp);
	free(dir);
	return 0;

fail_unlink:
	saved = errno;
	unlink(tmp);
	errno = saved;
fail:
	fprintf(stderr, "nsbench: cannot write %s: %s\n", path,
		strerror(errno));
	free(tmp);
	free(dir);
	return -1;
}

int nsb_json_write_atomic(const char *path, json_t *root)
{
	char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	int ret;

	if (!text) {
		fprintf(stderr, "nsbench: cannot encode JSON for %s\n", path);
		return -1;
	}
	ret = nsb_write_file_atomic(path, text, strlen(text));
	free(text);
	return ret;
}

json_t *nsb_json_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

int nsb_flush_stdout(void)
{
	static bool said;
	int err = 0;

	errno = 0;
	if (fflush(stdout) || ferror(stdout))
		err = errno ? errno : -1;
	if (!err)
		return 0;
	/* -1: an earlier flush failed, and its errno is gone */
	if (!said)
		fprintf(stderr, "nsbench: standard output: %s\n",
			err > 0 ? strerror(err) : "write error");
	said = true;
	return -1;
}

/*
 * Quiet (a missing marker is an answer), but as careful as the checked
 * reader: O_NONBLOCK and a regular file only, since a FIFO planted at a
 * boot's .source would block `nsbench manifest` forever.
 */
char *nsb_first_line(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	char buf[256], *line = NULL;
	struct stat st;
	ssize_t n;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return NULL;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return NULL;
	buf[n] = 0;
	/* one line, NUL-free: what fgets would have given */
	buf[strcspn(buf, "\n")] = 0;
	line = strdup(buf);
	return line;
}
