// SPDX-License-Identifier: GPL-2.0
/*
 * test_fuzz.c — every nsbench command that reads results files, hyperfine
 * output, perf files or the history, run on a corpus of broken input that
 * is generated here, deterministically, from the fixtures: truncation
 * every few bytes, each field read given each wrong type, impossible
 * numbers (zero, negative, huge, NaN, overflowing units), deep nesting,
 * many names and samples, binary garbage, an empty file, a directory, a
 * FIFO, /dev/zero, a symlink loop, a file over the size cap.
 *
 * Each command runs in a child (fork, no exec: the sanitizer build's
 * start-up would cost more than the commands) with a 10 s alarm (30 s
 * for the slow tier with the sanitizers).  Counted
 * per command: crashes (a signal, or a sanitizer report), hangs (the
 * alarm), exit 0 or 1 on a case the generator marks invalid, valid cases
 * refused, and refusals whose message does not name the file (and the
 * field, where the case has one).
 *
 * Third pass: the inputs of profile (a profile JSON), manifest --merge
 * (a shard's manifest) and --boots (a boot list), plot costs (costs
 * --json's rows), plot trend (a text file), profile-import --bench and
 * stamp; names with characters some consumer reads as a line break
 * (\v, U+2028, ...), '|', code fences and '<', and such a host_name.
 * Every run's standard output is checked for a raw line break other
 * than '\n' ("broken lines").
 *
 * NSB_FUZZ_TIER=slow (tests/slow/fuzz.sh): truncation every few bytes,
 * 100k names, 100k samples, a 20k-run history, 100k cost rows.  NSB_FUZZ_KEEP=1 keeps
 * the corpus; NSB_FUZZ_CASE=TEXT / NSB_FUZZ_CMD=TEXT run only the cases /
 * commands whose name contains TEXT.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "src/lib/base/nsbench.h"
#include "src/cmd/cli.h"
#include "tests/tap.h"

#define FIX		"tests/fixtures/"
#define SEED_ICOUNT	FIX "history/icount-base.json"
#define SEED_WALL	FIX "stats/base.json"
#define SEED_HF		FIX "stats/hyperfine-base.json"
#define SEED_HIST	FIX "history/step.jsonl"
#define FAKE_PERF	FIX "stats/perf/fake-perf"
#define TIMEOUT		10	/* seconds per command */
/*
 * The sanitizers make the slow tier's 100k cases 5-8 times slower (10 s
 * for summary on 100k names, 1.2 s without): there, and only there, a
 * hang is 30 s.  A quadratic reader takes minutes on them either way.
 */
#ifdef __SANITIZE_ADDRESS__
#define SLOW_TIMEOUT	30
#else
#define SLOW_TIMEOUT	TIMEOUT
#endif
#define RESULTS_CAP	(256UL << 20)	/* src/lib/base/jsonio.c */
#define HISTORY_CAP	(1UL << 30)	/* src/lib/history/history.c */

/* What a case is, for the commands that read it. */
enum kind {
	K_RES = 1,	/* Google Benchmark / nsbench results */
	K_HF = 2,	/* hyperfine --export-json */
	K_HIST = 4,	/* a history (JSON lines) */
	K_PERF = 8,	/* a perf.data given to report --perf-* */
	K_PROF = 16,	/* a profile JSON (profile-import's output) */
	K_MAN = 32,	/* a shard's manifest.json (manifest --merge) */
	K_BOOTS = 64,	/* a boot list "BOOT ROUND SEED A|B" (--boots) */
	K_COSTS = 128,	/* costs --json's rows (plot costs) */
	K_TREND = 256,	/* "<UTC time> median lo hi [commit]" (--trend) */
	K_PIB = 512,	/* profile-import --bench: one benchmark's results */
};

enum expect {
	E_OK,		/* valid: the command must take it */
	E_BAD,		/* invalid: the command must refuse it (exit 2) */
	E_ANY,		/* either, e.g. an empty history */
};

struct fcase {
	char name[96];
	char *path;
	const char *seed;	/* a valid file of the same kind */
	enum kind kind;
	enum expect expect;
	const char *field;	/* a refusal must name it, or NULL */
	unsigned int bad_cmds;	/* commands that must refuse it all the same */
};

enum {
	C_SUMMARY, C_COMPARE_A, C_COMPARE_B, C_REPORT, C_GATE_NEW,
	C_GATE_BASE, C_APPEND, C_IMPORT, C_PERF, C_SHOW, C_CHANGES, C_ACCEPT,
	C_APPEND_TO, C_GATE_H, C_GATE_H_NEW, C_STAMP, C_PROFILE, C_MERGE,
	C_BOOTS, C_COSTS, C_TREND, C_PIMPORT, NCMDS
};

/*
 * Argument templates: {F} the case, {FC} a writable copy of it, {S} its
 * seed, {R} a valid results file, {RH} a copy of a valid history whose
 * accepted run is {R}'s (its file gone: the gate takes the medians), {O}
 * an output file, {P} a valid perf.data, {PA} {PB} the profiles of both
 * sides but {F}'s, {M2} a second shard's manifest, {BD} a boots
 * directory, {OD} a plot output directory, {SYM} perf's symbol table.
 */
struct fcmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *args;
	unsigned int kinds;		/* the cases it runs on */
	unsigned int takes;		/* the kinds it accepts as valid input */
	bool verdict;		/* exit 1 is a verdict (regression) */
};

static const struct fcmd cmds[NCMDS] = {
	[C_SUMMARY] = { "summary", cmd_summary, "summary {F}",
			K_RES | K_HF, K_RES | K_HF, false },
	[C_COMPARE_A] = { "compare F -- S", cmd_compare, "compare {F} -- {S}",
			  K_RES | K_HF, K_RES | K_HF, true },
	[C_COMPARE_B] = { "compare S -- F", cmd_compare, "compare {S} -- {F}",
			  K_RES | K_HF, K_RES | K_HF, true },
	[C_REPORT] = { "report S -- F", cmd_report, "report {S} -- {F}",
		       K_RES | K_HF, K_RES | K_HF, true },
	[C_GATE_NEW] = { "gate F", cmd_gate, "gate --history={RH} {F}",
			 K_RES | K_HF, K_RES | K_HF, true },
	[C_GATE_BASE] = { "gate --baseline=F", cmd_gate,
			  "gate --history={RH} --baseline={F} {S}",
			  K_RES | K_HF, K_RES | K_HF, true },
	[C_APPEND] = { "history append F", cmd_history,
		       "history append --history={RH} {F}",
		       K_RES | K_HF, K_RES | K_HF, false },
	[C_IMPORT] = { "import-hyperfine", cmd_import_hyperfine,
		       "import-hyperfine {F} {O}", K_RES | K_HF, K_HF, false },
	[C_PERF] = { "report --perf-base", cmd_report,
		     "report --perf-base={F} --perf-patched={P} {R} -- {R}",
		     K_PERF, K_PERF, true },
	[C_SHOW] = { "history show", cmd_history, "history show --history={F}",
		     K_HIST, K_HIST, false },
	[C_CHANGES] = { "history changes", cmd_history,
			"history changes --history={F}", K_HIST, K_HIST, false },
	[C_ACCEPT] = { "history accept", cmd_history,
		       "history accept --history={FC} latest", K_HIST, K_HIST,
		       false },
	[C_APPEND_TO] = { "history append to F", cmd_history,
			  "history append --history={FC} {R}", K_HIST, K_HIST,
			  false },
	[C_GATE_H] = { "gate --history=F", cmd_gate, "gate --history={F}",
		       K_HIST, K_HIST, true },
	[C_GATE_H_NEW] = { "gate --history=F R", cmd_gate,
			   "gate --history={F} {R}", K_HIST, K_HIST, true },
	[C_STAMP] = { "stamp", cmd_stamp, "stamp --set=a=b {FC}",
		      K_RES | K_HF, K_RES | K_HF, false },
	[C_PROFILE] = { "profile F -- B", cmd_profile,
			"profile {F} {PA} -- {PB}", K_PROF, K_PROF, false },
	[C_MERGE] = { "manifest --merge", cmd_manifest,
		      "manifest --merge --out={O} {F} {M2}", K_MAN, K_MAN,
		      false },
	[C_BOOTS] = { "manifest --boots", cmd_manifest,
		      "manifest --out={O} --boots={F} --boots-dir={BD}",
		      K_BOOTS, K_BOOTS, false },
	[C_COSTS] = { "plot costs", cmd_plot,
		      "plot costs {F} --out-dir={OD}", K_COSTS, K_COSTS,
		      false },
	[C_TREND] = { "plot trend", cmd_plot,
		      "plot trend {F} --out-dir={OD}", K_TREND, K_TREND,
		      false },
	[C_PIMPORT] = { "profile-import --bench", cmd_profile_import,
			"profile-import --symbols={SYM} --bench={F} "
			"--ops=250000 --period=10007 --out={O}", K_PIB, K_PIB,
			false },
};

struct tally {
	size_t runs, crashes, leaks, hangs, garbage0, garbage1, refused;
	size_t nameless, fieldless, slow, broken;
};

static char dir[] = "/tmp/nsb-fuzz.XXXXXX";
static char good_hist[128], perf_ok[128];
static char prof_seed[128], prof_a[128], prof_b[128], man1[128], man2[128];
static char boots_dir[128], plots_dir[128], costs_seed[128];
static char trend_seed[128], boots_seed[128], pib_seed[128];
#define SEED_SYMBOLS	FIX "profile/stat.symbols.tsv"
#define SEED_PIB	FIX "profile/stat.bench.json"
#define PROF_AB		FIX "profile/ab/"
static struct fcase *cases;
static size_t ncases, cases_cap;
static bool slow_tier;
static unsigned long rng_state = 20151104;
static char **owned;		/* strings the cases point to */
static size_t nowned;

/* Keeps p until the end (fields and seeds the cases point to). */
static char *own(char *p)
{
	char **n = realloc(owned, (nowned + 1) * sizeof(*n));

	if (!n || !p)
		abort();
	owned = n;
	return owned[nowned++] = p;
}

static void free_cases(void)
{
	size_t i;

	for (i = 0; i < ncases; i++)
		free(cases[i].path);
	for (i = 0; i < nowned; i++)
		free(owned[i]);
	free(cases);
	free(owned);
}

/* --- files ------------------------------------------------------------ */

static unsigned long rnd(void)
{
	/* xorshift64: the same corpus on every machine */
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static int put(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	const char *p = data;
	ssize_t n;

	if (fd < 0)
		return -1;
	while (len) {
		n = write(fd, p, len);
		if (n <= 0) {
			close(fd);
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return close(fd);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t cap = 0, n = 0, r;

	if (!f)
		return NULL;
	for (;;) {
		if (n + 4096 + 1 > cap) {
			char *nb = realloc(buf, cap = 2 * cap + 8192);

			if (!nb)
				break;
			buf = nb;
		}
		r = fread(buf + n, 1, cap - n - 1, f);
		if (!r)
			break;
		n += r;
	}
	fclose(f);
	if (buf)
		buf[n] = 0;
	*len = n;
	return buf;
}

static int copy(const char *from, const char *to)
{
	size_t len;
	char *buf = slurp(from, &len);
	int ret;

	if (!buf)
		return -1;
	ret = put(to, buf, len);
	free(buf);
	return ret;
}

/* --- the corpus ------------------------------------------------------- */

static struct fcase *add_case(enum kind kind, enum expect expect,
			      const char *seed, const char *field,
			      const char *fmt, ...)
{
	const char *ext = kind == K_HIST ? ".jsonl" : kind == K_PERF ? ".data"
			  : kind == K_TREND ? ".txt" : kind == K_BOOTS ?
			  ".list" : kind == K_PROF ? ".profile.json" : ".json";
	struct fcase *c;
	va_list ap;

	if (ncases == cases_cap) {
		cases_cap = cases_cap ? 2 * cases_cap : 256;
		cases = realloc(cases, cases_cap * sizeof(*cases));
		if (!cases)
			abort();
	}
	c = &cases[ncases++];
	memset(c, 0, sizeof(*c));
	va_start(ap, fmt);
	vsnprintf(c->name, sizeof(c->name), fmt, ap);
	va_end(ap);
	/* names hold JSON text: keep the paths plain */
	for (char *p = c->name; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789-_=.[]+",
			    *p) && !(*p >= 'A' && *p <= 'Z'))
			*p = '_';
	if (asprintf(&c->path, "%s/c/%03zu-%s%s", dir, ncases, c->name,
		     ext) < 0)
		abort();
	c->kind = kind;
	c->expect = expect;
	c->seed = seed;
	c->field = field;
	return c;
}

static void put_case(struct fcase *c, const void *data, size_t len)
{
	if (put(c->path, data, len))
		fprintf(stderr, "test_fuzz: cannot write %s\n", c->path);
}

/* The JSON text of root with the string "@N@" replaced by token. */
static void put_json(struct fcase *c, json_t *root, const char *token)
{
	char *text = json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER |
				JSON_ENCODE_ANY), *at, *out = NULL;
	size_t len;

	if (!text)
		abort();
	at = token ? strstr(text, "\"@N@\"") : NULL;
	if (at) {
		len = (size_t)(at - text);
		if (asprintf(&out, "%.*s%s%s", (int)len, text, token,
			     at + 5) < 0)
			abort();
		free(text);
		text = out;
	}
	put_case(c, text, strlen(text));
	free(text);
}

static json_t *load_seed(const char *seed)
{
	json_t *j = json_load_file(seed, 0, NULL);

	if (!j) {
		fprintf(stderr, "test_fuzz: cannot load %s\n", seed);
		abort();
	}
	return j;
}

/* A copy of the seed, so that its run id is its own. */
static void control(enum kind kind, const char *seed, const char *tag)
{
	struct fcase *c = add_case(kind, E_OK, seed, NULL, "%s-valid", tag);

	if (copy(seed, c->path))
		abort();
}

/* Truncations every step bytes before the end of the text. */
static void truncations(enum kind kind, const char *seed, const char *tag,
			size_t step)
{
	size_t len, end, off, first_line;
	char *text = slurp(seed, &len);
	struct fcase *c;
	enum expect e;

	if (!text)
		abort();
	for (end = len; end && strchr(" \t\r\n", text[end - 1]); end--)
		;
	first_line = strcspn(text, "\n");
	for (off = 1; off < end; off += off == 1 ? step - 1 : step) {
		/* a history keeps its whole lines: only line 1 cut is bad */
		e = kind == K_HIST && off > first_line ? E_OK : E_BAD;
		c = add_case(kind, e, seed, NULL, "%s-trunc-%zu", tag, off);
		put_case(c, text, off);
	}
	c = add_case(kind, kind == K_HIST ? E_OK : E_BAD, seed, NULL,
		     "%s-trunc-last", tag);
	put_case(c, text, end - 1);
	free(text);
}

/* Values of each JSON type, and -3 (a number, but not a possible time). */
static json_t *value_of(int t)
{
	switch (t) {
	case 0: return json_string("x");
	case 1: return json_real(1.5);
	case 2: return json_null();
	case 3: return json_array();
	case 4: return json_object();
	case 5: return json_true();
	default: return json_integer(-3);
	}
}

#define NVALUES 7

/*
 * The quick tier gives each field three wrong values: the other scalar,
 * null and a container (and -3 to a time); the slow tier all of them.
 */
static bool value_tried(int t, char want)
{
	if (slow_tier)
		return true;
	switch (t) {
	case 0: return want != 's';
	case 1: return want == 's' || want == 'S';
	case 2: return true;
	case 3: return want == 'o';
	case 4: return want != 'o';
	case 6: return want == 'n' || want == 'z' || want == 'i';
	}
	return false;
}

/* Is value t a valid value of a field of type want? */
static bool value_fits(int t, char want)
{
	switch (want) {
	case 's': return t == 0;
	case 'S': return false;		/* a string, but only some words */
	case 'n': return t == 1;	/* a positive number */
	case 'z': return t == 1;	/* a number >= 0 */
	case 'b': return t == 5;
	case 'a': return t == 3;
	case 'o': return t == 4;
	case 'r': return t == 1 || t == 6;	/* any finite number */
	case 'i': return false;		/* a whole number >= 0 */
	}
	return false;
}

struct field {
	const char *key;
	char type;
};

/*
 * Each field of obj (inside root), in turn, given each value that does
 * not fit it; the case is invalid and the message must name where.
 */
static void wrong_types(enum kind kind, const char *seed, const char *tag,
			const char *where, const struct field *f, size_t nf,
			json_t *(*target)(json_t *root), enum expect expect)
{
	char *field;
	size_t i;
	int t;

	for (i = 0; i < nf; i++) {
		for (t = 0; t < NVALUES; t++) {
			json_t *root, *obj;
			struct fcase *c;

			if (value_fits(t, f[i].type) ||
			    !value_tried(t, f[i].type))
				continue;
			root = load_seed(seed);
			obj = target(root);
			json_object_set_new(obj, f[i].key, value_of(t));
			if (asprintf(&field, "%s%s%s", where,
				     *where ? "." : "", f[i].key) < 0)
				abort();
			c = add_case(kind, expect, seed, own(field),
				     "%s-%s-type%d",
				     tag, f[i].key, t);
			put_json(c, root, NULL);
			json_decref(root);
		}
	}
}

static json_t *bench1(json_t *root)
{
	return json_array_get(json_object_get(root, "benchmarks"), 1);
}

static json_t *benchmarks(json_t *root)
{
	return json_object_get(root, "benchmarks");
}

static json_t *context(json_t *root)
{
	return json_object_get(root, "context");
}

static json_t *result0(json_t *root)
{
	return json_array_get(json_object_get(root, "results"), 0);
}

static json_t *times0(json_t *root)
{
	return json_object_get(result0(root), "times");
}

static json_t *itself(json_t *root)
{
	return root;
}

/* root[key] (or the target's) replaced by each value of another type. */
static void container_types(enum kind kind, const char *seed, const char *tag,
			    json_t *(*target)(json_t *root), const char *key,
			    char type, const char *field)
{
	size_t t;

	for (t = 0; t < NVALUES; t++) {
		json_t *root, *obj;
		struct fcase *c;

		if (value_fits((int)t, type) || t == 5 ||
		    !value_tried((int)t, type))
			continue;
		root = load_seed(seed);
		obj = target(root);
		if (json_is_array(obj))
			json_array_set_new(obj, 1, value_of((int)t));
		else
			json_object_set_new(obj, key, value_of((int)t));
		c = add_case(kind, E_BAD, seed, field, "%s-%s-type%zu", tag,
			     field, t);
		put_json(c, root, NULL);
		json_decref(root);
	}
}

/* Numbers as JSON text: NaN and 1e999 are not JSON, jansson says so. */
static const struct {
	const char *text;
	enum expect e;
	bool parse;	/* a parse error: it names line and column instead */
} numbers[] = {
	{ "0", E_BAD, false }, { "-1", E_BAD, false },
	{ "-0.0", E_BAD, false }, { "1e-300", E_OK, false },
	{ "9e17", E_OK, false }, { "2e18", E_BAD, false },
	{ "1e308", E_BAD, false }, { "1e999", E_BAD, true },
	{ "NaN", E_BAD, true }, { "Infinity", E_BAD, true },
	{ "-Infinity", E_BAD, true },
	{ "123456789012345678901234567890", E_BAD, true },
	{ "0x10", E_BAD, true },
};

#define NNUMBERS (NSB_ARRAY_SIZE(numbers))

/* ns per time_unit of an entry (1 without one). */
static double unit_scale(const char *unit)
{
	if (!unit || !strcmp(unit, "ns"))
		return 1;
	return !strcmp(unit, "us") ? 1e3 : !strcmp(unit, "ms") ? 1e6 : 1e9;
}

/* target(root)[key], or [2] of an array, set to each number in turn. */
static void number_cases(enum kind kind, const char *seed, const char *tag,
			 json_t *(*target)(json_t *root), const char *key,
			 const char *field, double scale)
{
	size_t i;

	for (i = 0; i < NNUMBERS; i++) {
		json_t *root = load_seed(seed), *obj = target(root);
		enum expect e = numbers[i].e;
		double v = strtod(numbers[i].text, NULL);
		struct fcase *c;

		/* in seconds, 9e17 is 9e26 ns: too long a time */
		if (json_is_object(obj))
			scale = unit_scale(nsb_json_str(obj, "time_unit"));
		if (e == E_OK && v * scale > 1e18)
			e = E_BAD;
		if (json_is_array(obj))
			json_array_set_new(obj, 2, json_string("@N@"));
		else
			json_object_set_new(obj, key, json_string("@N@"));
		c = add_case(kind, e, seed, numbers[i].parse ? NULL : field,
			     "%s-%s=%s", tag, key, numbers[i].text);
		put_json(c, root, numbers[i].text);
		json_decref(root);
	}
}

static void text_case(enum kind kind, enum expect e, const char *seed,
		      const char *field, const char *tag, const char *text)
{
	struct fcase *c = add_case(kind, e, seed, field, "%s", tag);

	put_case(c, text, strlen(text));
}

/* The seed's text with "from" replaced (first occurrence) by "to". */
static void edit_case(enum kind kind, enum expect e, const char *seed,
		      const char *field, const char *tag, const char *from,
		      const char *to)
{
	size_t len;
	char *text = slurp(seed, &len), *at, *out;
	struct fcase *c;

	at = text ? strstr(text, from) : NULL;
	if (!at || asprintf(&out, "%.*s%s%s", (int)(at - text), text, to,
			    at + strlen(from)) < 0)
		abort();
	c = add_case(kind, e, seed, field, "%s", tag);
	put_case(c, out, strlen(out));
	free(out);
	free(text);
}

static char *nested(size_t depth)
{
	char *s = malloc(2 * depth + 1);
	size_t i;

	if (!s)
		abort();
	for (i = 0; i < depth; i++) {
		s[i] = '[';
		s[2 * depth - 1 - i] = ']';
	}
	s[2 * depth] = 0;
	return s;
}

/* The first entry's unit and time in the icount seed. */
#define UNIT_NS	"\"time_unit\": \"ns\",\n   \"real_time\": 149999.0"

static void results_structure(const char *seed)
{
	json_t *root, *arr, *b;
	struct fcase *c;
	char *deep, *text;
	size_t i;

	/* all aggregates: no sample at all (gate used to crash on it) */
	root = load_seed(seed);
	arr = json_object_get(root, "benchmarks");
	json_array_foreach(arr, i, b)
		json_object_set_new(b, "run_type", json_string("aggregate"));
	c = add_case(K_RES, E_BAD, seed, NULL, "res-aggregates-only");
	put_json(c, root, NULL);
	json_decref(root);
	/* every entry a skip: valid, reported as skips */
	root = load_seed(seed);
	arr = json_object_get(root, "benchmarks");
	json_array_foreach(arr, i, b) {
		json_object_set_new(b, "error_occurred", json_true());
		json_object_set_new(b, "error_message",
				    json_string("skipped: fuzz"));
	}
	c = add_case(K_RES, E_OK, seed, NULL, "res-all-skipped");
	put_json(c, root, NULL);
	json_decref(root);

	edit_case(K_RES, E_BAD, seed, "benchmarks[0].name", "res-empty-name",
		  "\"fix/exec/plain\"", "\"\"");
	edit_case(K_RES, E_OK, seed, NULL, "res-control-chars",
		  "\"fix/exec/plain\"", "\"fix/\\n\\t\\u001f/\\u00e9\"");
	edit_case(K_RES, E_BAD, seed, NULL, "res-nul-in-name",
		  "\"fix/exec/plain\"", "\"fix\\u0000x\"");
	edit_case(K_RES, E_BAD, seed, NULL, "res-bad-utf8",
		  "\"fix/exec/plain\"", "\"fix\xff\xfe\"");
	edit_case(K_RES, E_BAD, seed, NULL, "res-duplicate-key",
		  "\"benchmarks\"", "\"benchmarks\":[],\"benchmarks\"");
	edit_case(K_RES, E_BAD, seed, NULL, "res-bom", "{", "\xef\xbb\xbf{");
	edit_case(K_RES, E_BAD, seed, NULL, "res-trailing", "\n}", "\n} x");
	edit_case(K_RES, E_BAD, seed, NULL, "res-two-documents", "\n}",
		  "\n}{}");
	edit_case(K_RES, E_BAD, seed, "benchmarks[0].real_time",
		  "res-time-unit-s-huge", UNIT_NS,
		  "\"time_unit\": \"s\",\n   \"real_time\": 1e10");
	edit_case(K_RES, E_OK, seed, NULL, "res-time-unit-s", UNIT_NS,
		  "\"time_unit\": \"s\",\n   \"real_time\": 0.00015");
	/* the long name: valid, and a history line of 64 KB */
	text = malloc(65537);
	if (!text)
		abort();
	memset(text, 'n', 65536);
	text[65536] = 0;
	root = load_seed(seed);
	json_object_set_new(json_array_get(json_object_get(root, "benchmarks"),
					   0), "name", json_string(text));
	c = add_case(K_RES, E_OK, seed, NULL, "res-long-name");
	put_json(c, root, NULL);
	json_decref(root);
	free(text);
	/* nesting deeper than any parser should follow */
	deep = nested(100000);
	text_case(K_RES, E_BAD, seed, NULL, "res-deep-root", deep);
	if (asprintf(&text, "{\"benchmarks\":[{\"name\":%s}]}", deep) < 0)
		abort();
	text_case(K_RES, E_BAD, seed, NULL, "res-deep-name", text);
	free(text);
	free(deep);
	deep = nested(200);
	if (asprintf(&text, "{\"benchmarks\":[{\"name\":%s}]}", deep) < 0)
		abort();
	text_case(K_RES, E_BAD, seed, "benchmarks[0].name", "res-nested-name",
		  text);
	free(text);
	free(deep);
	text_case(K_RES, E_BAD, seed, NULL, "res-history-line",
		  "{\"type\":\"result\",\"run\":\"r\"}\n");
	text_case(K_RES, E_BAD, seed, NULL, "res-hello", "hello\n");
	text_case(K_RES, E_BAD, seed, NULL, "res-blank", "   \n\n");
}

static void results_cases(const char *seed, const char *tag, size_t step)
{
	static const struct field bench_fields[] = {
		{ "name", 's' }, { "run_type", 'S' }, { "real_time", 'n' },
		{ "cpu_time", 'n' }, { "time_unit", 'S' },
		{ "error_occurred", 'b' }, { "error_message", 's' },
	};
	static const struct field ctx_fields[] = {
		{ "nsbench_mode", 's' }, { "nsbench_time_unit_meaning", 's' },
		{ "nsbench_round", 's' }, { "nsbench_seed", 's' },
		{ "nsbench_complete", 's' },
	};

	control(K_RES, seed, tag);
	truncations(K_RES, seed, tag, step);
	wrong_types(K_RES, seed, tag, "benchmarks[1]", bench_fields,
		    NSB_ARRAY_SIZE(bench_fields), bench1,
		    E_BAD);
	wrong_types(K_RES, seed, tag, "context", ctx_fields,
		    NSB_ARRAY_SIZE(ctx_fields), context,
		    E_BAD);
	container_types(K_RES, seed, tag, itself, "benchmarks", 'a',
			"benchmarks");
	container_types(K_RES, seed, tag, itself, "context", 'o', "context");
	container_types(K_RES, seed, tag, benchmarks, NULL, 'o',
			"benchmarks[1]");
	number_cases(K_RES, seed, tag, bench1, "real_time",
		     "benchmarks[1].real_time", 1);
}

static void hyperfine_cases(const char *seed, size_t step)
{
	static const struct field fields[] = {
		{ "command", 's' }, { "times", 'a' }, { "exit_codes", 'a' },
		{ "parameters", 'o' }, { "user", 'z' }, { "system", 'z' },
	};
	json_t *root;

	control(K_HF, seed, "hf");
	truncations(K_HF, seed, "hf", step);
	wrong_types(K_HF, seed, "hf", "results[0]", fields,
		    NSB_ARRAY_SIZE(fields), result0, E_BAD);
	container_types(K_HF, seed, "hf", itself, "results", 'a', "results");
	number_cases(K_HF, seed, "hf", times0, "times", "results[0].times[2]",
		     1e9);
	edit_case(K_HF, E_BAD, seed, "results[0].times", "hf-no-times",
		  "\"times\": [", "\"times\": [], \"x\": [");
	edit_case(K_HF, E_BAD, seed, "results[0].times[0]", "hf-time-string",
		  "0.00097", "\"fast\"");
	edit_case(K_HF, E_BAD, seed, "results[0].exit_codes",
		  "hf-exit-codes-short", "\"exit_codes\": [\n    0,",
		  "\"exit_codes\": [");
	edit_case(K_HF, E_BAD, seed, "results[0].exit_codes[0]",
		  "hf-exit-code-string", "\"exit_codes\": [\n    0,",
		  "\"exit_codes\": [\n    \"0\",");
	edit_case(K_HF, E_OK, seed, NULL, "hf-exit-code-signal",
		  "\"exit_codes\": [\n    0,", "\"exit_codes\": [\n    null,");
	edit_case(K_HF, E_OK, seed, NULL, "hf-exit-code-1",
		  "\"exit_codes\": [\n    0,", "\"exit_codes\": [\n    1,");
	edit_case(K_HF, E_BAD, seed, "results[0].parameters.depth",
		  "hf-parameter-number", "\"mean\"",
		  "\"parameters\": {\"depth\": 5}, \"mean\"");
	edit_case(K_HF, E_OK, seed, NULL, "hf-parameter",
		  "\"mean\"", "\"parameters\": {\"depth\": \"5\"}, \"mean\"");
	edit_case(K_HF, E_BAD, seed, "results[0].command", "hf-empty-command",
		  "\"exec true\"", "\"\"");
	root = json_pack("{s:[]}", "results");
	put_json(add_case(K_HF, E_BAD, seed, "results", "hf-no-results"),
		 root, NULL);
	json_decref(root);
}

/* --- history cases ---------------------------------------------------- */

static const char first_rec[] =
	"{\"type\":\"result\",\"run\":\"run00\",\"benchmark\":\"fix/exec/step\","
	"\"status\":\"ok\",\"n\":5,\"median\":149989.2,\"ci_lo\":149944.2,"
	"\"ci_hi\":150034.2,\"ci_level\":0.9375,\"unit\":\"virtual ns = "
	"guest instructions\",\"mode\":\"icount\"}";

/* The first record changed: in the seed (line skipped), or alone. */
static void history_record(const char *key, const char *value, bool alone)
{
	json_t *o = json_loads(first_rec, 0, NULL);
	char *line, *rest, *text;
	size_t len;
	struct fcase *c;

	json_object_set_new(o, key, json_string("@N@"));
	line = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(o);
	rest = slurp(SEED_HIST, &len);
	if (!line || !rest || asprintf(&text, "%.*s%s%s\n%s",
				       (int)(strstr(line, "\"@N@\"") - line),
				       line, value,
				       strstr(line, "\"@N@\"") + 5,
				       alone ? "" : rest) < 0)
		abort();
	c = add_case(K_HIST, alone ? E_BAD : E_OK, SEED_HIST, key,
		     "hist-%s%s=%.12s", alone ? "alone-" : "", key, value);
	put_case(c, text, strlen(text));
	free(text);
	free(line);
	free(rest);
}

static void history_cases(size_t step)
{
	static const struct {
		const char *key, *value;
	} recs[] = {
		{ "run", "1" }, { "run", "\"\"" }, { "benchmark", "null" },
		{ "benchmark", "\"\"" }, { "status", "[]" }, { "unit", "{}" },
		{ "n", "-1" }, { "n", "1e30" }, { "n", "\"5\"" },
		{ "median", "\"x\"" }, { "median", "0" }, { "median", "-1" },
		{ "median", "1e308" }, { "ci_lo", "1e9" }, { "ci_hi", "1" },
		{ "ci_level", "1.5" }, { "ci_level", "-0.5" }, { "mode", "5" },
		{ "files", "\"x\"" },
	};
	size_t i, len;
	char *text, *g;
	struct fcase *c;

	control(K_HIST, SEED_HIST, "hist");
	truncations(K_HIST, SEED_HIST, "hist", step);
	for (i = 0; i < NSB_ARRAY_SIZE(recs); i++) {
		history_record(recs[i].key, recs[i].value, false);
		if (i % 3 == 0)
			history_record(recs[i].key, recs[i].value, true);
	}
	/* the accepted baseline names a run the history does not have */
	text = slurp(SEED_HIST, &len);
	if (!text || asprintf(&g, "%s{\"type\":\"accept\",\"run\":\"ghost\"}"
			      "\n", text) < 0)
		abort();
	c = add_case(K_HIST, E_OK, SEED_HIST, "ghost", "hist-ghost-accepted");
	c->bad_cmds = 1u << C_GATE_H | 1u << C_GATE_H_NEW;
	put_case(c, g, strlen(g));
	free(g);
	/* CRLF line ends: whitespace to JSON */
	c = add_case(K_HIST, E_OK, SEED_HIST, NULL, "hist-crlf");
	g = malloc(2 * len + 1);
	if (!g)
		abort();
	for (i = 0, len = 0; text[i]; i++) {
		if (text[i] == '\n')
			g[len++] = '\r';
		g[len++] = text[i];
	}
	put_case(c, g, len);
	free(g);
	free(text);
	text_case(K_HIST, E_BAD, SEED_HIST, NULL, "hist-hello",
		  "hello\nworld\n");
	text_case(K_HIST, E_ANY, SEED_HIST, NULL, "hist-blank", "\n \n\n");
	text_case(K_HIST, E_BAD, SEED_HIST, NULL, "hist-not-objects",
		  "[1]\n\"x\"\n3\n");
	text_case(K_HIST, E_BAD, SEED_HIST, "type", "hist-unknown-type",
		  "{\"type\":\"other\",\"run\":\"r\"}\n");
	c = add_case(K_HIST, E_BAD, SEED_HIST, NULL, "hist-results-file");
	if (copy(SEED_ICOUNT, c->path))
		abort();
}

/* --- big inputs: names and samples ------------------------------------ */

static FILE *case_file(struct fcase *c)
{
	FILE *f = fopen(c->path, "we");

	if (!f)
		abort();
	return f;
}

/* The seed of a generated case: a copy under another run id. */
static void twin(struct fcase *c)
{
	char *path;

	if (asprintf(&path, "%s.twin%s", c->path, strrchr(c->path, '.')) < 0 ||
	    copy(c->path, path))
		abort();
	c->seed = own(path);
}

static void big_results(size_t names, size_t samples)
{
	struct fcase *c;
	FILE *f;
	size_t i;

	c = add_case(K_RES, E_OK, NULL, NULL, "res-%zu-names", names);
	f = case_file(c);
	fputs("{\"context\":{\"nsbench_mode\":\"native\"},\"benchmarks\":[",
	      f);
	for (i = 0; i < names; i++)
		fprintf(f, "%s{\"name\":\"fuzz/n%zu/depth:%zu\",\"run_type\":"
			"\"iteration\",\"real_time\":%zu,\"cpu_time\":1,"
			"\"time_unit\":\"ns\"}", i ? "," : "", i / 8, i % 8,
			100 + rnd() % 50);
	fputs("]}\n", f);
	fclose(f);
	twin(c);

	c = add_case(K_RES, E_OK, NULL, NULL, "res-%zu-samples", samples);
	f = case_file(c);
	fputs("{\"benchmarks\":[", f);
	for (i = 0; i < samples; i++)
		fprintf(f, "%s{\"name\":\"fuzz/many\",\"run_type\":"
			"\"iteration\",\"real_time\":%.1f,\"time_unit\":"
			"\"ns\"}", i ? "," : "", 1000 + (double)(rnd() % 1000)
			/ 10);
	fputs("]}\n", f);
	fclose(f);
	twin(c);

	c = add_case(K_HF, E_OK, NULL, NULL, "hf-%zu-runs", samples);
	f = case_file(c);
	fputs("{\"results\":[{\"command\":\"x\",\"times\":[", f);
	for (i = 0; i < samples; i++)
		fprintf(f, "%s%.6f", i ? "," : "", 0.001 + (double)(rnd() %
								 100) / 1e6);
	fputs("]}]}\n", f);
	fclose(f);
	twin(c);
}

static void history_line(FILE *f, const char *run, const char *bench,
			 double median)
{
	fprintf(f, "{\"type\":\"result\",\"run\":\"%s\",\"benchmark\":\"%s\","
		"\"status\":\"ok\",\"n\":5,\"median\":%.1f,\"ci_lo\":%.1f,"
		"\"ci_hi\":%.1f,\"ci_level\":0.9375,\"unit\":\"wall-clock ns\","
		"\"mode\":\"native\"}\n", run, bench, median, median - 1,
		median + 1);
}

static void big_history(size_t names, size_t runs)
{
	char run[32], bench[48];
	struct fcase *c;
	FILE *f;
	size_t i;

	c = add_case(K_HIST, E_OK, NULL, NULL, "hist-%zu-names", names);
	f = case_file(c);
	for (i = 0; i < names; i++) {
		snprintf(bench, sizeof(bench), "fuzz/n%zu", i);
		history_line(f, "r0", bench, 100 + (double)(rnd() % 10));
	}
	for (i = 0; i < names; i++) {
		snprintf(bench, sizeof(bench), "fuzz/n%zu", i);
		history_line(f, "r1", bench, 100 + (double)(rnd() % 10));
	}
	fputs("{\"type\":\"accept\",\"run\":\"r0\"}\n", f);
	fclose(f);

	/* one benchmark over many runs, a 5 % step in the middle */
	c = add_case(K_HIST, E_OK, NULL, NULL, "hist-%zu-runs", runs);
	f = case_file(c);
	for (i = 0; i < runs; i++) {
		snprintf(run, sizeof(run), "r%06zu", i);
		history_line(f, run, "fuzz/long", (i < runs / 2 ? 1000 : 1050) +
			     (double)(rnd() % 100) / 10);
	}
	fclose(f);
}

/* --- what is not a file ----------------------------------------------- */

static const char *tag_of(enum kind kind)
{
	switch (kind) {
	case K_RES: return "res";
	case K_HF: return "hf";
	case K_HIST: return "hist";
	case K_PERF: return "perf";
	case K_PROF: return "prof";
	case K_MAN: return "man";
	case K_BOOTS: return "boots";
	case K_COSTS: return "costs";
	case K_TREND: return "trend";
	default: return "pib";
	}
}

static void specials(enum kind kind, const char *seed)
{
	const char *tag = tag_of(kind);
	bool hist = kind == K_HIST, perf = kind == K_PERF;
	char *garbage, *loop2;
	struct fcase *c;
	size_t i;
	int fd;

	c = add_case(kind, hist || perf ? E_ANY : E_BAD, seed, NULL,
		     "%s-empty", tag);
	put_case(c, "", 0);
	c = add_case(kind, E_BAD, seed, NULL, "%s-directory", tag);
	mkdir(c->path, 0755);
	c = add_case(kind, E_BAD, seed, NULL, "%s-fifo", tag);
	mkfifo(c->path, 0644);
	c = add_case(kind, E_BAD, seed, NULL, "%s-dev-zero", tag);
	if (symlink("/dev/zero", c->path))
		abort();
	c = add_case(kind, E_BAD, seed, NULL, "%s-dev-null", tag);
	if (symlink("/dev/null", c->path))
		abort();
	c = add_case(kind, E_BAD, seed, NULL, "%s-symlink-loop", tag);
	if (asprintf(&loop2, "%s.loop", c->path) < 0 ||
	    symlink(loop2, c->path) || symlink(c->path, loop2))
		abort();
	free(loop2);
	/* a missing history is an empty one; perf names a missing file */
	c = add_case(kind, hist || perf ? E_ANY : E_BAD, seed, NULL,
		     "%s-missing", tag);
	/* over the cap, sparse: costs no disk */
	c = add_case(kind, perf ? E_ANY : E_BAD, seed, NULL, "%s-over-cap",
		     tag);
	fd = open(c->path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, (off_t)(hist ? HISTORY_CAP : RESULTS_CAP)
			       + 1) || close(fd))
		abort();
	c = add_case(kind, perf ? E_ANY : E_BAD, seed, NULL, "%s-garbage",
		     tag);
	garbage = malloc(4096);
	if (!garbage)
		abort();
	for (i = 0; i < 4096; i++)
		garbage[i] = (char)rnd();
	put_case(c, garbage, 4096);
	free(garbage);
}

/* --- third pass: profiles, manifests, boot lists, costs, trends -------- */

static json_t *sym0(json_t *root)
{
	return json_array_get(json_object_get(root, "symbols"), 0);
}

static json_t *boot0(json_t *root)
{
	return json_array_get(json_object_get(root, "boots"), 0);
}

static json_t *row0(json_t *root)
{
	return json_array_get(json_object_get(root, "rows"), 0);
}

static json_t *shift0(json_t *root)
{
	return json_object_get(row0(root), "shift");
}

static json_t *bench0(json_t *root)
{
	return json_array_get(json_object_get(root, "benchmarks"), 0);
}

/* target(root) without key: the refusal must name it (crashed before). */
static void missing(enum kind kind, const char *seed, const char *tag,
		    const char *where, json_t *(*target)(json_t *root),
		    const char *const *keys, size_t n)
{
	char *field;
	size_t i;

	for (i = 0; i < n; i++) {
		json_t *root = load_seed(seed);

		json_object_del(target(root), keys[i]);
		if (asprintf(&field, "%s%s%s", where, *where ? "." : "",
			     keys[i]) < 0)
			abort();
		put_json(add_case(kind, E_BAD, seed, own(field),
				  "%s-no-%s", tag, keys[i]), root, NULL);
		json_decref(root);
	}
}

static void profile_cases(const char *seed, size_t step)
{
	static const struct field root_fields[] = {
		{ "benchmark", 's' }, { "event", 's' }, { "period", 'n' },
		{ "ops", 'n' }, { "samples", 'i' }, { "symbols", 'a' },
	};
	static const struct field sym_fields[] = {
		{ "symbol", 's' }, { "dso", 's' }, { "samples", 'i' },
		{ "kernel", 'b' },
	};
	static const char *const root_keys[] = { "benchmark", "event",
		"period", "ops", "samples", "symbols", "context" };
	static const char *const sym_keys[] = { "symbol", "dso", "samples",
		"kernel" };

	control(K_PROF, seed, "prof");
	truncations(K_PROF, seed, "prof", step);
	wrong_types(K_PROF, seed, "prof", "", root_fields,
		    NSB_ARRAY_SIZE(root_fields), itself, E_BAD);
	wrong_types(K_PROF, seed, "prof", "symbols[0]", sym_fields,
		    NSB_ARRAY_SIZE(sym_fields), sym0, E_BAD);
	missing(K_PROF, seed, "prof", "", itself, root_keys,
		NSB_ARRAY_SIZE(root_keys));
	missing(K_PROF, seed, "prof", "symbols[0]", sym0, sym_keys,
		NSB_ARRAY_SIZE(sym_keys));
	number_cases(K_PROF, seed, "prof", itself, "period", "period", 1);
	number_cases(K_PROF, seed, "prof", itself, "ops", "ops", 1);
	container_types(K_PROF, seed, "prof", itself, "context", 'o',
			"context");
	specials(K_PROF, seed);
}

static void manifest_cases(const char *seed, size_t step)
{
	static const struct field boot_fields[] = {
		{ "boot", 'i' }, { "round", 'i' }, { "seed", 'i' },
		{ "side", 'S' }, { "status", 'S' }, { "source", 's' },
		{ "wall_seconds", 'z' },
	};
	json_t *root;

	control(K_MAN, seed, "man");
	truncations(K_MAN, seed, "man", step);
	container_types(K_MAN, seed, "man", itself, "boots", 'a', "boots");
	wrong_types(K_MAN, seed, "man", "boots[0]", boot_fields,
		    NSB_ARRAY_SIZE(boot_fields), boot0, E_BAD);
	root = load_seed(seed);
	json_object_set_new(root, "boots", json_pack("[i,s,n,{}]", 1, "x"));
	put_json(add_case(K_MAN, E_BAD, seed, "boots[0]", "man-boots-garbage"),
		 root, NULL);
	json_decref(root);
	root = load_seed(seed);
	json_object_set_new(root, "boots", json_array());
	put_json(add_case(K_MAN, E_BAD, seed, "boots", "man-boots-empty"),
		 root, NULL);
	json_decref(root);
	edit_case(K_MAN, E_BAD, seed, "boots[0]", "man-boot-overflow",
		  "\"boot\": 1,", "\"boot\": 99999999999,");
	edit_case(K_MAN, E_BAD, seed, "boots[0]", "man-boot-zero",
		  "\"boot\": 1,", "\"boot\": 0,");
	edit_case(K_MAN, E_BAD, seed, "boots[0]", "man-seed-negative",
		  "\"seed\": 1,", "\"seed\": -1,");
	specials(K_MAN, seed);
}

/* A case text with NUL bytes in it: its length from the literal. */
#define LIT(tag, text)	{ tag, text, sizeof(text) - 1 }

static void boots_cases(const char *seed)
{
	static const struct { const char *tag, *text; size_t len; } t[] = {
		{ "boots-overflow", "99999999999999999999 1 1 B\n", 0 },
		{ "boots-over-int", "1 1 4294967296 B\n", 0 },
		{ "boots-negative", "-1 1 1 B\n", 0 },
		{ "boots-zero-boot", "0 1 1 B\n", 0 },
		{ "boots-side-C", "1 1 1 C\n", 0 },
		{ "boots-no-side", "1 1 1\n", 0 },
		{ "boots-extra", "1 1 1 B x\n", 0 },
		{ "boots-hex", "0x10 1 1 B\n", 0 },
		{ "boots-nan", "nan 1 1 B\n", 0 },
		LIT("boots-nul-after-number", "1 1 1\0 B\n2 2 2 A\n"),
		LIT("boots-nul-after-line", "1 1 1 B\0junk\n"),
		{ "boots-blank", "\n", 0 },
	};
	size_t i;

	control(K_BOOTS, seed, "boots");
	for (i = 0; i < NSB_ARRAY_SIZE(t); i++)
		put_case(add_case(K_BOOTS, E_BAD, seed, NULL, "%s", t[i].tag),
			 t[i].text, t[i].len ? t[i].len : strlen(t[i].text));
	specials(K_BOOTS, seed);
}

/* costs --json's rows: n rows, a shift with its CI each. */
static void costs_json(FILE *f, size_t n)
{
	size_t i;

	fputs("{\"icount\": true, \"rows\": [", f);
	for (i = 0; i < n; i++)
		fprintf(f, "%s{\"seed\": \"00%zu\", \"label\": \"exec/%zu\", "
			"\"shift\": {\"est\": %zu.5, \"lo\": %zu.0, \"hi\": "
			"%zu.9}, \"pct\": 0.1, \"pct_lo\": 0.05, \"pct_hi\": "
			"0.2, \"decides\": false, \"unreliable\": false}",
			i ? ", " : "", i % 9, i, i % 50, i % 50, i % 50);
	fputs("]}\n", f);
}

static void costs_cases(const char *seed, size_t step, size_t big)
{
	static const struct field row_fields[] = {
		{ "seed", 's' }, { "label", 's' }, { "pct", 'r' },
		{ "pct_lo", 'r' }, { "pct_hi", 'r' },
	};
	static const struct field shift_fields[] = {
		{ "est", 'r' }, { "lo", 'r' }, { "hi", 'r' },
	};
	struct fcase *c;
	FILE *f;

	control(K_COSTS, seed, "costs");
	truncations(K_COSTS, seed, "costs", step);
	container_types(K_COSTS, seed, "costs", itself, "rows", 'a', "rows");
	wrong_types(K_COSTS, seed, "costs", "rows[0]", row_fields,
		    NSB_ARRAY_SIZE(row_fields), row0, E_BAD);
	wrong_types(K_COSTS, seed, "costs", "rows[0].shift", shift_fields,
		    NSB_ARRAY_SIZE(shift_fields), shift0, E_BAD);
	edit_case(K_COSTS, E_BAD, seed, NULL, "costs-est-1e999",
		  "\"est\": 0.5", "\"est\": 1e999");
	/* more rows than charts: capped, and said */
	c = add_case(K_COSTS, E_OK, seed, NULL, "costs-%zu-rows", big);
	f = case_file(c);
	costs_json(f, big);
	fclose(f);
	specials(K_COSTS, seed);
}

static void trend_cases(const char *seed, size_t big)
{
	static const struct { const char *tag, *text; size_t len; } t[] = {
		{ "trend-nan", "2024-01-01T00:00:00Z nan 1 2\n", 0 },
		{ "trend-inf", "2024-01-01T00:00:00Z inf 1 2\n", 0 },
		{ "trend-minus-inf", "2024-01-01T00:00:00Z 1 -inf 2\n", 0 },
		{ "trend-lo-above", "2024-01-01T00:00:00Z 1 2 3\n", 0 },
		{ "trend-short", "2024-01-01T00:00:00Z 1 2\n", 0 },
		{ "trend-words", "when median lo hi\n", 0 },
		{ "trend-comments-only", "# nothing\n\n", 0 },
		LIT("trend-nul-line", "\0\n2024-01-01T00:00:00Z 1 0 2\n"),
		LIT("trend-nul-after-number", "2024-01-01T00:00:00Z 1\0 0 2\n"),
		{ "trend-1e999", "2024-01-01T00:00:00Z 1e999 0 2\n", 0 },
	};
	struct fcase *c;
	size_t i;
	FILE *f;

	control(K_TREND, seed, "trend");
	for (i = 0; i < NSB_ARRAY_SIZE(t); i++)
		put_case(add_case(K_TREND, E_BAD, seed, NULL, "%s", t[i].tag),
			 t[i].text, t[i].len ? t[i].len : strlen(t[i].text));
	c = add_case(K_TREND, E_OK, seed, NULL, "trend-%zu-rows", big);
	f = case_file(c);
	for (i = 0; i < big; i++)
		fprintf(f, "2024-01-01T00:00:%02zuZ %zu %zu %zu c%zu\n", i % 60,
			100 + i % 7, 99 + i % 7, 101 + i % 7, i);
	fclose(f);
	specials(K_TREND, seed);
}

static void pib_cases(const char *seed, size_t step)
{
	static const struct field fields[] = {
		{ "name", 's' }, { "real_time", 'n' }, { "time_unit", 'S' },
		{ "run_type", 'S' },
	};
	json_t *root;

	control(K_PIB, seed, "pib");
	truncations(K_PIB, seed, "pib", step);
	wrong_types(K_PIB, seed, "pib", "benchmarks[0]", fields,
		    NSB_ARRAY_SIZE(fields), bench0, E_BAD);
	edit_case(K_PIB, E_BAD, seed, NULL, "pib-aggregate-only",
		  "\"iteration\"", "\"aggregate\"");
	edit_case(K_PIB, E_BAD, seed, "time_unit", "pib-parsec",
		  "\"time_unit\": \"ns\"", "\"time_unit\": \"parsec\"");
	edit_case(K_PIB, E_BAD, seed, "name", "pib-empty-name",
		  "\"name\": \"sys/stat/init/depth:0/path:64\",\n"
		  "      \"run_name\": \"sys/stat/init/depth:0/path:64\"",
		  "\"name\": \"\",\n      \"run_name\": \"\"");
	root = load_seed(seed);
	json_object_set_new(bench0(root), "real_time", json_real(1e10));
	json_object_set_new(bench0(root), "time_unit", json_string("s"));
	put_json(add_case(K_PIB, E_BAD, seed, "real_time", "pib-1e10-s"), root,
		 NULL);
	json_decref(root);
	specials(K_PIB, seed);
}

/*
 * Names and a host name built to forge lines: valid input, which every
 * command must take and print on whole lines (judge's "broken").
 */
static void hostile_names(const char *seed)
{
	static const char *const evil[] = {
		"\x0bok 9 forged", "\xe2\x80\xa8ok 9 forged",
		"\xc2\x85" "next", "\x1c\x1d\x1e\x0c\r",
		"|x|y|", "```\n# heading", "<img src=x onerror=alert(1)>\"q\"",
	};
	json_t *root, *b;
	struct fcase *c;
	size_t i, j;
	char *name;

	for (i = 0; i < NSB_ARRAY_SIZE(evil); i++) {
		root = load_seed(seed);
		json_array_foreach(json_object_get(root, "benchmarks"), j, b) {
			if (asprintf(&name, "%s%s", nsb_json_str(b, "name"),
				     evil[i]) < 0)
				abort();
			json_object_set_new(b, "name", json_string(name));
			json_object_del(b, "run_name");
			free(name);
		}
		json_object_set_new(json_object_get(root, "context"),
				    "host_name", json_string(evil[i]));
		c = add_case(K_RES, E_OK, NULL, NULL, "res-hostile-name-%zu", i);
		put_json(c, root, NULL);
		json_decref(root);
		twin(c);
	}
}

static void generate(void)
{
	size_t big = slow_tier ? 100000 : 2000;

	specials(K_RES, SEED_ICOUNT);
	specials(K_HF, SEED_HF);
	specials(K_HIST, SEED_HIST);
	specials(K_PERF, NULL);
	control(K_PERF, perf_ok, "perf");
	results_cases(SEED_ICOUNT, "res", slow_tier ? 7 : 211);
	results_structure(SEED_ICOUNT);
	if (slow_tier)
		results_cases(SEED_WALL, "wall", 31);
	hyperfine_cases(SEED_HF, slow_tier ? 3 : 29);
	history_cases(slow_tier ? 17 : 593);
	big_results(big, big);
	big_history(big, slow_tier ? 20000 : 2000);
	hostile_names(SEED_ICOUNT);
	profile_cases(prof_seed, slow_tier ? 7 : 97);
	manifest_cases(man1, slow_tier ? 7 : 53);
	boots_cases(boots_seed);
	costs_cases(costs_seed, slow_tier ? 7 : 61, big < 3000 ? 3000 : big);
	trend_cases(trend_seed, slow_tier ? 20000 : 2000);
	pib_cases(pib_seed, slow_tier ? 7 : 71);
}

/* --- running ---------------------------------------------------------- */

struct outcome {
	bool broken;		/* stdout: a line break other than '\n' */
	int status;		/* waitpid's */
	char *err;		/* the command's stderr */
	char *shown;		/* the case's path as the command got it */
	double secs;
};

/* The argument vector of cmd on c; {FC} copied first. */
static int build_argv(const struct fcmd *cmd, const struct fcase *c,
		      char **argv, char *buf, size_t len, char **shown)
{
	char tmpl[512], *save = NULL, *w, *out = buf;
	const char *fc = c->path;
	struct stat st;
	int argc = 0;
	static char fcopy[160], rh[160], o[160];

	snprintf(rh, sizeof(rh), "%s/w/rh.jsonl", dir);
	snprintf(o, sizeof(o), "%s/w/out.json", dir);
	unlink(o);
	if (strstr(cmd->args, "{RH}") && copy(good_hist, rh))
		return -1;
	/* a writable copy of a regular file; anything else as it is */
	if (strstr(cmd->args, "{FC}") && !lstat(c->path, &st) &&
	    S_ISREG(st.st_mode) && st.st_size < (64 << 20)) {
		snprintf(fcopy, sizeof(fcopy), "%s/w/copy%s", dir,
			 strrchr(c->path, '.'));
		if (copy(c->path, fcopy))
			return -1;
		fc = fcopy;
	}
	*shown = (char *)(strstr(cmd->args, "{FC}") ? fc : c->path);
	snprintf(tmpl, sizeof(tmpl), "%s", cmd->args);
	for (w = strtok_r(tmpl, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		static const struct { const char *tok; int which; } toks[] = {
			{ "{FC}", 0 }, { "{F}", 1 }, { "{S}", 2 }, { "{RH}", 3 },
			{ "{R}", 4 }, { "{O}", 5 }, { "{P}", 6 }, { "{PA}", 7 },
			{ "{PB}", 8 }, { "{M2}", 9 }, { "{BD}", 10 },
			{ "{OD}", 11 }, { "{SYM}", 12 },
		};
		const char *val[] = { fc, c->path, c->seed ? c->seed : "",
				      rh, SEED_ICOUNT, o, perf_ok, prof_a,
				      prof_b, man2, boots_dir, plots_dir,
				      SEED_SYMBOLS };
		char *brace = strchr(w, '{');
		size_t t, n;

		argv[argc++] = out;
		n = brace ? (size_t)(brace - w) : strlen(w);
		memcpy(out, w, n);
		out += n;
		for (t = 0; brace && t < NSB_ARRAY_SIZE(toks); t++) {
			if (strncmp(brace, toks[t].tok, strlen(toks[t].tok)))
				continue;
			out += snprintf(out, len - (size_t)(out - buf), "%s%s",
					val[toks[t].which],
					brace + strlen(toks[t].tok));
			break;
		}
		*out++ = 0;
	}
	argv[argc] = NULL;
	return argc;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * LeakSanitizer's check at exit costs 0.1 s a process, more than most
 * commands here: the children leave by _exit, and only every 16th run
 * (every 4th in the slow tier) checks for leaks, explicitly.
 */
#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/lsan_interface.h>

static void leak_check(bool on)
{
	if (on && __lsan_do_recoverable_leak_check())
		fputs("LeakSanitizer: leaks above\n", stderr);
}
#else
static void leak_check(bool on)
{
}
#endif


/*
 * Does the file hold a character some consumer reads as a line break
 * (Python's str.splitlines(): \r \v \f \x1c-\x1e U+0085 U+2028 U+2029),
 * or another C0 control but tab and newline?
 */
static bool broken_lines(const char *path)
{
	size_t len, i;
	char *text = slurp(path, &len);
	const unsigned char *u = (const unsigned char *)text;
	bool bad = false;

	for (i = 0; text && i < len && !bad; i++)
		bad = (u[i] < 0x20 && u[i] != '\n' && u[i] != '\t') ||
		      (u[i] == 0xc2 && i + 1 < len && u[i + 1] == 0x85) ||
		      (u[i] == 0xe2 && i + 2 < len && u[i + 1] == 0x80 &&
		       (u[i + 2] == 0xa8 || u[i + 2] == 0xa9));
	free(text);
	return bad;
}

static void run_cmd(const struct fcmd *cmd, const struct fcase *c,
		    struct outcome *r, bool leaks)
{
	char buf[8192], *argv[16], errp[160], outp[160];
	size_t len;
	pid_t pid;
	int argc, fd;
	double t0;

	memset(r, 0, sizeof(*r));
	argc = build_argv(cmd, c, argv, buf, sizeof(buf), &r->shown);
	snprintf(errp, sizeof(errp), "%s/w/stderr", dir);
	snprintf(outp, sizeof(outp), "%s/w/stdout", dir);
	if (argc < 0)
		abort();
	fflush(NULL);
	t0 = now();
	pid = fork();
	if (pid < 0)
		abort();
	if (!pid) {
		fd = open("/dev/null", O_RDONLY);
		dup2(fd, 0);
		fd = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 1);
		fd = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 2);
		alarm(slow_tier ? SLOW_TIMEOUT : TIMEOUT);
		fd = cmd->fn(argc, argv);
		leak_check(leaks);
		fflush(NULL);
		_exit(fd);
	}
	while (waitpid(pid, &r->status, 0) < 0 && errno == EINTR)
		;
	r->secs = now() - t0;
	r->broken = broken_lines(outp);
	r->err = slurp(errp, &len);
	if (!r->err)
		r->err = strdup("");
}

/* What the command must do with the case: E_OK, E_BAD or E_ANY. */
static enum expect wanted(const struct fcmd *cmd, int ci,
			  const struct fcase *c)
{
	if (c->bad_cmds & 1u << ci)
		return E_BAD;
	if (c->expect == E_OK && !(cmd->takes & c->kind))
		return E_BAD;	/* a valid file of another kind */
	return c->expect;
}

static const char *first_line(const char *s)
{
	static char line[200];

	snprintf(line, sizeof(line), "%.*s", (int)strcspn(s, "\n"), s);
	return line;
}

/* The first 20 of each kind of failure, as diagnostics. */
static void report_one(const char *what, const struct fcmd *cmd,
		       const struct fcase *c, const struct outcome *r)
{
	static const char *const kinds[] = { "hang", "leak", "crash",
		"accepted", "refused", "nameless", "fieldless", "broken" };
	static size_t shown[NSB_ARRAY_SIZE(kinds)];
	size_t k;

	for (k = 0; strcmp(kinds[k], what); k++)
		;
	if (shown[k]++ >= 20)
		return;
	diag("%s: %s on %s: %s %d: %s", what, cmd->name, c->name,
	     WIFSIGNALED(r->status) ? "signal" : "exit",
	     WIFSIGNALED(r->status) ? WTERMSIG(r->status) :
	     WEXITSTATUS(r->status), first_line(r->err));
}

static void judge(const struct fcmd *cmd, int ci, const struct fcase *c,
		  const struct outcome *r, struct tally *t)
{
	enum expect e = wanted(cmd, ci, c);
	int code = WIFEXITED(r->status) ? WEXITSTATUS(r->status) : -1;
	bool sig = WIFSIGNALED(r->status);

	t->runs++;
	if (r->secs > 2) {
		t->slow++;
		diag("%.1f s: %s on %s", r->secs, cmd->name, c->name);
	}
	if (sig && WTERMSIG(r->status) == SIGALRM) {
		t->hangs++;
		report_one("hang", cmd, c, r);
		return;
	}
	if (strstr(r->err, "LeakSanitizer")) {
		t->leaks++;
		report_one("leak", cmd, c, r);
	} else if (sig || strstr(r->err, "AddressSanitizer") ||
		   strstr(r->err, "runtime error:")) {
		t->crashes++;
		report_one("crash", cmd, c, r);
		return;
	}
	if (r->broken) {
		t->broken++;
		report_one("broken", cmd, c, r);
	}
	if (e == E_BAD && (code == 0 || code == 1)) {
		if (code == 0)
			t->garbage0++;
		else
			t->garbage1++;
		report_one("accepted", cmd, c, r);
	}
	if (e == E_OK && code != 0 && !(cmd->verdict && code == 1)) {
		t->refused++;
		report_one("refused", cmd, c, r);
	}
	if (code == 2 && !strstr(r->err, r->shown)) {
		t->nameless++;
		report_one("nameless", cmd, c, r);
	} else if (c->field && (cmd->takes & c->kind) && (code == 2 ||
		   (c->kind == K_HIST && *r->err)) &&
		   !strstr(r->err, c->field)) {
		t->fieldless++;
		report_one("fieldless", cmd, c, r);
	}
}

static void add_tally(struct tally *sum, const struct tally *t)
{
	sum->runs += t->runs;
	sum->crashes += t->crashes;
	sum->leaks += t->leaks;
	sum->hangs += t->hangs;
	sum->garbage0 += t->garbage0;
	sum->garbage1 += t->garbage1;
	sum->refused += t->refused;
	sum->nameless += t->nameless;
	sum->fieldless += t->fieldless;
	sum->slow += t->slow;
	sum->broken += t->broken;
}

static void points(const struct fcmd *cmd, const struct tally *t)
{
	ok(!t->crashes && !t->hangs && !t->leaks, "%s: %zu runs, %zu "
	   "crashes, %zu hangs, %zu leaks", cmd->name, t->runs, t->crashes,
	   t->hangs, t->leaks);
	ok(!t->garbage0 && !t->garbage1, "%s: invalid input refused (%zu "
	   "exit 0, %zu exit 1 on garbage)", cmd->name, t->garbage0,
	   t->garbage1);
	ok(!t->refused, "%s: valid input taken (%zu refused)", cmd->name,
	   t->refused);
	ok(!t->nameless && !t->fieldless, "%s: refusals name the file (%zu "
	   "do not) and the field (%zu do not)", cmd->name, t->nameless,
	   t->fieldless);
	ok(!t->broken, "%s: output lines whole (%zu with a raw line break)",
	   cmd->name, t->broken);
}

static bool selected(const char *env, const char *name)
{
	const char *want = getenv(env);

	return !want || strstr(name, want);
}

/*
 * The history of the results-file commands: one run, accepted, whose
 * results file is gone, so the gate takes the history's medians (the
 * compare path is gate --baseline=F's).
 */
/* The seeds of the third pass's kinds, and a stand-in gnuplot. */
static int setup_seeds(void)
{
	static const char man_fmt[] = "{\"date\": \"\", \"host\": \"h\", "
		"\"nsbench_version\": \"fuzz\", \"mode\": \"icount\", "
		"\"rounds\": 2, \"checks\": true, \"cache_audit\": \"\", "
		"\"shard\": \"%d/2\", \"A\": null, \"B\": null, \"boots\": "
		"[{\"boot\": %d, \"round\": %d, \"seed\": %d, \"side\": "
		"\"B\", \"status\": \"ok\", \"source\": \"fresh\", "
		"\"wall_seconds\": 3}]}\n";
	static const char gp[] = "#!/bin/sh\n"
		"# a stand-in gnuplot: $6 is the output\n"
		"case \"$6\" in\n"
		"*.png) printf '\\211PNG\\r\\n\\032\\nIEND\\256B`\\202' >\"$6\" ;;\n"
		"*) printf '<svg></svg>\\n' >\"$6\" ;;\n"
		"esac\n";
	static const char trend[] = "# when median lo hi commit\n"
		"2024-01-01T00:00:00Z 100 99 101 abc\n"
		"2024-01-02T00:00:00Z 101 100 102\n";
	char path[256], *text = NULL;
	struct dirent *e;
	DIR *d;
	FILE *f;
	int ret = 0;

	snprintf(prof_seed, sizeof(prof_seed), "%s/prof-seed.profile.json",
		 dir);
	snprintf(prof_a, sizeof(prof_a), "%s/pa", dir);
	snprintf(prof_b, sizeof(prof_b), "%s", PROF_AB "B/profile");
	snprintf(man1, sizeof(man1), "%s/man1.json", dir);
	snprintf(man2, sizeof(man2), "%s/man2.json", dir);
	snprintf(boots_dir, sizeof(boots_dir), "%s/bd", dir);
	snprintf(plots_dir, sizeof(plots_dir), "%s/w/plots", dir);
	snprintf(costs_seed, sizeof(costs_seed), "%s/costs-seed.json", dir);
	snprintf(trend_seed, sizeof(trend_seed), "%s/trend-seed.txt", dir);
	snprintf(boots_seed, sizeof(boots_seed), "%s/boots-seed.list", dir);
	snprintf(pib_seed, sizeof(pib_seed), "%s/pib-seed.json", dir);
	if (mkdir(prof_a, 0755) || mkdir(boots_dir, 0755) ||
	    copy(PROF_AB "A/profile/r01-stat.profile.json", prof_seed) ||
	    copy(SEED_PIB, pib_seed))
		return -1;
	d = opendir(PROF_AB "A/profile");
	while (d && (e = readdir(d))) {
		char from[512];

		if (!strstr(e->d_name, ".profile.json") ||
		    !strcmp(e->d_name, "r01-stat.profile.json"))
			continue;
		snprintf(from, sizeof(from), "%s/%s", PROF_AB "A/profile",
			 e->d_name);
		if ((size_t)snprintf(path, sizeof(path), "%s/%.100s", prof_a,
				     e->d_name) >= sizeof(path))
			continue;
		ret |= copy(from, path);
	}
	if (d)
		closedir(d);
	for (int k = 1; k <= 2; k++) {
		if (asprintf(&text, man_fmt, k, k, k, k) < 0)
			return -1;
		ret |= put(k == 1 ? man1 : man2, text, strlen(text));
		free(text);
	}
	ret |= put(trend_seed, trend, strlen(trend));
	ret |= put(boots_seed, "1 1 1 B\n2 2 2 A\n", 16);
	f = fopen(costs_seed, "we");
	if (!f)
		return -1;
	costs_json(f, 3);
	ret |= fclose(f);
	snprintf(path, sizeof(path), "%s/gnuplot", dir);
	ret |= put(path, gp, strlen(gp)) | chmod(path, 0755);
	setenv("NSB_GNUPLOT", path, 1);
	return d && !ret ? 0 : -1;
}

static int setup(void)
{
	static const struct fcmd mk[] = {
		{ "mk", cmd_history, "history append --history={FC} {S}", 0, 0,
		  false },
		{ "mk", cmd_history, "history accept --history={FC} latest", 0,
		  0, false },
	};
	struct fcase fc = { .path = good_hist, .seed = NULL };
	struct outcome r;
	char c[160], run[160];
	size_t i;
	int ret = 0;

	snprintf(good_hist, sizeof(good_hist), "%s/good.jsonl", dir);
	snprintf(perf_ok, sizeof(perf_ok), "%s/perf.data", dir);
	snprintf(c, sizeof(c), "%s/w/copy.jsonl", dir);
	snprintf(run, sizeof(run), "%s/base-run.json", dir);
	fc.seed = run;
	if (put(good_hist, "", 0) || put(perf_ok, "PERFILE2", 8) ||
	    copy(SEED_ICOUNT, run))
		return -1;
	for (i = 0; i < 2 && !ret; i++) {
		/* run_cmd works on a copy: keep it */
		run_cmd(&mk[i], &fc, &r, true);
		free(r.err);
		ret = !WIFEXITED(r.status) || WEXITSTATUS(r.status) ||
		      copy(c, good_hist) ? -1 : 0;
	}
	unlink(run);
	return ret;
}

int main(void)
{
	struct tally t[NCMDS] = { 0 }, sum = { 0 };
	char path[256], *perf;
	struct outcome r;
	double t0 = now();
	size_t i, nrun = 0;
	int ci;

	plan_no_plan();
	slow_tier = getenv("NSB_FUZZ_TIER") &&
		    !strcmp(getenv("NSB_FUZZ_TIER"), "slow");
	perf = realpath(FAKE_PERF, NULL);
	if (!mkdtemp(dir) || !perf)
		return cannot_start("mkdtemp, %s", FAKE_PERF);
	setenv("NSB_PERF", perf, 1);
	setenv("NSB_PLOTS", "plots", 1);
	snprintf(path, sizeof(path), "%s/c", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/w", dir);
	mkdir(path, 0755);
	ok(!setup(), "set-up: a valid history with an accepted run");
	ok(!setup_seeds(), "set-up: the seeds of profiles, manifests, boot "
	   "lists, costs, trends, profile-import's bench");
	generate();
	diag("corpus: %zu cases (%s tier) in %s, generated in %.1f s", ncases,
	     slow_tier ? "slow" : "quick", dir, now() - t0);
	for (i = 0; i < ncases; i++) {
		if (!selected("NSB_FUZZ_CASE", cases[i].name))
			continue;
		for (ci = 0; ci < NCMDS; ci++) {
			if (!(cmds[ci].kinds & cases[i].kind) ||
			    !selected("NSB_FUZZ_CMD", cmds[ci].name))
				continue;
			run_cmd(&cmds[ci], &cases[i], &r,
				!(nrun % (slow_tier ? 4 : 16)));
			judge(&cmds[ci], ci, &cases[i], &r, &t[ci]);
			free(r.err);
			nrun++;
		}
	}
	for (ci = 0; ci < NCMDS; ci++) {
		if (!t[ci].runs)
			continue;
		points(&cmds[ci], &t[ci]);
		add_tally(&sum, &t[ci]);
	}
	diag("%zu cases x their commands = %zu runs in %.0f s: %zu crashes, "
	     "%zu hangs, %zu leaks, %zu exit 0 and %zu exit 1 on garbage, "
	     "%zu valid refused, %zu without the file, %zu without the "
	     "field, %zu with broken lines, %zu over 2 s", ncases, sum.runs,
	     now() - t0, sum.crashes, sum.hangs, sum.leaks, sum.garbage0,
	     sum.garbage1, sum.refused, sum.nameless, sum.fieldless,
	     sum.broken, sum.slow);
	if (!getenv("NSB_FUZZ_KEEP")) {
		snprintf(path, sizeof(path), "rm -rf '%s'", dir);
		if (system(path))
			diag("cannot remove %s", dir);
	}
	free(perf);
	free_cases();
	return done_testing();
}
