// SPDX-License-Identifier: GPL-2.0
/*
 * test_workloads_import.c — `nsbench import-hyperfine`: hyperfine's
 * --export-json output becomes one nsbench "iteration" entry per run, in
 * ns, with parameters in the name and the provenance context filled; bad
 * input exits 2 with a message that names the file.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/lib/base/nsbench.h"
#include "src/cmd/cli.h"
#include "tests/tap.h"

static char dir[] = "/tmp/nsb-import-test.XXXXXX";

static char *path(const char *name)
{
	static char buf[4][256];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", dir, name);
	return buf[i];
}

static void write_text(const char *name, const char *text)
{
	FILE *f = fopen(path(name), "w");

	fputs(text, f);
	fclose(f);
}

/* Runs the command with stderr captured into *err (malloc'd). */
static int run(char **err, int argc, ...)
{
	char *argv[8], buf[4096] = "";
	int saved = dup(2), fd, ret, i;
	va_list ap;
	ssize_t n;

	va_start(ap, argc);
	for (i = 0; i < argc; i++)
		argv[i] = va_arg(ap, char *);
	va_end(ap);
	argv[argc] = NULL;
	fflush(stderr);
	fd = open(path("stderr"), O_RDWR | O_CREAT | O_TRUNC, 0600);
	dup2(fd, 2);
	ret = cmd_import_hyperfine(argc, argv);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	lseek(fd, 0, SEEK_SET);
	n = read(fd, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = 0;
	close(fd);
	*err = strdup(buf);
	return ret;
}

static const char good[] =
"{ \"results\": [\n"
"  { \"command\": \"exec/suid/init\", \"mean\": 0.002, \"stddev\": 0.0001,\n"
"    \"median\": 0.002, \"user\": 0.0005, \"system\": 0.001,\n"
"    \"min\": 0.0019, \"max\": 0.0021,\n"
"    \"times\": [0.0019, 0.002, 0.0021], \"exit_codes\": [0, 0, 0],\n"
"    \"parameters\": { \"depth\": \"8\" } },\n"
"  { \"command\": \"exec/d/depth:4\", \"times\": [0.001],\n"
"    \"parameters\": { \"depth\": \"4\" } },\n"
"  { \"command\": \"nsb-wl  mount --fs=tmpfs\", \"mean\": 0.001,\n"
"    \"user\": 0.0, \"system\": 0.0, \"times\": [0.001, 0.0011] },\n"
"  { \"command\": \"refused\", \"times\": [0.1, 0.1],\n"
"    \"exit_codes\": [3, 3] },\n"
"  { \"command\": \"broken\", \"times\": [0.1, 0.1],\n"
"    \"exit_codes\": [0, 1] }\n"
"] }\n";

static void check_good(void)
{
	json_t *root, *b, *e, *ctx;
	char *err;
	int r;

	write_text("good.json", good);
	r = run(&err, 5, "import-hyperfine", "--prefix=wl", "--label=hf-test",
		path("good.json"), path("out.json"));
	is_int(r, 0, "a hyperfine export converts");
	free(err);
	root = nsb_json_load(path("out.json"));
	ok(root != NULL, "the output is JSON");
	if (!root)
		return;
	b = json_object_get(root, "benchmarks");
	is_int(json_array_size(b), 8, "one entry per run (3 + 1 + 2), one "
	       "per failed command");
	e = json_array_get(b, 1);
	is_str(nsb_json_str(e, "name"), "wl/exec/suid/init/depth:8",
	       "name: prefix, command, parameter");
	is_str(nsb_json_str(e, "run_type"), "iteration", "run_type iteration");
	is_str(nsb_json_str(e, "time_unit"), "ns", "time_unit ns");
	is_near(json_number_value(json_object_get(e, "real_time")), 2e6, 1e-3,
		"real_time is the run's seconds in ns");
	is_int(json_integer_value(json_object_get(e, "iterations")), 1,
	       "iterations 1");
	is_int(json_integer_value(json_object_get(e, "repetition_index")), 1,
	       "repetition_index is the run number");
	is_near(json_number_value(json_object_get(e, "cpu_time")), 1.5e6, 1e-3,
		"cpu_time is hyperfine's mean user+system");
	is_str(nsb_json_str(json_array_get(b, 3), "name"), "wl/exec/d/depth:4",
	       "a parameter already in the command name is not repeated");
	e = json_array_get(b, 4);
	is_str(nsb_json_str(e, "name"), "wl/nsb-wl_mount_--fs=tmpfs",
	       "blanks in a command become one '_'");
	e = json_array_get(b, 6);
	ok(json_is_true(json_object_get(e, "error_occurred")) &&
	   !strncmp(nsb_json_str(e, "error_message") ?: "", "skipped: ", 9),
	   "every run exited 3: a skip");
	e = json_array_get(b, 7);
	ok(json_is_true(json_object_get(e, "error_occurred")) &&
	   strstr(nsb_json_str(e, "error_message") ?: "", "1 of 2"),
	   "a failed run: an error, no samples");
	ctx = json_object_get(root, "context");
	is_str(nsb_json_str(ctx, "nsbench_label"), "hf-test", "label in context");
	ok(nsb_json_str(ctx, "kernel_release") != NULL,
	   "context has the kernel release");
	is_str(nsb_json_str(ctx, "hyperfine_source"), path("good.json"),
	       "context names the source file");
	json_decref(root);
}

static void check_bad(const char *name, const char *text, const char *why)
{
	char *err;
	int r;

	if (text)
		write_text(name, text);
	r = run(&err, 3, "import-hyperfine", path(name), path("bad-out.json"));
	is_int(r, 2, "%s: exit 2", why);
	ok(strstr(err, path(name)) != NULL, "%s: the message names the file",
	   why);
	if (!strstr(err, path(name)))
		diag("stderr: %s", err);
	free(err);
	ok(access(path("bad-out.json"), F_OK) != 0,
	   "%s: no output file is written", why);
}

int main(void)
{
	char *err, cmd[128];

	plan_no_plan();
	if (!mkdtemp(dir))
		return cannot_start("mkdtemp");
	check_good();
	check_bad("syntax.json", "{ \"results\": [", "truncated JSON");
	check_bad("noresults.json", "{ \"x\": 1 }", "no results array");
	check_bad("empty.json", "{ \"results\": [] }", "empty results");
	check_bad("notimes.json", "{ \"results\": [ { \"command\": \"a\" } ] }",
		  "a result without times");
	check_bad("negative.json", "{ \"results\": [ { \"command\": \"a\", "
		  "\"times\": [0.1, -1] } ] }", "a negative run time");
	check_bad("nocommand.json", "{ \"results\": [ { \"times\": [1] } ] }",
		  "a result without command");
	check_bad("missing.json", NULL, "a missing file");
	is_int(run(&err, 2, "import-hyperfine", path("good.json")), 2,
	       "one argument is a usage error");
	free(err);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		diag("could not remove %s", dir);
	return done_testing();
}
