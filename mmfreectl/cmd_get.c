// SPDX-License-Identifier: GPL-2.0
/* mmfreectl get KEY: print a knob, a statistic or the version. */
#include <err.h>
#include <stdio.h>
#include <string.h>

#include "mmfreectl.h"

int ctl_cmd_get(int argc, char **argv)
{
	const struct mmfree_knob_desc *d;
	char path[256], val[256];
	int ret;

	if (argc != 1)
		return ctl_usage_error("usage: mmfreectl get KEY");
	/* A knob by its path or parameter; the rest by path only. */
	d = ctl_knob_find(argv[0]);
	if (d)
		snprintf(path, sizeof(path), "%s", d->path);
	else if (ctl_stat_find(argv[0]) || !strcmp(argv[0], "version"))
		snprintf(path, sizeof(path), "%s", argv[0]);
	else
		return ctl_unknown_key(argv[0]);

	ret = ctl_check_available(path);
	if (ret)
		return ret;
	ret = ctl_sysfs_read(path, val, sizeof(val));
	if (ret) {
		warnx("cannot read %s: %s", path, strerror(-ret));
		return RC_FAILED;
	}
	printf("%s\n", val);
	return RC_OK;
}
