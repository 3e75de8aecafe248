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
MMFREE_PARAM(percpu_enabled, PERCPU_ENABLED);
MODULE_PARM_DESC(percpu_enabled, "percpu depopulation (0/1, default 1)");
MMFREE_PARAM(percpu_min_empty_pages, PERCPU_MIN_EMPTY_PAGES);
MODULE_PARM_DESC(percpu_min_empty_pages,
		 "empty pages that make a chunk qualify (1-65536, default 1)");
MMFREE_PARAM(percpu_keep_empty_pages, PERCPU_KEEP_EMPTY_PAGES);
MODULE_PARM_DESC(percpu_keep_empty_pages,
		 "empty pages kept populated (4-65536, default 4)");
MMFREE_PARAM(percpu_interval_ms, PERCPU_INTERVAL_MS);
MODULE_PARM_DESC(percpu_interval_ms,
		 "periodic rescan in ms, 0 for none (0-3600000, default 0)");

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
	enum mmfree_knob_id id = mmfree_knob_id(knob);
	unsigned int val, old;
	int err;

	err = mmfree_knob_parse(knob, buf, &val);
	if (err)
		return err;

	mutex_lock(&mmfree_knobs_lock);
	old = mmfree_knob(id);
	WRITE_ONCE(mmfree_knob_vals[id], val);
	err = mmfree_features_update();
	if (err) {
		/* The features could not follow: back to where they were. */
		WRITE_ONCE(mmfree_knob_vals[id], old);
		mmfree_features_update();
	}
	mutex_unlock(&mmfree_knobs_lock);
	return err ?: count;
}

static ssize_t version_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%s\n", MMFREE_VERSION);
}

static struct kobj_attribute mmfree_version_attr = __ATTR_RO(version);

/* percpu/reclaim: write 1 to scan and depopulate now. */
static ssize_t reclaim_store(struct kobject *kobj, struct kobj_attribute *attr,
			     const char *buf, size_t count)
{
	if (!sysfs_streq(buf, "1"))
		return -EINVAL;
	return mmfree_percpu_reclaim() ?: count;
}

static struct kobj_attribute mmfree_reclaim_attr = __ATTR_WO(reclaim);

/*
 * A directory: the knobs whose path lies in it, its own files, and the
 * groups its feature provides.  A feature the kernel cannot run has no
 * directory at all.
 */
struct mmfree_dir {
	const char *name;		/* NULL: /sys/kernel/mmfree itself */
	bool (*usable)(void);
	struct attribute *extra;
	const struct attribute_group *feature_group;
	struct kobject *kobj;
	struct attribute *attrs[MMFREE_NR_KNOBS + 2];
	struct attribute_group group;
};

static struct mmfree_dir mmfree_dirs[] = {
	{ .extra = &mmfree_version_attr.attr },
	{
		.name = "percpu",
		.usable = mmfree_percpu_usable,
		.extra = &mmfree_reclaim_attr.attr,
		.feature_group = &mmfree_percpu_stats_group,
	},
};

static bool mmfree_knob_in_dir(const struct mmfree_knob *knob,
			       const struct mmfree_dir *dir)
{
	const char *path = knob->desc->path;
	const char *base = kbasename(path);

	if (!dir->name)
		return base == path;
	return base - path == strlen(dir->name) + 1 &&
	       !strncmp(path, dir->name, base - path - 1);
}

static int mmfree_dir_create(struct mmfree_dir *dir)
{
	int i, n = 0, err;

	for (i = 0; i < MMFREE_NR_KNOBS; i++)
		if (mmfree_knob_in_dir(&mmfree_knobs[i], dir))
			dir->attrs[n++] = &mmfree_knobs[i].attr.attr;
	dir->attrs[n] = dir->extra;
	dir->group.attrs = dir->attrs;

	dir->kobj = dir->name ?
		kobject_create_and_add(dir->name, mmfree_dirs[0].kobj) :
		kobject_create_and_add("mmfree", kernel_kobj);
	if (!dir->kobj)
		return -ENOMEM;
	err = sysfs_create_group(dir->kobj, &dir->group);
	if (!err && dir->feature_group) {
		err = sysfs_create_group(dir->kobj, dir->feature_group);
		if (err)
			sysfs_remove_group(dir->kobj, &dir->group);
	}
	if (err) {
		kobject_put(dir->kobj);
		dir->kobj = NULL;
	}
	return err;
}

static void mmfree_dir_remove(struct mmfree_dir *dir)
{
	if (!dir->kobj)
		return;
	/* Removing the files waits for writers still inside store(). */
	if (dir->feature_group)
		sysfs_remove_group(dir->kobj, dir->feature_group);
	sysfs_remove_group(dir->kobj, &dir->group);
	kobject_put(dir->kobj);
	dir->kobj = NULL;
}

/* Knob defaults where no parameter was given: before any feature starts. */
void mmfree_knobs_init(void)
{
	int i;

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
	}
}

int mmfree_sysfs_init(void)
{
	int i, err;

	for (i = 0; i < ARRAY_SIZE(mmfree_dirs); i++) {
		if (mmfree_dirs[i].usable && !mmfree_dirs[i].usable())
			continue;
		err = mmfree_dir_create(&mmfree_dirs[i]);
		if (err) {
			mmfree_sysfs_exit();
			return err;
		}
	}
	return 0;
}

void mmfree_sysfs_exit(void)
{
	int i;

	for (i = ARRAY_SIZE(mmfree_dirs) - 1; i >= 0; i--)
		mmfree_dir_remove(&mmfree_dirs[i]);
}
