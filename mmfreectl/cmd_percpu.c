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

int ctl_cmd_percpu(int argc, char **argv)
{
	const struct mmfree_stat_desc *s;
	long long before, after, units;
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
	units = ctl_stat_units(s);
	if (before < 0 || units < 1 || ctl_sysfs_read_ll(POPULATED, &after))
		printf("percpu: reclaim done\n");
	else
		ctl_percpu_released(before, after, units,
				    sysconf(_SC_PAGESIZE));
	return RC_OK;
}
