// SPDX-License-Identifier: GPL-2.0
/*
 * Sizes and durations as status and percpu reclaim show them to people,
 * and durations as people give them to wait --timeout.
 */
#include <errno.h>
#include <stdio.h>

#include "mmfreectl.h"

/*
 * 1.2 GiB: binary units, one decimal, rounded half to even as printf's
 * "%.1f" rounds.  A value that would round to 1024.0 of one unit is shown
 * in the next: 1023.95 KiB is 1.0 MiB.  In integers, exact at every
 * boundary (a double would round the largest values first).
 */
void ctl_human_bytes(unsigned long long bytes, char *buf, size_t size)
{
	static const char * const units[] = {
		"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB",
	};
	unsigned long long div = 1, tenths, rem;
	size_t i;

	if (bytes < 1024) {
		snprintf(buf, size, "%llu B", bytes);
		return;
	}
	for (i = 1; ; i++) {
		div <<= 10;
		/* bytes * 10 / div: bytes % div * 10 fits, div <= 2^60. */
		tenths = bytes / div * 10;
		rem = bytes % div * 10;
		tenths += rem / div;
		rem %= div;
		if (rem > div / 2 || (rem == div / 2 && tenths % 2))
			tenths++;
		if (tenths < 10240 || i == ARRAY_SIZE(units) - 1)
			break;
	}
	snprintf(buf, size, "%llu.%llu %s", tenths / 10, tenths % 10,
		 units[i]);
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

/*
 * Seconds as people give them, "2" or "0.25": decimal digits, then at
 * most nine after a '.' (down to the nanosecond), no sign, exponent or
 * blank; up to max seconds (at most a few million: nothing overflows).
 * *ns and 0, or -EINVAL with *ns unchanged.
 */
int ctl_parse_seconds(const char *s, long long max, long long *ns)
{
	long long sec = 0, frac = 0;
	int digits = 0;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	for (; *s >= '0' && *s <= '9'; s++)
		if (sec <= max)		/* beyond, no matter how far */
			sec = sec * 10 + (*s - '0');
	if (*s == '.') {
		for (s++; *s >= '0' && *s <= '9' && digits < 10; s++, digits++)
			frac = frac * 10 + (*s - '0');
		if (!digits || digits > 9)
			return -EINVAL;
		for (; digits < 9; digits++)
			frac *= 10;
	}
	if (*s || sec > max || (sec == max && frac))
		return -EINVAL;
	*ns = sec * 1000000000 + frac;
	return 0;
}
