// SPDX-License-Identifier: GPL-2.0
/*
 * The knobs: /sys/kernel/mmfree/ and the module parameters.
 *
 * Each knob is declared once, in include/mmfree/knobs.h (path, default,
 * limits), and appears twice: as a sysfs file that can be changed at run
 * time, and as a read-only module parameter that sets it at load time.
 * A knob's value lives only in mmfree_knob_vals[]; it is written under
 * mmfree_knobs_lock after the whole input parsed and passed its limits, so
 * a rejected write changes nothing.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#define MMFREE_KNOB_TABLE
#include "mmfree.h"

struct mmfree_knob {
	const struct mmfree_knob_desc *desc;
	bool given;		/* set by a module parameter at load */
	struct kobj_attribute attr;
};

unsigned int mmfree_knob_vals[MMFREE_NR_KNOBS];
static struct mmfree_knob mmfree_knobs[MMFREE_NR_KNOBS];

/* Serialises knob writes against each other. */
static DEFINE_MUTEX(mmfree_knobs_lock);
static struct kobject *mmfree_kobj;

/* Test hook: a symbol name that ksyms.c pretends not to find. */
char *mmfree_test_missing_ksym;
module_param_named(test_missing_ksym, mmfree_test_missing_ksym, charp, 0400);
MODULE_PARM_DESC(test_missing_ksym,
		 "testing only: treat this kernel symbol as missing");

static enum mmfree_knob_id mmfree_knob_id(const struct mmfree_knob *knob)
{
	return knob - mmfree_knobs;
}

/* Strict: decimal digits, an optional trailing newline, within limits. */
static int mmfree_knob_parse(const struct mmfree_knob *knob, const char *buf,
			     unsigned int *val)
{
	if (!isdigit(buf[0]) || kstrtouint(buf, 10, val))
		return -EINVAL;
	if (*val < knob->desc->min || *val > knob->desc->max)
		return -EINVAL;
	return 0;
}

static int mmfree_param_set(const char *buf, const struct kernel_param *kp)
{
	struct mmfree_knob *knob = kp->arg;
	unsigned int val;

	/* The table is static: usable before mmfree_sysfs_init() runs. */
	knob->desc = &mmfree_knob_descs[mmfree_knob_id(knob)];
	if (mmfree_knob_parse(knob, buf, &val)) {
		pr_err("invalid value '%s' for parameter %s: expected an integer from %u to %u\n",
		       buf, kp->name, knob->desc->min, knob->desc->max);
		return -EINVAL;
	}
	/* Parameters are read-only in sysfs: this runs only at load. */
	WRITE_ONCE(mmfree_knob_vals[mmfree_knob_id(knob)], val);
	knob->given = true;
	return 0;
}

static int mmfree_param_get(char *buf, const struct kernel_param *kp)
{
	const struct mmfree_knob *knob = kp->arg;

	return scnprintf(buf, PAGE_SIZE, "%u\n",
			 mmfree_knob(mmfree_knob_id(knob)));
}

static const struct kernel_param_ops mmfree_param_ops = {
	.set = mmfree_param_set,
	.get = mmfree_param_get,
};

#define MMFREE_PARAM(name, id)						\
	module_param_cb(name, &mmfree_param_ops,			\
			&mmfree_knobs[MMFREE_KNOB_##id], 0444)

MMFREE_PARAM(enabled, ENABLED);
MODULE_PARM_DESC(enabled, "master switch (0/1, default 1)");

static ssize_t mmfree_knob_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	struct mmfree_knob *knob = container_of(attr, struct mmfree_knob, attr);

	return sysfs_emit(buf, "%u\n", mmfree_knob(mmfree_knob_id(knob)));
}

static ssize_t mmfree_knob_store(struct kobject *kobj,
				 struct kobj_attribute *attr,
				 const char *buf, size_t count)
{
	struct mmfree_knob *knob = container_of(attr, struct mmfree_knob, attr);
	unsigned int val;
	int err;

	err = mmfree_knob_parse(knob, buf, &val);
	if (err)
		return err;

	mutex_lock(&mmfree_knobs_lock);
	WRITE_ONCE(mmfree_knob_vals[mmfree_knob_id(knob)], val);
	mutex_unlock(&mmfree_knobs_lock);
	return count;
}

static ssize_t version_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%s\n", MMFREE_VERSION);
}

static struct kobj_attribute mmfree_version_attr = __ATTR_RO(version);

/* The knobs' files, then version; NULL-terminated for sysfs. */
static struct attribute *mmfree_attrs[MMFREE_NR_KNOBS + 2];

static const struct attribute_group mmfree_attr_group = {
	.attrs = mmfree_attrs,
};

int mmfree_sysfs_init(void)
{
	int i, err;

	for (i = 0; i < MMFREE_NR_KNOBS; i++) {
		struct mmfree_knob *knob = &mmfree_knobs[i];
		struct kobj_attribute *attr = &knob->attr;

		knob->desc = &mmfree_knob_descs[i];
		if (!knob->given)
			mmfree_knob_vals[i] = knob->desc->def;

		sysfs_attr_init(&attr->attr);
		attr->attr.name = kbasename(knob->desc->path);
		attr->attr.mode = 0644;
		attr->show = mmfree_knob_show;
		attr->store = mmfree_knob_store;
		mmfree_attrs[i] = &attr->attr;
	}
	mmfree_attrs[i] = &mmfree_version_attr.attr;

	mmfree_kobj = kobject_create_and_add("mmfree", kernel_kobj);
	if (!mmfree_kobj)
		return -ENOMEM;
	err = sysfs_create_group(mmfree_kobj, &mmfree_attr_group);
	if (err)
		kobject_put(mmfree_kobj);
	return err;
}

void mmfree_sysfs_exit(void)
{
	/* Removing the files waits for writers still inside store(). */
	sysfs_remove_group(mmfree_kobj, &mmfree_attr_group);
	kobject_put(mmfree_kobj);
}
