// SPDX-License-Identifier: GPL-2.0
/*
 * mmfreectl set KEY VALUE, and enable and disable [FEATURE], which set
 * the master switch or a feature's: the value is checked against the
 * knob's limits before anything is written.
 */
#include <err.h>
#include <stdio.h>
#include <string.h>

#include "mmfreectl.h"

/* Write value to the knob d, saying what it was and is. */
static int knob_set(const struct mmfree_knob_desc *d, const char *value)
{
	char old[64], num[16];
	const char *buf;
	unsigned int val;
	int ret;

	if (ctl_knob_parse(d, value, &val))
		return ctl_bad_value(d, value);
	ret = ctl_check_available(d->path);
	if (ret)
		return ret;
	if (ctl_sysfs_read(d->path, old, sizeof(old)))
		snprintf(old, sizeof(old), "?");
	buf = ctl_knob_format(d, val, num, sizeof(num));
	ret = ctl_sysfs_write(d->path, buf);
	if (ret)
		return ctl_write_error(d->path, buf, ret);
	printf("%s: %s -> %s\n", d->path, old, buf);
	return RC_OK;
}

int ctl_cmd_set(int argc, char **argv)
{
	const struct mmfree_knob_desc *d;

	if (argc != 2)
		return ctl_usage_error("usage: mmfreectl set KEY VALUE");
	d = ctl_knob_find(argv[0]);
	if (!d) {
		if (ctl_stat_find(argv[0]) || !strcmp(argv[0], "version")) {
			warnx("%s is read-only", argv[0]);
			return RC_USAGE;
		}
		return ctl_unknown_knob(argv[0]);
	}
	return knob_set(d, argv[1]);
}

/* The master switch, or with an argument the feature's. */
static int switch_set(int argc, char **argv, const char *value)
{
	const struct mmfree_knob_desc *d;

	if (argc > 1)
		return ctl_usage_error("usage: mmfreectl enable|disable [FEATURE]");
	d = argc ? ctl_feature_switch(argv[0]) : ctl_knob_find("enabled");
	if (!d) {
		warnx("unknown feature '%s'", argv[0]);
		ctl_feature_list(stderr);
		return RC_USAGE;
	}
	return knob_set(d, value);
}

int ctl_cmd_enable(int argc, char **argv)
{
	return switch_set(argc, argv, "1");
}

int ctl_cmd_disable(int argc, char **argv)
{
	return switch_set(argc, argv, "0");
}
