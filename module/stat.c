// SPDX-License-Identifier: GPL-2.0
/*
 * Event counters: per CPU, so that counting costs no shared cache line on
 * the freeing path; a read sums them (include/mmfree/stats.h says what
 * each counts).  Statistics that are not events (pages in flight, the
 * percpu allocator's state) are read by their feature instead.
 *
 * A statistic's file can also be waited on: poll() on it returns when its
 * feature calls mmfree_stat_notify() (pages in flight fell to 0), the
 * kernel's idiom for sysfs files that change (sysfs_notify()).  sysfs.c,
 * which makes the files, hands each file's node down here.
 */
#include <linux/kernfs.h>
#include <linux/percpu.h>
#include <linux/spinlock.h>
#include <linux/sysfs.h>

#define MMFREE_STAT_TABLE
#include "mmfree.h"

struct mmfree_stat_counts {
	unsigned long v[MMFREE_NR_STATS];
};

static DEFINE_PER_CPU(struct mmfree_stat_counts, mmfree_stat_counts);

/* The statistics' files, where pollers wait; NULL while there is none. */
static struct kernfs_node *mmfree_stat_files[MMFREE_NR_STATS];
static DEFINE_SPINLOCK(mmfree_stat_files_lock);

/* Any context: a per-CPU add. */
void mmfree_stat_add(enum mmfree_stat_id id, unsigned long n)
{
	this_cpu_add(mmfree_stat_counts.v[id], n);
}

/* The total so far, every CPU's share summed without locking. */
unsigned long mmfree_stat_sum(enum mmfree_stat_id id)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(mmfree_stat_counts.v[id], cpu);
	return sum;
}

/**
 * mmfree_stat_notify - wake the tasks that poll a statistic's file
 * @id: the statistic
 *
 * Context: any; kernfs_notify() wakes pollers at once and defers the rest.
 */
void mmfree_stat_notify(enum mmfree_stat_id id)
{
	unsigned long flags;

	spin_lock_irqsave(&mmfree_stat_files_lock, flags);
	if (mmfree_stat_files[id])
		sysfs_notify_dirent(mmfree_stat_files[id]);
	spin_unlock_irqrestore(&mmfree_stat_files_lock, flags);
}

/**
 * mmfree_stat_set_file - where a statistic's pollers wait
 * @id: the statistic
 * @kn: its file, referenced (sysfs_get_dirent()); NULL: none any more
 *
 * Replacing a file wakes its pollers first, so that none sleeps on a
 * file that goes away; the reference is dropped once no notifier can
 * use it.
 *
 * Context: process context.
 */
void mmfree_stat_set_file(enum mmfree_stat_id id, struct kernfs_node *kn)
{
	struct kernfs_node *old;

	mmfree_stat_notify(id);
	spin_lock_irq(&mmfree_stat_files_lock);
	old = mmfree_stat_files[id];
	mmfree_stat_files[id] = kn;
	spin_unlock_irq(&mmfree_stat_files_lock);
	sysfs_put(old);
}
