// SPDX-License-Identifier: GPL-2.0
/* Sizes and durations as status and percpu reclaim show them to people. */
#include <stdio.h>

#include "mmfreectl.h"

/* 1.2 GiB: binary units, one decimal. */
void ctl_human_bytes(unsigned long long bytes, char *buf, size_t size)
{
	static const char * const units[] = {
		"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB",
	};
	double v = bytes;
	size_t i = 0;

	while (v >= 1024 && i < ARRAY_SIZE(units) - 1) {
		v /= 1024;
		i++;
	}
	if (!i)
		snprintf(buf, size, "%llu B", bytes);
	else
		snprintf(buf, size, "%.1f %s", v, units[i]);
}

/*
 * 1.23 ms: decimal units, two decimals.  A value that would round to
 * 1000.00 of one unit is shown in the next.
 */
void ctl_human_nsec(unsigned long long ns, char *buf, size_t size)
{
	static const char * const units[] = { "ns", "us", "ms", "s" };
	double v = ns;
	size_t i = 0;

	while (v >= 999.995 && i < ARRAY_SIZE(units) - 1) {
		v /= 1000;
		i++;
	}
	if (!i)
		snprintf(buf, size, "%llu ns", ns);
	else
		snprintf(buf, size, "%.2f %s", v, units[i]);
}
