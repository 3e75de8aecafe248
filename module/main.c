// SPDX-License-Identifier: GPL-2.0
/*
 * mmfree: give memory back to the system faster.
 *
 * This file only wires the parts together: init in order, exit in
 * reverse, every error path undoing exactly what succeeded.  Each feature
 * is a struct mmfree_feature; the kernel symbols and BTF every feature
 * needs are looked up here, once, while the module loads.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/utsname.h>

#include "compat.h"
#include "mmfree.h"

static struct mmfree_feature *const mmfree_features[] = {
	&mmfree_percpu_feature,
	&mmfree_pagefree_feature,
};

static struct dentry *mmfree_debugfs;

/* Test hook: treat the running kernel's series as untested. */
static bool mmfree_test_untested_kernel;
module_param_named(test_untested_kernel, mmfree_test_untested_kernel, bool,
		   0400);
MODULE_PARM_DESC(test_untested_kernel,
		 "testing only: treat this kernel series as untested");

/* Whether this kernel's series is one mmfree was run on. */
static bool mmfree_series_tested(void)
{
	return mmfree_kernel_tested() && !mmfree_test_untested_kernel;
}

/*
 * Decide whether @f can run on this kernel (a tested series, or the
 * user's opt-in, was checked before): every prototype and field it
 * relies on as its BTF shows them (on every kernel: a stable backport can
 * change one), its symbols, then its own checks.  Each refusal is one
 * dmesg line; the other features are not affected.
 */
static void mmfree_feature_init(struct mmfree_feature *f,
				const char *no_btf)
{
	const char *release = init_utsname()->release;

	if (no_btf) {
		pr_warn("%s disabled: %s\n", f->name, no_btf);
		return;
	}
	/* BTF only: no hook is placed on the kernel before these pass. */
	if (mmfree_syms_check(f->name, f->syms, f->nr_syms) ||
	    mmfree_btf_fields(f->name, f->fields, f->nr_fields))
		return;
	if (!mmfree_series_tested()) {
		pr_info("%s: kernel %s is untested, run as untested_kernel=1 asks: its BTF matches\n",
			f->name, release);
		/* Code of unproven quality here, as a staging driver's ('C'). */
		add_taint(TAINT_CRAP, LOCKDEP_STILL_OK);
		set_bit(TAINT_CRAP, &THIS_MODULE->taints);
	}
	if (mmfree_syms_resolve(f->name, f->syms, f->nr_syms))
		return;
	f->usable = !f->init(mmfree_debugfs);
}

static void mmfree_features_exit(void)
{
	int i;

	for (i = ARRAY_SIZE(mmfree_features) - 1; i >= 0; i--) {
		if (mmfree_features[i]->usable)
			mmfree_features[i]->exit();
		mmfree_features[i]->usable = false;
	}
}

/*
 * The kernel's BTF, located like any symbol and indexed for the features.
 * Return: NULL, or why the features cannot have it.
 */
static const char *mmfree_btf_open(void)
{
	unsigned long start = mmfree_ksym_lookup("__start_BTF");
	unsigned long end = mmfree_ksym_lookup("__stop_BTF");

	if (!start)
		return "kernel symbol __start_BTF not found";
	if (!end)
		return "kernel symbol __stop_BTF not found";
	if (mmfree_btf_init((void *)start, (void *)end))
		return "kernel BTF unreadable";
	return NULL;
}

static int __init mmfree_init(void)
{
	const char *no_btf;
	int i, err;

	/*
	 * On PREEMPT_RT spinlock_t sleeps: percpu's ftrace callback, which
	 * runs with preemption off, cannot take pcpu_lock there, and
	 * preemptible() no longer proves that a wrapper may wait.  Refused
	 * before anything is probed (dkms.conf refuses to build it too).
	 */
	if (IS_ENABLED(CONFIG_PREEMPT_RT)) {
		pr_err("not loaded: PREEMPT_RT kernels are not supported (spinlock_t sleeps there, and mmfree's callbacks take pcpu_lock with preemption off)\n");
		return -EOPNOTSUPP;
	}

	mmfree_knobs_init();
	mmfree_debugfs = debugfs_create_dir(KBUILD_MODNAME, NULL);

	/*
	 * An untested series without the user's opt-in: no probe at all,
	 * not even the symbol lookup's (BTF is found through it).
	 */
	if (!mmfree_series_tested() && !mmfree_untested_kernel) {
		for (i = 0; i < ARRAY_SIZE(mmfree_features); i++)
			pr_warn("%s disabled: kernel %s is untested; load with untested_kernel=1 to check its BTF and run it\n",
				mmfree_features[i]->name,
				init_utsname()->release);
		goto sysfs;
	}
	/* Symbols and BTF are read once, at load; the lookup probe goes. */
	err = mmfree_ksyms_init();
	if (err)
		goto err_debugfs;
	mmfree_hooks_init();
	no_btf = mmfree_btf_open();
	for (i = 0; i < ARRAY_SIZE(mmfree_features); i++)
		mmfree_feature_init(mmfree_features[i], no_btf);
	mmfree_btf_exit();
	mmfree_ksyms_exit();
sysfs:

	err = mmfree_sysfs_init(mmfree_features, ARRAY_SIZE(mmfree_features));
	if (err)
		goto err_features;

	pr_info("version %s loaded, enabled=%u\n", MMFREE_VERSION,
		mmfree_knob(MMFREE_KNOB_ENABLED));
	return 0;

err_features:
	mmfree_features_exit();
err_debugfs:
	debugfs_remove(mmfree_debugfs);
	return err;
}

static void __exit mmfree_exit(void)
{
	/* No knob write or action can start once the files are gone. */
	mmfree_sysfs_exit();
	mmfree_features_exit();
	debugfs_remove(mmfree_debugfs);
	pr_info("unloaded\n");
}

module_init(mmfree_init);
module_exit(mmfree_exit);

MODULE_DESCRIPTION("Give memory back faster: parallel page freeing, percpu depopulation");
MODULE_AUTHOR("The mmfree developers");
MODULE_LICENSE("GPL");
MODULE_VERSION(MMFREE_VERSION);
