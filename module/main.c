// SPDX-License-Identifier: GPL-2.0
/*
 * mmfree: give memory back to the system faster.
 *
 * This file only wires the parts together: init in order, exit in
 * reverse, every error path undoing exactly what succeeded.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/module.h>

#include "mmfree.h"

static struct dentry *mmfree_debugfs;

struct dentry *mmfree_debugfs_dir(void)
{
	return mmfree_debugfs;
}

/* Bring every feature in line with the knobs; called under the knob lock. */
int mmfree_features_update(void)
{
	int err;

	err = mmfree_percpu_update();
	if (err)
		return err;
	return mmfree_pagefree_update();
}

static int __init mmfree_init(void)
{
	int err;

	mmfree_knobs_init();
	mmfree_debugfs = debugfs_create_dir(KBUILD_MODNAME, NULL);

	/* Symbols are resolved once, at load; the lookup probe goes away. */
	err = mmfree_ksyms_init();
	if (err)
		goto err_debugfs;
	mmfree_hooks_init();
	mmfree_percpu_init();
	mmfree_pagefree_init();
	mmfree_ksyms_exit();

	/* Before the knob files exist: no write can race with it. */
	err = mmfree_features_update();
	if (err)
		goto err_features;
	err = mmfree_sysfs_init();
	if (err) {
		pr_err("cannot create %s (%d)\n", MMFREE_SYSFS_DIR, err);
		goto err_features;
	}

	pr_info("version %s loaded, enabled=%u\n", MMFREE_VERSION,
		mmfree_knob(MMFREE_KNOB_ENABLED));
	return 0;

err_features:
	mmfree_pagefree_exit();
	mmfree_percpu_exit();
err_debugfs:
	debugfs_remove(mmfree_debugfs);
	return err;
}

static void __exit mmfree_exit(void)
{
	/* No knob write or reclaim can start once the files are gone. */
	mmfree_sysfs_exit();
	mmfree_pagefree_exit();
	mmfree_percpu_exit();
	debugfs_remove(mmfree_debugfs);
	pr_info("unloaded\n");
}

module_init(mmfree_init);
module_exit(mmfree_exit);

MODULE_DESCRIPTION("Give memory back faster: parallel page freeing, percpu depopulation");
MODULE_AUTHOR("The mmfree developers");
MODULE_LICENSE("GPL");
MODULE_VERSION(MMFREE_VERSION);
