// SPDX-License-Identifier: GPL-2.0
/*
 * The knob files: /sys/kernel/mmfree/.
 *
 * Each knob is declared once, in include/mmfree/knobs.h (path, default,
 * limits, help), and appears twice: as a sysfs file here, that can be
 * changed at run time, and as a read-only module parameter (param.c)
 * that sets it at load time.  A knob's value lives only in
 * mmfree_knob_vals[] (knob.c); a file write changes it under
 * mmfree_knobs_lock, after the whole input parsed and passed its limits,
 * so a rejected write changes nothing, and then brings every feature in
 * line (or, if one cannot follow, puts the old value back; a feature that
 * cannot attach even then is left off, its enabled file at 0).
 *
 * The directories come from the features main.c passes in: each usable
 * feature gets one, named after it, holding its knobs (those whose path
 * starts with its name), its statistics (stats/, read through the
 * feature; the file of a waitable one is handed to stat.c, which wakes its
 * pollers) and its action file (percpu/reclaim).  A feature the kernel
 * cannot run has no directory at all.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "mmfree.h"

/* Serialises knob writes against each other and the features' updates. */
static DEFINE_MUTEX(mmfree_knobs_lock);

static struct kobj_attribute mmfree_knob_attrs[MMFREE_NR_KNOBS];
static struct mmfree_feature *const *mmfree_features;
static size_t mmfree_nr_features;

static enum mmfree_knob_id mmfree_knob_of(const struct kobj_attribute *attr)
{
	return attr - mmfree_knob_attrs;
}

/* Bring every feature in line with the knobs; under the knob lock. */
static int mmfree_features_apply(void)
{
	size_t i;
	int err;

	lockdep_assert_held(&mmfree_knobs_lock);
	for (i = 0; i < mmfree_nr_features; i++) {
		if (!mmfree_features[i]->usable)
			continue;
		err = mmfree_features[i]->update();
		if (err)
			return err;
	}
	return 0;
}

/*
 * Bring each feature in line with the knobs on its own, at load and after
 * a write the features could not follow.  One that cannot attach stays
 * detached (its update() leaves it so), and its enabled file is set to 0,
 * so that the files say what runs; the others go on.  Under the knob lock.
 */
static void mmfree_features_settle(void)
{
	struct mmfree_feature *f;
	size_t i;
	int err;

	lockdep_assert_held(&mmfree_knobs_lock);
	for (i = 0; i < mmfree_nr_features; i++) {
		f = mmfree_features[i];
		if (!f->usable)
			continue;
		err = f->update();
		/* A detach that failed keeps it attached: tried again later. */
		if (!err || !mmfree_knob_feature_on(f->enabled_knob))
			continue;
		WRITE_ONCE(mmfree_knob_vals[f->enabled_knob], 0);
		pr_warn("%s disabled: cannot attach (%d); write 1 to %s/%s/enabled to try again\n",
			f->name, err, MMFREE_SYSFS_DIR, f->name);
	}
}

static ssize_t mmfree_knob_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	return mmfree_knob_print(mmfree_knob_of(attr), buf);
}

/*
 * The longest write a knob takes: a value is at most ten digits or a
 * short name, and a newline.  A longer one is refused whole, before it
 * is parsed: stdio splits a write at its buffer's size (4096 bytes),
 * and the first part alone could parse, as "000...0" of "000...0x".
 */
#define MMFREE_KNOB_MAX_WRITE	32

/*
 * Whether a write is text throughout: sysfs ends the buffer with a NUL
 * after @count bytes, but one inside it would end the parsers' string
 * early, and what follows would go unread, the write taken as valid.
 */
static bool mmfree_write_is_text(const char *buf, size_t count)
{
	return strnlen(buf, count) == count;
}

static ssize_t mmfree_knob_store(struct kobject *kobj,
				 struct kobj_attribute *attr,
				 const char *buf, size_t count)
{
	enum mmfree_knob_id id = mmfree_knob_of(attr);
	unsigned int val, old;
	int err;

	if (count > MMFREE_KNOB_MAX_WRITE || !mmfree_write_is_text(buf, count))
		return -EINVAL;
	err = mmfree_knob_parse(id, buf, &val);
	if (err)
		return err;

	mutex_lock(&mmfree_knobs_lock);
	old = mmfree_knob(id);
	WRITE_ONCE(mmfree_knob_vals[id], val);
	err = mmfree_features_apply();
	if (err) {
		/* The features could not follow: back to where they were. */
		WRITE_ONCE(mmfree_knob_vals[id], old);
		mmfree_features_settle();
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

/*
 * A directory: /sys/kernel/mmfree itself (no feature), or a feature's,
 * with its knobs, its action file and its statistics in stats/.
 */
struct mmfree_dir {
	struct mmfree_feature *feature;
	struct kobject *kobj;
	struct attribute *attrs[MMFREE_NR_KNOBS + 2];
	struct attribute_group group;
	struct attribute *stat_attrs[MMFREE_NR_STATS + 1];
	struct attribute_group stat_group;
	struct kobj_attribute action_attr;
};

/* A statistic: a read-only file in its feature's stats/ directory. */
struct mmfree_stat {
	struct mmfree_feature *feature;
	struct kobj_attribute attr;
};

static struct mmfree_stat mmfree_stats[MMFREE_NR_STATS];
static struct mmfree_dir mmfree_top_dir;
static struct mmfree_dir *mmfree_dirs;	/* one per feature */

static ssize_t mmfree_stat_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	struct mmfree_stat *stat = container_of(attr, struct mmfree_stat, attr);

	return sysfs_emit(buf, "%ld\n",
			  stat->feature->stat(stat - mmfree_stats));
}

/* A feature's action file: write "1" to act now. */
static ssize_t mmfree_action_store(struct kobject *kobj,
				   struct kobj_attribute *attr,
				   const char *buf, size_t count)
{
	struct mmfree_dir *dir = container_of(attr, struct mmfree_dir,
					      action_attr);

	if (!mmfree_write_is_text(buf, count) || !sysfs_streq(buf, "1"))
		return -EINVAL;
	return dir->feature->action() ?: count;
}

/* Whether @path lies in @dir: "<dir>/<name>", or "<name>" for the top. */
static bool mmfree_path_in(const char *path, const char *dir)
{
	const char *base = kbasename(path);

	if (!dir)
		return base == path;
	return base - path == strlen(dir) + 1 &&
	       !strncmp(path, dir, base - path - 1);
}

static void mmfree_dir_stats(struct mmfree_dir *dir)
{
	struct mmfree_feature *f = dir->feature;
	char name[32];
	int i, n = 0;

	snprintf(name, sizeof(name), "%s/stats", f->name);
	for (i = 0; i < MMFREE_NR_STATS; i++) {
		struct mmfree_stat *stat = &mmfree_stats[i];

		if (strcmp(mmfree_stat_descs[i].dir, name))
			continue;
		stat->feature = f;
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

static void mmfree_dir_attrs(struct mmfree_dir *dir)
{
	const char *name = dir->feature ? dir->feature->name : NULL;
	int i, n = 0;

	for (i = 0; i < MMFREE_NR_KNOBS; i++)
		if (mmfree_path_in(mmfree_knob_descs[i].path, name))
			dir->attrs[n++] = &mmfree_knob_attrs[i].attr;
	if (!dir->feature) {
		dir->attrs[n++] = &mmfree_version_attr.attr;
	} else if (dir->feature->action) {
		sysfs_attr_init(&dir->action_attr.attr);
		dir->action_attr.attr.name = dir->feature->action_name;
		dir->action_attr.attr.mode = 0200;
		dir->action_attr.store = mmfree_action_store;
		dir->attrs[n++] = &dir->action_attr.attr;
	}
	dir->attrs[n] = NULL;
	dir->group.attrs = dir->attrs;
}

/*
 * Hand the files of @dir's waitable statistics down to stat.c (@on), or
 * take them back, waking their pollers.  Without a node a statistic is
 * still read, only not waited on.
 */
static void mmfree_dir_waitable(struct mmfree_dir *dir, bool on)
{
	struct kernfs_node *stats = NULL;
	int i;

	if (on)
		stats = sysfs_get_dirent(dir->kobj->sd, dir->stat_group.name);
	for (i = 0; i < MMFREE_NR_STATS; i++) {
		if (mmfree_stats[i].feature != dir->feature ||
		    !mmfree_stat_descs[i].waitable)
			continue;
		mmfree_stat_set_file(i, stats ?
				     sysfs_get_dirent(stats, mmfree_stat_descs[i].name) :
				     NULL);
	}
	sysfs_put(stats);
}

static int mmfree_dir_create(struct mmfree_dir *dir)
{
	int err;

	mmfree_dir_attrs(dir);
	dir->kobj = dir->feature ?
		kobject_create_and_add(dir->feature->name, mmfree_top_dir.kobj) :
		kobject_create_and_add("mmfree", kernel_kobj);
	if (!dir->kobj)
		return -ENOMEM;
	err = sysfs_create_group(dir->kobj, &dir->group);
	if (!err && dir->feature) {
		mmfree_dir_stats(dir);
		err = sysfs_create_group(dir->kobj, &dir->stat_group);
		if (err)
			sysfs_remove_group(dir->kobj, &dir->group);
		else
			mmfree_dir_waitable(dir, true);
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
	if (dir->feature) {
		sysfs_remove_group(dir->kobj, &dir->stat_group);
		/*
		 * Pollers woken before the file is gone could read it once
		 * more and sleep again, unwoken; after, they find it gone.
		 */
		mmfree_dir_waitable(dir, false);
	}
	sysfs_remove_group(dir->kobj, &dir->group);
	kobject_put(dir->kobj);
	dir->kobj = NULL;
}

static void mmfree_knob_attrs_init(void)
{
	int i;

	for (i = 0; i < MMFREE_NR_KNOBS; i++) {
		struct kobj_attribute *attr = &mmfree_knob_attrs[i];

		sysfs_attr_init(&attr->attr);
		attr->attr.name = kbasename(mmfree_knob_descs[i].path);
		attr->attr.mode = 0644;
		attr->show = mmfree_knob_show;
		attr->store = mmfree_knob_store;
	}
}

/**
 * mmfree_sysfs_init - start the features as the knobs say, then the files
 * @features: the features, each with its usable flag decided
 * @nr: how many
 *
 * The features are brought in line with the knobs before the files
 * exist, so that no write can race with it.  One that cannot attach
 * (a livepatch owns one of its functions) is left off, and the module
 * loads with the others.
 *
 * Return: 0, or -ENOMEM, or the error of sysfs.
 */
int mmfree_sysfs_init(struct mmfree_feature *const *features, size_t nr)
{
	size_t i;
	int err;

	mmfree_features = features;
	mmfree_nr_features = nr;
	mutex_lock(&mmfree_knobs_lock);
	mmfree_features_settle();
	mutex_unlock(&mmfree_knobs_lock);

	mmfree_dirs = kcalloc(nr, sizeof(*mmfree_dirs), GFP_KERNEL);
	if (!mmfree_dirs)
		return -ENOMEM;
	mmfree_knob_attrs_init();
	err = mmfree_dir_create(&mmfree_top_dir);
	for (i = 0; !err && i < nr; i++) {
		mmfree_dirs[i].feature = features[i];
		if (features[i]->usable)
			err = mmfree_dir_create(&mmfree_dirs[i]);
	}
	if (err) {
		pr_err("cannot create %s (%d)\n", MMFREE_SYSFS_DIR, err);
		mmfree_sysfs_exit();
	}
	return err;
}

void mmfree_sysfs_exit(void)
{
	size_t i;

	for (i = mmfree_nr_features; mmfree_dirs && i-- > 0; )
		mmfree_dir_remove(&mmfree_dirs[i]);
	mmfree_dir_remove(&mmfree_top_dir);
	kfree(mmfree_dirs);
	mmfree_dirs = NULL;
}
