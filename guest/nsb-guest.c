// SPDX-License-Identifier: GPL-2.0
/*
 * nsb-guest — the pipeline's own small, static guest tool.
 *
 *   nsb-guest euid                    print the effective uid
 *   nsb-guest caps                    print CapPrm of this process (hex)
 *   nsb-guest setcap FILE             give FILE the file capability
 *                                     cap_dac_override+ep (v2 xattr)
 *   nsb-guest runas UID PROG [ARG]... drop to UID/GID and exec PROG
 *   nsb-guest forkexec REPS ITERS LABEL
 *       time ITERS fork+exec of /bin/nsb-true (the workloads' exec
 *       target, workloads/progs) per repetition with
 *       CLOCK_MONOTONIC ($NSB_EXEC_TARGET instead, outside a guest)
 *       and print a results JSON (Google Benchmark
 *       schema, one iteration entry per repetition) on stdout.  Every
 *       NSB_CTX_<key>=<value> in the environment becomes a context entry.
 *   nsb-guest batch PID
 *       put process PID under SCHED_BATCH (nice unchanged) and print the
 *       policy read back; /init does it to itself, so that every
 *       measured process inherits it (init.sh says why).
 *   nsb-guest pidpin [BLOCK]
 *       leave one sleeping process in every leaf of the kernel's pid
 *       idr (16 or 64 pids, below), or in every BLOCK pids (a multiple
 *       of the leaf), and print "leaf=L,blocks=B,forks=F,unheld=U":
 *       steady.plan does it before any clock (and says where and why)
 *   nsb-guest hold
 *       sleep until killed, in pause(): no timer (init.sh's perturb()
 *       starts its sleepers so, and says why).
 *   nsb-guest fifo PID
 *       put process PID under SCHED_FIFO, priority 1, and print "fifo":
 *       on 6.12 steady.plan does it to ksoftirqd (and says why).
 *   nsb-guest seed N
 *       credit the kernel's input pool with 256 bits made from N, so
 *       that its crng is ready (getrandom() no longer blocks), and
 *       print "ready": on 6.12 steady.plan does it before any clock
 *       (and says why).
 *   nsb-guest spin N
 *       run a loop of exactly 2N + 2 instructions and print
 *       "insn <count> ns <CLOCK_MONOTONIC ns it took>": under icount, with
 *       a profiler sampling, ns / insn is how much the sampling itself
 *       stretches time (the profile step's correction, init.sh).
 *
 * It lets the pipeline test itself before, and independently of, the
 * workloads in bench/sys and workloads/.  Static, so it runs in any guest.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <linux/random.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "workloads/exec.h"

extern char **environ;

/* The exec target of every exec workload (workloads/progs/nsb-true.c). */
static const char *target = "/bin/nsb-true";

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * One fork+exec+wait of the target; it must exit as it did the first
 * time (nsb-true's status says what the exec granted: root gets 3).
 */
static int run_target(int *status)
{
	int r = nsb_exec_wait(AT_FDCWD, target, NSB_EXEC_FORK);

	if (r < 0 || r == 127 || (*status >= 0 && r != *status))
		return -1;
	*status = r;
	return 0;
}

/* print_ctx: every NSB_CTX_<key>=<value> becomes "<key>": "<value>". */
static void print_ctx(void)
{
	char **e;

	for (e = environ; *e; e++) {
		const char *eq;

		if (strncmp(*e, "NSB_CTX_", 8))
			continue;
		eq = strchr(*e, '=');
		if (!eq)
			continue;
		printf("    \"%.*s\": \"%s\",\n", (int)(eq - *e - 8), *e + 8,
		       eq + 1);
	}
}

static int forkexec(int reps, long iters, const char *label)
{
	int r, status = -1;

	if (run_target(&status))	/* untimed warm-up */
		goto fail;
	printf("{\n  \"context\": {\n");
	print_ctx();
	printf("    \"executable\": \"%s\",\n", target);
	printf("    \"nsbench_time_unit_meaning\": \"%s\",\n",
	       getenv("NSB_UNIT") ? getenv("NSB_UNIT") : "ns");
	printf("    \"nsbench_complete\": \"true\"\n  },\n");
	printf("  \"benchmarks\": [\n");
	for (r = 0; r < reps; r++) {
		long long t0, t1;
		long i;

		t0 = now_ns();
		for (i = 0; i < iters; i++)
			if (run_target(&status))
				goto fail;
		t1 = now_ns();
		printf("    {\"name\": \"%s\", \"run_name\": \"%s\", "
		       "\"run_type\": \"iteration\", \"repetitions\": %d, "
		       "\"repetition_index\": %d, \"threads\": 1, "
		       "\"iterations\": %ld, \"real_time\": %.3f, "
		       "\"cpu_time\": %.3f, \"time_unit\": \"ns\"}%s\n",
		       label, label, reps, r, iters,
		       (double)(t1 - t0) / iters, (double)(t1 - t0) / iters,
		       r + 1 < reps ? "," : "");
	}
	printf("  ]\n}\n");
	return 0;
fail:
	fprintf(stderr, "nsb-guest: fork+exec of %s failed (or exited "
		"otherwise than at first)\n", target);
	return 1;
}

static int print_caps(void)
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return 1;
	while (fgets(line, sizeof(line), f)) {
		const char *v = line + 7;

		if (strncmp(line, "CapPrm:", 7))
			continue;
		v += strspn(v, " \t");
		fputs(v, stdout);
	}
	fclose(f);
	return 0;
}

static int setcap(const char *path)
{
	struct vfs_cap_data d = {
		.magic_etc = VFS_CAP_REVISION_2 | VFS_CAP_FLAGS_EFFECTIVE,
	};

	d.data[0].permitted = 1U << CAP_DAC_OVERRIDE;
	if (setxattr(path, "security.capability", &d, XATTR_CAPS_SZ_2, 0)) {
		fprintf(stderr, "nsb-guest: setcap %s: %s\n", path,
			strerror(errno));
		return 1;
	}
	return 0;
}

static int runas(const char *uid_str, char **argv)
{
	uid_t id = (uid_t)strtoul(uid_str, NULL, 10);

	if (setgroups(0, NULL) || setresgid(id, id, id) ||
	    setresuid(id, id, id)) {
		perror("nsb-guest: runas");
		return 1;
	}
	execv(argv[0], argv);
	fprintf(stderr, "nsb-guest: exec %s: %s\n", argv[0], strerror(errno));
	return 127;
}

/*
 * The kernel keeps pids in a radix tree (idr).  A fork whose pid lands in
 * a leaf no live process holds allocates that leaf and its exit frees it
 * again (with an RCU callback): 257-303 instructions of an exec under
 * icount, paid or not by where the pid counter happens to be and which
 * leaves the long-lived processes hold.  Pinning every leaf the allocator
 * cycles through makes every fork pay the same.
 *
 * A leaf has XA_CHUNK_SIZE slots: 16 under CONFIG_BASE_SMALL (6.1's
 * tinyconfig), 64 without.  The same option sets PID_MAX_DEFAULT, 4,096
 * or 32,768, which is how a guest that leaves pid_max alone tells them
 * apart.  Pinning every 64 pids on a 16-slot tree held one leaf in four:
 * 6.1's exec paid the node on 3 forks of 4 (make validate's chunk dumps).
 */
#define BASE_SMALL_PID_MAX 4096
#define RESERVED_PIDS 300	/* where the kernel's cyclic allocation wraps to */

static long pid_leaf(long pid_max)
{
	return pid_max <= BASE_SMALL_PID_MAX ? 16 : 64;
}

static long read_pid_max(void)
{
	FILE *f = fopen("/proc/sys/kernel/pid_max", "r");
	long max = -1;

	if (f) {
		if (fscanf(f, "%ld", &max) != 1)
			max = -1;
		fclose(f);
	}
	return max;
}

static void __attribute__((noreturn)) pin_here(void)
{
	/* hold no pipe of the caller's open */
	close(0);
	close(1);
	close(2);
	for (;;)
		pause();
}

/* held[B] = 1 for every block B of LEAF pids a live process is in now. */
static int mark_live(unsigned char *held, long nb, long leaf)
{
	struct dirent *e;
	DIR *d = opendir("/proc");
	long b;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (e->d_name[0] >= '1' && e->d_name[0] <= '9' &&
		    (b = atol(e->d_name) / leaf) < nb)
			held[b] = 1;
	closedir(d);
	return 0;
}

/* Hand out one pid and free it again, cheaply: a block already pinned. */
static pid_t __attribute__((noinline)) spend_pid(void)
{
	pid_t p = vfork();

	if (p == 0)
		_exit(0);
	if (p > 0)
		waitpid(p, NULL, 0);
	return p;
}

/*
 * Fork until a child of ours sleeps in every block from RESERVED_PIDS on,
 * or the allocator has been once round (a block it never hands out is
 * full of live processes).  Our own, not whoever holds a block now: the
 * shell and pipe of the probe that runs this exit soon after, and their
 * blocks with them.  Returns the forks it took, -1 on error.
 */
static long pin_blocks(unsigned char *pinned, long nb, long leaf, long max)
{
	long first = RESERVED_PIDS / leaf, need = nb - first, forks = 0;
	long next = -1;
	pid_t p;

	/* pids below first's block come only before the first wrap: skipped */
	memset(pinned, 1, first);
	while (need > 0 && forks < max) {
		forks++;
		if (next < 0 || !pinned[next / leaf]) {
			p = fork();
			if (p == 0) {
				if (!pinned[getpid() / leaf])
					pin_here();
				_exit(0);
			}
			if (p > 0 && !pinned[p / leaf]) {
				pinned[p / leaf] = 1;
				need--;
			} else if (p > 0) {
				waitpid(p, NULL, 0);
			}
		} else {
			p = spend_pid();
		}
		if (p < 0)
			return -1;
		next = p + 1 < max ? p + 1 : RESERVED_PIDS;
	}
	return forks;
}

/*
 * block: pin every block of that many pids (a multiple of the leaf); 0:
 * every leaf.  Blocks of 256 on 6.1 hold every node above the leaves
 * (16 x 16 pids each) and leave the leaves to the forks, so that nearly
 * every fork pays one node, the leaf, wherever the counter stands
 * (steady.plan says where and why).
 */
static int pidpin(long block)
{
	long max = read_pid_max(), leaf, nb, forks, b, unheld = 0;
	unsigned char *pinned;

	if (max <= RESERVED_PIDS || max > (1L << 22)) {
		fprintf(stderr, "nsb-guest pidpin: pid_max %ld\n", max);
		return 1;
	}
	leaf = pid_leaf(max);
	if (block) {
		if (block < leaf || block % leaf) {
			fprintf(stderr, "nsb-guest pidpin: block %ld is not "
				"a multiple of the leaf, %ld\n", block, leaf);
			return 1;
		}
		leaf = block;
	}
	nb = (max + leaf - 1) / leaf;
	/* a pid_max raised by hand would take millions of forks */
	if (nb > 1024) {
		printf("skipped,pid_max=%ld\n", max);
		return 0;
	}
	pinned = calloc(nb, 1);
	if (!pinned) {
		perror("nsb-guest pidpin");
		return 1;
	}
	forks = pin_blocks(pinned, nb, leaf, max);
	if (forks < 0 || mark_live(pinned, nb, leaf)) {
		perror("nsb-guest pidpin");
		free(pinned);
		return 1;
	}
	for (b = RESERVED_PIDS / leaf; b < nb; b++)
		unheld += !pinned[b];
	printf("leaf=%ld,blocks=%ld,forks=%ld,unheld=%ld\n", leaf,
	       nb - RESERVED_PIDS / leaf - unheld, forks, unheld);
	free(pinned);
	return unheld ? 1 : 0;
}

/* 2n + 2 instructions: mov, then n times dec + jnz. */
static int spin(long n)
{
	struct timespec a, b;
	long c = n;

	if (n < 1)
		return 2;
	clock_gettime(CLOCK_MONOTONIC, &a);
	__asm__ volatile("mov %0, %%rcx\n1: dec %%rcx\njnz 1b"
			 : : "r"(c) : "rcx", "cc");
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("insn %ld ns %lld\n", 2 * n + 2,
	       (long long)(b.tv_sec - a.tv_sec) * 1000000000LL +
	       (b.tv_nsec - a.tv_nsec));
	return 0;
}

/* Puts process PID (arg) under policy (priority 1 if real-time). */
static int set_policy(const char *name, int policy, const char *arg)
{
	struct sched_param sp = { .sched_priority = policy == SCHED_FIFO };
	char *end;
	long pid = strtol(arg, &end, 10);

	if (*arg == '\0' || *end || pid <= 0) {
		fprintf(stderr, "nsb-guest %s: '%s' is not a pid\n", name, arg);
		return 2;
	}
	if (sched_setscheduler((pid_t)pid, policy, &sp)) {
		fprintf(stderr, "nsb-guest %s: %ld: %s\n", name, pid,
			strerror(errno));
		return 1;
	}
	if (sched_getscheduler((pid_t)pid) != policy) {
		fprintf(stderr, "nsb-guest %s: %ld: policy not set\n", name,
			pid);
		return 1;
	}
	printf("%s\n", name);
	return 0;
}

/*
 * Credits the kernel's input pool with 256 bits from seed (arg), so that
 * its crng is ready from here on; prints "ready" once getrandom() says
 * so without blocking.
 */
static int seed_crng(const char *arg)
{
	struct rand_pool_info *r = malloc(sizeof(*r) + 32);
	uint64_t x = strtoull(arg, NULL, 10), w[4];
	unsigned char c;
	int fd, i, ok;

	if (!r)
		return 1;
	for (i = 0; i < 4; i++) {
		/* splitmix64: the bytes are the round's seed, spread */
		uint64_t z = (x += 0x9e3779b97f4a7c15ULL);

		z = (z ^ z >> 30) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ z >> 27) * 0x94d049bb133111ebULL;
		w[i] = z ^ z >> 31;
	}
	r->entropy_count = 256;
	r->buf_size = sizeof(w);
	memcpy(r->buf, w, sizeof(w));
	fd = open("/dev/urandom", O_WRONLY | O_CLOEXEC);
	ok = fd >= 0 && !ioctl(fd, RNDADDENTROPY, r);
	if (!ok)
		fprintf(stderr, "nsb-guest seed: RNDADDENTROPY: %s\n",
			strerror(errno));
	if (fd >= 0)
		close(fd);
	free(r);
	if (!ok)
		return 1;
	if (getrandom(&c, 1, GRND_NONBLOCK) != 1) {
		fprintf(stderr, "nsb-guest seed: crng not ready: %s\n",
			strerror(errno));
		return 1;
	}
	printf("ready\n");
	return 0;
}

int main(int argc, char **argv)
{
	if (getenv("NSB_EXEC_TARGET"))	/* to try it outside a guest */
		target = getenv("NSB_EXEC_TARGET");
	if (argc >= 2 && !strcmp(argv[1], "euid")) {
		printf("%u\n", (unsigned int)geteuid());
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "caps"))
		return print_caps();
	if (argc == 3 && !strcmp(argv[1], "setcap"))
		return setcap(argv[2]);
	if (argc >= 4 && !strcmp(argv[1], "runas"))
		return runas(argv[2], argv + 3);
	if (argc == 5 && !strcmp(argv[1], "forkexec"))
		return forkexec(atoi(argv[2]), atol(argv[3]), argv[4]);
	if (argc == 3 && !strcmp(argv[1], "spin"))
		return spin(atol(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "batch"))
		return set_policy("batch", SCHED_BATCH, argv[2]);
	if (argc == 3 && !strcmp(argv[1], "seed"))
		return seed_crng(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "fifo"))
		return set_policy("fifo", SCHED_FIFO, argv[2]);
	if (argc == 2 && !strcmp(argv[1], "pidpin"))
		return pidpin(0);
	if (argc == 3 && !strcmp(argv[1], "pidpin"))
		return pidpin(atol(argv[2]));
	if (argc == 2 && !strcmp(argv[1], "hold"))
		pin_here();
	fprintf(stderr,
		"usage: nsb-guest euid | caps | setcap FILE |\n"
		"       runas UID PROG [ARG]... |\n"
		"       forkexec REPS ITERS LABEL | spin N | batch PID |\n"
		"       pidpin [BLOCK] | hold | fifo PID | seed N\n");
	return 2;
}
