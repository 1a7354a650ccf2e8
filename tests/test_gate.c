// SPDX-License-Identifier: GPL-2.0
/*
 * test_gate.c — `nsbench gate` exit codes and verdicts for a regression,
 * an improvement, no change, a failed benchmark and no baseline, through
 * both paths: nsbench compare on the results files, and the same test on
 * the samples the history keeps; and the review's findings (a crash, a pass without a
 * baseline).  icount fixtures (tests/fixtures/history/): 5 samples of
 * ~150,000 instructions, +-2.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/lib/render/ktap.h"
#include "src/lib/base/nsbench.h"
#include "src/cmd/cli.h"
#include "tests/tap.h"

#define FIX "tests/fixtures/history/"

static char dir[] = "/tmp/nsb-test-gate.XXXXXX";
static char hist[128], out[128], copies[6][128];

/* Runs a command with stdout and stderr into out; returns its status. */
static int run(int (*cmd)(int, char **), ...)
{
	char *argv[16];
	int argc = 0, fd, so, se, ret;
	va_list ap;

	va_start(ap, cmd);
	while (argc < 15 && (argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	argv[argc] = NULL;
	fflush(stdout);
	fflush(stderr);
	so = dup(1);
	se = dup(2);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(fd, 1);
	dup2(fd, 2);
	close(fd);
	ret = cmd(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(so);
	close(se);
	return ret;
}

static bool out_has(const char *what)
{
	char buf[8192];
	size_t n;
	FILE *f = fopen(out, "r");

	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return strstr(buf, what) != NULL;
}

static void show_out(void)
{
	char line[512];
	FILE *f = fopen(out, "r");

	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		diag("  %s", line);
	}
	if (f)
		fclose(f);
}

#define H "--history", hist

/* Results files of both runs at hand: nsbench compare decides. */
static void with_results(void)
{
	int r;

	r = run(cmd_gate, "gate", H, FIX "icount-base.json", NULL);
	ok(r == 0 && out_has("no baseline"),
	   "empty history: no baseline yet, skips, exit 0");
	run(cmd_history, "history", "append", H, FIX "icount-base.json",
	    NULL);
	r = run(cmd_gate, "gate", H, NULL);
	ok(r == 0 && out_has("no baseline"),
	   "no accepted run yet: skips, exit 0");
	is_int(run(cmd_history, "history", "accept", H, "latest", NULL), 0,
	       "accept the first run");
	r = run(cmd_gate, "gate", H, "--baseline=no-such-run", NULL);
	is_int(r, 2, "unknown baseline: exit 2");

	run(cmd_history, "history", "append", H, FIX "icount-slower.json",
	    NULL);
	r = run(cmd_gate, "gate", H, NULL);
	ok(r == 1 && out_has("regression +3.00 %") &&
	   out_has("nsbench compare"), "+3 %% (compare): regression, exit 1");
	if (r != 1)
		show_out();
	/* icount: the verdict stays; the user's threshold filters the exit */
	r = run(cmd_gate, "gate", H, "--threshold=5", NULL);
	ok(r == 0 && out_has("regression +3.00 %") &&
	   out_has("under your 5 % threshold, not gated") &&
	   out_has("failing only at 5 % or more"),
	   "+3 %% with --threshold=5: regression under it, exit 0");
	r = run(cmd_gate, "gate", H, "--benchmark=^fix/open", NULL);
	ok(r == 0 && !out_has("fix/exec"), "--benchmark selects; exit 0");

	r = run(cmd_gate, "gate", H, FIX "icount-faster.json", NULL);
	ok(r == 0 && out_has("improvement -3.00 %"),
	   "-3 %% (compare): improvement, exit 0");
	/* +16 insn per exec is what icount resolves: a regression ... */
	r = run(cmd_gate, "gate", H, FIX "icount-same.json", NULL);
	ok(r == 1 && out_has("regression +0.01 % (+16.0 insn") &&
	   out_has("every regression fails"),
	   "+16 insn (+0.01 %%): regression against +-1 insn, exit 1");
	/* ... which a threshold the user gives lets through */
	r = run(cmd_gate, "gate", H, "--threshold=1", FIX "icount-same.json",
		NULL);
	ok(r == 0 && out_has("under your 1 % threshold"),
	   "+0.01 %% with --threshold=1: under it, exit 0");
	r = run(cmd_gate, "gate", H, FIX "icount-error.json", NULL);
	ok(r == 1 && out_has("error: patched: open: ENXIO"),
	   "a benchmark failed in the new run: exit 1");
	r = run(cmd_gate, "gate", H, "--baseline=" FIX "icount-slower.json",
		FIX "icount-base.json", NULL);
	ok(r == 0 && out_has("improvement"),
	   "baseline given as a results file");
	r = run(cmd_gate, "gate", H, "--baseline=icount-slower",
		FIX "icount-slower.json", NULL);
	is_int(r, 2, "a run against itself: exit 2");
}

/* Only the history: the results files are gone. */
static void history_only(void)
{
	static const char *const names[] = {
		"icount-base.json", "icount-same.json", "icount-slower.json",
		"icount-faster.json",
	};
	char cmd[1024], h2[160];
	size_t i;
	int r;

	snprintf(h2, sizeof(h2), "%s/h2.jsonl", dir);
	for (i = 0; i < 4; i++) {
		snprintf(copies[i], sizeof(copies[i]), "%s/%s", dir, names[i]);
		snprintf(cmd, sizeof(cmd), "cp " FIX "%s %s", names[i],
			 copies[i]);
		if (system(cmd))
			return;
		run(cmd_history, "history", "append", "--history", h2,
		    copies[i], NULL);
		unlink(copies[i]);
	}
	r = run(cmd_gate, "gate", "--history", h2, "--baseline=icount-base",
		NULL);
	/* was "history medians": the history keeps the samples now */
	ok(r == 0 && out_has("samples the history keeps") &&
	   out_has("improvement -3.00 %"),
	   "history only, -3 %%: improvement, exit 0");
	r = run(cmd_gate, "gate", "--history", h2, "--baseline=icount-faster",
		NULL);
	is_int(r, 2, "the newest run as its own baseline: exit 2");
	r = run(cmd_gate, "gate", "--history", h2, "--baseline=previous",
		NULL);
	ok(r == 0 && out_has("previous run"), "--baseline=previous");
	r = run(cmd_gate, "gate", "--history", h2, "--baseline=icount-same",
		NULL);
	ok(r == 0 && out_has("improvement"), "history only: -3 %% again");
	/* a regression needs the newest run to be the slower one */
	run(cmd_history, "history", "accept", "--history", h2, "icount-faster",
	    NULL);
	snprintf(cmd, sizeof(cmd), "cp " FIX "icount-slower.json %s/late.json",
		 dir);
	if (system(cmd))
		return;
	snprintf(copies[4], sizeof(copies[4]), "%s/late.json", dir);
	run(cmd_history, "history", "append", "--history", h2, copies[4],
	    NULL);
	unlink(copies[4]);
	r = run(cmd_gate, "gate", "--history", h2, NULL);
	ok(r == 1 && out_has("samples the history keeps") &&
	   out_has("regression +6.19 %"),
	   "history only, +6.19 %% against the accepted run: exit 1");
	if (r != 1)
		show_out();
	r = run(cmd_gate, "gate", "--history", h2, "--threshold=7", NULL);
	ok(r == 0, "history only, +6.19 %% under --threshold=7: exit 0");
	unlink(h2);
}

static void put_text(const char *path, const char *mode, const char *text)
{
	FILE *f = fopen(path, mode);

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/*
 * What a review found: new results of aggregates only crashed the gate
 * (no run id to compare the baseline's with); an accepted baseline that
 * is not in the history gave PASS.
 */
static void review_findings(void)
{
	char h3[160], agg[160];
	int r;

	snprintf(h3, sizeof(h3), "%s/h3.jsonl", dir);
	snprintf(agg, sizeof(agg), "%s/agg.json", dir);
	put_text(agg, "w", "{\"benchmarks\":[{\"name\":\"x\",\"run_type\":"
		 "\"aggregate\",\"real_time\":1,\"time_unit\":\"ns\"}]}\n");
	run(cmd_history, "history", "append", "--history", h3,
	    "tests/fixtures/stats/base.json", NULL);
	is_int(run(cmd_history, "history", "accept", "--history", h3, "base",
		   NULL), 0, "accept base");
	r = run(cmd_gate, "gate", "--history", h3, agg, NULL);
	ok(r == 2 && out_has(agg) && out_has("aggregate"),
	   "new results of aggregates only: exit 2, the file named (was a "
	   "crash)");
	if (r != 2)
		show_out();
	put_text(h3, "a", "{\"type\":\"accept\",\"run\":\"ghost\"}\n");
	r = run(cmd_gate, "gate", "--history", h3, FIX "icount-base.json",
		NULL);
	ok(r == 2 && out_has("'ghost' is not in the history") &&
	   !out_has("PASS"), "accepted baseline not in the history: exit 2, "
	   "no PASS");
	if (r != 2)
		show_out();
	unlink(h3);
	unlink(agg);
}

/* Names and reasons from elsewhere cannot break either format. */
static void formats(void)
{
	struct nsb_tpoint t[2] = {
		{ .name = "a/b#c d", .result = NSB_T_FAIL,
		  .text = "regression <+5 %> & \"more\"\nnext",
		  .detail = "x -> y" },
		{ .name = "a/e", .result = NSB_T_SKIP, .text = "no 'mqueue'" },
	};
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	nsb_ktap_print(f, NULL, 0, t, 2);
	fclose(f);
	/* the verdict in the description, where kunit.py parse shows it */
	ok(buf && strstr(buf, "not ok 1 a/b_c_d regression <+5 %> & "
			 "\"more\" next\n"),
	   "KTAP: '#' and blanks in a name replaced, one line per result");
	ok(buf && strstr(buf, "ok 2 a/e # SKIP no 'mqueue'\n"),
	   "KTAP: SKIP directive with its reason");
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	nsb_junit_print(f, "suite <1>", t, 2);
	fclose(f);
	ok(buf && strstr(buf, "name=\"a/b#c d\"") &&
	   strstr(buf, "&lt;+5 %&gt; &amp; &quot;more&quot;") &&
	   strstr(buf, "suite &lt;1&gt;") && strstr(buf, "-&gt; y"),
	   "JUnit: attributes and text escaped");
	ok(buf && strstr(buf, "failures=\"1\" skipped=\"1\"") &&
	   strstr(buf, "<skipped message=\"no &apos;mqueue&apos;\"/>"),
	   "JUnit: counts and the skip");
	free(buf);
}

int main(void)
{
	plan_no_plan();
	if (!mkdtemp(dir))
		return cannot_start("mkdtemp");
	snprintf(hist, sizeof(hist), "%s/history.jsonl", dir);
	snprintf(out, sizeof(out), "%s/out.txt", dir);
	formats();
	with_results();
	history_only();
	review_findings();
	unlink(hist);
	unlink(out);
	rmdir(dir);
	return done_testing();
}
