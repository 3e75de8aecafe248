// SPDX-License-Identifier: GPL-2.0
/*
 * Page-free policy: which gathered pages go to the pool, and who waits.
 *
 * An mmu_gather (munmap, exit, MADV_DONTNEED, a reaper) collects the pages
 * it unmapped; after the TLB flush, tlb_flush_mmu() hands them, up to 512
 * at a time, to free_pages_and_swap_cache(): mid-zap when the gather is
 * full, and from tlb_finish_mmu() at the end.  mmfree redirects, as
 * livepatch does:
 *
 *   tlb_flush_mmu, tlb_finish_mmu  a gather holding min_pages or more opens
 *				    a context (struct mmfree_gather) that
 *				    records its mmu_gather and whether it
 *				    may be left in flight (async); a task
 *				    has one context at a time, and only its
 *				    own gather's flushes feed it
 *   free_pages_and_swap_cache	    during such a flush, drain this CPU's
 *				    LRU batches (the kernel's own call with
 *				    no pages), copy the array into work
 *				    items and queue them; the copy is taken
 *				    after the TLB flush, like the kernel's
 *   tlb_finish_mmu		    after the kernel's final flush of the
 *				    context's own gather, sync: help with
 *				    the queued items, wait for the rest;
 *				    async: just close
 *   out_of_memory		    with pages in flight, drain the pool
 *				    first; report progress only if that
 *				    left the allocation's zones above their
 *				    watermarks, else let the kernel kill
 *
 * The pages are freed by the kernel's own free_pages_and_swap_cache(),
 * called through a gate, with the gather's own references.  Whenever the
 * pool should not take a batch (see mmfree_offload_allowed()), the
 * wrapper frees it inline, at once, exactly as the kernel would.
 *
 * Memory a caller expects back when the call returns never stays in
 * flight: hugetlb pages are freed inline (the hugetlb pool and its
 * reservations never reach the OOM killer), and a gather of another
 * task's memory (process_mrelease(), a third party's last mmput()) is
 * sync whatever the mode.
 *
 * The busy-system objection to parallel freeing: with idle_only, pages
 * are offloaded only while a CPU the task may run on is idle (or already
 * runs a worker), so workers use idle time and never take a busy CPU from
 * running work; a task whose CPU time is limited (cpu.max in its cgroup)
 * or that runs real-time frees inline, so the pool never does work
 * outside a limit or at a lower priority than the waiter.  Zone lock
 * contention: items go to workers on their pages' node, and at most
 * "workers" items free at once.
 *
 * Sizes are base pages: a gathered huge page counts its folio's pages.
 *
 * Tasks inside wrappers are counted; disabling detaches the hooks, waits
 * out RCU-tasks (a task redirected but not yet counted), then the count,
 * then drains the pool and closes the gates.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/btf.h>
#include <linux/delay.h>
#include <linux/gfp.h>
#include <linux/hashtable.h>
#include <linux/hugetlb.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/nodemask.h>
#include <linux/oom.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/rcupdate_wait.h>
#include <linux/sched.h>
#include <linux/sched/prio.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/utsname.h>
#include <linux/vmstat.h>

#include "compat.h"
#include "mmfree.h"

/* Idle CPUs looked at per decision, so huge machines pay a bounded cost. */
#define MMFREE_IDLE_SCAN_MAX	64

enum {
	SYM_FREE_PAGES, SYM_TLB_FLUSH, SYM_TLB_FINISH, SYM_OOM, SYM_IDLE_CPU,
	SYM_START_BTF, SYM_STOP_BTF, NR_SYMS
};

static struct mmfree_ksym mmfree_pagefree_syms[NR_SYMS] = {
	[SYM_FREE_PAGES] = { .name = "free_pages_and_swap_cache" },
	[SYM_TLB_FLUSH] = { .name = "tlb_flush_mmu" },
	[SYM_TLB_FINISH] = { .name = "tlb_finish_mmu" },
	[SYM_OOM] = { .name = "out_of_memory" },
	[SYM_IDLE_CPU] = { .name = "idle_cpu" },
	[SYM_START_BTF] = { .name = "__start_BTF" },
	[SYM_STOP_BTF] = { .name = "__stop_BTF" },
};

/* One gather that qualified for the pool, and its task. */
struct mmfree_gather {
	struct hlist_node node;
	struct task_struct *task;
	struct mmu_gather *tlb;		/* the gather this context belongs to */
	bool async;			/* its pages may stay in flight */
	int flushing;			/* in our wrappers' call to flush tlb */
	struct mmfree_waiter waiter;
	struct rcu_head rcu;
};

static DEFINE_HASHTABLE(mmfree_gathers, 8);
static DEFINE_SPINLOCK(mmfree_gathers_lock);	/* writers of the table */
static atomic_t mmfree_nr_gathers = ATOMIC_INIT(0);

static bool mmfree_pagefree_available;
static bool mmfree_pagefree_active;	/* hooks attached and enabled */
static DEFINE_MUTEX(mmfree_pagefree_lock);	/* serialises on/off */
static DEFINE_PER_CPU(long, mmfree_inside);	/* tasks in wrappers */

struct mmfree_pagefree_stats {
	unsigned long v[MMFREE_NR_STATS];
};

static DEFINE_PER_CPU(struct mmfree_pagefree_stats, mmfree_pagefree_stats);

void mmfree_stat_add(enum mmfree_stat_id id, unsigned long n)
{
	this_cpu_add(mmfree_pagefree_stats.v[id], n);
}

/* Gates: the kernel functions mmfree calls. */
static __mmfree_gate void mmfree_call_free_pages(void **entries, int nr)
{
	mmfree_gate_missed("free_pages_and_swap_cache");
}

static __mmfree_gate void mmfree_call_tlb_flush(struct mmu_gather *tlb)
{
	mmfree_gate_missed("tlb_flush_mmu");
}

static __mmfree_gate void mmfree_call_tlb_finish(struct mmu_gather *tlb)
{
	mmfree_gate_missed("tlb_finish_mmu");
}

static __mmfree_gate bool mmfree_call_oom(struct oom_control *oc)
{
	mmfree_gate_missed("out_of_memory");
	return false;
}

static __mmfree_gate int mmfree_call_idle_cpu(int cpu)
{
	mmfree_gate_missed("idle_cpu");
	return 0;
}

/* The pool's settings that only unexported functions change (at load). */
static __mmfree_gate int
mmfree_call_apply_wq_attrs(struct workqueue_struct *wq,
			   const struct workqueue_attrs *attrs)
{
	mmfree_gate_missed("apply_workqueue_attrs");
	return -EOPNOTSUPP;
}

static __mmfree_gate void
mmfree_call_wq_set_min_active(struct workqueue_struct *wq, int min_active)
{
	mmfree_gate_missed("workqueue_set_min_active");
}

#define MMFREE_GATE_TO(sym, gate) \
	[sym] = { .hook = { .name = #gate, .addr = (unsigned long)gate } }

/* Indexed like the symbols they lead to; open only while attached. */
static struct mmfree_gate mmfree_gates[] = {
	MMFREE_GATE_TO(SYM_FREE_PAGES, mmfree_call_free_pages),
	MMFREE_GATE_TO(SYM_TLB_FLUSH, mmfree_call_tlb_flush),
	MMFREE_GATE_TO(SYM_TLB_FINISH, mmfree_call_tlb_finish),
	MMFREE_GATE_TO(SYM_OOM, mmfree_call_oom),
	MMFREE_GATE_TO(SYM_IDLE_CPU, mmfree_call_idle_cpu),
};

/* Free @nr gathered entries the kernel's way, on this CPU. */
void mmfree_free_gathered(void **entries, unsigned int nr)
{
	mmfree_call_free_pages(entries, nr);
}

static void mmfree_enter(void)
{
	this_cpu_inc(mmfree_inside);
}

static void mmfree_leave(void)
{
	this_cpu_dec(mmfree_inside);
}

/* Tasks between mmfree_enter() and mmfree_leave(), on any CPU. */
static long mmfree_inside_count(void)
{
	long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(mmfree_inside, cpu);
	return sum;
}

/*
 * Layouts from BTF: struct mmu_gather's header is not for modules
 * (asm/tlb.h needs the unexported flush_tlb_mm_range()), and the
 * scheduler's task_group is private to kernel/sched.
 */
static struct {
	int tlb_mm;		/* mmu_gather.mm */
	int tlb_local;		/* mmu_gather.local: the first batch */
	int batch_next;		/* mmu_gather_batch.next */
	int batch_nr;		/* mmu_gather_batch.nr */
	int batch_entries;	/* mmu_gather_batch's array of entries */
	int tg_parent;		/* task_group.parent */
	int tg_quota;		/* task_group.cfs_bandwidth.quota */
} mmfree_layout;

#define MMFREE_FIELD(base, off, type) \
	(*(type *)((char *)(base) + mmfree_layout.off))

static struct mm_struct *mmfree_tlb_mm(struct mmu_gather *tlb)
{
	return MMFREE_FIELD(tlb, tlb_mm, struct mm_struct *);
}

/* Base pages one gathered entry holds: a huge page counts them all. */
static unsigned long mmfree_entry_pages(void *const *e)
{
	if (mmfree_gathered_span(e) == 2)
		return mmfree_gathered_pages(e);
	return compound_nr(mmfree_gathered_page(e));
}

/* Entries to skip from @e to the next one. */
static unsigned int mmfree_entry_span(void *const *e)
{
	return mmfree_gathered_span(e);
}

static unsigned long mmfree_entries_pages(void *const *entries,
					  unsigned int nr)
{
	unsigned long pages = 0;
	unsigned int i;

	for (i = 0; i < nr; i += mmfree_entry_span(entries + i))
		pages += mmfree_entry_pages(entries + i);
	return pages;
}

/*
 * Base pages waiting to be freed in the gather, what a flush would free,
 * counted up to @limit at most (the caller compares with min_pages).
 */
static unsigned long mmfree_tlb_pending(struct mmu_gather *tlb,
					unsigned long limit)
{
	void *batch = (char *)tlb + mmfree_layout.tlb_local;
	unsigned long pages = 0;

	for (; batch && pages < limit;
	     batch = MMFREE_FIELD(batch, batch_next, void *)) {
		void **entries = (void **)((char *)batch +
					   mmfree_layout.batch_entries);
		unsigned int nr = MMFREE_FIELD(batch, batch_nr, unsigned int);
		unsigned int i;

		for (i = 0; i < nr && pages < limit;
		     i += mmfree_entry_span(entries + i))
			pages += mmfree_entry_pages(entries + i);
	}
	return pages;
}

/*
 * The current task's context, or NULL.  Only its task closes it, or the
 * disable path once no task is inside a wrapper: the task may keep using
 * it after the RCU read section.
 */
static struct mmfree_gather *mmfree_gather_current(void)
{
	struct mmfree_gather *g, *found = NULL;

	if (!atomic_read(&mmfree_nr_gathers))
		return NULL;
	rcu_read_lock();
	hash_for_each_possible_rcu(mmfree_gathers, g, node,
				   (unsigned long)current)
		if (g->task == current) {
			found = g;
			break;
		}
	rcu_read_unlock();
	return found;
}

/*
 * Whether @tlb unmaps the current task's own memory: munmap and madvise
 * run on current->mm, an exiting task's exit_mmap() after exit_mm() set
 * current->mm to NULL, with the mm still its active_mm.  Anything else
 * (process_mrelease(), the OOM reaper, a last mmput() by a /proc reader)
 * reaps for somebody who expects the memory back when it returns.
 */
static bool mmfree_tlb_own(struct mmu_gather *tlb)
{
	struct mm_struct *mm = mmfree_tlb_mm(tlb);

	if (current->flags & PF_KTHREAD)
		return false;
	return current->mm ? mm == current->mm : mm == current->active_mm;
}

static struct mmfree_gather *mmfree_gather_open(struct mmu_gather *tlb)
{
	struct mmfree_gather *g;

	g = kmalloc(sizeof(*g), GFP_NOWAIT | __GFP_NOWARN | __GFP_NOMEMALLOC);
	if (!g)
		return NULL;
	g->task = current;
	g->tlb = tlb;
	g->async = mmfree_knob(MMFREE_KNOB_PAGEFREE_MODE) ==
		   MMFREE_PAGEFREE_ASYNC && mmfree_tlb_own(tlb);
	g->flushing = 0;
	mmfree_waiter_init(&g->waiter);
	spin_lock(&mmfree_gathers_lock);
	hash_add_rcu(mmfree_gathers, &g->node, (unsigned long)g->task);
	atomic_inc(&mmfree_nr_gathers);
	spin_unlock(&mmfree_gathers_lock);
	return g;
}

/* Help with and wait for the gather's items, then forget it. */
static void mmfree_gather_close(struct mmfree_gather *g)
{
	u64 start = ktime_get_ns();
	unsigned long helped;

	helped = mmfree_waiter_finish(&g->waiter);
	mmfree_stat_add(MMFREE_STAT_PAGEFREE_HELPED_PAGES, helped);
	mmfree_stat_add(MMFREE_STAT_PAGEFREE_WAIT_NS, ktime_get_ns() - start);

	spin_lock(&mmfree_gathers_lock);
	hash_del_rcu(&g->node);
	atomic_dec(&mmfree_nr_gathers);
	spin_unlock(&mmfree_gathers_lock);
	kfree_rcu(g, rcu);
}

/*
 * Open a context for @tlb if it holds min_pages or more.  Only where the
 * kernel itself may sleep: the matching tlb_finish_mmu() waits for the
 * context's items, and a gather finished under a spinlock (the hugetlb
 * PMD unshare in try_to_unmap_one()) must never open one.
 */
static struct mmfree_gather *mmfree_gather_try_open(struct mmu_gather *tlb)
{
	unsigned long min = mmfree_knob(MMFREE_KNOB_PAGEFREE_MIN_PAGES);
	struct mmfree_gather *g;
	unsigned long pending;

	if (!READ_ONCE(mmfree_pagefree_active) || !preemptible())
		return NULL;
	pending = mmfree_tlb_pending(tlb, min);
	if (pending < min) {
		mmfree_stat_add(MMFREE_STAT_PAGEFREE_INLINE_SMALL_PAGES,
				pending);
		return NULL;
	}
	g = mmfree_gather_open(tlb);
	if (!g)
		mmfree_stat_add(MMFREE_STAT_PAGEFREE_INLINE_NOMEM_PAGES,
				mmfree_tlb_pending(tlb, ULONG_MAX));
	return g;
}

/* Free memory of node @nid below its zones' high watermarks: kswapd's. */
static bool mmfree_node_pressure(int nid)
{
	pg_data_t *pgdat = NODE_DATA(nid);
	unsigned long free = 0, high = 0;
	int z;

	for (z = 0; z < MAX_NR_ZONES; z++) {
		struct zone *zone = &pgdat->node_zones[z];

		if (!managed_zone(zone))
			continue;
		free += zone_page_state(zone, NR_FREE_PAGES);
		high += high_wmark_pages(zone);
	}
	return free < high;
}

/*
 * Whether the current task's CPU time is limited: a CPU bandwidth limit
 * (cpu.max) on its cgroup or an ancestor, or a real-time (or deadline)
 * priority.  Workers are root-cgroup, SCHED_NORMAL kworkers: freeing for
 * such a task would run outside its limit, or make it wait at a lower
 * priority than its own.
 */
static bool mmfree_cpu_limited(void)
{
	void *tg;
	bool limited = false;

	if (current->prio < MAX_RT_PRIO)
		return true;
	if (!mmfree_layout.tg_quota)
		return false;
	/* Task groups are freed after an RCU grace period. */
	rcu_read_lock();
	for (tg = mmfree_task_group(current); tg && !limited;
	     tg = MMFREE_FIELD(tg, tg_parent, void *))
		limited = MMFREE_FIELD(tg, tg_quota, u64) != MMFREE_RUNTIME_INF;
	rcu_read_unlock();
	return limited;
}

/*
 * Whether the pool may have CPU time: a CPU the task may run on, other
 * than this one, is idle, or the pool is at work already (it started on
 * an idle CPU; a CPU about to run a woken worker does not look idle).
 */
static bool mmfree_idle_cpu_available(void)
{
	int cpu, self = raw_smp_processor_id(), seen = 0;

	if (mmfree_pool_working())
		return true;
	for_each_cpu_and(cpu, current->cpus_ptr, cpu_online_mask) {
		if (cpu == self)
			continue;
		if (mmfree_call_idle_cpu(cpu))
			return true;
		if (++seen == MMFREE_IDLE_SCAN_MAX)
			break;
	}
	return false;
}

/*
 * Whether the pool may take @pages pages of @g's gather now; if not, @why
 * is the statistic that counts them as freed inline.
 */
static bool mmfree_offload_allowed(const struct mmfree_gather *g,
				   unsigned long pages,
				   enum mmfree_stat_id *why)
{
	*why = MMFREE_STAT_PAGEFREE_INLINE_DISABLED_PAGES;
	if (!READ_ONCE(mmfree_pagefree_active))
		return false;
	/* Memory must come back before these contexts go on. */
	*why = MMFREE_STAT_PAGEFREE_INLINE_OOM_PAGES;
	if (tsk_is_oom_victim(current) || (current->flags & PF_MEMALLOC) ||
	    (current->flags & PF_KTHREAD))
		return false;
	*why = MMFREE_STAT_PAGEFREE_INLINE_LIMITED_PAGES;
	if (mmfree_cpu_limited())
		return false;
	/*
	 * No other bound on a sync task's queue: freeing mid-zap while a
	 * worker frees too delays the zap and makes both free more slowly
	 * (same zones, same LRU lists).  The task helps once its zap is done.
	 */
	*why = MMFREE_STAT_PAGEFREE_INLINE_BUSY_PAGES;
	if (mmfree_pool_inflight_pages() + pages >
	    mmfree_knob(MMFREE_KNOB_PAGEFREE_MAX_INFLIGHT_PAGES))
		return false;
	if (mmfree_knob(MMFREE_KNOB_PAGEFREE_IDLE_ONLY) &&
	    !mmfree_idle_cpu_available())
		return false;
	return true;
}

static void mmfree_free_inline(void **entries, unsigned int nr,
			       enum mmfree_stat_id why)
{
	if (nr)
		mmfree_stat_add(why, mmfree_entries_pages(entries, nr));
	mmfree_call_free_pages(entries, nr);
}

/*
 * Where the run of entries from @entries ends: at most batch_pages base
 * pages (one entry at least) of one node, never splitting an entry from
 * its count, hugetlb and other pages apart.
 */
static unsigned int mmfree_run_end(void **entries, unsigned int nr,
				   unsigned long *pages)
{
	unsigned int batch = mmfree_knob(MMFREE_KNOB_PAGEFREE_BATCH_PAGES);
	struct page *first = mmfree_gathered_page(entries);
	bool huge = PageHuge(first);
	int nid = page_to_nid(first);
	unsigned int i;

	*pages = 0;
	for (i = 0; i < nr && *pages < batch;
	     i += mmfree_entry_span(entries + i)) {
		struct page *page = mmfree_gathered_page(entries + i);

		if (page_to_nid(page) != nid || PageHuge(page) != huge)
			break;
		*pages += mmfree_entry_pages(entries + i);
	}
	return i;
}

/*
 * Queue @entries as items, each of one node; what cannot be queued is
 * freed inline here, each run with the statistic that says why.
 */
static void mmfree_offload(struct mmfree_gather *g, void **entries,
			   unsigned int nr)
{
	unsigned int start = 0;

	while (start < nr) {
		void **run = entries + start;
		struct page *page = mmfree_gathered_page(run);
		struct mmfree_item *item;
		unsigned long pages;
		unsigned int end;

		end = mmfree_run_end(run, nr - start, &pages);
		/* The hugetlb pool recovers only when its pages are freed. */
		if (PageHuge(page)) {
			mmfree_free_inline(run, end,
					   MMFREE_STAT_PAGEFREE_INLINE_HUGETLB_PAGES);
		} else if (mmfree_node_pressure(page_to_nid(page))) {
			mmfree_free_inline(run, end,
					   MMFREE_STAT_PAGEFREE_INLINE_PRESSURE_PAGES);
		} else {
			item = mmfree_item_alloc();
			if (!item) {
				mmfree_free_inline(run, nr - start,
						   MMFREE_STAT_PAGEFREE_INLINE_NOMEM_PAGES);
				return;
			}
			mmfree_item_put_entries(item, run, end, pages);
			mmfree_item_queue(item, g->async ? NULL : &g->waiter,
					  page_to_nid(page));
		}
		start += end;
	}
}

/* Redirected here: free_pages_and_swap_cache(), while a context's gather flushes. */
static void mmfree_free_pages_and_swap_cache(void **entries, int nr)
{
	struct mmfree_gather *g;
	enum mmfree_stat_id why = MMFREE_STAT_PAGEFREE_INLINE_DISABLED_PAGES;

	mmfree_enter();
	g = mmfree_gather_current();
	if (g && g->flushing && nr > 0 &&
	    mmfree_offload_allowed(g, mmfree_entries_pages(entries, nr), &why)) {
		/* The kernel drains the zapping CPU's LRU batches first. */
		mmfree_call_free_pages(entries, 0);
		mmfree_offload(g, entries, nr);
	} else {
		mmfree_free_inline(entries, nr, why);
	}
	mmfree_leave();
}

/* Redirected here: a flush of a context's gather, or of one to open. */
static void mmfree_tlb_flush_mmu(struct mmu_gather *tlb)
{
	struct mmfree_gather *g;

	mmfree_enter();
	g = mmfree_gather_current() ?: mmfree_gather_try_open(tlb);
	if (g && g->tlb != tlb)
		g = NULL;
	if (g)
		g->flushing++;
	mmfree_call_tlb_flush(tlb);
	if (g)
		g->flushing--;
	mmfree_leave();
}

/* Redirected here: every gather's end while pagefree is on. */
static void mmfree_tlb_finish_mmu(struct mmu_gather *tlb)
{
	struct mmfree_gather *g;

	mmfree_enter();
	g = mmfree_gather_current() ?: mmfree_gather_try_open(tlb);
	/* Another gather of this task (nested): not this context's end. */
	if (g && g->tlb != tlb)
		g = NULL;
	if (g)
		g->flushing++;
	mmfree_call_tlb_finish(tlb);
	if (g) {
		g->flushing--;
		mmfree_gather_close(g);
	}
	mmfree_leave();
}

/*
 * The nodes @oc's allocation may take pages from: its nodemask (a
 * mempolicy), else the task's cpuset.  The OOM killer runs in the
 * allocating task.
 */
static const nodemask_t *mmfree_oom_nodes(struct oom_control *oc)
{
	return oc->nodemask ?: &current->mems_allowed;
}

/*
 * Pages in flight that could make room for @oc: for a memcg OOM all (they
 * may be the memcg's), else those on nodes the allocation may use.
 */
static long mmfree_oom_inflight(struct oom_control *oc)
{
	if (oc->memcg)
		return mmfree_pool_inflight_pages();
	return mmfree_pool_inflight_pages_on(mmfree_oom_nodes(oc));
}

/*
 * Whether an allocation like @oc's could now be served: a zone it may use
 * (zones up to its gfp zone, on its nodes) is above its min watermark,
 * with the lowmem reserve, for @oc's order.
 */
static bool mmfree_oom_zones_ok(struct oom_control *oc)
{
	const nodemask_t *nodes = mmfree_oom_nodes(oc);
	enum zone_type highest = gfp_zone(oc->gfp_mask);
	unsigned long need = (1UL << oc->order) - 1;
	int nid, z;

	for_each_node_mask(nid, *nodes) {
		if (!node_online(nid))
			continue;
		for (z = 0; z <= highest; z++) {
			struct zone *zone = &NODE_DATA(nid)->node_zones[z];
			unsigned long free;

			if (!managed_zone(zone))
				continue;
			free = zone_page_state(zone, NR_FREE_PAGES);
			if (free > need + min_wmark_pages(zone) +
				   zone->lowmem_reserve[highest])
				return true;
		}
	}
	return false;
}

/*
 * Pages in flight are memory on its way back: before the OOM killer
 * picks a victim, wait for them if they are where the allocation may
 * take pages, and report progress (the allocation is retried) only if
 * that made room there, as an OOM notifier that freed pages does.  A
 * constrained allocation gets its OOM kill as on a stock kernel: another
 * task's async frees on other nodes must not keep it retrying.
 */
static bool mmfree_oom_drained(struct oom_control *oc)
{
	struct mem_cgroup *memcg = oc->memcg;

	/* order -1: sysrq asked for a kill, not for memory. */
	if (oc->order < 0 || !mmfree_oom_inflight(oc))
		return false;
	mmfree_pool_drain();
	if (!memcg)
		return mmfree_oom_zones_ok(oc);
	return page_counter_read(&memcg->memory) + (1UL << oc->order) <=
	       READ_ONCE(memcg->memory.max);
}

/* Redirected here: out_of_memory(), with pages in flight that may help. */
static bool mmfree_out_of_memory(struct oom_control *oc)
{
	bool ret;

	mmfree_enter();
	ret = mmfree_oom_drained(oc) || mmfree_call_oom(oc);
	mmfree_leave();
	return ret;
}

/*
 * The callbacks: cheap tests in atomic context, then a redirect to the
 * wrapper.  Calls from mmfree itself (gates, workers) run the kernel's
 * function untouched.
 */
static void notrace mmfree_free_pages_hook(unsigned long ip,
					   unsigned long parent_ip,
					   struct ftrace_ops *ops,
					   struct ftrace_regs *fregs)
{
	struct mmfree_gather *g;

	if (mmfree_hook_from_us(parent_ip))
		return;
	g = mmfree_gather_current();
	if (!g || !g->flushing)
		return;
	mmfree_hook_redirect(fregs, mmfree_free_pages_and_swap_cache);
}

static void notrace mmfree_tlb_flush_hook(unsigned long ip,
					  unsigned long parent_ip,
					  struct ftrace_ops *ops,
					  struct ftrace_regs *fregs)
{
	struct mmu_gather *tlb = (void *)mmfree_ftrace_arg(fregs, 0);
	unsigned long min = mmfree_knob(MMFREE_KNOB_PAGEFREE_MIN_PAGES);
	struct mmfree_gather *g;

	if (mmfree_hook_from_us(parent_ip))
		return;
	g = mmfree_gather_current();
	if (g ? g->tlb != tlb :
		!READ_ONCE(mmfree_pagefree_active) ||
		mmfree_tlb_pending(tlb, min) < min)
		return;
	mmfree_hook_redirect(fregs, mmfree_tlb_flush_mmu);
}

static void notrace mmfree_tlb_finish_hook(unsigned long ip,
					   unsigned long parent_ip,
					   struct ftrace_ops *ops,
					   struct ftrace_regs *fregs)
{
	if (mmfree_hook_from_us(parent_ip))
		return;
	/* Always, so that any gather opened on the way gets closed. */
	mmfree_hook_redirect(fregs, mmfree_tlb_finish_mmu);
}

static void notrace mmfree_oom_hook(unsigned long ip, unsigned long parent_ip,
				    struct ftrace_ops *ops,
				    struct ftrace_regs *fregs)
{
	struct oom_control *oc = (void *)mmfree_ftrace_arg(fregs, 0);

	if (mmfree_hook_from_us(parent_ip) || !mmfree_oom_inflight(oc))
		return;
	mmfree_hook_redirect(fregs, mmfree_out_of_memory);
}

#define MMFREE_REDIRECT(fn, cb) \
	{ .name = fn, .func = cb, .redirect = true, .permanent = true }

/* In attach order: a gather is closed before one can be opened. */
static struct mmfree_hook mmfree_pagefree_hooks[] = {
	MMFREE_REDIRECT("out_of_memory", mmfree_oom_hook),
	MMFREE_REDIRECT("tlb_finish_mmu", mmfree_tlb_finish_hook),
	MMFREE_REDIRECT("free_pages_and_swap_cache", mmfree_free_pages_hook),
	MMFREE_REDIRECT("tlb_flush_mmu", mmfree_tlb_flush_hook),
};

static const int mmfree_pagefree_hook_sym[] = {
	SYM_OOM, SYM_TLB_FINISH, SYM_FREE_PAGES, SYM_TLB_FLUSH,
};

static void mmfree_gates_close(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(mmfree_gates); i++)
		mmfree_gate_close(&mmfree_gates[i]);
}

static int mmfree_gates_open(void)
{
	int i, err;

	for (i = 0; i < ARRAY_SIZE(mmfree_gates); i++) {
		err = mmfree_gate_open(&mmfree_gates[i],
				       mmfree_pagefree_syms[i].addr);
		if (err) {
			mmfree_gates_close();
			return err;
		}
	}
	return 0;
}

/*
 * Run @fn with @gate open to kernel function @name, if this kernel has it;
 * the feature works without (one line says what is lost).
 */
static void mmfree_pool_tune(struct mmfree_gate *gate, const char *name,
			     int (*fn)(void), const char *without)
{
	struct mmfree_ksym sym = { .name = name };
	int err;

	err = mmfree_ksyms_resolve_optional(&sym);
	if (!err)
		err = mmfree_gate_open(gate, sym.addr);
	if (!err) {
		err = fn();
		mmfree_gate_close(gate);
	}
	if (err)
		pr_warn("pagefree: %s (%s: %d)\n", without, name, err);
}

static int mmfree_pool_keep_to_nodes_now(void)
{
	return mmfree_pool_keep_to_nodes(mmfree_call_apply_wq_attrs);
}

static int mmfree_pool_min_active_now(void)
{
	mmfree_pool_set_min_active(mmfree_call_wq_set_min_active);
	return 0;
}

static struct mmfree_gate mmfree_apply_wq_attrs_gate = {
	.hook = {
		.name = "mmfree_call_apply_wq_attrs",
		.addr = (unsigned long)mmfree_call_apply_wq_attrs,
	},
};

static struct mmfree_gate mmfree_wq_set_min_active_gate = {
	.hook = {
		.name = "mmfree_call_wq_set_min_active",
		.addr = (unsigned long)mmfree_call_wq_set_min_active,
	},
};

static bool mmfree_pagefree_attached(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(mmfree_pagefree_hooks); i++)
		if (mmfree_pagefree_hooks[i].attached)
			return true;
	return mmfree_gates[0].hook.attached;
}

static void mmfree_pagefree_detach(void)
{
	struct mmfree_gather *g;
	struct hlist_node *tmp;
	int i, bkt;

	WRITE_ONCE(mmfree_pagefree_active, false);
	for (i = ARRAY_SIZE(mmfree_pagefree_hooks) - 1; i >= 0; i--)
		mmfree_hook_detach(&mmfree_pagefree_hooks[i]);
	/* A task redirected but not yet counted has now entered or left. */
	synchronize_rcu_tasks();
	while (mmfree_inside_count())
		usleep_range(1000, 2000);
	mmfree_pool_drain();
	/*
	 * A gather whose task was mid-zap when its tlb_finish_mmu() hook went
	 * away: the pool freed its pages; its task will not look again.
	 */
	hash_for_each_safe(mmfree_gathers, bkt, tmp, g, node)
		mmfree_gather_close(g);
	/* Nothing calls through them any more: workers drained, no task inside. */
	mmfree_gates_close();
}

static int mmfree_pagefree_attach(void)
{
	int i, err;

	err = mmfree_gates_open();
	if (err)
		return err;
	for (i = 0; i < ARRAY_SIZE(mmfree_pagefree_hooks); i++) {
		err = mmfree_hook_attach(&mmfree_pagefree_hooks[i]);
		if (err) {
			mmfree_pagefree_detach();
			return err;
		}
	}
	WRITE_ONCE(mmfree_pagefree_active, true);
	return 0;
}

/**
 * mmfree_pagefree_update - attach or detach to match the knobs
 *
 * Return: 0, or the error that kept the hooks from attaching (then the
 * feature is left off).
 */
int mmfree_pagefree_update(void)
{
	bool want = mmfree_knob(MMFREE_KNOB_ENABLED) &&
		    mmfree_knob(MMFREE_KNOB_PAGEFREE_ENABLED);
	int err = 0;

	if (!mmfree_pagefree_available)
		return 0;
	mutex_lock(&mmfree_pagefree_lock);
	mmfree_pool_set_workers(mmfree_knob(MMFREE_KNOB_PAGEFREE_WORKERS));
	if (!want) {
		if (mmfree_pagefree_attached())
			mmfree_pagefree_detach();
	} else if (!READ_ONCE(mmfree_pagefree_active)) {
		err = mmfree_pagefree_attach();
	}
	mutex_unlock(&mmfree_pagefree_lock);
	return err;
}

long mmfree_pagefree_stat(enum mmfree_stat_id id)
{
	unsigned long sum = 0;
	int cpu;

	if (id == MMFREE_STAT_PAGEFREE_INFLIGHT_PAGES)
		return mmfree_pool_inflight_pages();
	for_each_possible_cpu(cpu)
		sum += per_cpu(mmfree_pagefree_stats.v[id], cpu);
	return sum;
}

/*
 * The scheduler's CPU bandwidth fields, where the kernel has them: without
 * CONFIG_CFS_BANDWIDTH no task's CPU time can be limited by cpu.max.
 */
static int mmfree_pagefree_layout_tg(void)
{
	const struct btf_type *tg, *bw;
	int bw_off, quota;

	if (!IS_ENABLED(CONFIG_CFS_BANDWIDTH))
		return 0;
	tg = mmfree_btf_struct("task_group");
	bw = mmfree_btf_struct("cfs_bandwidth");
	if (!tg || !bw)
		return -ENOENT;
	mmfree_layout.tg_parent = mmfree_btf_member(tg, "parent",
						    sizeof(void *));
	bw_off = mmfree_btf_member(tg, "cfs_bandwidth", bw->size);
	quota = mmfree_btf_member(bw, "quota", sizeof(u64));
	if (mmfree_layout.tg_parent < 0 || bw_off < 0 || quota < 0)
		return -ENOENT;
	mmfree_layout.tg_quota = bw_off + quota;
	return 0;
}

/* Offsets of the fields mmfree reads; any missing one keeps it off. */
static int mmfree_pagefree_layout(void)
{
	const struct btf_type *tlb, *batch;
	int err;

	err = mmfree_btf_init((void *)mmfree_pagefree_syms[SYM_START_BTF].addr,
			      (void *)mmfree_pagefree_syms[SYM_STOP_BTF].addr);
	if (err)
		return err;
	tlb = mmfree_btf_struct("mmu_gather");
	batch = mmfree_btf_struct("mmu_gather_batch");
	err = -ENOENT;
	if (tlb && batch) {
		mmfree_layout.tlb_mm = mmfree_btf_member(tlb, "mm",
							 sizeof(void *));
		mmfree_layout.tlb_local = mmfree_btf_member(tlb, "local",
							    batch->size);
		mmfree_layout.batch_next = mmfree_btf_member(batch, "next",
							     sizeof(void *));
		mmfree_layout.batch_nr = mmfree_btf_member(batch, "nr",
							   sizeof(unsigned int));
		/* A flexible array: size 0. */
		mmfree_layout.batch_entries =
			mmfree_btf_member(batch, MMFREE_GATHERED_FIELD, 0);
		if (mmfree_layout.tlb_mm >= 0 && mmfree_layout.tlb_local >= 0 &&
		    mmfree_layout.batch_next >= 0 &&
		    mmfree_layout.batch_nr >= 0 &&
		    mmfree_layout.batch_entries >= 0)
			err = 0;
	}
	if (err)
		pr_warn("pagefree disabled: BTF does not confirm the layout of struct mmu_gather\n");
	if (!err) {
		err = mmfree_pagefree_layout_tg();
		if (err)
			pr_warn("pagefree disabled: BTF does not confirm the layout of struct task_group\n");
	}
	mmfree_btf_exit();
	return err;
}

static int mmfree_pagefree_resolve(void)
{
	int i, err;

	/* Before any probe is armed on the kernel's symbols. */
	if (!mmfree_kernel_tested()) {
		pr_warn("pagefree disabled: kernel %s is untested\n",
			init_utsname()->release);
		return -EOPNOTSUPP;
	}
	err = mmfree_ksyms_resolve("pagefree", mmfree_pagefree_syms, NR_SYMS);
	if (err)
		return err;
	err = mmfree_pagefree_layout();
	if (err)
		return err;
	for (i = 0; i < ARRAY_SIZE(mmfree_pagefree_hooks); i++)
		mmfree_pagefree_hooks[i].addr =
			mmfree_pagefree_syms[mmfree_pagefree_hook_sym[i]].addr;
	return 0;
}

/* Whether the feature can run on this kernel (decided at load). */
bool mmfree_pagefree_usable(void)
{
	return mmfree_pagefree_available;
}

void mmfree_pagefree_init(void)
{
	int err;

	if (mmfree_pagefree_resolve())
		return;
	err = mmfree_pool_init();
	if (err) {
		pr_warn("pagefree disabled: no worker pool (%d)\n", err);
		return;
	}
	if (MMFREE_WQ_AFFN_SCOPES)
		mmfree_pool_tune(&mmfree_apply_wq_attrs_gate,
				 "apply_workqueue_attrs",
				 mmfree_pool_keep_to_nodes_now,
				 "workers may run off their pages' node");
	if (MMFREE_WQ_MIN_ACTIVE)
		mmfree_pool_tune(&mmfree_wq_set_min_active_gate,
				 "workqueue_set_min_active",
				 mmfree_pool_min_active_now,
				 "up to 8 workers per node may free at once");
	mmfree_pagefree_available = true;
	pr_info("pagefree: %s mode, %u workers, gathers of %u pages or more\n",
		mmfree_knob(MMFREE_KNOB_PAGEFREE_MODE) ? "async" : "sync",
		mmfree_knob(MMFREE_KNOB_PAGEFREE_WORKERS),
		mmfree_knob(MMFREE_KNOB_PAGEFREE_MIN_PAGES));
}

void mmfree_pagefree_exit(void)
{
	if (!mmfree_pagefree_available)
		return;
	mutex_lock(&mmfree_pagefree_lock);
	if (mmfree_pagefree_attached())
		mmfree_pagefree_detach();
	mutex_unlock(&mmfree_pagefree_lock);
	mmfree_pool_exit();
	/* A task may still be on a wrapper's last instructions. */
	synchronize_rcu_tasks();
}
