// SPDX-License-Identifier: GPL-2.0
/*
 * test_cachesim.c — the cache-model plugin's model and its records:
 * the LRU caches against a hand-worked trace (associativity, eviction
 * of the least recently used way, an access that crosses a line, the
 * LL behind a D1 miss, a flush), the geometry parser, and the host's
 * reader of the plugin's file (src/lib/io/cachesim.c): records into a
 * results file's entries, and every malformed file refused.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "guest/plugin/cachemodel.h"
#include "src/lib/io/cachesim.h"
#include "tests/tap.h"

static const struct nsb_cache_geom tiny = { 256, 2, 64 };	/* 2 sets */
static const struct nsb_cache_geom small_ll = { 1024, 4, 64 };	/* 4 sets */

/*
 * Two sets of two ways.  Lines A 0x000, B 0x080 and C 0x100 all map to
 * set 0 (blocks 0, 2, 4), D 0x040 to set 1.  Worked by hand:
 * A miss [A]; B miss [B A]; A hit [A B]; C miss, evicts B [C A];
 * B miss, evicts A [B C]; A miss, evicts C [A B]; D miss; D hit.
 */
static void test_lru_trace(void)
{
	static const struct { uint64_t addr; bool hit; } trace[] = {
		{ 0x000, false }, { 0x080, false }, { 0x010, true },
		{ 0x100, false }, { 0x0bf, false }, { 0x03f, false },
		{ 0x040, false }, { 0x07f, true },
	};
	struct nsb_cache c;
	const char *why = NULL;
	size_t i;
	int hits = 0, right = 0;

	if (!ok(!nsb_cache_init(&c, &tiny, &why), "256:2:64 is a cache (%s)",
		why ? why : "ok"))
		return;
	is_int(c.sets, 2, "256 bytes, 2 ways, 64-byte lines: 2 sets");
	for (i = 0; i < NSB_ARRAY_SIZE(trace); i++) {
		bool hit = nsb_cache_access_line(&c, trace[i].addr);

		hits += hit;
		right += hit == trace[i].hit;
	}
	is_int(right, (int)NSB_ARRAY_SIZE(trace),
	       "every access hits or misses as worked by hand (LRU)");
	is_int(hits, 2, "2 hits, 6 misses");
	nsb_cache_flush(&c);
	ok(!nsb_cache_access_line(&c, 0x040), "after a flush D misses");
	/* the generation counter wraps: every set is really emptied */
	c.gen = UINT32_MAX;
	nsb_cache_access_line(&c, 0x000);
	nsb_cache_flush(&c);
	is_int(c.gen, 0, "the flush generation wraps to 0");
	ok(!nsb_cache_access_line(&c, 0x000),
	   "after the wrap a line cached before it misses");
	nsb_cache_free(&c);
}

static void test_hierarchy(void)
{
	struct nsb_hier h;
	const char *why = NULL;

	if (!ok(!nsb_hier_init(&h, &tiny, &tiny, &small_ll, &why),
		"a hierarchy of tiny caches (%s)", why ? why : "ok"))
		return;
	/* 8 bytes at 0x3c cross from line 0x00 into line 0x40 */
	nsb_hier_data(&h, 0x3c, 8);
	is_int(h.d1_miss, 2, "an access crossing a line misses both lines");
	is_int(h.ll_miss, 2, "and both miss the LL behind D1");
	nsb_hier_data(&h, 0x38, 8);
	nsb_hier_data(&h, 0x40, 4);
	is_int(h.d1_miss, 2, "accesses within the cached lines hit");
	/* A, B, C of set 0: A leaves D1 but stays in the 4-way LL */
	nsb_hier_data(&h, 0x080, 1);
	nsb_hier_data(&h, 0x100, 1);
	nsb_hier_data(&h, 0x000, 1);
	is_int(h.d1_miss, 5, "D1 missed B, C and A again (evicted by C)");
	is_int(h.ll_miss, 4, "the LL missed B and C, and still held A");
	nsb_hier_fetch(&h, 0x200, 16);
	is_int(h.i1_miss, 1, "a fetch misses I1 once");
	is_int(h.d1_miss, 5, "a fetch is no data access");
	nsb_hier_flush(&h);
	nsb_hier_data(&h, 0x000, 1);
	is_int(h.ll_miss, 6, "after a flush the line misses D1 and the LL");
	nsb_hier_free(&h);
}

static void test_geometry(void)
{
	static const char *const bad[] = {
		"32768,8,64", "0:8:64", "32768:8", "32768:8:64:1", "-1:8:64",
		"32768:8:64x", "", "99999999999:8:64",
	};
	static const struct nsb_cache_geom impossible[] = {
		{ 32768, 8, 63 },	/* line not a power of two */
		{ 1000, 8, 64 },	/* size not ways x line x sets */
		{ 768, 4, 64 },		/* 3 sets */
	};
	struct nsb_cache_geom g;
	struct nsb_cache c;
	const char *why;
	size_t i;

	ok(!nsb_cache_geom_parse("32768:8:64", &g, &why) && g.size == 32768 &&
	   g.assoc == 8 && g.line == 64, "32768:8:64 parses");
	for (i = 0; i < NSB_ARRAY_SIZE(bad); i++)
		ok(nsb_cache_geom_parse(bad[i], &g, &why) && why,
		   "geometry '%s' refused", bad[i]);
	for (i = 0; i < NSB_ARRAY_SIZE(impossible); i++) {
		int r;

		why = NULL;
		r = nsb_cache_init(&c, &impossible[i], &why);
		ok(r && why, "cache %u:%u:%u refused: %s", impossible[i].size,
		   impossible[i].assoc, impossible[i].line, why ? why : "-");
	}
}

/* --- the records ---------------------------------------------------------- */

#define HEAD "# nsb-cachesim api 1 model test\n" \
	"run\tstate\tchunks\tops\tinsn\tkinsn\tloads\tstores\ti1_miss\t" \
	"d1_miss\tll_miss\ti1_miss_cold\td1_miss_cold\tll_miss_cold\n"
#define REC(id, st, insn) id "\t" st "\t4\t8\t" insn "\t900\t300\t200\t" \
	"1\t2\t0\t10\t20\t30\n"

static char dir[] = "/tmp/nsb-cachesim-XXXXXX";

static const char *write_file(const char *name, const char *text, size_t len)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || fwrite(text, 1, len, f) != len) {
		if (f)
			fclose(f);
		return NULL;
	}
	fclose(f);
	return path;
}

static int load_text(const char *text, size_t len, struct nsb_cachesim *cs)
{
	const char *path = write_file("cs.tsv", text, len);

	return path ? nsb_cachesim_load(cs, path) : -2;
}

static void test_records(void)
{
	static const char good[] = HEAD REC("7", "off2", "1000.5")
		REC("7", "on", "1004.5") REC("7", "off1", "1000.5")
		"# run 8: 3 chunks, 2 replayed: dropped\n";
	struct nsb_cachesim cs;
	json_t *root, *b;
	const char *complete;

	if (!ok(!load_text(good, strlen(good), &cs), "the plugin's file loads"))
		return;
	is_int(cs.n, 3, "3 records");
	ok(cs.r[0].state == 0 && cs.r[2].state == 2,
	   "records sorted by run and state (on, off1, off2)");
	ok(strstr(cs.model, "model test") != NULL, "the model line is kept");
	is_near(nsb_cs_cycles(cs.r[0].v, 0), 1004.5 + 10 * 3 + 100 * 0, 1e-9,
		"cycles warm: insn + 10 x (I1 + D1) + 100 x LL");
	is_near(nsb_cs_cycles(cs.r[0].v, 1), 1004.5 + 10 * 30 + 100 * 30, 1e-9,
		"cycles cold: from the cold misses");
	root = json_loads("{\"context\": {}, \"benchmarks\": ["
		"{\"name\": \"a\", \"time_unit\": \"us\", \"nsb_run_id\": 7},"
		"{\"name\": \"b\", \"time_unit\": \"us\"},"
		"{\"name\": \"c\", \"time_unit\": \"ns\", \"nsb_run_id\": 8}]}",
		0, NULL);
	ok(!nsb_cachesim_apply(&cs, root, "test.json"), "records applied");
	b = json_array_get(json_object_get(root, "benchmarks"), 0);
	is_near(json_real_value(json_object_get(b, "nsb_on_cs_insn")),
		1.0045, 1e-12, "on's instructions per op, in the entry's us");
	is_near(json_real_value(json_object_get(b, "nsb_off1_cs_ll_miss_cold")),
		0.030, 1e-12, "off1's cold LL misses per op");
	ok(json_is_real(json_object_get(b, "nsb_off2_cs_cycles_cold")),
	   "cycles cold derived per state");
	b = json_array_get(json_object_get(root, "benchmarks"), 1);
	ok(!json_object_get(b, "nsb_on_cs_insn"),
	   "an entry without a run id gets nothing");
	complete = json_string_value(json_object_get(json_object_get(root,
						     "context"),
						     "nsbench_cachesim_complete"));
	ok(complete && !strncmp(complete, "no: 1 ", 6),
	   "a run the plugin dropped leaves the file incomplete (%s)",
	   complete ? complete : "none");
	json_decref(root);
	nsb_cachesim_free(&cs);
}

static void test_bad_records(void)
{
	static const struct { const char *text, *why; } bad[] = {
		{ "", "an empty file" },
		{ "run\tstate\n", "no model line" },
		{ "# nsb-cachesim api 1\nrun\tstate\tops\n", "other columns" },
		{ HEAD "7\ton\t4\t8\t1000\n", "too few fields" },
		{ HEAD REC("7", "up", "1000"), "an unknown state" },
		{ HEAD REC("x7", "on", "1000"), "a run id that is no number" },
		{ HEAD REC("4294967296", "on", "1000"), "a run id past 32 bits" },
		{ HEAD REC("7", "on", "-1000"), "a negative count" },
		{ HEAD REC("7", "on", "nan"), "a count that is NaN" },
		{ HEAD REC("7", "on", "1e999"), "an infinite count" },
		{ HEAD REC("7", "on", "1000") "7\ton\t4", "no final newline" },
		{ HEAD "7\ton\t0\t0\t1\t1\t1\t1\t1\t1\t1\t1\t1\t1\n",
		  "no chunks" },
		{ HEAD REC("7", "on", "10\t00"), "a tab inside a count" },
	};
	static const char nul[] = HEAD "7\ton\t4\t8\t1000\0\t900\n";
	struct nsb_cachesim cs;
	size_t i;

	for (i = 0; i < NSB_ARRAY_SIZE(bad); i++)
		ok(load_text(bad[i].text, strlen(bad[i].text), &cs) == -1,
		   "refused: %s", bad[i].why);
	ok(load_text(nul, sizeof(nul) - 1, &cs) == -1, "refused: a NUL byte");
	ok(nsb_cachesim_load(&cs, "/dev/zero") == -1 &&
	   nsb_cachesim_load(&cs, dir) == -1,
	   "refused: a device and a directory");
}

/* A chunk dump (chunks=1: a line per chunk and function) of some 90 MB
 * an LSM boot: loads, its records found among the remarks. */
static void test_chunk_dump_size(void)
{
	static const char head[] = HEAD REC("7", "on", "1004.5");
	static const char line[] = "#cfn\t7\t12\tsome_kernel_function\t42\n";
	size_t n = (80u << 20) / (sizeof(line) - 1), i, len;
	char *text = malloc(sizeof(head) + n * (sizeof(line) - 1));
	struct nsb_cachesim cs;

	if (!ok(text != NULL, "80 MiB for a chunk dump"))
		return;
	memcpy(text, head, sizeof(head) - 1);
	len = sizeof(head) - 1;
	for (i = 0; i < n; i++, len += sizeof(line) - 1)
		memcpy(text + len, line, sizeof(line) - 1);
	ok(!load_text(text, len, &cs) && cs.n == 1,
	   "a chunk dump of %zu MiB loads, its record found", len >> 20);
	nsb_cachesim_free(&cs);
	free(text);
}

int main(void)
{
	plan_no_plan();
	test_lru_trace();
	test_hierarchy();
	test_geometry();
	if (!mkdtemp(dir))
		return cannot_start("mkdtemp");
	test_records();
	test_chunk_dump_size();
	test_bad_records();
	unlink(write_file("cs.tsv", "", 0));
	rmdir(dir);
	return done_testing();
}
