// SPDX-License-Identifier: GPL-2.0
/*
 * mmfreectl status --prometheus: the same facts in Prometheus's text
 * format (version 0.0.4), for node_exporter's textfile collector.
 *
 * Names follow Prometheus's conventions: mmfree_<feature>_<what>, units
 * in base units and in the name (_bytes, _seconds), counters end in
 * _total.  Pages become bytes (percpu pages: system wide, times the
 * units); a statistic that can go down is a gauge, the others count
 * events since the module was loaded.  Knobs are one gauge, labelled by
 * knob; a knob with names also gives its name as a label of
 * mmfree_knob_info.  What cannot be read (a root-only statistic, an
 * unavailable feature) is left out, and so is a statistic whose value in
 * bytes does not fit in a long long.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mmfreectl.h"

/* HELP text: backslash and newline escaped. */
static void prom_help(const char *name, const char *help, const char *type)
{
	printf("# HELP %s ", name);
	for (; *help; help++) {
		if (*help == '\\')
			fputs("\\\\", stdout);
		else if (*help == '\n')
			fputs("\\n", stdout);
		else
			putchar(*help);
	}
	printf("\n# TYPE %s %s\n", name, type);
}

/*
 * A label value: backslash, double quote and newline escaped, as the
 * format has it; it takes valid UTF-8 only, and has no other escape:
 * invalid UTF-8 (each maximal subpart) and the other control characters
 * become U+FFFD.
 */
static void prom_label(const char *s)
{
	size_t len;
	long cp;

	putchar('"');
	for (; *s; s += len) {
		cp = ctl_utf8_next(s, &len);
		if (cp == '\\' || cp == '"')
			printf("\\%c", (int)cp);
		else if (cp == '\n')
			fputs("\\n", stdout);
		else if (ctl_utf8_control(cp))
			fputs("\xef\xbf\xbd", stdout);
		else
			fwrite(s, 1, len, stdout);
	}
	putchar('"');
}

/*
 * A statistic's metric name: "percpu/stats/populated_pages" in bytes is
 * mmfree_percpu_populated_bytes; wait_ns is mmfree_pagefree_wait_seconds.
 */
static void prom_stat_name(const struct mmfree_stat_desc *s, char *buf,
			   size_t size)
{
	const char *suffix = "";
	char base[64];
	size_t len;

	snprintf(base, sizeof(base), "%s", s->name);
	len = strlen(base);
	switch (s->unit) {
	case MMFREE_STAT_PAGES:
	case MMFREE_STAT_FREED:
		if (len > 6 && !strcmp(base + len - 6, "_pages"))
			base[len - 6] = '\0';
		suffix = "_bytes";
		break;
	case MMFREE_STAT_NSEC:
		if (len > 3 && !strcmp(base + len - 3, "_ns"))
			base[len - 3] = '\0';
		suffix = "_seconds";
		break;
	case MMFREE_STAT_COUNT:
		break;
	}
	snprintf(buf, size, "mmfree_%.*s_%s%s%s",
		 (int)strcspn(s->dir, "/"), s->dir, base, suffix,
		 s->gauge ? "" : "_total");
}

/*
 * Nanoseconds as seconds, "-1.500000000": the sign once, in front, and
 * the magnitude unsigned, INT64_MIN's too.
 */
static void prom_seconds(long long ns, char *buf, size_t size)
{
	unsigned long long mag = ns < 0 ? 0ULL - (unsigned long long)ns :
					  (unsigned long long)ns;

	snprintf(buf, size, "%s%llu.%09llu", ns < 0 ? "-" : "",
		 mag / 1000000000, mag % 1000000000);
}

/* A statistic, unless its value in bytes does not fit in a long long. */
static void prom_stat(const struct mmfree_stat_desc *s, long long v,
		      long page_size)
{
	char name[128], val[32] = "";
	long long units, bytes;

	switch (s->unit) {
	case MMFREE_STAT_PAGES:
		units = ctl_stat_units(s);
		if (!ctl_mul_fits(v, units > 0 ? units : 1, &bytes) ||
		    !ctl_mul_fits(bytes, page_size, &bytes))
			return;
		snprintf(val, sizeof(val), "%lld", bytes);
		break;
	case MMFREE_STAT_FREED:
		if (!ctl_mul_fits(v, page_size, &bytes))
			return;
		snprintf(val, sizeof(val), "%lld", bytes);
		break;
	case MMFREE_STAT_NSEC:
		prom_seconds(v, val, sizeof(val));
		break;
	case MMFREE_STAT_COUNT:
		snprintf(val, sizeof(val), "%lld", v);
		break;
	}
	prom_stat_name(s, name, sizeof(name));
	prom_help(name, s->help, s->gauge ? "gauge" : "counter");
	printf("%s %s\n", name, val);
}

static void prom_knobs(void)
{
	char val[64];
	unsigned int n;
	size_t i;

	prom_help("mmfree_knob",
		  "The value of a knob under /sys/kernel/mmfree (a knob with names: the index of its name)",
		  "gauge");
	for (i = 0; i < MMFREE_NR_KNOBS; i++) {
		const struct mmfree_knob_desc *d = &mmfree_knob_descs[i];

		if (ctl_sysfs_read(d->path, val, sizeof(val)) ||
		    ctl_knob_parse(d, val, &n))
			continue;
		fputs("mmfree_knob{knob=", stdout);
		prom_label(d->path);
		printf("} %u\n", n);
	}
	prom_help("mmfree_knob_info", "The name a knob with names is set to",
		  "gauge");
	for (i = 0; i < MMFREE_NR_KNOBS; i++) {
		const struct mmfree_knob_desc *d = &mmfree_knob_descs[i];

		if (!d->names || ctl_sysfs_read(d->path, val, sizeof(val)) ||
		    ctl_knob_parse(d, val, &n))
			continue;
		fputs("mmfree_knob_info{knob=", stdout);
		prom_label(d->path);
		fputs(",value=", stdout);
		prom_label(d->names[n]);
		puts("} 1");
	}
}

static void prom_features(void)
{
	char feature[64];
	size_t i;

	prom_help("mmfree_feature_available",
		  "Whether a feature can run on this kernel (1) or was left out at load (0)",
		  "gauge");
	for (i = 0; i < MMFREE_NR_KNOBS; i++) {
		if (!ctl_feature_at(i, feature, sizeof(feature)))
			continue;
		fputs("mmfree_feature_available{feature=", stdout);
		prom_label(feature);
		printf("} %d\n", ctl_feature_available(feature));
	}
}

void ctl_status_prometheus(const struct ctl_status *st)
{
	long page_size = sysconf(_SC_PAGESIZE);
	char path[256];
	long long v;
	size_t i;

	prom_help("mmfree_up", "Whether the mmfree module is loaded", "gauge");
	printf("mmfree_up %d\n", st->loaded);
	prom_help("mmfree_info", "The loaded module's version and the running kernel",
		  "gauge");
	fputs("mmfree_info{version=", stdout);
	prom_label(st->loaded ? st->version : "");
	fputs(",kernel=", stdout);
	prom_label(st->kernel);
	puts("} 1");
	if (!st->loaded)
		return;
	prom_knobs();
	prom_features();
	for (i = 0; i < MMFREE_NR_STATS; i++) {
		const struct mmfree_stat_desc *s = &mmfree_stat_descs[i];

		snprintf(path, sizeof(path), "%s/%s", s->dir, s->name);
		if (!ctl_sysfs_read_ll(path, &v))
			prom_stat(s, v, page_size);
	}
}
