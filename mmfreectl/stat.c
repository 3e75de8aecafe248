// SPDX-License-Identifier: GPL-2.0
/*
 * The statistics: read-only files, each in the directory of its
 * feature's stats, "percpu/stats/scans".
 */
#include <err.h>
#include <stdio.h>
#include <string.h>

#include "mmfreectl.h"

const struct mmfree_stat_desc *ctl_stat_find(const char *key)
{
	char path[256];
	size_t i;

	for (i = 0; i < MMFREE_NR_STATS; i++) {
		const struct mmfree_stat_desc *s = &mmfree_stat_descs[i];

		snprintf(path, sizeof(path), "%s/%s", s->dir, s->name);
		if (!strcmp(key, path))
			return s;
	}
	return NULL;
}

/* get also reads the statistics and the version: all are listed. */
int ctl_unknown_key(const char *key)
{
	size_t i;

	warnx("unknown key '%s'", key);
	ctl_knob_list(stderr);
	fputs("read-only: version", stderr);
	for (i = 0; i < MMFREE_NR_STATS; i++)
		fprintf(stderr, " %s/%s", mmfree_stat_descs[i].dir,
			mmfree_stat_descs[i].name);
	fputc('\n', stderr);
	return RC_USAGE;
}

/* The "units" stat of a stat's directory: pages per unit -> system. */
long long ctl_stat_units(const struct mmfree_stat_desc *s)
{
	char path[256];
	long long units;

	snprintf(path, sizeof(path), "%s/units", s->dir);
	if (ctl_sysfs_read_ll(path, &units) || units < 1)
		return -1;
	return units;
}

/* Whether some statistic of dir counts in unit. */
int ctl_dir_has_unit(const char *dir, enum mmfree_stat_unit unit)
{
	size_t i;

	for (i = 0; i < MMFREE_NR_STATS; i++)
		if (!strcmp(mmfree_stat_descs[i].dir, dir) &&
		    mmfree_stat_descs[i].unit == unit)
			return 1;
	return 0;
}
