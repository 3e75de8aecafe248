/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernels mmfree supports (6.1 to 7.2), kept in
 * one place so that the rest of the module is written against one API.
 */
#ifndef _MMFREE_COMPAT_H
#define _MMFREE_COMPAT_H

#include <linux/cgroup.h>
#include <linux/ftrace.h>
#include <linux/mm.h>
#include <linux/mm_types.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/coredump.h>
#include <linux/types.h>
#include <linux/version.h>
#include <linux/workqueue.h>

/*
 * The kernel series mmfree was run on (scripts/kernels.sh: Debian 12's
 * 6.1 and 6.12, Debian 13's 6.12, sid's 7.2).  Elsewhere a feature whose
 * BTF checks out runs only with untested_kernel=1 (main.c).
 */
static inline bool mmfree_kernel_tested(void)
{
	unsigned int series = LINUX_VERSION_CODE >> 8;

	return series == KERNEL_VERSION(6, 1, 0) >> 8 ||
	       series == KERNEL_VERSION(6, 12, 0) >> 8 ||
	       series == KERNEL_VERSION(7, 2, 0) >> 8;
}

/* Argument @n of the traced function, in an ftrace callback. */
static inline unsigned long mmfree_ftrace_arg(struct ftrace_regs *fregs,
					      unsigned int n)
{
#ifdef ftrace_regs_get_argument
	return ftrace_regs_get_argument(fregs, n);
#else
	/* 6.1: struct ftrace_regs is a struct pt_regs in disguise. */
	return regs_get_kernel_argument(&fregs->regs, n);
#endif
}

/*
 * Resume the traced function's caller at @ip instead, with the traced
 * function's arguments: how livepatch replaces a function.  The ftrace
 * trampoline returns there; no indirect call is made, so IBT has no say.
 */
static inline void mmfree_ftrace_set_ip(struct ftrace_regs *fregs,
					unsigned long ip)
{
#ifdef ftrace_regs_set_instruction_pointer
	ftrace_regs_set_instruction_pointer(fregs, ip);
#else
	ftrace_instruction_pointer_set(fregs, ip);
#endif
}

/* What an ftrace_ops needs to be allowed to change the ip. */
#ifdef CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS
#define MMFREE_FTRACE_OPS_IPMODIFY	FTRACE_OPS_FL_IPMODIFY
#else
#define MMFREE_FTRACE_OPS_IPMODIFY	(FTRACE_OPS_FL_IPMODIFY | \
					 FTRACE_OPS_FL_SAVE_REGS)
#endif

/*
 * The array free_pages_and_swap_cache() takes: struct page * on 6.1,
 * struct encoded_page * on 6.12, where an entry flagged
 * ENCODED_PAGE_BIT_NR_PAGES_NEXT is followed by one holding a page count.
 * mmfree copies entries as opaque words and never splits such a pair.
 */
#ifdef ENCODED_PAGE_BIT_NR_PAGES_NEXT
/* struct mmu_gather_batch's array of entries, and the function it goes to. */
#define MMFREE_GATHERED_FIELD	"encoded_pages"
#define MMFREE_GATHERED_TYPE	"struct encoded_page *[0]"
#define MMFREE_PROTO_FREE_PAGES	"void (struct encoded_page **, int)"

/* Entries the gathered page at @e takes: 1, or 2 with a count after it. */
static inline unsigned int mmfree_gathered_span(void *const *e)
{
	return encoded_page_flags((struct encoded_page *)e[0]) &
	       ENCODED_PAGE_BIT_NR_PAGES_NEXT ?
	       2 : 1;
}

static inline unsigned long mmfree_gathered_pages(void *const *e)
{
	return mmfree_gathered_span(e) == 2 ?
	       encoded_nr_pages((struct encoded_page *)e[1]) : 1;
}

static inline struct page *mmfree_gathered_page(void *const *e)
{
	return encoded_page_ptr((struct encoded_page *)e[0]);
}
#else
#define MMFREE_GATHERED_FIELD	"pages"
#define MMFREE_GATHERED_TYPE	"struct page *[0]"
#define MMFREE_PROTO_FREE_PAGES	"void (struct page **, int)"

static inline unsigned int mmfree_gathered_span(void *const *e)
{
	return 1;
}

static inline unsigned long mmfree_gathered_pages(void *const *e)
{
	return 1;
}

static inline struct page *mmfree_gathered_page(void *const *e)
{
	return e[0];
}
#endif

/*
 * Since 6.5 an unbound worker is started in its pod but, unless the
 * workqueue's affinity is strict, may run on any CPU of the workqueue's
 * cpumask.  Before, the NUMA pools' workers stayed on their node.
 */
#if KERNEL_VERSION(6, 5, 0) <= LINUX_VERSION_CODE
#define MMFREE_WQ_AFFN_SCOPES	1
static inline void mmfree_wq_attrs_node_strict(struct workqueue_attrs *a)
{
	a->affn_scope = WQ_AFFN_NUMA;
	a->affn_strict = true;
}

static inline cpumask_var_t *mmfree_wq_attrs_pod_mask(struct workqueue_attrs *a)
{
	return &a->__pod_cpumask;
}
#else
#define MMFREE_WQ_AFFN_SCOPES	0
static inline void mmfree_wq_attrs_node_strict(struct workqueue_attrs *a)
{
}

static inline cpumask_var_t *mmfree_wq_attrs_pod_mask(struct workqueue_attrs *a)
{
	return NULL;
}
#endif

/*
 * Since 6.9 each node of an unbound workqueue may run at least
 * min(max_active, WQ_DFL_MIN_ACTIVE) items whatever max_active's share
 * of the node is; workqueue_set_min_active() lowers that floor.
 */
#if KERNEL_VERSION(6, 9, 0) <= LINUX_VERSION_CODE
#define MMFREE_WQ_MIN_ACTIVE	1
#else
#define MMFREE_WQ_MIN_ACTIVE	0
#endif

/* The scheduler's task group of @t (NULL without group scheduling). */
static inline void *mmfree_task_group(struct task_struct *t)
{
#ifdef CONFIG_CGROUP_SCHED
	return READ_ONCE(t->sched_task_group);
#else
	return NULL;
#endif
}

/*
 * @t's cgroup on the default hierarchy, with a reference that
 * mmfree_cgroup_put() drops (NULL without cgroups).  RCU keeps the
 * cgroup's memory, not its count: once @t is moved out, its old css_set
 * drops the cgroup at once and an rmdir can release it, so the
 * reference is a tryget, retried on the cgroup @t is in by then, as
 * task_get_css() does.
 */
static inline struct cgroup *mmfree_task_cgroup_get(struct task_struct *t)
{
#ifdef CONFIG_CGROUPS
	struct cgroup *cgrp;

	rcu_read_lock();
	for (;;) {
		cgrp = task_dfl_cgroup(t);
		if (likely(cgroup_tryget(cgrp)))
			break;
		cpu_relax();
	}
	rcu_read_unlock();
	return cgrp;
#else
	return NULL;
#endif
}

static inline void mmfree_cgroup_put(struct cgroup *cgrp)
{
#ifdef CONFIG_CGROUPS
	if (cgrp)
		cgroup_put(cgrp);
#endif
}

/* @cgrp's id, for trace events (0 without cgroups). */
static inline u64 mmfree_cgroup_id(struct cgroup *cgrp)
{
#ifdef CONFIG_CGROUPS
	return cgrp ? cgroup_id(cgrp) : 0;
#else
	return 0;
#endif
}

/*
 * Whether time charged to @cgrp shows anywhere: the root's cpu.stat is
 * the whole system's, which a worker's time is part of already.
 */
static inline bool mmfree_cgroup_chargeable(struct cgroup *cgrp)
{
#ifdef CONFIG_CGROUPS
	return cgrp && cgroup_parent(cgrp);
#else
	return false;
#endif
}

/*
 * How long @t has waited runnable for a CPU, in ns.  The scheduler adds
 * each wait when the task gets the CPU back (sched_info_arrive(), 6.1 to
 * 7.2), so a running task's own value is up to date.  0 without
 * CONFIG_SCHED_INFO, where waits cannot be told from running.
 */
static inline u64 mmfree_task_run_delay(struct task_struct *t)
{
#ifdef CONFIG_SCHED_INFO
	return READ_ONCE(t->sched_info.run_delay);
#else
	return 0;
#endif
}

/*
 * Whether the OOM reaper or process_mrelease() reaps @mm: it sets
 * MMF_UNSTABLE before it unmaps anything.  6.18 made mm->flags a bitmap
 * with accessors.
 */
static inline bool mmfree_mm_reaped(const struct mm_struct *mm)
{
#if KERNEL_VERSION(6, 18, 0) <= LINUX_VERSION_CODE
	return mm_flags_test(MMF_UNSTABLE, mm);
#else
	return test_bit(MMF_UNSTABLE, &mm->flags);
#endif
}

/* cfs_bandwidth.quota without a limit (kernel/sched/sched.h). */
#define MMFREE_RUNTIME_INF	((u64)~0ULL)

/*
 * Fill a trace event's string field: since 6.10 __string() names the
 * source and __assign_str() takes the field alone.
 */
#if KERNEL_VERSION(6, 10, 0) <= LINUX_VERSION_CODE
#define mmfree_assign_str(dst, src)	do { (void)(src); __assign_str(dst); } while (0)
#else
#define mmfree_assign_str(dst, src)	__assign_str(dst, src)
#endif

/*
 * The allocator's flag that lets an allocation take free CMA pages
 * (ALLOC_CMA, mm/internal.h: 0x80 from 6.1 to 7.2).  Without it,
 * zone_watermark_ok() subtracts them, as it does for unmovable
 * allocations.
 */
#define MMFREE_ALLOC_CMA	0x80

/* The largest array the kernel passes: 512 entries and a count (6.12). */
#define MMFREE_GATHERED_MAX	513

#endif /* _MMFREE_COMPAT_H */
