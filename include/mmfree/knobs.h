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
 * MMFREE_KNOBS() lists them, in the order of `mmfreectl status`, as
 *
 *   TOP(ID, NAME, DEFAULT, MIN, MAX, HELP)	NAME, parameter NAME
 *   NUM(ID, DIR, NAME, DEFAULT, MIN, MAX, HELP)	DIR/NAME, parameter DIR_NAME
 *   OFF(ID, DIR, NAME, DEFAULT, MIN, MAX, HELP)	DIR/NAME taking 0 (off) or
 *						MIN..MAX
 *   NAMED(ID, DIR, NAME, FIRST, SECOND, HELP)	DIR/NAME taking FIRST (the
 *						default, value 0) or SECOND;
 *						MMFREE_ID_FIRST names value 0
 *
 * Numbers are plain decimals: the module parameters' descriptions are
 * made from them by the preprocessor, so they cannot drift.
 *
 * Included by kernel and userspace code alike: plain C only.
 */
#ifndef _MMFREE_KNOBS_H
#define _MMFREE_KNOBS_H

#ifndef __KERNEL__
#include <stdbool.h>
#endif

#define MMFREE_SYSFS_DIR	"/sys/kernel/mmfree"

#define MMFREE_KNOBS(TOP, NUM, OFF, NAMED)				\
	TOP(ENABLED, enabled, 1, 0, 1,					\
	    "master switch: 0 detaches every feature, 1 lets them run")	\
	NUM(PERCPU_ENABLED, percpu, enabled, 1, 0, 1,			\
	    "depopulate the empty percpu pages the kernel's heuristic "	\
	    "leaves populated")						\
	NUM(PERCPU_MIN_EMPTY_PAGES, percpu, min_empty_pages, 1, 1, 65536, \
	    "a chunk with at least this many empty populated pages (per " \
	    "unit) is depopulated")					\
	/* The kernel itself never goes below 4 (PCPU_EMPTY_POP_PAGES_HIGH). */ \
	NUM(PERCPU_KEEP_EMPTY_PAGES, percpu, keep_empty_pages, 4, 4, 65536, \
	    "empty populated pages (per unit, over all chunks) kept "	\
	    "for atomic allocations; the kernel never goes below 4")	\
	/* A run every MIN ms costs under 0.1% of a CPU (bench-floors). */ \
	OFF(PERCPU_INTERVAL_MS, percpu, interval_ms, 0, 100, 3600000,	\
	    "periodic rescan in milliseconds; 0: only when percpu frees " \
	    "trigger one (1 s after they stop, at most 10 s after the "	\
	    "first)")							\
	NUM(PAGEFREE_ENABLED, pagefree, enabled, 1, 0, 1,		\
	    "free the pages that munmap and exit gather on a pool of "	\
	    "kernel workers")						\
	NAMED(PAGEFREE_MODE, pagefree, mode, sync, async,		\
	      "sync: munmap and exit return once every page they gathered " \
	      "is free (the kernel's semantics); async: they return once " \
	      "the pages are unmapped and the pool frees the anonymous " \
	      "ones in the background (file, shmem and swap-cache pages, " \
	      "and a killed task's gathers, stay sync)")		\
	NUM(PAGEFREE_WORKERS, pagefree, workers, 4, 1, 512,		\
	    "most work items freeing at once, per NUMA node before 6.9, " \
	    "system wide since (one per node at least); never more than " \
	    "the online CPUs, and one fewer while a task gathers pages") \
	NUM(PAGEFREE_BATCH_PAGES, pagefree, batch_pages, 512, 16, 512,	\
	    "base pages per work item (a huge page counts all its "	\
	    "pages; an item holds one gathered entry at least)")	\
	/* Below 256, pooling a gather costs over 25% more (bench-floors). */ \
	NUM(PAGEFREE_MIN_PAGES, pagefree, min_pages, 1024, 256, 1073741824, \
	    "a gather holding fewer base pages when first flushed is "	\
	    "freed inline, by the task itself")				\
	NUM(PAGEFREE_IDLE_ONLY, pagefree, idle_only, 1, 0, 1,		\
	    "offload only while a CPU where the pages' workers run (their " \
	    "node's, in the task's cpuset) is idle (or that node's "	\
	    "workers are getting CPU time)")				\
	NUM(PAGEFREE_MAX_INFLIGHT_PAGES, pagefree, max_inflight_pages,	\
	    1048576, 512, 1073741824,					\
	    "most base pages queued or being freed at once, both modes; " \
	    "beyond it, freed inline")

/*
 * The parameters that are no knob: read once, at load (main.c), and not
 * files under MMFREE_SYSFS_DIR.  P(NAME, DEFAULT, MIN, MAX, HELP).
 */
#define MMFREE_LOAD_PARAMS(P)						\
	P(untested_kernel, 0, 0, 1,					\
	  "run the features on a kernel series mmfree was not tested "	\
	  "on, where every prototype and field they rely on checks "	\
	  "out in its BTF; a mismatch is refused whatever it says")

#define MMFREE_KNOB_ID(id, ...)		MMFREE_KNOB_##id,
#define MMFREE_KNOB_NO_VALUES(...)
#define MMFREE_KNOB_VALUES(id, dir, name, first, second, help)		\
	enum { MMFREE_##id##_##first, MMFREE_##id##_##second };

enum mmfree_knob_id {
	MMFREE_KNOBS(MMFREE_KNOB_ID, MMFREE_KNOB_ID, MMFREE_KNOB_ID,
		     MMFREE_KNOB_ID)
	MMFREE_NR_KNOBS
};

/* The values of the knobs with names: MMFREE_PAGEFREE_MODE_async. */
MMFREE_KNOBS(MMFREE_KNOB_NO_VALUES, MMFREE_KNOB_NO_VALUES,
	     MMFREE_KNOB_NO_VALUES, MMFREE_KNOB_VALUES)

struct mmfree_knob_desc {
	const char *path;
	unsigned int def;
	unsigned int min;
	unsigned int max;
	bool off;			/* 0 is a value too: off */
	const char *const *names;	/* NULL, or max + 1 names */
	const char *help;
};

extern const struct mmfree_knob_desc mmfree_knob_descs[MMFREE_NR_KNOBS];

/*
 * The table itself is compiled only into the one file that defines
 * MMFREE_KNOB_TABLE before including this header (as CREATE_TRACE_POINTS
 * does for tracepoints).
 */
#ifdef MMFREE_KNOB_TABLE
#define MMFREE_KNOB_DESC_TOP(id, name, d, lo, hi, h)			\
	[MMFREE_KNOB_##id] = {						\
		.path = #name, .def = d, .min = lo, .max = hi, .help = h, \
	},
#define MMFREE_KNOB_DESC_NUM(id, dir, name, d, lo, hi, h)		\
	[MMFREE_KNOB_##id] = {						\
		.path = #dir "/" #name, .def = d, .min = lo, .max = hi,	\
		.help = h,						\
	},
#define MMFREE_KNOB_DESC_OFF(id, dir, name, d, lo, hi, h)		\
	[MMFREE_KNOB_##id] = {						\
		.path = #dir "/" #name, .def = d, .min = lo, .max = hi,	\
		.off = true, .help = h,					\
	},
#define MMFREE_KNOB_DESC_NAMED(id, dir, name, first, second, h)	\
	[MMFREE_KNOB_##id] = {						\
		.path = #dir "/" #name, .def = 0, .min = 0, .max = 1,	\
		.names = (const char *const []){ #first, #second },	\
		.help = h,						\
	},

const struct mmfree_knob_desc mmfree_knob_descs[MMFREE_NR_KNOBS] = {
	MMFREE_KNOBS(MMFREE_KNOB_DESC_TOP, MMFREE_KNOB_DESC_NUM,
		     MMFREE_KNOB_DESC_OFF, MMFREE_KNOB_DESC_NAMED)
};
#endif

#endif /* _MMFREE_KNOBS_H */
