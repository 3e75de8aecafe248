// SPDX-License-Identifier: GPL-2.0
/*
 * MMFREECTL_SYSFS: the module's files read from a fake sysfs, whether
 * loaded, which features, values; unset or empty, /sys itself.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmfreectl.h"
#include "test.h"

void test_sysfs(void)
{
	char path[PATH_MAX], want[PATH_MAX], val[64], err[256], *long_root;
	const char *root;
	long long v = 0;

	unsetenv("MMFREECTL_SYSFS");
	ctl_sysfs_path("version", path, sizeof(path));
	ktap_streq(path, MMFREE_SYSFS_DIR "/version", "sysfs path unset");
	setenv("MMFREECTL_SYSFS", "", 1);
	ctl_sysfs_path("version", path, sizeof(path));
	ktap_streq(path, MMFREE_SYSFS_DIR "/version", "sysfs path empty");

	root = fake_sysfs_begin();
	snprintf(want, sizeof(want), "%s/kernel/mmfree/pagefree/stats/wait_ns",
		 root);
	ctl_sysfs_path("pagefree/stats/wait_ns", path, sizeof(path));
	ktap_streq(path, want, "sysfs path under MMFREECTL_SYSFS");
	ktap_result(!ctl_module_loaded(), "fake sysfs: not loaded");

	fake_sysfs_file("version", "0.1.0-fake\n");
	fake_sysfs_file("pagefree/stats/inflight_pages", "42\n");
	ktap_result(ctl_module_loaded(), "fake sysfs: loaded");
	ktap_result(!ctl_sysfs_read("version", val, sizeof(val)) &&
		    !strcmp(val, "0.1.0-fake"), "fake sysfs: version read");
	ktap_result(!ctl_sysfs_read_ll("pagefree/stats/inflight_pages", &v) &&
		    v == 42, "fake sysfs: statistic read");
	ktap_result(ctl_feature_available("pagefree"),
		    "fake sysfs: pagefree available");
	ktap_result(!ctl_feature_available("percpu"),
		    "fake sysfs: percpu unavailable");
	capture_stderr_begin();
	ktap_result(ctl_check_available("percpu/enabled") == RC_UNAVAILABLE,
		    "fake sysfs: percpu/enabled unavailable");
	capture_stderr_end(err, sizeof(err));
	ktap_streq(err, "mmfreectl: percpu: unavailable (see dmesg)\n",
		   "fake sysfs: percpu/enabled unavailable, why");
	fake_sysfs_end();

	/* A root too long for a path is no directory, not a truncated one. */
	long_root = malloc(PATH_MAX);
	if (long_root) {
		memset(long_root, 'x', PATH_MAX - 1);
		long_root[0] = '/';
		long_root[PATH_MAX - 1] = '\0';
		setenv("MMFREECTL_SYSFS", long_root, 1);
		ktap_result(ctl_sysfs_path("version", path, sizeof(path)) ==
			    -ENAMETOOLONG, "sysfs path too long");
		ktap_result(!ctl_module_loaded() &&
			    !ctl_feature_available("percpu"),
			    "sysfs root too long: not loaded");
		unsetenv("MMFREECTL_SYSFS");
		free(long_root);
	}
}
