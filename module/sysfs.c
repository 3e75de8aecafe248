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
#define MMFREE_STAT_TABLE
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

/*
 * Strict: one of the knob's names, or decimal digits within limits; an
 * optional trailing newline.
 */
static int mmfree_knob_parse(const struct mmfree_knob *knob, const char *buf,
			     unsigned int *val)
{
	const struct mmfree_knob_desc *desc = knob->desc;

	if (desc->names) {
		for (*val = desc->min; *val <= desc->max; (*val)++)
			if (sysfs_streq(buf, desc->names[*val]))
				return 0;
		return -EINVAL;
	}
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
		if (knob->desc->names)
			pr_err("invalid value '%s' for parameter %s: expected %s or %s\n",
			       buf, kp->name, knob->desc->names[0],
			       knob->desc->names[1]);
		else
			pr_err("invalid value '%s' for parameter %s: expected an integer from %u to %u\n",
			       buf, kp->name, knob->desc->min,
			       knob->desc->max);
		return -EINVAL;
	}
	/* Parameters are read-only in sysfs: this runs only at load. */
	WRITE_ONCE(mmfree_knob_vals[mmfree_knob_id(knob)], val);
	knob->given = true;
	return 0;
}

/* A knob's value as it reads back: its name, or the number. */
static int mmfree_knob_print(const struct mmfree_knob *knob, char *buf)
{
	unsigned int val = mmfree_knob(mmfree_knob_id(knob));

	if (knob->desc->names)
		return sysfs_emit(buf, "%s\n", knob->desc->names[val]);
	return sysfs_emit(buf, "%u\n", val);
}

static int mmfree_param_get(char *buf, const struct kernel_param *kp)
{
	return mmfree_knob_print(kp->arg, buf);
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
MMFREE_PARAM(pagefree_enabled, PAGEFREE_ENABLED);
MODULE_PARM_DESC(pagefree_enabled, "parallel page freeing (0/1, default 1)");
MMFREE_PARAM(pagefree_mode, PAGEFREE_MODE);
MODULE_PARM_DESC(pagefree_mode,
		 "sync: munmap/exit wait for the pages, async: they do not (default sync)");
MMFREE_PARAM(pagefree_workers, PAGEFREE_WORKERS);
MODULE_PARM_DESC(pagefree_workers,
		 "most work items freeing at once (1-512, default 4)");
MMFREE_PARAM(pagefree_batch_pages, PAGEFREE_BATCH_PAGES);
MODULE_PARM_DESC(pagefree_batch_pages,
		 "gathered pages per work item (16-512, default 512)");
MMFREE_PARAM(pagefree_min_pages, PAGEFREE_MIN_PAGES);
MODULE_PARM_DESC(pagefree_min_pages,
		 "smaller gathers are freed inline (0-1073741824, default 1024)");
MMFREE_PARAM(pagefree_idle_only, PAGEFREE_IDLE_ONLY);
MODULE_PARM_DESC(pagefree_idle_only,
		 "offload only while one of the task's CPUs is idle (0/1, default 1)");
MMFREE_PARAM(pagefree_max_inflight_pages, PAGEFREE_MAX_INFLIGHT_PAGES);
MODULE_PARM_DESC(pagefree_max_inflight_pages,
		 "most pages in flight; beyond, inline (512-1073741824, default 1048576)");

static ssize_t mmfree_knob_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	return mmfree_knob_print(container_of(attr, struct mmfree_knob, attr),
				 buf);
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

/* A statistic: a read-only file in its feature's stats/ directory. */
struct mmfree_stat {
	long (*read)(enum mmfree_stat_id id);
	struct kobj_attribute attr;
};

static struct mmfree_stat mmfree_stats[MMFREE_NR_STATS];

static ssize_t mmfree_stat_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	struct mmfree_stat *stat = container_of(attr, struct mmfree_stat, attr);

	return sysfs_emit(buf, "%ld\n", stat->read(stat - mmfree_stats));
}

/*
 * A directory: the knobs whose path lies in it, its own files, and the
 * statistics its feature reads (in stats/).  A feature the kernel cannot
 * run has no directory at all.
 */
struct mmfree_dir {
	const char *name;		/* NULL: /sys/kernel/mmfree itself */
	bool (*usable)(void);
	struct attribute *extra;
	long (*stat)(enum mmfree_stat_id id);
	struct kobject *kobj;
	struct attribute *attrs[MMFREE_NR_KNOBS + 2];
	struct attribute_group group;
	struct attribute *stat_attrs[MMFREE_NR_STATS + 1];
	struct attribute_group stat_group;
};

static struct mmfree_dir mmfree_dirs[] = {
	{ .extra = &mmfree_version_attr.attr },
	{
		.name = "percpu",
		.usable = mmfree_percpu_usable,
		.extra = &mmfree_reclaim_attr.attr,
		.stat = mmfree_percpu_stat,
	},
	{
		.name = "pagefree",
		.usable = mmfree_pagefree_usable,
		.stat = mmfree_pagefree_stat,
	},
};

/* Whether @path is "<dir>/stats" for the directory named @dir. */
static bool mmfree_stat_in_dir(const char *path, const char *dir)
{
	size_t len = strlen(dir);

	return !strncmp(path, dir, len) && !strcmp(path + len, "/stats");
}

static void mmfree_dir_stats(struct mmfree_dir *dir)
{
	int i, n = 0;

	for (i = 0; i < MMFREE_NR_STATS; i++) {
		struct mmfree_stat *stat = &mmfree_stats[i];

		if (!mmfree_stat_in_dir(mmfree_stat_descs[i].dir, dir->name))
			continue;
		stat->read = dir->stat;
		sysfs_attr_init(&stat->attr.attr);
		stat->attr.attr.name = mmfree_stat_descs[i].name;
		/* A walk under pcpu_lock is not for unprivileged loops. */
		stat->attr.attr.mode = mmfree_stat_descs[i].root_only ? 0400 : 0444;
		stat->attr.show = mmfree_stat_show;
		dir->stat_attrs[n++] = &stat->attr.attr;
	}
	dir->stat_attrs[n] = NULL;
	dir->stat_group.name = "stats";
	dir->stat_group.attrs = dir->stat_attrs;
}

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
	if (!err && dir->stat) {
		mmfree_dir_stats(dir);
		err = sysfs_create_group(dir->kobj, &dir->stat_group);
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
	if (dir->stat)
		sysfs_remove_group(dir->kobj, &dir->stat_group);
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
