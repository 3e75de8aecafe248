/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The knobs of mmfree, declared once for the module and for mmfreectl.
 *
 * Each knob is a file under MMFREE_SYSFS_DIR, named by its path relative
 * to that directory, and a module parameter of the same name with '/'
 * replaced by '_'.  Values are unsigned decimal integers within [min, max],
 * or, for a knob with names, one of its names (the value is the name's
 * index); the module rejects anything else with -EINVAL and keeps the old
 * value.
 *
 * Included by kernel and userspace code alike: plain C types only.
 */
#ifndef _MMFREE_KNOBS_H
#define _MMFREE_KNOBS_H

#define MMFREE_SYSFS_DIR	"/sys/kernel/mmfree"

enum mmfree_knob_id {
	MMFREE_KNOB_ENABLED,
	MMFREE_KNOB_PERCPU_ENABLED,
	MMFREE_KNOB_PERCPU_MIN_EMPTY_PAGES,
	MMFREE_KNOB_PERCPU_KEEP_EMPTY_PAGES,
	MMFREE_KNOB_PERCPU_INTERVAL_MS,
	MMFREE_KNOB_PAGEFREE_ENABLED,
	MMFREE_KNOB_PAGEFREE_MODE,
	MMFREE_KNOB_PAGEFREE_WORKERS,
	MMFREE_KNOB_PAGEFREE_BATCH_PAGES,
	MMFREE_KNOB_PAGEFREE_MIN_PAGES,
	MMFREE_KNOB_PAGEFREE_IDLE_ONLY,
	MMFREE_KNOB_PAGEFREE_MAX_INFLIGHT_PAGES,
	MMFREE_NR_KNOBS
};

/* pagefree/mode */
enum mmfree_pagefree_mode {
	MMFREE_PAGEFREE_SYNC,
	MMFREE_PAGEFREE_ASYNC,
};

struct mmfree_knob_desc {
	const char *path;
	unsigned int def;
	unsigned int min;
	unsigned int max;
	const char *const *names;	/* NULL, or max + 1 names */
	const char *help;
};

extern const struct mmfree_knob_desc mmfree_knob_descs[MMFREE_NR_KNOBS];

/*
 * The table itself, in the order of `mmfreectl status`, is compiled only
 * into the one file that defines MMFREE_KNOB_TABLE before including this
 * header (as CREATE_TRACE_POINTS does for tracepoints).
 */
#ifdef MMFREE_KNOB_TABLE
static const char *const mmfree_pagefree_mode_names[] = { "sync", "async" };

const struct mmfree_knob_desc mmfree_knob_descs[MMFREE_NR_KNOBS] = {
	[MMFREE_KNOB_ENABLED] = {
		.path = "enabled", .def = 1, .min = 0, .max = 1,
		.help = "master switch: 0 detaches every feature, 1 lets them run",
	},
	[MMFREE_KNOB_PERCPU_ENABLED] = {
		.path = "percpu/enabled", .def = 1, .min = 0, .max = 1,
		.help = "depopulate empty percpu pages the stock heuristic leaves",
	},
	[MMFREE_KNOB_PERCPU_MIN_EMPTY_PAGES] = {
		.path = "percpu/min_empty_pages", .def = 1, .min = 1,
		.max = 65536,
		.help = "a chunk with this many empty populated pages qualifies",
	},
	[MMFREE_KNOB_PERCPU_KEEP_EMPTY_PAGES] = {
		/* The kernel itself never goes below 4 (PCPU_EMPTY_POP_PAGES_HIGH). */
		.path = "percpu/keep_empty_pages", .def = 4, .min = 4,
		.max = 65536,
		.help = "empty populated pages kept system wide for fast allocation",
	},
	[MMFREE_KNOB_PERCPU_INTERVAL_MS] = {
		.path = "percpu/interval_ms", .def = 0, .min = 0,
		.max = 3600000,
		.help = "periodic rescan in ms; 0: only when percpu frees trigger it",
	},
	[MMFREE_KNOB_PAGEFREE_ENABLED] = {
		.path = "pagefree/enabled", .def = 1, .min = 0, .max = 1,
		.help = "free gathered pages on the worker pool",
	},
	[MMFREE_KNOB_PAGEFREE_MODE] = {
		.path = "pagefree/mode", .def = MMFREE_PAGEFREE_SYNC, .min = 0,
		.max = MMFREE_PAGEFREE_ASYNC,
		.names = mmfree_pagefree_mode_names,
		.help = "sync: munmap and exit wait for every page; async: they do not",
	},
	[MMFREE_KNOB_PAGEFREE_WORKERS] = {
		.path = "pagefree/workers", .def = 4, .min = 1, .max = 512,
		.help = "most work items freeing at once, system wide",
	},
	[MMFREE_KNOB_PAGEFREE_BATCH_PAGES] = {
		.path = "pagefree/batch_pages", .def = 512, .min = 16,
		.max = 512,
		.help = "gathered pages per work item (a huge page counts once)",
	},
	[MMFREE_KNOB_PAGEFREE_MIN_PAGES] = {
		.path = "pagefree/min_pages", .def = 1024, .min = 0,
		.max = 1U << 30,
		.help = "a gather with fewer pages is freed inline",
	},
	[MMFREE_KNOB_PAGEFREE_IDLE_ONLY] = {
		.path = "pagefree/idle_only", .def = 1, .min = 0, .max = 1,
		.help = "offload only while one of the task's CPUs is idle",
	},
	[MMFREE_KNOB_PAGEFREE_MAX_INFLIGHT_PAGES] = {
		.path = "pagefree/max_inflight_pages", .def = 1U << 20,
		.min = 512, .max = 1U << 30,
		.help = "most pages queued or being freed at once; beyond, inline",
	},
};
#endif

#endif /* _MMFREE_KNOBS_H */
