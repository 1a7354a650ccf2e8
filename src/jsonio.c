// SPDX-License-Identifier: GPL-2.0
/*
 * jsonio.c — JSON and text files: load with a clear error, write
 * atomically (temporary file in the same directory, fsync, rename), so a
 * reader or a crash never leaves half a results file behind.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/nsbench.h"

json_t *nsb_json_load(const char *path)
{
	json_error_t err;
	json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &err);

	if (!root)
		fprintf(stderr, "%s:%d:%d: invalid JSON: %s\n", path, err.line,
			err.column, err.text);
	return root;
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

int nsb_write_file_atomic(const char *path, const char *data, size_t len)
{
	char *tmp = NULL;
	int fd, saved;

	if (asprintf(&tmp, "%s.tmp.%d", path, (int)getpid()) < 0)
		return -1;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		goto fail;
	if (write_all(fd, data, len) || fsync(fd)) {
		close(fd);
		goto fail_unlink;
	}
	if (close(fd) || rename(tmp, path))
		goto fail_unlink;
	free(tmp);
	return 0;

fail_unlink:
	saved = errno;
	unlink(tmp);
	errno = saved;
fail:
	fprintf(stderr, "nsbench: cannot write %s: %s\n", path,
		strerror(errno));
	free(tmp);
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
