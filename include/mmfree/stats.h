/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The statistics of mmfree, declared once for the module and for mmfreectl.
 *
 * Each statistic is a read-only file under MMFREE_SYSFS_DIR, in the
 * directory dir (relative to MMFREE_SYSFS_DIR), holding one signed decimal
 * integer.  A feature the kernel cannot run has no directory, and so none
 * of its statistics.
 *
 * MMFREE_STAT_PAGES values count pages in each unit of a percpu chunk (one
 * unit per possible CPU): system wide that is the value times the "units"
 * statistic of the same directory times the page size, as for the Percpu:
 * line of /proc/meminfo.  MMFREE_STAT_FREED values count base pages (a
 * gathered huge page counts all its pages).  MMFREE_STAT_NSEC values are
 * nanoseconds.  MMFREE_STAT_COUNT values are plain counts.
 *
 * A statistic with gauge set can go down (a level: pages populated now);
 * the others only grow while the module is loaded (events since load).
 *
 * A statistic with waitable set can be waited on: poll() (POLLPRI) on its
 * file returns when the value falls to 0 (the module calls sysfs_notify()
 * then, and when it unloads); read it again after each wakeup.
 *
 * A statistic with share_of set is a part of the statistic it names, in
 * the same directory and unit: mmfreectl shows what share it is.
 *
 * A statistic with root_only set is read under a kernel lock that every
 * percpu allocation takes (a walk over the chunks): its file is 0400, so
 * that no unprivileged reader can stall allocations.  The others read
 * counters and are 0444.
 *
 * Included by kernel and userspace code alike: plain C types only.
 */
#ifndef _MMFREE_STATS_H
#define _MMFREE_STATS_H

enum mmfree_stat_unit {
	MMFREE_STAT_PAGES,
	MMFREE_STAT_COUNT,
	MMFREE_STAT_FREED,
	MMFREE_STAT_NSEC,
};

enum mmfree_stat_id {
	MMFREE_STAT_PERCPU_POPULATED_PAGES,
	MMFREE_STAT_PERCPU_EMPTY_PAGES,
	MMFREE_STAT_PERCPU_FLOOR_PAGES,
	MMFREE_STAT_PERCPU_CHUNKS,
	MMFREE_STAT_PERCPU_UNITS,
	MMFREE_STAT_PERCPU_DEPOPULATED_PAGES,
	MMFREE_STAT_PERCPU_ISOLATED_CHUNKS,
	MMFREE_STAT_PERCPU_SCANS,
	MMFREE_STAT_PAGEFREE_OFFLOADED_PAGES,
	MMFREE_STAT_PAGEFREE_REMOTE_PAGES,
	MMFREE_STAT_PAGEFREE_HELPED_PAGES,
	MMFREE_STAT_PAGEFREE_KILLED_PAGES,
	MMFREE_STAT_PAGEFREE_INLINE_SMALL_PAGES,
	MMFREE_STAT_PAGEFREE_INLINE_BUSY_PAGES,
	MMFREE_STAT_PAGEFREE_INLINE_NOMEM_PAGES,
	MMFREE_STAT_PAGEFREE_INLINE_OOM_PAGES,
	MMFREE_STAT_PAGEFREE_INLINE_LIMITED_PAGES,
	MMFREE_STAT_PAGEFREE_INLINE_HUGETLB_PAGES,
	MMFREE_STAT_PAGEFREE_INLINE_PRESSURE_PAGES,
	MMFREE_STAT_PAGEFREE_INLINE_DISABLED_PAGES,
	MMFREE_STAT_PAGEFREE_INFLIGHT_PAGES,
	MMFREE_STAT_PAGEFREE_WORK_ITEMS,
	MMFREE_STAT_PAGEFREE_WAIT_NS,
	MMFREE_STAT_PAGEFREE_WORKER_NS,
	MMFREE_STAT_PAGEFREE_CHARGED_NS,
	MMFREE_NR_STATS
};

struct mmfree_stat_desc {
	const char *dir;
	const char *name;
	enum mmfree_stat_unit unit;
	int gauge;
	int root_only;
	int waitable;
	const char *share_of;
	const char *help;
};

extern const struct mmfree_stat_desc mmfree_stat_descs[MMFREE_NR_STATS];

/*
 * The table itself, in the order of `mmfreectl status`, is compiled only
 * into the one file that defines MMFREE_STAT_TABLE before including this
 * header, as for the knob table.
 */
#ifdef MMFREE_STAT_TABLE
const struct mmfree_stat_desc mmfree_stat_descs[MMFREE_NR_STATS] = {
	[MMFREE_STAT_PERCPU_POPULATED_PAGES] = {
		.dir = "percpu/stats", .name = "populated_pages",
		.unit = MMFREE_STAT_PAGES, .gauge = 1,
		.help = "populated percpu pages (pcpu_nr_populated)",
	},
	[MMFREE_STAT_PERCPU_EMPTY_PAGES] = {
		.dir = "percpu/stats", .name = "empty_pages",
		.unit = MMFREE_STAT_PAGES, .gauge = 1, .root_only = 1,
		.help = "populated pages with no live allocation, all chunks",
	},
	[MMFREE_STAT_PERCPU_FLOOR_PAGES] = {
		.dir = "percpu/stats", .name = "floor_pages",
		.unit = MMFREE_STAT_PAGES, .gauge = 1, .root_only = 1,
		.help = "populated pages holding live allocations: the floor",
	},
	[MMFREE_STAT_PERCPU_CHUNKS] = {
		.dir = "percpu/stats", .name = "chunks",
		.unit = MMFREE_STAT_COUNT, .gauge = 1, .root_only = 1,
		.help = "chunks on the kernel's lists",
	},
	[MMFREE_STAT_PERCPU_UNITS] = {
		.dir = "percpu/stats", .name = "units",
		.unit = MMFREE_STAT_COUNT, .gauge = 1,
		.help = "units per chunk (one per possible CPU)",
	},
	[MMFREE_STAT_PERCPU_DEPOPULATED_PAGES] = {
		.dir = "percpu/stats", .name = "depopulated_pages",
		.unit = MMFREE_STAT_PAGES,
		.help = "net pages released by balance runs mmfree isolated for",
	},
	[MMFREE_STAT_PERCPU_ISOLATED_CHUNKS] = {
		.dir = "percpu/stats", .name = "isolated_chunks",
		.unit = MMFREE_STAT_COUNT,
		.help = "chunks mmfree isolated (or listed again) for depopulation",
	},
	[MMFREE_STAT_PERCPU_SCANS] = {
		.dir = "percpu/stats", .name = "scans",
		.unit = MMFREE_STAT_COUNT,
		.help = "balance runs mmfree scanned in",
	},
	[MMFREE_STAT_PAGEFREE_OFFLOADED_PAGES] = {
		.dir = "pagefree/stats", .name = "offloaded_pages",
		.unit = MMFREE_STAT_FREED,
		.help = "pages freed by the worker pool",
	},
	[MMFREE_STAT_PAGEFREE_REMOTE_PAGES] = {
		.dir = "pagefree/stats", .name = "remote_pages",
		.unit = MMFREE_STAT_FREED,
		.help = "of those, freed by a worker on another NUMA node than its item's",
	},
	[MMFREE_STAT_PAGEFREE_HELPED_PAGES] = {
		.dir = "pagefree/stats", .name = "helped_pages",
		.unit = MMFREE_STAT_FREED,
		.help = "pages a task freed from queued work: its own, or its memcg's at an OOM",
	},
	[MMFREE_STAT_PAGEFREE_KILLED_PAGES] = {
		.dir = "pagefree/stats", .name = "killed_pages",
		.unit = MMFREE_STAT_FREED,
		.help = "killed tasks' pages queued; all free before their flush returned",
	},
	[MMFREE_STAT_PAGEFREE_INLINE_SMALL_PAGES] = {
		.dir = "pagefree/stats", .name = "inline_small_pages",
		.unit = MMFREE_STAT_FREED,
		.help = "freed inline: the gather was below min_pages",
	},
	[MMFREE_STAT_PAGEFREE_INLINE_BUSY_PAGES] = {
		.dir = "pagefree/stats", .name = "inline_busy_pages",
		.unit = MMFREE_STAT_FREED,
		.help = "freed inline: no idle CPU, or the pool was full",
	},
	[MMFREE_STAT_PAGEFREE_INLINE_NOMEM_PAGES] = {
		.dir = "pagefree/stats", .name = "inline_nomem_pages",
		.unit = MMFREE_STAT_FREED,
		.help = "freed inline: a context or work item could not be allocated",
	},
	[MMFREE_STAT_PAGEFREE_INLINE_OOM_PAGES] = {
		.dir = "pagefree/stats", .name = "inline_oom_pages",
		.unit = MMFREE_STAT_FREED,
		.help = "freed inline: OOM victim, PF_MEMALLOC, or a kernel thread (OOM reaper)",
	},
	[MMFREE_STAT_PAGEFREE_INLINE_LIMITED_PAGES] = {
		.dir = "pagefree/stats", .name = "inline_limited_pages",
		.unit = MMFREE_STAT_FREED,
		.help = "freed inline: a CPU-limited task, or its cpuset lacks the node's CPUs",
	},
	[MMFREE_STAT_PAGEFREE_INLINE_HUGETLB_PAGES] = {
		.dir = "pagefree/stats", .name = "inline_hugetlb_pages",
		.unit = MMFREE_STAT_FREED,
		.help = "freed inline: hugetlb pages, needed back when munmap or exit returns",
	},
	[MMFREE_STAT_PAGEFREE_INLINE_PRESSURE_PAGES] = {
		.dir = "pagefree/stats", .name = "inline_pressure_pages",
		.unit = MMFREE_STAT_FREED,
		.help = "freed inline: free memory of the pages' node below its high watermarks",
	},
	[MMFREE_STAT_PAGEFREE_INLINE_DISABLED_PAGES] = {
		.dir = "pagefree/stats", .name = "inline_disabled_pages",
		.unit = MMFREE_STAT_FREED,
		.help = "freed inline: pagefree was being disabled or unloaded",
	},
	[MMFREE_STAT_PAGEFREE_INFLIGHT_PAGES] = {
		.dir = "pagefree/stats", .name = "inflight_pages",
		.unit = MMFREE_STAT_FREED, .gauge = 1, .waitable = 1,
		.help = "pages queued or being freed now (poll() wakes at 0)",
	},
	[MMFREE_STAT_PAGEFREE_WORK_ITEMS] = {
		.dir = "pagefree/stats", .name = "work_items",
		.unit = MMFREE_STAT_COUNT,
		.help = "work items queued to the pool",
	},
	[MMFREE_STAT_PAGEFREE_WAIT_NS] = {
		.dir = "pagefree/stats", .name = "wait_ns",
		.unit = MMFREE_STAT_NSEC,
		.help = "time tasks spent in tlb_finish_mmu helping and waiting",
	},
	[MMFREE_STAT_PAGEFREE_WORKER_NS] = {
		.dir = "pagefree/stats", .name = "worker_ns",
		.unit = MMFREE_STAT_NSEC,
		.help = "CPU time the pool's workers spent freeing",
	},
	[MMFREE_STAT_PAGEFREE_CHARGED_NS] = {
		.dir = "pagefree/stats", .name = "charged_ns",
		.unit = MMFREE_STAT_NSEC, .share_of = "worker_ns",
		.help = "of worker_ns: charged to the gathering task's cgroup (its cpu.stat)",
	},
};
#endif

#endif /* _MMFREE_STATS_H */
