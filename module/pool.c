// SPDX-License-Identifier: GPL-2.0
/*
 * The page-free pool: work items holding copies of gathered page arrays,
 * and the workers that free them.
 *
 * Workers are an unbound workqueue: the scheduler runs them on whichever
 * CPUs are idle, max_active caps how many free at once (pagefree/workers,
 * as the 2017 patch's max_active did; while a task gathers pages, at most
 * the other online CPUs, else all of them: see mmfree_pool_apply_cap();
 * before 6.9 the cap holds per node, since then for the whole workqueue,
 * shared out among the nodes and rounded up to one per node: see
 * mmfree_pool_min_active()), and queue_work_node() keeps an item on
 * the node of its pages, so that a worker frees into its own node's
 * zones and contends only on their locks (a CPU-less node's pages: on
 * the queuing CPU's node, as the workqueue would).  WQ_MEM_RECLAIM gives
 * the queue a rescuer thread: freeing is how memory comes back, so it
 * must make progress when no new worker can be forked.
 *
 * An item is freed with the kernel's own free_pages_and_swap_cache()
 * (swap cache, LRU, memcg uncharge and all), called through its gate.
 *
 * A sync item belongs to a waiter, the task that gathered its pages: the
 * waiter may take back (cancel_work()) and free itself any item no worker
 * has started, waits for the rest, and frees the items' memory.  An async
 * item belongs to the pool, which frees it after its pages; until then it
 * is on a list, with a reference to the memory cgroup of the task that
 * unmapped its pages, so that a memcg OOM takes back (as a waiter does)
 * and waits for that memcg's items only, and any other OOM for those of
 * the nodes it may allocate from (mmfree_pool_help()); and the id of the
 * mm they were unmapped from, so that a kill or a reaper of that mm takes
 * back its items (mmfree_pool_take_back()).
 *
 * A worker's time on an item is charged to the cgroup of the task that
 * gathered its pages (mmfree_item_charge()); the item holds a reference
 * to that cgroup until it is freed, so a removed cgroup stays dying no
 * longer than its items are in flight.
 *
 * When the pages in flight fall to 0, pollers of their statistic's file
 * are woken (mmfree_stat_notify()): mmfreectl wait.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/memcontrol.h>
#include <linux/mutex.h>
#include <linux/nodemask.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/topology.h>
#include <linux/workqueue.h>

#include "compat.h"
#include "mmfree.h"
#include "trace.h"

struct mmfree_item {
	struct work_struct work;
	struct list_head node;		/* waiter->items, or mmfree_pool_async */
	struct list_head taken;		/* async: a helper's, while it frees it */
	struct mmfree_waiter *waiter;	/* NULL: async */
	struct mem_cgroup *memcg;	/* async: a reference, or NULL */
	u64 mm_id;			/* async: its mm's; 0 once given up */
	unsigned long seq;		/* async: the order it was listed in */
	struct cgroup *cgrp;		/* the gathering task's: a reference */
	unsigned long pages;
	int nid;			/* the pages' node */
	int run;			/* the node whose CPUs free them */
	unsigned int nr;
	void *entries[MMFREE_GATHERED_MAX];
};

static struct workqueue_struct *mmfree_pool_wq;
static struct kmem_cache *mmfree_item_cache;
static atomic_long_t mmfree_pool_inflight = ATOMIC_LONG_INIT(0);
static atomic_t mmfree_pool_alloc_count = ATOMIC_INIT(0);
static atomic_t mmfree_pool_items = ATOMIC_INIT(0);	/* queued or running */

/*
 * Per node (nr_node_ids of them).  An item's pages count where they
 * are, its CPU time where it runs: the same node, but for a CPU-less
 * node's pages.  A cache line each: each node's workers and gatherers
 * write their own.
 */
struct mmfree_pool_node {
	atomic_long_t inflight;		/* its pages queued or being freed */
	atomic_long_t to_run;		/* pages its CPUs are to free */
	unsigned long progress_at;	/* jiffies: mmfree_pool_got_cpu() */
} ____cacheline_aligned_in_smp;

static struct mmfree_pool_node *mmfree_pool_nodes;
/* How long progress counts: longer than a worker's wakeup, even under TCG. */
#define MMFREE_POOL_PROGRESS_MS	50
/* Async items queued or being freed (newest last), and who waits for them. */
static LIST_HEAD(mmfree_pool_async);
static DEFINE_SPINLOCK(mmfree_pool_async_lock);
static unsigned long mmfree_pool_async_seq;	/* items listed so far */
static DECLARE_WAIT_QUEUE_HEAD(mmfree_pool_back_wq);

/* The workers knob, tasks gathering pages, and the max_active they give. */
static unsigned int mmfree_pool_workers;
static atomic_t mmfree_pool_gatherers = ATOMIC_INIT(0);
static int mmfree_pool_cap;
static DEFINE_MUTEX(mmfree_pool_cap_lock);

/*
 * Test hook: make every Nth allocation of a gather's context or of a work
 * item fail.  Set at load only: at run time nothing but the knob lock's
 * writers may change how the pool behaves.
 */
static unsigned int mmfree_test_fail_alloc;
module_param_named(test_fail_alloc, mmfree_test_fail_alloc, uint, 0400);
MODULE_PARM_DESC(test_fail_alloc,
		 "testing only: fail every Nth context or work item allocation (0: never)");

/*
 * Test hook: items take no cgroup reference and charge nothing, the
 * baseline make bench measures the charging's cost against.  Writable at
 * run time, so that the bench compares both in one module instance: each
 * item reads it once, when it is queued, and its release copes with
 * either choice.
 */
static bool mmfree_test_uncharged;
module_param_named(test_uncharged, mmfree_test_uncharged, bool, 0600);
MODULE_PARM_DESC(test_uncharged,
		 "testing only: charge no cgroup for the workers' time");

/*
 * Test hook: the next task to queue an async item sleeps this long right
 * after, as if preempted there, while the OOM path looks for items to
 * take back.  Read once and cleared, by that task only.
 */
static unsigned int mmfree_test_queue_hold_ms;
module_param_named(test_queue_hold_ms, mmfree_test_queue_hold_ms, uint, 0600);
MODULE_PARM_DESC(test_queue_hold_ms,
		 "testing only: the next async item's task sleeps this long once it is queued");

/*
 * Test hook: a worker about to start an item for this node's CPUs sleeps
 * until the hook names another node (-1: none), at most
 * MMFREE_TEST_HOLD_MS an item, or a detach or a drain ends the hold
 * (mmfree_pool_end_hold()).  The item stays in flight, and the worker
 * holds no lock or RCU read section while it waits, as a worker frozen
 * mid-free by a real-time hog would.
 */
static int mmfree_test_hold_node = NUMA_NO_NODE;
module_param_named(test_hold_node, mmfree_test_hold_node, int, 0600);
MODULE_PARM_DESC(test_hold_node,
		 "testing only: workers hold the items of this node's CPUs before starting them (-1: none)");
#define MMFREE_TEST_HOLD_MS	60000

/* Whether the test hook fails this allocation (test_fail_alloc). */
bool mmfree_pool_fail_alloc(void)
{
	unsigned int every = mmfree_test_fail_alloc;

	return every &&
	       atomic_inc_return(&mmfree_pool_alloc_count) % every == 0;
}

/**
 * mmfree_item_alloc - a work item for up to MMFREE_GATHERED_MAX entries
 *
 * Called from the freeing path: never sleeps and never reclaims, which
 * would recurse into the memory being given back.
 *
 * Return: the item, or NULL (the caller frees inline).
 */
struct mmfree_item *mmfree_item_alloc(void)
{
	if (mmfree_pool_fail_alloc())
		return NULL;
	return kmem_cache_alloc(mmfree_item_cache,
				GFP_NOWAIT | __GFP_NOWARN | __GFP_NOMEMALLOC);
}

void mmfree_item_put_entries(struct mmfree_item *item, void *const *entries,
			     unsigned int nr, unsigned long pages)
{
	memcpy(item->entries, entries, nr * sizeof(*entries));
	item->nr = nr;
	item->pages = pages;
}

/*
 * An item's pages count as back.  Called once the item is accounted:
 * whoever waits for its pages (mmfreectl wait, a memcg OOM) reads its
 * statistics and its cgroup's charge complete when they are.
 */
static void mmfree_item_back(struct mmfree_item *item)
{
	atomic_long_sub(item->pages, &mmfree_pool_nodes[item->nid].inflight);
	atomic_long_sub(item->pages, &mmfree_pool_nodes[item->run].to_run);
	if (!atomic_long_sub_return(item->pages, &mmfree_pool_inflight)) {
		mmfree_stat_notify(MMFREE_STAT_PAGEFREE_INFLIGHT_PAGES);
		wake_up_all(&mmfree_pool_back_wq);
	} else if (item->waiter && wq_has_sleeper(&mmfree_pool_back_wq)) {
		/* An OOM may wait for its nodes' pages (async: at release). */
		wake_up_all(&mmfree_pool_back_wq);
	}
}

static void mmfree_waiter_put(struct mmfree_waiter *w)
{
	/* complete() holds the completion's lock until the waiter may go. */
	if (atomic_dec_and_test(&w->pending))
		complete(&w->done);
}

/* An item's references let go, and its memory freed. */
static void mmfree_item_destroy(struct mmfree_item *item)
{
	mem_cgroup_put(item->memcg);
	mmfree_cgroup_put(item->cgrp);
	kmem_cache_free(mmfree_item_cache, item);
}

/* An async item's end, once off the list. */
static void mmfree_item_release(struct mmfree_item *item)
{
	/* An OOM may wait for this item, now unlisted. */
	if (wq_has_sleeper(&mmfree_pool_back_wq))
		wake_up_all(&mmfree_pool_back_wq);
	mmfree_item_destroy(item);
}

/*
 * A worker's CPU time @ns on @item, charged to the cgroup of the task
 * that gathered its pages as the scheduler charges a task's own time
 * (cgroup_account_cputime()): it shows in that cgroup's cpu.stat
 * usage_usec, and its ancestors'.  It is not taken from the cgroup's
 * cpu.max quota nor weighed by its cpu.weight: tasks whose cgroup has
 * either free inline (pagefree.c, mmfree_cpu_limited()).
 */
static void mmfree_item_charge(struct mmfree_item *item, u64 ns)
{
	if (!mmfree_cgroup_chargeable(item->cgrp))
		return;
	mmfree_call_cgroup_cputime(item->cgrp, ns);
	mmfree_stat_add(MMFREE_STAT_PAGEFREE_CHARGED_NS, ns);
}

/*
 * The workers on node @nid's CPUs get CPU time now: one starts or ends
 * an item, or a gatherer found an idle CPU for them.
 */
void mmfree_pool_got_cpu(int nid)
{
	unsigned long *at = &mmfree_pool_nodes[nid].progress_at;
	unsigned long now = jiffies;

	/* Twice an item: keep the line clean within a jiffy. */
	if (READ_ONCE(*at) != now)
		WRITE_ONCE(*at, now);
}

/*
 * Whether the workers on node @nid's CPUs have CPU time: they have pages
 * to free, and started or ended an item in the last few milliseconds (or
 * a gatherer found an idle CPU for them).  Queued items alone are not
 * CPU time: workers held behind other work make no progress (a busy pool
 * is not an idle CPU).  Per node: items run on their node's CPUs, so one
 * node's progress is no CPU for another's.
 */
bool mmfree_pool_has_cpu(int nid)
{
	struct mmfree_pool_node *node = &mmfree_pool_nodes[nid];
	unsigned long at = READ_ONCE(node->progress_at);

	return atomic_long_read(&node->to_run) > 0 &&
	       time_before_eq(jiffies,
			      at + msecs_to_jiffies(MMFREE_POOL_PROGRESS_MS));
}

/*
 * The CPU time of the calling task on an item: the wall time since
 * mmfree_run_start(), less what it spent runnable while another task
 * had its CPU.  On a preemptible kernel (7.2's lazy preemption, or
 * preempt=full) a worker can be preempted in the middle of an item, by
 * another worker or by the task it frees for; that wait is the other
 * task's time, charged to its own cgroup already.
 */
struct mmfree_run {
	u64 start;
	u64 delay;
};

static void mmfree_run_start(struct mmfree_run *run)
{
	run->delay = mmfree_task_run_delay(current);
	run->start = ktime_get_ns();
}

static u64 mmfree_run_ns(const struct mmfree_run *run)
{
	u64 wall = ktime_get_ns() - run->start;
	u64 waited = mmfree_task_run_delay(current) - run->delay;

	return wall > waited ? wall - waited : 0;
}

/* The test hook test_hold_node: before the item's CPU time counts. */
static void mmfree_item_run_hold(const struct mmfree_item *item)
{
	unsigned long end = jiffies + msecs_to_jiffies(MMFREE_TEST_HOLD_MS);

	while (READ_ONCE(mmfree_test_hold_node) == item->run &&
	       time_before(jiffies, end))
		msleep_interruptible(10);
}

static void mmfree_item_workfn(struct work_struct *work)
{
	struct mmfree_item *item = container_of(work, struct mmfree_item, work);
	struct mmfree_waiter *w = item->waiter;
	struct mmfree_run run;
	u64 ns;

	mmfree_item_run_hold(item);
	mmfree_run_start(&run);
	mmfree_pool_got_cpu(item->run);
	mmfree_call_free_pages(item->entries, item->nr);
	mmfree_pool_got_cpu(item->run);
	ns = mmfree_run_ns(&run);
	mmfree_stat_add(MMFREE_STAT_PAGEFREE_OFFLOADED_PAGES, item->pages);
	/* Queued on its node; the scheduler may have moved the worker. */
	if (numa_node_id() != item->run)
		mmfree_stat_add(MMFREE_STAT_PAGEFREE_REMOTE_PAGES, item->pages);
	mmfree_stat_add(MMFREE_STAT_PAGEFREE_WORKER_NS, ns);
	mmfree_item_charge(item, ns);
	trace_mmfree_item_freed(item->pages, item->nid, ns, false,
				mmfree_cgroup_id(item->cgrp));
	mmfree_item_back(item);
	atomic_dec(&mmfree_pool_items);
	/* A sync item's memory is its waiter's: hands off after this. */
	if (w) {
		mmfree_waiter_put(w);
		return;
	}
	spin_lock(&mmfree_pool_async_lock);
	list_del(&item->node);
	spin_unlock(&mmfree_pool_async_lock);
	mmfree_item_release(item);
}

/* The test hook test_queue_hold_ms; a context's flush may sleep. */
static void mmfree_item_queued_hold(void)
{
	unsigned int ms = READ_ONCE(mmfree_test_queue_hold_ms);

	if (ms && cmpxchg(&mmfree_test_queue_hold_ms, ms, 0) == ms)
		msleep(ms);
}

/**
 * mmfree_item_queue - hand an item to the workers
 * @item: filled by mmfree_item_put_entries()
 * @w: the waiter that will wait for it, or NULL (async)
 * @nid: node of the item's pages
 * @run: node whose CPUs are to free them (@nid, if it has CPUs)
 * @memcg: async: the memcg the pages are charged to, or NULL; the item
 *	takes over the caller's reference
 * @mm_id: async: the id of the mm the pages were unmapped from
 *	(mmfree_pool_take_back())
 *
 * Context: the task that gathered the pages; its cgroup (on the default
 * hierarchy) is charged the workers' time on the item, and named by the
 * item's trace event.
 */
void mmfree_item_queue(struct mmfree_item *item, struct mmfree_waiter *w,
		       int nid, int run, struct mem_cgroup *memcg, u64 mm_id)
{
	INIT_WORK(&item->work, mmfree_item_workfn);
	item->waiter = w;
	item->nid = nid;
	item->run = run;
	item->memcg = NULL;
	item->cgrp = READ_ONCE(mmfree_test_uncharged) ? NULL :
		     mmfree_task_cgroup_get(current);
	atomic_long_add(item->pages, &mmfree_pool_inflight);
	atomic_long_add(item->pages, &mmfree_pool_nodes[nid].inflight);
	atomic_long_add(item->pages, &mmfree_pool_nodes[run].to_run);
	atomic_inc(&mmfree_pool_items);
	mmfree_stat_add(MMFREE_STAT_PAGEFREE_WORK_ITEMS, 1);
	if (w) {
		list_add_tail(&item->node, &w->items);
		atomic_inc(&w->pending);
	} else {
		item->memcg = memcg;
		item->mm_id = mm_id;
		/*
		 * Listed before a worker can start it, and free it; queued
		 * under the same lock, so that mmfree_pool_take() never finds
		 * it listed but not queued.  There, cancel_work() would set
		 * and clear PENDING on it, and a queue_work_node() in between
		 * would find it pending and not queue it: never run, its
		 * pages never freed.
		 */
		spin_lock(&mmfree_pool_async_lock);
		item->seq = mmfree_pool_async_seq;
		WRITE_ONCE(mmfree_pool_async_seq, item->seq + 1);
		list_add_tail(&item->node, &mmfree_pool_async);
		queue_work_node(run, mmfree_pool_wq, &item->work);
		spin_unlock(&mmfree_pool_async_lock);
		mmfree_item_queued_hold();
		return;
	}
	queue_work_node(run, mmfree_pool_wq, &item->work);
}

void mmfree_waiter_init(struct mmfree_waiter *w)
{
	INIT_LIST_HEAD(&w->items);
	atomic_set(&w->pending, 1);
	init_completion(&w->done);
}

/*
 * Free an item taken back from the workqueue (cancel_work() succeeded),
 * in the calling task, timed from @run.  Return: its pages.
 */
static unsigned long mmfree_item_free_taken(struct mmfree_item *item,
					    const struct mmfree_run *run)
{
	atomic_dec(&mmfree_pool_items);
	mmfree_call_free_pages(item->entries, item->nr);
	trace_mmfree_item_freed(item->pages, item->nid, mmfree_run_ns(run),
				true, mmfree_cgroup_id(item->cgrp));
	mmfree_item_back(item);
	return item->pages;
}

/**
 * mmfree_waiter_finish - help with, then wait for, a waiter's items
 * @w: the waiter, which the calling task owns
 *
 * Items no worker has started are taken back and freed here, newest first
 * (workers start from the oldest), so the task never only sleeps while
 * its own work waits in the queue.  Frees the items' memory; the waiter
 * can take new items afterwards.
 *
 * Context: process context, sleeps.
 *
 * Return: pages this task freed itself.
 */
unsigned long mmfree_waiter_finish(struct mmfree_waiter *w)
{
	struct mmfree_item *item, *next;
	unsigned long helped = 0;

	list_for_each_entry_reverse(item, &w->items, node) {
		struct mmfree_run run;

		mmfree_run_start(&run);
		if (!cancel_work(&item->work))
			continue;
		helped += mmfree_item_free_taken(item, &run);
		mmfree_waiter_put(w);
		/*
		 * Up to max_inflight_pages of them, under the mmap lock in
		 * exit_mmap(): on a voluntary-preemption kernel nothing else
		 * runs on this CPU meanwhile unless we offer it, as the
		 * kernel's own free loop does between batches.
		 */
		cond_resched();
	}
	if (!atomic_dec_and_test(&w->pending))
		wait_for_completion(&w->done);
	list_for_each_entry_safe(item, next, &w->items, node)
		mmfree_item_destroy(item);
	/* Every item is done: complete() has let go of the completion. */
	mmfree_waiter_init(w);
	return helped;
}

/* Which async items a helper takes back, or a waiter waits for. */
struct mmfree_pool_filter {
	u64 mm_id;			/* those unmapped from this mm, */
	unsigned long before;		/* listed before this seq; else */
	struct mem_cgroup *memcg;	/* an OOM of this memcg's; else */
	const nodemask_t *nodes;	/* an OOM's that may use these nodes */
};

/*
 * Whether an async item is one @f names: its pages count for an OOM of
 * f->memcg (and its descendants), or for one whose allocation may use
 * f->nodes; or were unmapped from f->mm_id's mm before f->before.
 */
static bool mmfree_item_in(struct mmfree_item *item,
			   const struct mmfree_pool_filter *f)
{
	if (f->mm_id)
		return item->mm_id == f->mm_id && item->seq < f->before;
	if (f->memcg)
		return item->memcg &&
		       mem_cgroup_is_descendant(item->memcg, f->memcg);
	return node_isset(item->nid, *f->nodes);
}

/*
 * Take back from the workqueue the async items @f names that no worker
 * has started (cancel_work(), as a sync waiter does with its own), and
 * free them in the calling task, newest first.  They stay listed until
 * freed, so that whoever else waits for them (an OOM, a kill) finds them
 * still in flight.  Return: pages freed.
 */
static unsigned long mmfree_pool_take(const struct mmfree_pool_filter *f)
{
	struct mmfree_item *item, *next;
	unsigned long helped = 0;
	LIST_HEAD(taken);

	/*
	 * Under the lock, so no item is freed meanwhile: a worker that
	 * started one waits on the lock to unlist it, and cancel_work()
	 * fails on it, as on one another helper took.
	 */
	spin_lock(&mmfree_pool_async_lock);
	list_for_each_entry_reverse(item, &mmfree_pool_async, node)
		if (mmfree_item_in(item, f) && cancel_work(&item->work))
			list_add_tail(&item->taken, &taken);
	spin_unlock(&mmfree_pool_async_lock);

	list_for_each_entry_safe(item, next, &taken, taken) {
		struct mmfree_run run;

		mmfree_run_start(&run);
		helped += mmfree_item_free_taken(item, &run);
		spin_lock(&mmfree_pool_async_lock);
		list_del(&item->node);
		spin_unlock(&mmfree_pool_async_lock);
		mmfree_item_release(item);
		cond_resched();
	}
	return helped;
}

/* Pages of the async items @f names, queued or being freed. */
static long mmfree_pool_pages(const struct mmfree_pool_filter *f)
{
	struct mmfree_item *item;
	long pages = 0;

	spin_lock(&mmfree_pool_async_lock);
	list_for_each_entry(item, &mmfree_pool_async, node)
		if (mmfree_item_in(item, f))
			pages += item->pages;
	spin_unlock(&mmfree_pool_async_lock);
	return pages;
}

/**
 * mmfree_pool_help - free the async items of an OOM no worker has started
 * @memcg: a memcg OOM's memcg: its items (and its descendants'); or NULL
 * @nodes: with @memcg NULL, the items of these nodes' pages
 *
 * Takes them back from the workqueue (cancel_work(), as a sync waiter
 * does with its own) and frees them in the calling task, newest first:
 * for the OOM path, which must not wait on workers that may not run.
 *
 * Context: process context, may sleep (between items).
 *
 * Return: pages freed.
 */
unsigned long mmfree_pool_help(struct mem_cgroup *memcg,
			       const nodemask_t *nodes)
{
	struct mmfree_pool_filter f = { .memcg = memcg, .nodes = nodes };

	return mmfree_pool_take(&f);
}

/*
 * A take-back waited its time for the items @f names, which workers have
 * started: they are no longer their mm's to wait for.  Every later gather
 * of that mm (the reaper's, one a VMA; the exit's, one a flush) would
 * otherwise wait its full time again for the same starved workers.  Whoever
 * else waits for them stops too.
 */
static void mmfree_pool_give_up(const struct mmfree_pool_filter *f)
{
	struct mmfree_item *item;

	spin_lock(&mmfree_pool_async_lock);
	list_for_each_entry(item, &mmfree_pool_async, node)
		if (mmfree_item_in(item, f))
			item->mm_id = 0;
	spin_unlock(&mmfree_pool_async_lock);
	if (wq_has_sleeper(&mmfree_pool_back_wq))
		wake_up_all(&mmfree_pool_back_wq);
}

/**
 * mmfree_pool_take_back - free now what an mm's async gathers left
 * @mm_id: the mm's id (x86's context id: never reused, never 0)
 * @timeout: jiffies at most to wait for items workers have started
 * @helped: set to the pages freed here
 *
 * For a gather that must leave nothing of the mm in flight (a killed
 * task's, a reaper's): the async items unmapped from it before the call
 * are back when it returns, as on stock, where they were free before
 * their munmap() returned.  Items no worker has started are taken back
 * and freed here, newest first; then it waits for those the workers are
 * freeing, for @timeout at most, once for the mm: workers that cannot run
 * (a real-time hog on their CPUs) must not hold up a reaper or an exit
 * for long.  Items listed later (an mm still shared with a live task) are
 * not waited for.
 *
 * Context: process context, sleeps uninterruptibly.
 *
 * Return: the pages of the mm that were in flight.
 */
unsigned long mmfree_pool_take_back(u64 mm_id, unsigned long timeout,
				    unsigned long *helped)
{
	struct mmfree_pool_filter f = { .mm_id = mm_id };
	long found;

	*helped = 0;
	/* Unlocked: an item listed meanwhile is one listed after the call. */
	if (list_empty(&mmfree_pool_async))
		return 0;
	f.before = READ_ONCE(mmfree_pool_async_seq);
	found = mmfree_pool_pages(&f);
	if (!found)
		return 0;
	*helped = mmfree_pool_take(&f);
	if (!wait_event_timeout(mmfree_pool_back_wq, !mmfree_pool_pages(&f),
				timeout))
		mmfree_pool_give_up(&f);
	return found;
}

/**
 * mmfree_pool_async_pages - pages of a memcg's async items in flight
 * @memcg: the memcg (and its descendants)
 *
 * Context: process context; walks the list of async items under its lock.
 */
long mmfree_pool_async_pages(struct mem_cgroup *memcg)
{
	struct mmfree_pool_filter f = { .memcg = memcg };

	return mmfree_pool_pages(&f);
}

/* Whether what mmfree_pool_wait_back() waits for is back. */
static bool mmfree_pool_back(struct mem_cgroup *memcg, const nodemask_t *nodes)
{
	if (memcg)
		return !mmfree_pool_async_pages(memcg);
	return !mmfree_pool_inflight_pages_on(nodes);
}

/**
 * mmfree_pool_wait_back - wait until an OOM's pages are back, for a while
 * @memcg: a memcg OOM's memcg: wait for its async items (and its
 *	descendants'); or NULL
 * @nodes: with @memcg NULL, wait for every page in flight on these nodes
 *	(pages elsewhere make no room for the allocation)
 * @timeout: jiffies at most
 *
 * Context: process context, sleeps uninterruptibly.
 *
 * Return: true if they are back, false if @timeout ran out first.
 */
bool mmfree_pool_wait_back(struct mem_cgroup *memcg, const nodemask_t *nodes,
			   unsigned long timeout)
{
	return wait_event_timeout(mmfree_pool_back_wq,
				  mmfree_pool_back(memcg, nodes), timeout) > 0;
}

/* Work items queued or being freed now. */
int mmfree_pool_nr_items(void)
{
	return atomic_read(&mmfree_pool_items);
}

long mmfree_pool_inflight_pages(void)
{
	return atomic_long_read(&mmfree_pool_inflight);
}

/* Pages in flight whose node is in @nodes. */
long mmfree_pool_inflight_pages_on(const nodemask_t *nodes)
{
	long sum = 0;
	int nid;

	for_each_node_mask(nid, *nodes)
		if (nid < nr_node_ids)
			sum += atomic_long_read(&mmfree_pool_nodes[nid].inflight);
	return sum;
}

/*
 * At most pagefree/workers items free at once.  While a task gathers
 * pages, never more than the other online CPUs: it keeps its own CPU busy
 * zapping, so a worker beyond that count can only take time from it
 * (measured under TCG with 2 CPUs: an async 1 GiB munmap took twice as
 * long with 4 workers as with 1).  Once none gathers, its CPU is free
 * again (an async exit has returned) and the pool may use every CPU.
 * The cap follows the count of gatherers under a mutex, so the last of
 * racing updates sees the final count.
 *
 * Context: process context, may sleep (workqueue_set_max_active()).
 */
static void mmfree_pool_apply_cap(void)
{
	unsigned int cpus;
	int cap, gatherers;

	mutex_lock(&mmfree_pool_cap_lock);
	cpus = num_online_cpus();
	gatherers = atomic_read(&mmfree_pool_gatherers);
	if (gatherers)
		cpus = max(cpus, 2U) - 1;
	cap = min(READ_ONCE(mmfree_pool_workers), cpus);
	if (cap != mmfree_pool_cap) {
		workqueue_set_max_active(mmfree_pool_wq, cap);
		mmfree_pool_cap = cap;
		trace_mmfree_pool_cap(cap, gatherers);
	}
	mutex_unlock(&mmfree_pool_cap_lock);
}

/**
 * mmfree_pool_set_workers - the workers knob changed
 * @workers: at most this many items free at once
 *
 * CPUs brought online later count from the next change of the cap.
 *
 * Context: process context, may sleep.
 */
void mmfree_pool_set_workers(unsigned int workers)
{
	WRITE_ONCE(mmfree_pool_workers, workers);
	mmfree_pool_apply_cap();
}

/**
 * mmfree_pool_gather_begin - a task starts gathering pages for the pool
 *
 * Context: process context, may sleep.
 */
void mmfree_pool_gather_begin(void)
{
	if (atomic_inc_return(&mmfree_pool_gatherers) == 1)
		mmfree_pool_apply_cap();
}

/**
 * mmfree_pool_gather_end - a task's gather is done
 *
 * Context: process context, may sleep.
 */
void mmfree_pool_gather_end(void)
{
	if (atomic_dec_and_test(&mmfree_pool_gatherers))
		mmfree_pool_apply_cap();
}

/*
 * Since 6.5 the scheduler may move an unbound worker off its pod unless
 * the workqueue's affinity is strict (6.12, 2 nodes, async: 2-6% of a
 * node's pages freed on the other node in 3 boots of 5).  Node pods,
 * strict: what the sysfs attributes affinity_scope=numa and
 * affinity_strict=1 would set.
 */
static int mmfree_pool_keep_to_nodes(void)
{
	struct workqueue_attrs *attrs;
	cpumask_var_t *pod;
	int err = -ENOMEM;

	attrs = kzalloc(sizeof(*attrs), GFP_KERNEL);
	if (!attrs)
		return -ENOMEM;
	pod = mmfree_wq_attrs_pod_mask(attrs);
	/* The kernel copies both masks; it computes the pod's itself. */
	if (!zalloc_cpumask_var(&attrs->cpumask, GFP_KERNEL))
		goto out;
	if (pod && !zalloc_cpumask_var(pod, GFP_KERNEL))
		goto out;
	cpumask_copy(attrs->cpumask, cpu_possible_mask);
	mmfree_wq_attrs_node_strict(attrs);
	err = mmfree_call_apply_wq_attrs(mmfree_pool_wq, attrs);
out:
	if (pod)
		free_cpumask_var(*pod);
	free_cpumask_var(attrs->cpumask);
	kfree(attrs);
	return err;
}

/*
 * Run @fn if @gate is open (this kernel has its function); the pool works
 * without it (one line says what is lost).
 */
static void mmfree_pool_tune_with(struct mmfree_gate *gate, int (*fn)(void),
				  const char *without)
{
	int err = mmfree_gate_is_open(gate) ? fn() : -ENOENT;

	if (err)
		pr_warn("pagefree: %s (%d)\n", without, err);
}

/*
 * Since 6.9 max_active is shared out among the nodes in proportion to
 * their CPUs, but each node may run at least min_active items, by default
 * min(max_active, 8): on two nodes, workers=4 let 8 items run at once.
 * With 1, each node gets its share, rounded up to one.
 */
static int mmfree_pool_min_active(void)
{
	mmfree_call_wq_set_min_active(mmfree_pool_wq, 1);
	return 0;
}

/**
 * mmfree_pool_tune - the workqueue settings only unexported functions make
 *
 * At load, with the gates it uses at load open (those this kernel lacks
 * are closed).
 */
void mmfree_pool_tune(void)
{
	if (MMFREE_WQ_AFFN_SCOPES)
		mmfree_pool_tune_with(&mmfree_gate_apply_wq_attrs,
				      mmfree_pool_keep_to_nodes,
				      "workers may run off their pages' node");
	if (MMFREE_WQ_MIN_ACTIVE)
		mmfree_pool_tune_with(&mmfree_gate_wq_set_min_active,
				      mmfree_pool_min_active,
				      "up to 8 workers per node may free at once");
}

/*
 * End the test hook test_hold_node's hold: before a detach waits for the
 * tasks in its wrappers, as a sync waiter may wait for a held item.
 */
void mmfree_pool_end_hold(void)
{
	WRITE_ONCE(mmfree_test_hold_node, NUMA_NO_NODE);
}

/* Wait until every item queued so far has been freed; ends any hold. */
void mmfree_pool_drain(void)
{
	mmfree_pool_end_hold();
	flush_workqueue(mmfree_pool_wq);
}

int mmfree_pool_init(void)
{
	/* No progress yet (jiffies starts 5 minutes before it wraps to 0). */
	unsigned long never = jiffies -
			      2 * msecs_to_jiffies(MMFREE_POOL_PROGRESS_MS);
	unsigned int nid;

	mmfree_pool_nodes = kcalloc(nr_node_ids, sizeof(*mmfree_pool_nodes),
				    GFP_KERNEL);
	if (!mmfree_pool_nodes)
		return -ENOMEM;
	for (nid = 0; nid < nr_node_ids; nid++)
		mmfree_pool_nodes[nid].progress_at = never;
	mmfree_item_cache = KMEM_CACHE(mmfree_item, 0);
	if (!mmfree_item_cache) {
		kfree(mmfree_pool_nodes);
		return -ENOMEM;
	}
	/*
	 * Not max_active 1 here: on 6.1 that makes an unbound workqueue
	 * ordered, with one pool for all nodes, and queue_work_node() then
	 * routes nothing.  The cap is set right after.
	 */
	mmfree_pool_wq = alloc_workqueue("mmfree_free",
					 WQ_UNBOUND | WQ_MEM_RECLAIM, 0);
	if (!mmfree_pool_wq) {
		kmem_cache_destroy(mmfree_item_cache);
		kfree(mmfree_pool_nodes);
		return -ENOMEM;
	}
	mmfree_pool_cap = -1;
	mmfree_pool_set_workers(mmfree_knob(MMFREE_KNOB_PAGEFREE_WORKERS));
	return 0;
}

/* Called with nothing left to queue items; frees what is still queued. */
void mmfree_pool_exit(void)
{
	int nid;

	/* destroy_workqueue() drains: no held item may keep it waiting. */
	mmfree_pool_end_hold();
	destroy_workqueue(mmfree_pool_wq);
	/* Every item counted in, on its nodes too, has counted out. */
	WARN_ON(atomic_long_read(&mmfree_pool_inflight));
	for (nid = 0; nid < nr_node_ids; nid++)
		WARN_ON(atomic_long_read(&mmfree_pool_nodes[nid].inflight) ||
			atomic_long_read(&mmfree_pool_nodes[nid].to_run));
	kmem_cache_destroy(mmfree_item_cache);
	kfree(mmfree_pool_nodes);
}
