/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmfree's trace events: every decision it makes, for ftrace, perf and
 * bpftrace (/sys/kernel/tracing/events/mmfree/).  Defined once, in
 * trace.c (CREATE_TRACE_POINTS); sizes are base pages.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM mmfree

#if !defined(_MMFREE_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _MMFREE_TRACE_H

#include <linux/tracepoint.h>

#include "compat.h"

/*
 * Gathered pages handed to the pool, or freed inline and why: reason is
 * the name of the statistic that counts them ("offloaded_pages",
 * "inline_busy_pages", ...), so that a filter can say reason == "...".
 * mode: async when the pages may still be in flight after the call that
 * unmapped them returns, sync when they are back by then (inline pages,
 * and an async gather's pages that may not linger).
 */
TRACE_EVENT(mmfree_offload,
	TP_PROTO(unsigned long pages, int nid, bool async, const char *reason),
	TP_ARGS(pages, nid, async, reason),
	TP_STRUCT__entry(
		__field(unsigned long, pages)
		__field(int, nid)
		__field(bool, async)
		__string(reason, reason)
	),
	TP_fast_assign(
		__entry->pages = pages;
		__entry->nid = nid;
		__entry->async = async;
		mmfree_assign_str(reason, reason);
	),
	TP_printk("pages=%lu nid=%d mode=%s reason=%s", __entry->pages,
		  __entry->nid, __entry->async ? "async" : "sync",
		  __get_str(reason))
);

/* A work item freed, by a worker or by the task that queued it. */
TRACE_EVENT(mmfree_item_freed,
	TP_PROTO(unsigned long pages, int nid, u64 ns, bool helped, u64 cgroup),
	TP_ARGS(pages, nid, ns, helped, cgroup),
	TP_STRUCT__entry(
		__field(unsigned long, pages)
		__field(int, nid)
		__field(u64, ns)
		__field(bool, helped)
		__field(u64, cgroup)
	),
	TP_fast_assign(
		__entry->pages = pages;
		__entry->nid = nid;
		__entry->ns = ns;
		__entry->helped = helped;
		__entry->cgroup = cgroup;
	),
	TP_printk("pages=%lu nid=%d ns=%llu by=%s cgroup=%llu", __entry->pages,
		  __entry->nid, __entry->ns,
		  __entry->helped ? "task" : "worker", __entry->cgroup)
);

/* A task at the end of its gather (tlb_finish_mmu): helped, then waited. */
TRACE_EVENT(mmfree_wait,
	TP_PROTO(unsigned long helped, u64 ns),
	TP_ARGS(helped, ns),
	TP_STRUCT__entry(
		__field(unsigned long, helped)
		__field(u64, ns)
	),
	TP_fast_assign(
		__entry->helped = helped;
		__entry->ns = ns;
	),
	TP_printk("helped=%lu ns=%llu", __entry->helped, __entry->ns)
);

/*
 * The pool's cap changed: how many items may free at once, and how many
 * tasks were gathering pages when it was set.
 */
TRACE_EVENT(mmfree_pool_cap,
	TP_PROTO(int cap, int gatherers),
	TP_ARGS(cap, gatherers),
	TP_STRUCT__entry(
		__field(int, cap)
		__field(int, gatherers)
	),
	TP_fast_assign(
		__entry->cap = cap;
		__entry->gatherers = gatherers;
	),
	TP_printk("cap=%d gatherers=%d", __entry->cap, __entry->gatherers)
);

/*
 * The OOM hook drained the pool: how much, whether that was progress, and
 * whether its wait ran out before the pages it waited for were back.
 */
TRACE_EVENT(mmfree_oom_drain,
	TP_PROTO(long pages, bool progress, bool timed_out),
	TP_ARGS(pages, progress, timed_out),
	TP_STRUCT__entry(
		__field(long, pages)
		__field(bool, progress)
		__field(bool, timed_out)
	),
	TP_fast_assign(
		__entry->pages = pages;
		__entry->progress = progress;
		__entry->timed_out = timed_out;
	),
	TP_printk("pages=%ld progress=%d timed_out=%d", __entry->pages,
		  __entry->progress, __entry->timed_out)
);

/* A balance run mmfree asked for: chunks isolated, empty pages in them. */
TRACE_EVENT(mmfree_percpu_scan,
	TP_PROTO(int chunks, int pages),
	TP_ARGS(chunks, pages),
	TP_STRUCT__entry(
		__field(int, chunks)
		__field(int, pages)
	),
	TP_fast_assign(
		__entry->chunks = chunks;
		__entry->pages = pages;
	),
	TP_printk("chunks=%d pages=%d", __entry->chunks, __entry->pages)
);

/* Its end: populated pages the run released (per unit). */
TRACE_EVENT(mmfree_percpu_result,
	TP_PROTO(long pages),
	TP_ARGS(pages),
	TP_STRUCT__entry(
		__field(long, pages)
	),
	TP_fast_assign(
		__entry->pages = pages;
	),
	TP_printk("depopulated=%ld", __entry->pages)
);

#endif /* _MMFREE_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
