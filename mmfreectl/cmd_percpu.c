// SPDX-License-Identifier: GPL-2.0
/*
 * mmfreectl percpu reclaim: depopulate the empty percpu pages now, and
 * say how much that released.
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mmfreectl.h"

#define POPULATED "percpu/stats/populated_pages"

/* What a reclaim released, from populated pages before and after. */
static void percpu_released(long long before, long long units)
{
	long long after;
	char human[32];

	if (before < 0 || units < 1 || ctl_sysfs_read_ll(POPULATED, &after)) {
		printf("percpu: reclaim done\n");
		return;
	}
	ctl_human_bytes(before > after ? (before - after) * units *
			sysconf(_SC_PAGESIZE) : 0, human, sizeof(human));
	printf("percpu: populated_pages %lld -> %lld per unit (%s released system wide)\n",
	       before, after, human);
}

int ctl_cmd_percpu(int argc, char **argv)
{
	const struct mmfree_stat_desc *s;
	long long before;
	int ret;

	if (argc != 1 || strcmp(argv[0], "reclaim"))
		return ctl_usage_error("usage: mmfreectl percpu reclaim");
	ret = ctl_check_available("percpu/reclaim");
	if (ret)
		return ret;
	s = &mmfree_stat_descs[MMFREE_STAT_PERCPU_POPULATED_PAGES];
	if (ctl_sysfs_read_ll(POPULATED, &before))
		before = -1;
	ret = ctl_sysfs_write("percpu/reclaim", "1");
	/* The module refuses a reclaim while the feature is off. */
	if (ret == -EPERM) {
		warnx("percpu reclaim refused: %s",
		      "the feature is off (see mmfreectl enable)");
		return RC_FAILED;
	}
	if (ret)
		return ctl_write_error("percpu/reclaim", "1", ret);
	percpu_released(before, ctl_stat_units(s));
	return RC_OK;
}
