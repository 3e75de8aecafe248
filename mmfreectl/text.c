// SPDX-License-Identifier: GPL-2.0
/*
 * mmfreectl status as text, for people (json.c and prom.c give the same
 * facts to programs): every knob with its default and range, and every
 * statistic with what it is in bytes or time; and the line percpu
 * reclaim ends with.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mmfreectl.h"

/* |v| as human() shows it ("1.2 GiB", "3.40 ms"), after '-' if v < 0. */
static void text_human(long long v,
		       void (*human)(unsigned long long v, char *buf,
				     size_t size),
		       char *buf, size_t size)
{
	char mag[32];

	human(v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v,
	      mag, sizeof(mag));
	snprintf(buf, size, "%s%s", v < 0 ? "-" : "", mag);
}

/*
 * ", N% of WHOLE" for a statistic that is a share of another (WHOLE),
 * "" when it is not or WHOLE is 0 or unreadable.
 */
static const char *status_text_share(const struct mmfree_stat_desc *s,
				     long long val)
{
	static char buf[64];
	char path[PATH_MAX];
	long long whole;

	if (!s->share_of)
		return "";
	snprintf(path, sizeof(path), "%s/%s", s->dir, s->share_of);
	if (ctl_sysfs_read_ll(path, &whole) || whole <= 0 || val < 0 ||
	    val > whole)
		return "";
	snprintf(buf, sizeof(buf), ", %d%% of %s", (int)(val * 100.0 / whole),
		 s->share_of);
	return buf;
}

/*
 * "  name  value  (what the value is in bytes or time)"; what does not
 * fit in a long long is "out of range".
 */
static void status_text_stat(const struct mmfree_stat_desc *s, long long val,
			     long long units, long page_size)
{
	long long pages, bytes;
	char human[48];

	switch (s->unit) {
	case MMFREE_STAT_PAGES:
		if (units < 1)
			break;
		if (!ctl_mul_fits(val, units, &pages)) {
			printf("  %-29s %14lld  out of range\n", s->name, val);
			return;
		}
		if (ctl_mul_fits(pages, page_size, &bytes))
			text_human(bytes, ctl_human_bytes, human, sizeof(human));
		else
			snprintf(human, sizeof(human), "bytes out of range");
		printf("  %-29s %14lld  %lld pages, %s\n", s->name, val, pages,
		       human);
		return;
	case MMFREE_STAT_FREED:
		if (ctl_mul_fits(val, page_size, &bytes))
			text_human(bytes, ctl_human_bytes, human, sizeof(human));
		else
			snprintf(human, sizeof(human), "out of range");
		printf("  %-29s %14lld  (%s)\n", s->name, val, human);
		return;
	case MMFREE_STAT_NSEC:
		text_human(val, ctl_human_nsec, human, sizeof(human));
		printf("  %-29s %14lld  (%s%s)\n", s->name, val, human,
		       status_text_share(s, val));
		return;
	case MMFREE_STAT_COUNT:
		break;
	}
	printf("  %-29s %14lld\n", s->name, val);
}

/* The lines under a directory's statistics that say what they count in. */
static void status_text_units(const char *dir, long long units,
			      long page_size)
{
	if (units > 0 && ctl_dir_has_unit(dir, MMFREE_STAT_PAGES))
		printf("(pages are per unit: system wide, pages x %lld units x %ld bytes)\n",
		       units, page_size);
	if (ctl_dir_has_unit(dir, MMFREE_STAT_FREED))
		printf("(bytes are pages x %ld; a huge page counts all its base pages)\n",
		       page_size);
}

/*
 * The statistics of the directory of stat first (those of a directory
 * are adjacent in the table); returns the first stat after them.  A
 * directory that is absent, the feature being unavailable, prints
 * nothing: ctl_unavailable_list() has said so.
 */
static size_t status_text_dir(size_t first, long page_size)
{
	const char *dir = mmfree_stat_descs[first].dir;
	char path[PATH_MAX];
	long long val, units;
	int ret;
	size_t i, end;

	for (end = first; end < MMFREE_NR_STATS &&
	     !strcmp(mmfree_stat_descs[end].dir, dir); end++)
		;
	if (ctl_sysfs_path(dir, path, sizeof(path)) || !ctl_is_dir(path))
		return end;

	units = ctl_stat_units(&mmfree_stat_descs[first]);
	printf("\n%-31s %14s%s\n", dir, "value",
	       ctl_dir_has_unit(dir, MMFREE_STAT_PAGES) ? "  system wide" : "");
	for (i = first; i < end; i++) {
		const struct mmfree_stat_desc *s = &mmfree_stat_descs[i];

		snprintf(path, sizeof(path), "%s/%s", dir, s->name);
		ret = ctl_sysfs_read_ll(path, &val);
		if (!ret)
			status_text_stat(s, val, units, page_size);
		else if (s->root_only && ret == -EACCES)
			printf("  %-29s %14s  (root only: read under a kernel lock)\n",
			       s->name, "-");
	}
	status_text_units(dir, units, page_size);
	return end;
}

/* The knobs of an unavailable feature cannot be read: left out. */
static void status_text_knobs(void)
{
	char val[64], def[16], range[256];
	size_t i;

	printf("\n%-31s %10s  %10s  %s\n", "knob", "value", "default",
	       "range");
	for (i = 0; i < MMFREE_NR_KNOBS; i++) {
		const struct mmfree_knob_desc *d = &mmfree_knob_descs[i];

		if (ctl_sysfs_read(d->path, val, sizeof(val)))
			continue;
		printf("  %-29s %10s  %10s  %s\n", d->path, val,
		       ctl_knob_format(d, d->def, def, sizeof(def)),
		       ctl_knob_range(d, range, sizeof(range)));
	}
}

void ctl_status_text(const struct ctl_status *st)
{
	long page_size = sysconf(_SC_PAGESIZE);
	size_t i = 0;

	printf("mmfree:   %s\n", st->loaded ? "loaded" : "not loaded");
	if (st->loaded)
		printf("version:  %s\n", st->version);
	printf("kernel:   %s\n", st->kernel);
	if (st->path)
		printf("module:   %s\n", st->path);
	else
		printf("module:   not installed for this kernel (" INSTALL_HINT ")\n");
	if (!st->loaded)
		return;

	status_text_knobs();
	ctl_unavailable_list();
	while (i < MMFREE_NR_STATS)
		i = status_text_dir(i, page_size);
}

/*
 * What a reclaim released, from populated pages per unit before and
 * after: nothing if they grew, "out of range" if it does not fit in a
 * long long.
 */
void ctl_percpu_released(long long before, long long after, long long units,
			 long page_size)
{
	long long bytes = 0;
	char human[32], released[64];

	if (before > after &&
	    (!ctl_sub_fits(before, after, &bytes) ||
	     !ctl_mul_fits(bytes, units, &bytes) ||
	     !ctl_mul_fits(bytes, page_size, &bytes))) {
		snprintf(released, sizeof(released),
			 "released system wide: out of range");
	} else {
		ctl_human_bytes(bytes, human, sizeof(human));
		snprintf(released, sizeof(released),
			 "%s released system wide", human);
	}
	printf("percpu: populated_pages %lld -> %lld per unit (%s)\n",
	       before, after, released);
}
