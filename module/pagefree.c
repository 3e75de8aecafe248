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
 *				    LRU batches (lru_add_drain(), so that
 *				    no batch keeps a gathered folio alive),
 *				    copy the array into work
 *				    items and queue them; the copy is taken
 *				    after the TLB flush, like the kernel's
 *   tlb_finish_mmu		    after the kernel's final flush of the
 *				    context's own gather, sync: help with
 *				    the queued items, wait for the rest;
 *				    async: just close (a killed task's
 *				    gather also frees, after each mid-zap
 *				    flush, what the previous one queued)
 *   out_of_memory		    with pages in flight, drain the pool
 *				    first; report progress only if that
 *				    left the allocation's zones above their
 *				    watermarks, else let the kernel kill
 *
 * The pages are freed by the kernel's own free_pages_and_swap_cache(),
 * called through a gate, with the gather's own references.  Whenever the
 * pool should not take a batch (see mmfree_offload_allowed()) or one of
 * its items (mmfree_offload() and mmfree_offload_room()), the wrapper
 * frees it inline, at once, exactly as the kernel would.
 *
 * Memory a caller expects back when the call returns never stays in
 * flight: hugetlb pages are freed inline (the hugetlb pool and its
 * reservations never reach the OOM killer), and a gather of another
 * task's memory (process_mrelease(), a third party's last mmput()) is
 * sync whatever the mode.  A killed task's gather is sync too, and at
 * every mid-zap flush frees what the previous flush queued, and this
 * flush's pages too unless they are within a 32nd of the task's RSS:
 * exit_mmap() sets MMF_OOM_SKIP, which lets process_mrelease() return,
 * after unmap_vmas() and before tlb_finish_mmu(), and whoever killed the
 * task wants its memory back before it can see the task gone.  An OOM
 * victim frees inline.
 *
 * The busy-system objection to parallel freeing: with idle_only, pages
 * are offloaded only while a CPU the task may run on is idle (or already
 * runs a worker), so workers use idle time and never take a busy CPU from
 * running work; a task whose CPU time is limited (cpu.max in its cgroup),
 * below the workers' (niced, SCHED_IDLE, cpu.idle, a low cpu.weight) or
 * real-time frees inline, so the pool never does work outside a limit,
 * above the task's share or at a lower priority than the waiter.  Zone lock
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
#include <linux/cpumask.h>
#include <linux/debugfs.h>
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
#include <linux/seq_file.h>
#include <linux/sched.h>
#include <linux/sched/prio.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/topology.h>
#include <linux/utsname.h>
#include <linux/vmstat.h>

#include "compat.h"
#include "mmfree.h"
#include "trace.h"

/* Idle CPUs looked at per decision, so huge machines pay a bounded cost. */
#define MMFREE_IDLE_SCAN_MAX	64
/*
 * After a scan found no idle CPU, base pages freed inline per CPU it
 * looked at before the next scan: looking at a remote runqueue costs
 * about what freeing a huge page inline does, and a call may hold ~510.
 */
#define MMFREE_IDLE_SCAN_PAGES	512

/*
 * A failed scan's cost, carried over a call's next items: the nodes whose
 * scan found no idle CPU, and their pages still to go inline before they
 * are scanned again.
 */
struct mmfree_scan_skip {
	nodemask_t nodes;
	unsigned long pages;
};

/* One gather that qualified for the pool, and its task. */
struct mmfree_gather {
	struct hlist_node node;
	struct task_struct *task;
	struct mmu_gather *tlb;		/* the gather this context belongs to */
	bool async;			/* its pages may stay in flight */
	bool killed;			/* its task was killed */
	int flushing;			/* in our wrappers' call to flush tlb */
	nodemask_t nodes;		/* whose items may go: mmfree_cpuset_nodes() */
	unsigned long budget;		/* killed: pages it may leave in flight */
	unsigned long cur_pages;	/* pages queued to waiters[cur] */
	unsigned int cur;		/* the waiter this flush's items go to */
	struct mmfree_waiter waiters[2];
	struct rcu_head rcu;
};

/* mmfree_run_gather()'s room: one call's entries, per CPU. */
struct mmfree_scratch {
	void *entries[MMFREE_GATHERED_MAX];
};

static struct mmfree_scratch __percpu *mmfree_scratch;

static DEFINE_HASHTABLE(mmfree_gathers, 8);
static DEFINE_SPINLOCK(mmfree_gathers_lock);	/* writers of the table */
static atomic_t mmfree_nr_gathers = ATOMIC_INIT(0);

static bool mmfree_pagefree_attached;	/* hooks attached, gathers pooled */
static DEFINE_MUTEX(mmfree_pagefree_lock);	/* serialises attach/detach */
static DEFINE_PER_CPU(long, mmfree_inside);	/* tasks in wrappers */

/*
 * this_cpu_inc() and this_cpu_dec() are no compiler barriers: without
 * one, a store to a context could move past the count's decrement, where
 * a detach that read 0 may already have closed and freed the context.
 */
static void mmfree_enter(void)
{
	this_cpu_inc(mmfree_inside);
	barrier();
}

static void mmfree_leave(void)
{
	barrier();
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
 * Byte offsets of the kernel fields pagefree reads, from BTF: struct
 * mmu_gather's header is not for modules (asm/tlb.h needs the unexported
 * flush_tlb_mm_range()), and the scheduler's task_group is private to
 * kernel/sched.
 */
static struct {
	int tlb_mm;		/* mmu_gather.mm */
	int tlb_local;		/* mmu_gather.local: the first batch */
	int batch_next;		/* mmu_gather_batch.next */
	int batch_nr;		/* mmu_gather_batch.nr */
	int batch_entries;	/* mmu_gather_batch's array of entries */
	int tg_parent;		/* task_group.parent */
	int tg_shares;		/* task_group.shares: cpu.weight, scaled */
	int tg_idle;		/* task_group.idle: cpu.idle */
	int tg_bandwidth;	/* task_group.cfs_bandwidth */
	int bw_quota;		/* cfs_bandwidth.quota */
} mmfree_pagefree_off;

#define MMFREE_FIELD(base, off, type) \
	(*(type *)((char *)(base) + mmfree_pagefree_off.off))

static struct mm_struct *mmfree_tlb_mm(struct mmu_gather *tlb)
{
	return MMFREE_FIELD(tlb, tlb_mm, struct mm_struct *);
}

/*
 * The id an async item keeps of the mm its pages were unmapped from:
 * x86's context id, which no other mm ever gets (not 0, never reused),
 * where the mm's address goes to the next mm once it is freed.  Not every
 * teardown ends in a gather that could tell the items (an exit_mmap() of
 * an mm without VMAs has none).
 */
static u64 mmfree_mm_id(const struct mm_struct *mm)
{
	return mm->context.ctx_id;
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
	void *batch = (char *)tlb + mmfree_pagefree_off.tlb_local;
	unsigned long pages = 0;

	for (; batch && pages < limit;
	     batch = MMFREE_FIELD(batch, batch_next, void *)) {
		void **entries = (void **)((char *)batch +
					   mmfree_pagefree_off.batch_entries);
		unsigned int nr = MMFREE_FIELD(batch, batch_nr, unsigned int);
		unsigned int i;

		for (i = 0; i < nr && pages < limit;
		     i += mmfree_entry_span(entries + i))
			pages += mmfree_entry_pages(entries + i);
	}
	return pages;
}

/*
 * The current task's context, or NULL.  Only its task closes it, or a
 * detach that removed the hooks, once no task is inside a wrapper: the
 * task may keep using it after the RCU read section.
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
 * current->mm to NULL.  Not its active_mm: a task without an mm that is
 * switched out and back in borrows the previous task's (lazy TLB), so
 * an exit preempted on its way would look like another's.  Anything else
 * (process_mrelease(), the OOM reaper, a last mmput() by a /proc reader)
 * reaps for somebody who expects the memory back when it returns.
 */
static bool mmfree_tlb_own(struct mmu_gather *tlb)
{
	struct mm_struct *mm = mmfree_tlb_mm(tlb);

	if (current->flags & PF_KTHREAD)
		return false;
	return current->mm ? mm == current->mm : current->flags & PF_EXITING;
}

/*
 * Whether the current task was killed: a fatal signal is pending, or its
 * thread group exits on a signal.  get_signal() dequeues the SIGKILL
 * before do_exit(), so an exiting task no longer has it pending; its
 * group's exit code then holds the signal in the low 7 bits, where an
 * exit_group() status is shifted up by 8.
 */
static bool mmfree_current_killed(void)
{
	const struct signal_struct *sig = current->signal;

	return fatal_signal_pending(current) ||
	       ((READ_ONCE(sig->flags) & SIGNAL_GROUP_EXIT) &&
		(READ_ONCE(sig->group_exit_code) & 0x7f));
}

/*
 * A killed task's gather leaves in flight, when a mid-zap flush returns,
 * at most this share of the task's resident pages at the kill.
 */
#define MMFREE_KILLED_INFLIGHT_SHARE	32

/*
 * A kill makes the task's gather sync from its next flush on: a kill is
 * made to get memory back, in async mode too.
 */
static void mmfree_gather_check_killed(struct mmfree_gather *g)
{
	if (!g->killed && mmfree_current_killed()) {
		g->killed = true;
		g->async = false;
		g->budget = get_mm_rss(mmfree_tlb_mm(g->tlb)) /
			    MMFREE_KILLED_INFLIGHT_SHARE;
	}
}

/*
 * The memcg @page is charged to, with a reference (NULL if none, or on
 * its way out): an async item's, so that a memcg OOM takes back its own
 * items.  The page's, not the task's: charges stay behind when a task
 * moves to another cgroup, and pages a forked child shares stay its
 * parent's.  RCU keeps the memcg while its reference is taken.
 */
static struct mem_cgroup *mmfree_page_memcg_get(struct page *page)
{
	struct mem_cgroup *memcg;

	rcu_read_lock();
	memcg = folio_memcg(page_folio(page));
	if (memcg && !css_tryget(&memcg->css))
		memcg = NULL;
	rcu_read_unlock();
	return memcg;
}

/*
 * The node whose CPUs free node @nid's pages: its own, and a CPU-less
 * (memory-only) node's this CPU's, where queue_work_node() would run them
 * anyway.  Named, so that the cpuset check, the idle scan and the item's
 * queue agree on it.
 */
static int mmfree_run_node(int nid)
{
	return cpumask_intersects(cpumask_of_node(nid), cpu_online_mask) ?
	       nid : numa_node_id();
}

/*
 * The nodes whose CPUs may free pages for the current task: those whose
 * online CPUs are all in its cpuset.  An item runs only on its node's
 * CPUs (strict node pods, pool.c; mmfree_run_node()).
 * Return: 0, or -ENOMEM.
 */
static int mmfree_cpuset_nodes(nodemask_t *nodes)
{
	cpumask_var_t denied;
	int nid;

	if (!alloc_cpumask_var(&denied, GFP_NOWAIT | __GFP_NOWARN |
			       __GFP_NOMEMALLOC))
		return -ENOMEM;
	mmfree_call_cpuset_cpus(current, denied);
	/* The online CPUs the cpuset does not give. */
	cpumask_andnot(denied, cpu_online_mask, denied);
	nodes_clear(*nodes);
	for_each_node_state(nid, N_CPU)
		if (!cpumask_intersects(cpumask_of_node(nid), denied))
			node_set(nid, *nodes);
	free_cpumask_var(denied);
	return 0;
}

static struct mmfree_gather *mmfree_gather_open(struct mmu_gather *tlb)
{
	struct mmfree_gather *g;

	if (mmfree_pool_fail_alloc())
		return NULL;
	g = kmalloc(sizeof(*g), GFP_NOWAIT | __GFP_NOWARN | __GFP_NOMEMALLOC);
	if (!g)
		return NULL;
	if (mmfree_cpuset_nodes(&g->nodes)) {
		kfree(g);
		return NULL;
	}
	g->task = current;
	g->tlb = tlb;
	g->async = mmfree_knob(MMFREE_KNOB_PAGEFREE_MODE) ==
		   MMFREE_PAGEFREE_MODE_async && mmfree_tlb_own(tlb);
	g->killed = false;
	g->budget = 0;
	mmfree_gather_check_killed(g);
	g->flushing = 0;
	g->cur = 0;
	g->cur_pages = 0;
	mmfree_waiter_init(&g->waiters[0]);
	mmfree_waiter_init(&g->waiters[1]);
	mmfree_pool_gather_begin();
	spin_lock(&mmfree_gathers_lock);
	hash_add_rcu(mmfree_gathers, &g->node, (unsigned long)g->task);
	atomic_inc(&mmfree_nr_gathers);
	spin_unlock(&mmfree_gathers_lock);
	return g;
}

/*
 * Help with and wait for the items of the gather's waiter @i, adding the
 * pages this task freed itself to @helped.  Return: whether it had any.
 */
static bool mmfree_gather_finish(struct mmfree_gather *g, unsigned int i,
				 unsigned long *helped)
{
	if (list_empty(&g->waiters[i].items))
		return false;
	*helped += mmfree_waiter_finish(&g->waiters[i]);
	return true;
}

/* One wait of a gather, from @start (ktime ns), in the stats and the trace. */
static void mmfree_gather_waited(u64 start, unsigned long helped)
{
	start = ktime_get_ns() - start;
	mmfree_stat_add(MMFREE_STAT_PAGEFREE_HELPED_PAGES, helped);
	mmfree_stat_add(MMFREE_STAT_PAGEFREE_WAIT_NS, start);
	trace_mmfree_wait(helped, start);
}

/*
 * A take-back waits this long at most for the items workers have started
 * (a few batches), and only once for an mm: workers that cannot run must
 * not hold up a reaper, which takes back once a VMA.
 */
#define MMFREE_TAKE_BACK_WAIT_MS	1000

/*
 * Whether @tlb's gather must first take back what its mm's earlier async
 * gathers left to the workers: a killed task's own gathers, and another
 * task's gathers of an mm being torn down (mm_users is 0: the last
 * mmput() elsewhere, exec's old mm) or reaped (MMF_UNSTABLE:
 * process_mrelease(), the OOM reaper).  Whoever killed or reaps a task
 * wants all of its memory back, and on stock those pages were free when
 * their munmap() returned.  Not other gathers of a live mm (a truncate
 * zapping others' mappings under the i_mmap lock): they would wait for
 * frees that are none of their business.
 */
static bool mmfree_take_back_due(struct mmu_gather *tlb)
{
	struct mm_struct *mm = mmfree_tlb_mm(tlb);

	if (mmfree_tlb_own(tlb))
		return mmfree_current_killed();
	return !atomic_read(&mm->mm_users) || mmfree_mm_reaped(mm);
}

/*
 * Before each flush of such a gather.  exit_mmap() sets MMF_OOM_SKIP,
 * which lets process_mrelease() return, before its tlb_finish_mmu(): of
 * a killed exit, only a mid-zap flush comes before it.  Never where the
 * kernel may not sleep (see mmfree_gather_try_open()).
 */
static void mmfree_take_back_earlier(struct mmu_gather *tlb)
{
	unsigned long helped;
	u64 start;

	if (!preemptible() || !mmfree_take_back_due(tlb))
		return;
	start = ktime_get_ns();
	if (mmfree_pool_take_back(mmfree_mm_id(mmfree_tlb_mm(tlb)),
				  msecs_to_jiffies(MMFREE_TAKE_BACK_WAIT_MS),
				  &helped))
		mmfree_gather_waited(start, helped);
}

/* Help with and wait for the gather's items queued so far, oldest first. */
static void mmfree_gather_wait(struct mmfree_gather *g)
{
	u64 start = ktime_get_ns();
	unsigned long helped = 0;

	mmfree_gather_finish(g, g->cur ^ 1, &helped);
	mmfree_gather_finish(g, g->cur, &helped);
	mmfree_gather_waited(start, helped);
}

/*
 * After a mid-zap flush of a killed task's gather.  exit_mmap() sets
 * MMF_OOM_SKIP, which lets process_mrelease() return, after unmap_vmas()
 * and before tlb_finish_mmu(): what is in flight then must be little, as
 * on stock, where only the gather's unflushed tail is not yet free.  So
 * the previous flush's items are freed now, and this flush's are left to
 * the workers while the zap goes on, the two overlapping, only if they
 * fit the gather's budget; else they are freed now too.
 */
static void mmfree_gather_killed_flushed(struct mmfree_gather *g)
{
	u64 start = ktime_get_ns();
	unsigned long helped = 0;
	bool waited;

	waited = mmfree_gather_finish(g, g->cur ^ 1, &helped);
	if (g->cur_pages > g->budget)
		waited |= mmfree_gather_finish(g, g->cur, &helped);
	else
		g->cur ^= 1;
	g->cur_pages = 0;
	if (waited)
		mmfree_gather_waited(start, helped);
}

/* Help with and wait for the gather's items, then forget it. */
static void mmfree_gather_close(struct mmfree_gather *g)
{
	mmfree_gather_wait(g);
	spin_lock(&mmfree_gathers_lock);
	hash_del_rcu(&g->node);
	atomic_dec(&mmfree_nr_gathers);
	spin_unlock(&mmfree_gathers_lock);
	mmfree_pool_gather_end();
	kfree_rcu(g, rcu);
}

/*
 * Where gathered pages went, named by the statistic that counts them.  A
 * flush with nothing gathered (most small munmaps flush more than once)
 * decided nothing.
 */
static void mmfree_trace_offload(enum mmfree_stat_id why, unsigned long pages,
				 int nid, bool async)
{
	if (pages)
		trace_mmfree_offload(pages, nid, async,
				     mmfree_stat_descs[why].name);
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

	if (!READ_ONCE(mmfree_pagefree_attached) || !preemptible())
		return NULL;
	pending = mmfree_tlb_pending(tlb, min);
	if (pending < min) {
		mmfree_stat_add(MMFREE_STAT_PAGEFREE_INLINE_SMALL_PAGES,
				pending);
		mmfree_trace_offload(MMFREE_STAT_PAGEFREE_INLINE_SMALL_PAGES,
				     pending, NUMA_NO_NODE, false);
		return NULL;
	}
	g = mmfree_gather_open(tlb);
	if (!g) {
		pending = mmfree_tlb_pending(tlb, ULONG_MAX);
		mmfree_stat_add(MMFREE_STAT_PAGEFREE_INLINE_NOMEM_PAGES,
				pending);
		mmfree_trace_offload(MMFREE_STAT_PAGEFREE_INLINE_NOMEM_PAGES,
				     pending, NUMA_NO_NODE, false);
	}
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
 * Whether the current task's CPU time is limited or below the workers'
 * share: a real-time (or deadline) priority, a nice value above 0 or
 * SCHED_IDLE, or a task group (its cgroup or an ancestor) with a cpu.max
 * limit, cpu.idle set or a cpu.weight below the root's (the default).
 * Workers are root-cgroup, nice-0 kworkers: freeing for such a task would
 * run outside its limit, above its priority or weight, or make it wait at
 * a lower priority than its own.
 */
static bool mmfree_cpu_limited(void)
{
	unsigned long shares = ULONG_MAX;
	void *tg, *parent;
	bool limited = false;

	if (current->prio < MAX_RT_PRIO || task_nice(current) > 0 ||
	    current->policy == SCHED_IDLE)
		return true;
	if (!IS_ENABLED(CONFIG_FAIR_GROUP_SCHED))
		return false;
	/* Task groups are freed after an RCU grace period. */
	rcu_read_lock();
	for (tg = mmfree_task_group(current); tg && !limited; tg = parent) {
		parent = MMFREE_FIELD(tg, tg_parent, void *);
		/* The root group: its weight is the default, 100. */
		if (!parent) {
			limited = shares < MMFREE_FIELD(tg, tg_shares,
							unsigned long);
			break;
		}
		shares = min(shares, MMFREE_FIELD(tg, tg_shares, unsigned long));
		limited = MMFREE_FIELD(tg, tg_idle, int) != 0;
		if (IS_ENABLED(CONFIG_CFS_BANDWIDTH) && !limited) {
			void *bw = (char *)tg + mmfree_pagefree_off.tg_bandwidth;

			limited = MMFREE_FIELD(bw, bw_quota, u64) !=
				  MMFREE_RUNTIME_INF;
		}
	}
	rcu_read_unlock();
	return limited;
}

/*
 * Whether the pool may have CPU time for @pages pages whose item runs on
 * node @run's CPUs (mmfree_run_node()): its workers there have a CPU
 * already (mmfree_pool_has_cpu(): a CPU about to run a just-woken worker
 * does not look idle), or one of those CPUs, other than this one, is
 * idle.  The gather offloads only to nodes whose CPUs are all in the
 * task's cpuset (mmfree_cpuset_nodes()).  @skip: set by scans that found
 * none, it holds for their nodes' items only (a mapping interleaved over
 * nodes alternates them).
 */
static bool mmfree_idle_cpu_available(int run, unsigned long pages,
				      struct mmfree_scan_skip *skip)
{
	int cpu, self = raw_smp_processor_id(), seen = 0;

	if (mmfree_pool_has_cpu(run))
		return true;
	if (node_isset(run, skip->nodes)) {
		if (pages < skip->pages) {
			skip->pages -= pages;
			return false;
		}
		nodes_clear(skip->nodes);
		skip->pages = 0;
	}
	for_each_cpu_and(cpu, cpumask_of_node(run), cpu_online_mask) {
		if (cpu == self)
			continue;
		if (mmfree_call_idle_cpu(cpu)) {
			mmfree_pool_got_cpu(run);
			return true;
		}
		if (++seen == MMFREE_IDLE_SCAN_MAX)
			break;
	}
	/* A node whose only CPU is this one costs no scan. */
	if (seen) {
		node_set(run, skip->nodes);
		skip->pages += seen * MMFREE_IDLE_SCAN_PAGES;
	}
	return false;
}

/*
 * Whether the pool may take pages from the current task at all; if not,
 * @why is the statistic that counts them as freed inline.
 */
static bool mmfree_offload_allowed(enum mmfree_stat_id *why)
{
	*why = MMFREE_STAT_PAGEFREE_INLINE_DISABLED_PAGES;
	if (!READ_ONCE(mmfree_pagefree_attached))
		return false;
	/* Memory must come back before these contexts go on. */
	*why = MMFREE_STAT_PAGEFREE_INLINE_OOM_PAGES;
	if (tsk_is_oom_victim(current) || (current->flags & PF_MEMALLOC) ||
	    (current->flags & PF_KTHREAD))
		return false;
	*why = MMFREE_STAT_PAGEFREE_INLINE_LIMITED_PAGES;
	return !mmfree_cpu_limited();
}

/*
 * Whether the pool has room and CPU time for @pages more pages, freed on
 * node @run's CPUs, now, or they are freed inline as busy.  Asked for
 * each item, not once for a whole free_pages_and_swap_cache() call: a
 * call holds up to ~510 entries, 1 GiB when they are huge pages, and a
 * CPU that is busy for a moment (a wakeup not yet taken, a short
 * kworker) or a bound the batch overshoots then costs one item, not the
 * whole call.  @skip carries a failed scan's cost over the call's next
 * items.
 *
 * No other bound on a sync task's queue: freeing mid-zap while a worker
 * frees too delays the zap and makes both free more slowly (same zones,
 * same LRU lists).  The task helps once its zap is done.
 */
static bool mmfree_offload_room(int run, unsigned long pages,
				struct mmfree_scan_skip *skip)
{
	if (mmfree_pool_inflight_pages() + pages >
	    mmfree_knob(MMFREE_KNOB_PAGEFREE_MAX_INFLIGHT_PAGES))
		return false;
	return !mmfree_knob(MMFREE_KNOB_PAGEFREE_IDLE_ONLY) ||
	       mmfree_idle_cpu_available(run, pages, skip);
}

/* Freed here: back before the call returns, whatever the mode. */
static void mmfree_free_inline(void **entries, unsigned int nr,
			       enum mmfree_stat_id why)
{
	if (nr) {
		unsigned long pages = mmfree_entries_pages(entries, nr);

		mmfree_stat_add(why, pages);
		mmfree_trace_offload(why, pages,
				     page_to_nid(mmfree_gathered_page(entries)),
				     false);
	}
	mmfree_call_free_pages(entries, nr);
}

/*
 * Whether a gathered page may stay in flight once the call that unmapped
 * it has returned (async): anonymous memory only, that nothing but its
 * mappings could reach.  A page cache or shmem folio, or one in the swap
 * cache, is found by its index, and the reference an item holds shows:
 * sealing a memfd waits a moment for such references, then fails with
 * EBUSY (memfd_wait_for_pins()); eviction and migration skip the folio.
 */
static bool mmfree_page_may_linger(struct page *page)
{
	struct folio *folio = page_folio(page);

	return folio_test_anon(folio) && !folio_test_swapcache(folio);
}

/*
 * Whether @page goes in the run that @first starts: same node, same kind,
 * and with @async the same memcg (an async item is its memcg's,
 * mmfree_page_memcg_get(); a sync item has none, and a sync gather need
 * not read it).  On 7.2 a folio's memcg is read through its objcg, under
 * RCU (obj_cgroup_memcg()).
 */
static bool mmfree_run_has(struct page *first, struct page *page, bool async)
{
	bool same;

	if (page_to_nid(page) != page_to_nid(first) ||
	    PageHuge(page) != PageHuge(first))
		return false;
	if (!async)
		return true;
	rcu_read_lock();
	same = folio_memcg(page_folio(page)) == folio_memcg(page_folio(first));
	rcu_read_unlock();
	return same;
}

/* Count the entry at @e into a run of @pages base pages and @linger. */
static void mmfree_run_add(void *const *e, unsigned long *pages, bool *linger)
{
	if (*linger && !mmfree_page_may_linger(mmfree_gathered_page(e)))
		*linger = false;
	*pages += mmfree_entry_pages(e);
}

/*
 * Where the run of entries from @entries ends: at most @batch base pages
 * (one entry at least) of one node (with @async, of one memcg), never
 * splitting an entry from its count, hugetlb and other pages apart.
 * @linger: with @async, whether every page of the run may linger.  Runs
 * are not split where anonymous and file pages alternate (a private file
 * mapping written here and there), which would make an item of each page.
 */
static unsigned int mmfree_run_end(void **entries, unsigned int nr,
				   unsigned int batch, bool async,
				   unsigned long *pages, bool *linger)
{
	struct page *first = mmfree_gathered_page(entries);
	unsigned int i;

	*pages = 0;
	*linger = async;
	for (i = 0; i < nr && *pages < batch;
	     i += mmfree_entry_span(entries + i)) {
		if (!mmfree_run_has(first, mmfree_gathered_page(entries + i),
				    async))
			break;
		mmfree_run_add(entries + i, pages, linger);
	}
	return i;
}

/*
 * Grow the run of @end entries at @entries, cut short by a change of node,
 * kind or memcg, by the call's later entries like it, up to @batch
 * base pages in all: they move up behind the run, the others after them,
 * each in their order.  A mapping interleaved over nodes alternates them
 * page by page, and a run (an item, or an inline call) of each page would
 * cost an allocation and a queue_work(), or the kernel's batching of the
 * frees.  The kernel reads the array no more once the call returns, and
 * the order in which a batch is freed does not matter.
 * Return: the run's new length.
 */
static unsigned int mmfree_run_gather(void **entries, unsigned int nr,
				      unsigned int end, unsigned int batch,
				      bool async, unsigned long *pages,
				      bool *linger)
{
	struct page *first = mmfree_gathered_page(entries);
	unsigned int i, span, n = 0, others = end;
	void **taken;

	/* No sleep in here: the scratch is this CPU's. */
	taken = get_cpu_ptr(mmfree_scratch)->entries;
	for (i = end; i < nr && *pages < batch; i += span) {
		span = mmfree_entry_span(entries + i);
		if (mmfree_run_has(first, mmfree_gathered_page(entries + i),
				   async)) {
			memcpy(taken + n, entries + i, span * sizeof(*entries));
			n += span;
			mmfree_run_add(entries + i, pages, linger);
		} else {
			memmove(entries + others, entries + i,
				span * sizeof(*entries));
			others += span;
		}
	}
	/* The others fill [end, others); [others, i) is taken's room. */
	memmove(entries + end + n, entries + end,
		(others - end) * sizeof(*entries));
	memcpy(entries + end, taken, n * sizeof(*entries));
	put_cpu_ptr(mmfree_scratch);
	return end + n;
}

/*
 * Queue @entries as items, each of one node; what cannot be queued is
 * freed inline here, each run with the statistic that says why.
 */
static void mmfree_offload(struct mmfree_gather *g, void **entries,
			   unsigned int nr)
{
	unsigned int batch = mmfree_knob(MMFREE_KNOB_PAGEFREE_BATCH_PAGES);
	struct mmfree_scan_skip scan_skip = { .pages = 0 };
	bool drained = false;

	while (nr) {
		struct page *page = mmfree_gathered_page(entries);
		int nid = page_to_nid(page), run = mmfree_run_node(nid);
		struct mmfree_item *item;
		unsigned long pages;
		unsigned int end;
		bool linger;

		end = mmfree_run_end(entries, nr, batch, g->async, &pages,
				     &linger);
		if (end < nr && pages < batch)
			end = mmfree_run_gather(entries, nr, end, batch,
						g->async, &pages, &linger);
		/* The hugetlb pool recovers only when its pages are freed. */
		if (PageHuge(page)) {
			mmfree_free_inline(entries, end,
					   MMFREE_STAT_PAGEFREE_INLINE_HUGETLB_PAGES);
		} else if (mmfree_node_pressure(nid)) {
			mmfree_free_inline(entries, end,
					   MMFREE_STAT_PAGEFREE_INLINE_PRESSURE_PAGES);
		} else if (!node_isset(run, g->nodes)) {
			/* Its workers would run outside the task's cpuset. */
			mmfree_free_inline(entries, end,
					   MMFREE_STAT_PAGEFREE_INLINE_LIMITED_PAGES);
		} else if (!mmfree_offload_room(run, pages, &scan_skip)) {
			mmfree_free_inline(entries, end,
					   MMFREE_STAT_PAGEFREE_INLINE_BUSY_PAGES);
		} else {
			/*
			 * A gathered folio may still sit in this CPU's LRU-add
			 * batch, holding a reference that a worker's release
			 * cannot drop; until 7.x free_pages_and_swap_cache()
			 * began by draining, since then it leaves such folios
			 * to the batch's next move.
			 */
			if (!drained) {
				mmfree_call_lru_add_drain();
				drained = true;
			}
			item = mmfree_item_alloc();
			if (!item) {
				mmfree_free_inline(entries, nr,
						   MMFREE_STAT_PAGEFREE_INLINE_NOMEM_PAGES);
				return;
			}
			mmfree_item_put_entries(item, entries, end, pages);
			/* Others wait for the gather's end, as sync items. */
			mmfree_trace_offload(MMFREE_STAT_PAGEFREE_OFFLOADED_PAGES,
					     pages, nid, linger);
			if (g->killed)
				mmfree_stat_add(MMFREE_STAT_PAGEFREE_KILLED_PAGES,
						pages);
			mmfree_item_queue(item,
					  linger ? NULL : &g->waiters[g->cur],
					  nid, run,
					  linger ? mmfree_page_memcg_get(page) : NULL,
					  mmfree_mm_id(mmfree_tlb_mm(g->tlb)));
			if (!linger)
				g->cur_pages += pages;
		}
		entries += end;
		nr -= end;
	}
}

/* Redirected here: free_pages_and_swap_cache(), while a context's gather flushes. */
static void mmfree_free_pages_and_swap_cache(void **entries, int nr)
{
	struct mmfree_gather *g;
	enum mmfree_stat_id why = MMFREE_STAT_PAGEFREE_INLINE_DISABLED_PAGES;

	mmfree_enter();
	g = mmfree_gather_current();
	if (g && g->flushing && nr > 0 && mmfree_offload_allowed(&why))
		mmfree_offload(g, entries, nr);
	else
		mmfree_free_inline(entries, nr, why);
	mmfree_leave();
}

/* Redirected here: a flush of a context's gather, or of one to open. */
static void mmfree_tlb_flush_mmu(struct mmu_gather *tlb)
{
	struct mmfree_gather *g;

	mmfree_enter();
	mmfree_take_back_earlier(tlb);
	g = mmfree_gather_current() ?: mmfree_gather_try_open(tlb);
	if (g && g->tlb != tlb)
		g = NULL;
	if (g) {
		mmfree_gather_check_killed(g);
		g->flushing++;
	}
	mmfree_call_tlb_flush(tlb);
	if (g) {
		g->flushing--;
		if (g->killed)
			mmfree_gather_killed_flushed(g);
	}
	mmfree_leave();
}

/* Redirected here: every gather's end while pagefree is on. */
static void mmfree_tlb_finish_mmu(struct mmu_gather *tlb)
{
	struct mmfree_gather *g;

	mmfree_enter();
	mmfree_take_back_earlier(tlb);
	g = mmfree_gather_current() ?: mmfree_gather_try_open(tlb);
	/* Another gather of this task (nested): not this context's end. */
	if (g && g->tlb != tlb)
		g = NULL;
	if (g) {
		mmfree_gather_check_killed(g);
		g->flushing++;
	}
	mmfree_call_tlb_finish(tlb);
	if (g) {
		g->flushing--;
	} else {
		/*
		 * Where the kernel's final flush calls tlb_flush_mmu() (the
		 * Debian builds measured inline it), its hook may have
		 * opened a context for this gather after the look above:
		 * pagefree came on, min_pages went down, or the allocation
		 * failed here and not there.  Only its end closes it.
		 */
		g = mmfree_gather_current();
		if (g && g->tlb != tlb)
			g = NULL;
	}
	if (g)
		mmfree_gather_close(g);
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
 * Pages in flight that could make room for @oc: for a memcg OOM those of
 * the memcg's async items (a sync item's task is still freeing it), else
 * those on nodes the allocation may use.
 */
static long mmfree_oom_inflight(struct oom_control *oc)
{
	if (oc->memcg)
		return mmfree_pool_async_pages(oc->memcg);
	return mmfree_pool_inflight_pages_on(mmfree_oom_nodes(oc));
}

/*
 * The allocator's flags for @gfp's retry after an OOM that made
 * progress, as far as zone_watermark_ok() reads them: a movable
 * allocation may take free CMA pages (gfp_to_alloc_flags_cma(), the
 * same from 6.1 to 7.2).  The reserves that __GFP_HIGH would open are
 * left out: reporting too little room only means the OOM killer runs,
 * as it would on a stock kernel.
 */
static unsigned int mmfree_oom_alloc_flags(gfp_t gfp)
{
	/*
	 * gfp_migratetype() without its check of
	 * page_group_by_mobility_disabled, which is not exported: grouping
	 * is off only below a few dozen pageblocks of memory.
	 */
	if (IS_ENABLED(CONFIG_CMA) &&
	    (gfp & (__GFP_RECLAIMABLE | __GFP_MOVABLE)) == __GFP_MOVABLE)
		return MMFREE_ALLOC_CMA;
	return 0;
}

/*
 * Whether an allocation like @oc's could now be served: a zone it may use
 * (zones up to its gfp zone, on its nodes) passes the kernel's own check
 * at the min watermark, the one its retry makes.  zone_watermark_ok()
 * subtracts what free pages the retry cannot take: the lowmem and
 * highatomic reserves, free CMA pages for an unmovable allocation, and
 * at order > 0 the blocks that are too small.
 *
 * Context: process context; the zones' counters are read without locks,
 * as the allocator reads them.
 */
static bool mmfree_oom_zones_ok(struct oom_control *oc)
{
	const nodemask_t *nodes = mmfree_oom_nodes(oc);
	int highest = gfp_zone(oc->gfp_mask);
	unsigned int flags = mmfree_oom_alloc_flags(oc->gfp_mask);
	int nid, z;

	for_each_node_mask(nid, *nodes) {
		if (!node_online(nid))
			continue;
		for (z = 0; z <= highest; z++) {
			struct zone *zone = &NODE_DATA(nid)->node_zones[z];

			if (managed_zone(zone) &&
			    mmfree_call_zone_watermark_ok(zone, oc->order,
							  min_wmark_pages(zone),
							  highest, flags))
				return true;
		}
	}
	return false;
}

/*
 * Pages in flight are memory on its way back: before the OOM killer
 * picks a victim, free them if they are where the allocation may take
 * pages, and report progress (the allocation is retried) only if that
 * made room there, as an OOM notifier that freed pages does.  A
 * constrained allocation gets its OOM kill as on a stock kernel: another
 * task's async frees on other nodes must not keep it retrying.
 *
 * The OOM killer is not held up by workers that cannot run (a real-time
 * hog on their CPUs): the queued async items are freed here, and the
 * items workers have started (a few batches) are waited for
 * MMFREE_OOM_WAIT_MS at most.  Sync items are their waiters' to help.
 * A memcg OOM frees and waits for its memcg's items only: a tenant does
 * not pay for, or wait on, another's frees; any other OOM for the items
 * of the nodes its allocation may use.
 */
#define MMFREE_OOM_WAIT_MS	1000

static bool mmfree_oom_drained(struct oom_control *oc)
{
	struct mem_cgroup *memcg = oc->memcg;
	const nodemask_t *nodes = memcg ? NULL : mmfree_oom_nodes(oc);
	long pages = mmfree_oom_inflight(oc);
	bool progress, back;

	/* order -1: sysrq asked for a kill, not for memory. */
	if (oc->order < 0 || !pages)
		return false;
	mmfree_stat_add(MMFREE_STAT_PAGEFREE_HELPED_PAGES,
			mmfree_pool_help(memcg, nodes));
	back = mmfree_pool_wait_back(memcg, nodes,
				     msecs_to_jiffies(MMFREE_OOM_WAIT_MS));
	if (!memcg)
		progress = mmfree_oom_zones_ok(oc);
	else
		progress = page_counter_read(&memcg->memory) +
			   (1UL << oc->order) <= READ_ONCE(memcg->memory.max);
	trace_mmfree_oom_drain(pages, progress, !back);
	return progress;
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
static void notrace mmfree_free_pages_cb(struct mmfree_hook *hook,
					 unsigned long parent_ip,
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

static void notrace mmfree_tlb_flush_cb(struct mmfree_hook *hook,
					unsigned long parent_ip,
					struct ftrace_regs *fregs)
{
	struct mmu_gather *tlb = (void *)mmfree_ftrace_arg(fregs, 0);
	unsigned long min = mmfree_knob(MMFREE_KNOB_PAGEFREE_MIN_PAGES);
	struct mmfree_gather *g;

	if (mmfree_hook_from_us(parent_ip))
		return;
	g = mmfree_gather_current();
	if (g ? g->tlb != tlb :
		!READ_ONCE(mmfree_pagefree_attached) ||
		mmfree_tlb_pending(tlb, min) < min)
		return;
	mmfree_hook_redirect(fregs, mmfree_tlb_flush_mmu);
}

static void notrace mmfree_tlb_finish_cb(struct mmfree_hook *hook,
					 unsigned long parent_ip,
					 struct ftrace_regs *fregs)
{
	if (mmfree_hook_from_us(parent_ip))
		return;
	/* Always, so that any gather opened on the way gets closed. */
	mmfree_hook_redirect(fregs, mmfree_tlb_finish_mmu);
}

static void notrace mmfree_oom_cb(struct mmfree_hook *hook,
				  unsigned long parent_ip,
				  struct ftrace_regs *fregs)
{
	struct oom_control *oc = (void *)mmfree_ftrace_arg(fregs, 0);

	if (mmfree_hook_from_us(parent_ip) || !mmfree_oom_inflight(oc))
		return;
	mmfree_hook_redirect(fregs, mmfree_out_of_memory);
}

#define MMFREE_REDIRECT(cb) \
	(&(struct mmfree_hook){ .func = cb, .redirect = true, .permanent = true })

/*
 * What pagefree does with each kernel symbol, and the prototype BTF must
 * show for it (what the wrapper and the gate are written for).  The
 * hooks go live together, in no set order; no gather opens before
 * mmfree_pagefree_attached, set once all of them are.
 */
static struct mmfree_sym mmfree_pagefree_syms[] = {
	{
		.name = "out_of_memory", .proto = "bool (struct oom_control *)",
		.hook = MMFREE_REDIRECT(mmfree_oom_cb),
		.gate = &mmfree_gate_oom,
	},
	{
		.name = "tlb_finish_mmu",
		.proto = "void (struct mmu_gather *)",
		.hook = MMFREE_REDIRECT(mmfree_tlb_finish_cb),
		.gate = &mmfree_gate_tlb_finish,
	},
	{
		.name = "free_pages_and_swap_cache",
		.proto = MMFREE_PROTO_FREE_PAGES,
		.hook = MMFREE_REDIRECT(mmfree_free_pages_cb),
		.gate = &mmfree_gate_free_pages,
	},
	{
		.name = "tlb_flush_mmu", .proto = "void (struct mmu_gather *)",
		.hook = MMFREE_REDIRECT(mmfree_tlb_flush_cb),
		.gate = &mmfree_gate_tlb_flush,
	},
	{
		.name = "zone_watermark_ok",
		.proto = "bool (struct zone *, unsigned int, long unsigned int, int, unsigned int)",
		.gate = &mmfree_gate_zone_watermark_ok,
	},
	{
		.name = "idle_cpu", .proto = "int (int)",
		.gate = &mmfree_gate_idle_cpu,
	},
	{
		.name = "lru_add_drain", .proto = "void (void)",
		.gate = &mmfree_gate_lru_add_drain,
	},
	/* A worker's time, charged to the gathering task's cgroup (pool.c). */
	{
		.name = "__cgroup_account_cputime",
		.proto = "void (struct cgroup *, u64)",
		.gate = &mmfree_gate_cgroup_cputime,
	},
	/* The CPUs a task's cpuset gives it (mmfree_gather_open()). */
	{
		.name = "cpuset_cpus_allowed",
		.proto = "void (struct task_struct *, struct cpumask *)",
		.gate = &mmfree_gate_cpuset_cpus,
	},
	/* The pool's workqueue settings, at load (mmfree_pool_tune()). */
	{
		.name = "apply_workqueue_attrs",
		.proto = "int (struct workqueue_struct *, const struct workqueue_attrs *)",
		.gate = &mmfree_gate_apply_wq_attrs,
		.flags = MMFREE_SYM_OPTIONAL | MMFREE_SYM_AT_LOAD |
			 (MMFREE_WQ_AFFN_SCOPES ? 0 : MMFREE_SYM_UNUSED),
	},
	{
		.name = "workqueue_set_min_active",
		.proto = "void (struct workqueue_struct *, int)",
		.gate = &mmfree_gate_wq_set_min_active,
		.flags = MMFREE_SYM_OPTIONAL | MMFREE_SYM_AT_LOAD |
			 (MMFREE_WQ_MIN_ACTIVE ? 0 : MMFREE_SYM_UNUSED),
	},
};

/*
 * Detach, and undo an attach that failed half way.  Return: 0, or the
 * error of a hook that stays attached: then nothing has changed (the
 * gates stay open for the wrappers, which still run), and a later call
 * tries again.
 */
static int mmfree_pagefree_detach(void)
{
	struct mmfree_sym *syms = mmfree_pagefree_syms;
	size_t nr = ARRAY_SIZE(mmfree_pagefree_syms);
	bool was_attached = READ_ONCE(mmfree_pagefree_attached);
	struct mmfree_gather *g;
	struct hlist_node *tmp;
	int bkt, err;

	WRITE_ONCE(mmfree_pagefree_attached, false);
	err = mmfree_syms_detach(syms, nr);
	if (err) {
		/*
		 * The hooks are one set: all of them stayed.  Every wrapper
		 * still runs, each context is still its own task's to close
		 * and the pool keeps its items: pooling goes on as before (a
		 * finish that saw it off closes what its final flush opens).
		 */
		WRITE_ONCE(mmfree_pagefree_attached, was_attached);
		return err;
	}
	/* A task redirected but not yet counted has now entered or left. */
	synchronize_rcu_tasks();
	mmfree_pool_end_hold();
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
	return mmfree_syms_close_gates(syms, nr) ?:
	       mmfree_syms_close_load_gates(syms, nr);
}

/* Attach or detach to match the knobs. */
static int mmfree_pagefree_update(void)
{
	bool want = mmfree_knob_feature_on(MMFREE_KNOB_PAGEFREE_ENABLED);
	int err = 0;

	mutex_lock(&mmfree_pagefree_lock);
	mmfree_pool_set_workers(mmfree_knob(MMFREE_KNOB_PAGEFREE_WORKERS));
	if (!want && mmfree_syms_attached(mmfree_pagefree_syms,
					  ARRAY_SIZE(mmfree_pagefree_syms)))
		err = mmfree_pagefree_detach();
	if (want && !READ_ONCE(mmfree_pagefree_attached)) {
		err = mmfree_syms_attach(mmfree_pagefree_syms,
					 ARRAY_SIZE(mmfree_pagefree_syms));
		if (err) {
			mmfree_pagefree_detach();
		} else {
			/*
			 * No context opens until every task that was already
			 * inside the kernel's own tlb_finish_mmu(), unhooked,
			 * has left it: its flush, hooked meanwhile, would open
			 * one that no wrapper closes.  It leaves before its next
			 * voluntary switch (its flush comes first, in the same
			 * stretch), which RCU-tasks waits for.
			 */
			synchronize_rcu_tasks();
			WRITE_ONCE(mmfree_pagefree_attached, true);
		}
	}
	mutex_unlock(&mmfree_pagefree_lock);
	return err;
}

static long mmfree_pagefree_stat(enum mmfree_stat_id id)
{
	if (id == MMFREE_STAT_PAGEFREE_INFLIGHT_PAGES)
		return mmfree_pool_inflight_pages();
	return mmfree_stat_sum(id);
}

/*
 * The fields pagefree reads, with the types it reads them as; the
 * scheduler's group fields only where the kernel has them (without
 * CONFIG_FAIR_GROUP_SCHED no cgroup sets a weight or cpu.idle, without
 * CONFIG_CFS_BANDWIDTH none limits a task's CPU time by cpu.max).
 */
static const struct mmfree_field mmfree_pagefree_fields[] = {
	{ "mmu_gather", "mm", "struct mm_struct *",
	  &mmfree_pagefree_off.tlb_mm },
	{ "mmu_gather", "local", "struct mmu_gather_batch",
	  &mmfree_pagefree_off.tlb_local },
	{ "mmu_gather_batch", "next", "struct mmu_gather_batch *",
	  &mmfree_pagefree_off.batch_next },
	{ "mmu_gather_batch", "nr", "unsigned int",
	  &mmfree_pagefree_off.batch_nr },
	{ "mmu_gather_batch", MMFREE_GATHERED_FIELD, MMFREE_GATHERED_TYPE,
	  &mmfree_pagefree_off.batch_entries },
	{ "task_group", "parent", "struct task_group *",
	  &mmfree_pagefree_off.tg_parent,
	  .skip = !IS_ENABLED(CONFIG_FAIR_GROUP_SCHED) },
	{ "task_group", "shares", "long unsigned int",
	  &mmfree_pagefree_off.tg_shares,
	  .skip = !IS_ENABLED(CONFIG_FAIR_GROUP_SCHED) },
	{ "task_group", "idle", "int", &mmfree_pagefree_off.tg_idle,
	  .skip = !IS_ENABLED(CONFIG_FAIR_GROUP_SCHED) },
	{ "task_group", "cfs_bandwidth", "struct cfs_bandwidth",
	  &mmfree_pagefree_off.tg_bandwidth,
	  .skip = !IS_ENABLED(CONFIG_CFS_BANDWIDTH) },
	{ "cfs_bandwidth", "quota", "u64", &mmfree_pagefree_off.bw_quota,
	  .skip = !IS_ENABLED(CONFIG_CFS_BANDWIDTH) },
};

/*
 * debugfs pagefree_state: the open contexts and the work items queued or
 * running, both 0 once nothing gathers and nothing is in flight; a
 * context nothing closes shows here (tests read it after churn).
 */
static int mmfree_pagefree_state_show(struct seq_file *m, void *v)
{
	seq_printf(m, "contexts %d\nitems %d\n",
		   atomic_read(&mmfree_nr_gathers), mmfree_pool_nr_items());
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mmfree_pagefree_state);

static struct dentry *mmfree_pagefree_debugfs;

static int mmfree_pagefree_init(struct dentry *debugfs)
{
	int err;

	mmfree_scratch = alloc_percpu(struct mmfree_scratch);
	if (!mmfree_scratch) {
		pr_warn("pagefree disabled: no memory\n");
		return -ENOMEM;
	}
	err = mmfree_pool_init();
	if (err) {
		pr_warn("pagefree disabled: no worker pool (%d)\n", err);
		free_percpu(mmfree_scratch);
		mmfree_scratch = NULL;
		return err;
	}
	mmfree_syms_open_load_gates(mmfree_pagefree_syms,
				    ARRAY_SIZE(mmfree_pagefree_syms));
	mmfree_pool_tune();
	mmfree_syms_close_load_gates(mmfree_pagefree_syms,
				     ARRAY_SIZE(mmfree_pagefree_syms));
	pr_info("pagefree: %s mode, %u workers, gathers of %u pages or more\n",
		mmfree_knob(MMFREE_KNOB_PAGEFREE_MODE) ==
		MMFREE_PAGEFREE_MODE_async ? "async" : "sync",
		mmfree_knob(MMFREE_KNOB_PAGEFREE_WORKERS),
		mmfree_knob(MMFREE_KNOB_PAGEFREE_MIN_PAGES));
	mmfree_pagefree_debugfs = debugfs_create_file("pagefree_state", 0400,
						      debugfs, NULL,
						      &mmfree_pagefree_state_fops);
	return 0;
}

static void mmfree_pagefree_exit(void)
{
	mutex_lock(&mmfree_pagefree_lock);
	/* The module goes whatever: what stays attached must not. */
	while (mmfree_syms_attached(mmfree_pagefree_syms,
				    ARRAY_SIZE(mmfree_pagefree_syms)) &&
	       mmfree_pagefree_detach())
		msleep(1000);
	mutex_unlock(&mmfree_pagefree_lock);
	debugfs_remove(mmfree_pagefree_debugfs);
	mmfree_pool_exit();
	/* A task may still be on a wrapper's last instructions. */
	synchronize_rcu_tasks();
	free_percpu(mmfree_scratch);
}

struct mmfree_feature mmfree_pagefree_feature = {
	.name = "pagefree",
	.syms = mmfree_pagefree_syms,
	.nr_syms = ARRAY_SIZE(mmfree_pagefree_syms),
	.fields = mmfree_pagefree_fields,
	.nr_fields = ARRAY_SIZE(mmfree_pagefree_fields),
	.init = mmfree_pagefree_init,
	.exit = mmfree_pagefree_exit,
	.enabled_knob = MMFREE_KNOB_PAGEFREE_ENABLED,
	.update = mmfree_pagefree_update,
	.stat = mmfree_pagefree_stat,
};
