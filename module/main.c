// SPDX-License-Identifier: GPL-2.0
/*
 * mmfree: give memory back to the system faster.
 *
 * This file only wires the parts together: init in order, exit in
 * reverse, every error path undoing exactly what succeeded.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/init.h>
#include <linux/module.h>

#include "mmfree.h"

static int __init mmfree_init(void)
{
	int err;

	/* Symbols are resolved once, at load; the lookup probe goes away. */
	err = mmfree_ksyms_init();
	if (err)
		return err;
	mmfree_ksyms_check_features();
	mmfree_ksyms_exit();

	err = mmfree_sysfs_init();
	if (err) {
		pr_err("cannot create %s (%d)\n", MMFREE_SYSFS_DIR, err);
		return err;
	}

	pr_info("version %s loaded, enabled=%u\n", MMFREE_VERSION,
		mmfree_knob(MMFREE_KNOB_ENABLED));
	return 0;
}

static void __exit mmfree_exit(void)
{
	mmfree_sysfs_exit();
	pr_info("unloaded\n");
}

module_init(mmfree_init);
module_exit(mmfree_exit);

MODULE_DESCRIPTION("Give memory back faster: parallel page freeing, percpu depopulation");
MODULE_AUTHOR("The mmfree developers");
MODULE_LICENSE("GPL");
MODULE_VERSION(MMFREE_VERSION);
