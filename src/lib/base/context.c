// SPDX-License-Identifier: GPL-2.0
/*
 * context.c — the provenance every result carries (results/README.md):
 * kernel, its config, the patch series, the mode, the CPU and its
 * frequency policy, nsbench's own version.  A number without these is not
 * a result.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "src/lib/base/context.h"
#include "src/lib/base/jsonio.h"
#include "src/lib/base/version.h"

static char *cpu_model(void)
{
	/* whole lines (getline): a "flags" line runs past any char[N] */
	FILE *f = fopen("/proc/cpuinfo", "re");
	char *buf = NULL, *model = NULL;
	size_t cap = 0;

	if (!f)
		return NULL;
	while (!model && getline(&buf, &cap, f) > 0) {
		char *colon = strchr(buf, ':');

		if (strncmp(buf, "model name", 10) || !colon)
			continue;
		buf[strcspn(buf, "\n")] = 0;
		model = strdup(colon + 2);
	}
	free(buf);
	fclose(f);
	return model;
}

/*
 * sha256 of the running kernel's configuration text, through the shell's
 * tools (zcat/sha256sum exist on the host and in the busybox guest).
 */
static char *config_hash(const char *release)
{
	char cmd[512], buf[128];
	FILE *p;
	char *hash = NULL;

	snprintf(cmd, sizeof(cmd),
		 "{ if [ -r /proc/config.gz ]; then zcat /proc/config.gz; "
		 "elif [ -r /boot/config-%s ]; then cat /boot/config-%s; "
		 "fi; } 2>/dev/null | sha256sum 2>/dev/null",
		 release, release);
	p = popen(cmd, "r");
	if (!p)
		return NULL;
	/* No config readable: sha256sum hashed nothing (e3b0c442...). */
	if (fgets(buf, sizeof(buf), p) && strlen(buf) > 64 &&
	    strncmp(buf, "e3b0c442", 8)) {
		buf[64] = 0;
		if (asprintf(&hash, "sha256:%s", buf) < 0)
			hash = NULL;
	}
	pclose(p);
	return hash;
}

static void add_owned(void (*add)(const char *, const char *),
		      const char *key, char *value, const char *fallback)
{
	add(key, value ? value : fallback);
	free(value);
}

void nsb_context_collect(const struct nsb_run_info *info,
			 void (*add)(const char *key, const char *value))
{
	struct utsname u;
	bool icount = info->mode && !strcmp(info->mode, "icount");

	uname(&u);
	add("nsbench_version", nsb_version());
	add("nsbench_label", info->label ? info->label : "unlabelled");
	add("nsbench_tier", info->tier ? info->tier : "quick");
	add("nsbench_mode", info->mode ? info->mode : "native");
	add("nsbench_time_unit_meaning", icount ?
	    "virtual ns = retired guest instructions (kernel included)" :
	    "wall-clock ns");
	add("kernel_release", u.release);
	add("kernel_version", u.version);
	add("kernel_machine", u.machine);
	if (info->config_hash)
		add("kernel_config_hash", info->config_hash);
	else
		add_owned(add, "kernel_config_hash", config_hash(u.release),
			  "unknown");
	add("patch_series", info->series ? info->series : "none");
	add_owned(add, "cpu_model", cpu_model(), "unknown");
	add_owned(add, "cpu_governor", nsb_first_line(
		  "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"),
		  "unknown (no cpufreq)");
	add_owned(add, "cpu_boost",
		  nsb_first_line("/sys/devices/system/cpu/cpufreq/boost"),
		  "unknown");
	if (info->round)
		add("nsbench_round", info->round);
	if (info->seed)
		add("nsbench_seed", info->seed);
	if (info->boot)
		add("nsbench_boot", info->boot);
	if (info->side)
		add("nsbench_side", info->side);
}

char *nsb_results_path(const char *dir, const char *label)
{
	char stamp[32], host[64] = "unknown";
	time_t now = time(NULL);
	struct tm tm;
	char *path = NULL;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	gethostname(host, sizeof(host) - 1);
	if (asprintf(&path, "%s/%s-%s-%s.json", dir, stamp, host,
		     label ? label : "run") < 0)
		return NULL;
	return path;
}
