// SPDX-License-Identifier: GPL-2.0
/*
 * Page-free policy: which gathered pages go to the pool, and who waits.
 *
 * An mmu_gather (munmap, exit, MADV_DONTNEED) collects the pages it
 * unmapped; after the TLB flush, tlb_flush_mmu() hands them, up to 512 at
 * a time, to free_pages_and_swap_cache(): mid-zap when the gather is
 * full, and from tlb_finish_mmu() at the end.  mmfree redirects, as
 * livepatch does:
 *
 *   tlb_flush_mmu, tlb_finish_mmu  a gather holding min_pages or more opens
 *				    a context for its task (struct
 *				    mmfree_gather), keyed by the task: a
 *				    task runs one gather at a time
 *   free_pages_and_swap_cache	    with a context open, drain this CPU's
 *				    LRU batches (the kernel's own call with
 *				    no pages), copy the array into work
 *				    items and queue them; the copy is taken
 *				    after the TLB flush, like the kernel's
 *   tlb_finish_mmu		    after the kernel's final flush, sync:
 *				    help with the task's queued items, wait
 *				    for the rest; async: just close
 *   out_of_memory		    with pages in flight, drain the pool
 *				    first and retry if that made room
 *
 * The pages are freed by the kernel's own free_pages_and_swap_cache(),
 * called through a gate, with the gather's own references.  Whenever the
 * pool should not take a batch (see mmfree_offload_refused()), the
 * wrapper frees it inline, at once, exactly as the kernel would.
 *
 * The busy-system objection to parallel freeing: with idle_only, pages
 * are offloaded only while a CPU the task may run on is idle (or already
 * runs a worker), so workers use idle time and never take a busy CPU from
 * running work.  Zone lock contention: items go to workers on their
 * pages' node, and at most "workers" items free at once.
 *
 * Tasks inside wrappers are counted; disabling detaches the hooks, waits
 * out RCU-tasks (a task redirected but not yet counted), then the count,
 * then drains the pool.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/btf.h>
#include <linux/delay.h>
#include <linux/hashtable.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/oom.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/rcupdate_wait.h>
#include <linux/sched.h>
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
	SYM_APPLY_WQ_ATTRS, SYM_START_BTF, SYM_STOP_BTF, NR_SYMS
};

static struct mmfree_ksym mmfree_pagefree_syms[NR_SYMS] = {
	[SYM_FREE_PAGES] = { .name = "free_pages_and_swap_cache" },
	[SYM_TLB_FLUSH] = { .name = "tlb_flush_mmu" },
	[SYM_TLB_FINISH] = { .name = "tlb_finish_mmu" },
	[SYM_OOM] = { .name = "out_of_memory" },
	[SYM_IDLE_CPU] = { .name = "idle_cpu" },
	[SYM_APPLY_WQ_ATTRS] = { .name = "apply_workqueue_attrs" },
	[SYM_START_BTF] = { .name = "__start_BTF" },
	[SYM_STOP_BTF] = { .name = "__stop_BTF" },
};

/* One task's gather that qualified for the pool. */
struct mmfree_gather {
	struct hlist_node node;
	struct task_struct *task;
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

static __mmfree_gate int
mmfree_call_apply_wq_attrs(struct workqueue_struct *wq,
			   const struct workqueue_attrs *attrs)
{
	mmfree_gate_missed("apply_workqueue_attrs");
	return -EOPNOTSUPP;
}

#define MMFREE_GATE_TO(sym, gate) \
	[sym] = { .hook = { .name = #gate, .addr = (unsigned long)gate } }

/* Indexed like the symbols they lead to. */
static struct mmfree_gate mmfree_gates[] = {
	MMFREE_GATE_TO(SYM_FREE_PAGES, mmfree_call_free_pages),
	MMFREE_GATE_TO(SYM_TLB_FLUSH, mmfree_call_tlb_flush),
	MMFREE_GATE_TO(SYM_TLB_FINISH, mmfree_call_tlb_finish),
	MMFREE_GATE_TO(SYM_OOM, mmfree_call_oom),
	MMFREE_GATE_TO(SYM_IDLE_CPU, mmfree_call_idle_cpu),
	MMFREE_GATE_TO(SYM_APPLY_WQ_ATTRS, mmfree_call_apply_wq_attrs),
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
 * The current task's open gather, or NULL.  Only its task closes it, or
 * the disable path once no task is inside a wrapper: the task may keep
 * using it after the RCU read section.
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

static struct mmfree_gather *mmfree_gather_open(void)
{
	struct mmfree_gather *g;

	g = kmalloc(sizeof(*g), GFP_NOWAIT | __GFP_NOWARN | __GFP_NOMEMALLOC);
	if (!g)
		return NULL;
	g->task = current;
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
 * Where struct mmu_gather keeps its batches, from BTF: its header is not
 * for modules (asm/tlb.h needs the unexported flush_tlb_mm_range()).
 */
static struct {
	int local;		/* mmu_gather.local: the first batch */
	int next, nr;		/* mmu_gather_batch.next, .nr */
} off;

#define BATCH_FIELD(batch, field, type) \
	(*(type *)((char *)(batch) + off.field))

/* Entries waiting to be freed in the gather: what a flush would free. */
static unsigned long mmfree_tlb_pending(struct mmu_gather *tlb)
{
	void *batch = (char *)tlb + off.local;
	unsigned long nr = 0;

	for (; batch; batch = BATCH_FIELD(batch, next, void *))
		nr += BATCH_FIELD(batch, nr, unsigned int);
	return nr;
}

static unsigned long mmfree_gathered_count(void *const *entries,
					   unsigned int nr)
{
	unsigned long pages = 0;
	unsigned int i;

	for (i = 0; i < nr; i += mmfree_gathered_span(entries + i))
		pages += mmfree_gathered_pages(entries + i);
	return pages;
}

/* Free memory below the zones' high watermarks: kswapd's business. */
static bool mmfree_memory_pressure(void)
{
	unsigned long high = 0;
	int nid, z;

	for_each_online_node(nid) {
		pg_data_t *pgdat = NODE_DATA(nid);

		for (z = 0; z < MAX_NR_ZONES; z++) {
			struct zone *zone = &pgdat->node_zones[z];

			if (managed_zone(zone))
				high += high_wmark_pages(zone);
		}
	}
	return global_zone_page_state(NR_FREE_PAGES) < high;
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

/* Not a statistic: the pool takes the batch. */
#define MMFREE_OFFLOAD_OK	MMFREE_NR_STATS

/*
 * Why the pool should not take @pages pages now: MMFREE_OFFLOAD_OK if it
 * should, else the statistic that counts them as freed inline.
 */
static enum mmfree_stat_id mmfree_offload_refused(bool async,
						  unsigned long pages)
{
	if (!READ_ONCE(mmfree_pagefree_active))
		return MMFREE_STAT_PAGEFREE_INLINE_DISABLED_PAGES;
	/* Memory must come back before these contexts go on. */
	if (tsk_is_oom_victim(current) || (current->flags & PF_MEMALLOC) ||
	    (async && (current->flags & PF_KTHREAD)))
		return MMFREE_STAT_PAGEFREE_INLINE_OOM_PAGES;
	if (mmfree_memory_pressure())
		return MMFREE_STAT_PAGEFREE_INLINE_PRESSURE_PAGES;
	/*
	 * No other bound on a sync task's queue: freeing mid-zap while a
	 * worker frees too delays the zap and makes both free more slowly
	 * (same zones, same LRU lists).  The task helps once its zap is done.
	 */
	if (mmfree_pool_inflight_pages() + pages >
	    mmfree_knob(MMFREE_KNOB_PAGEFREE_MAX_INFLIGHT_PAGES))
		return MMFREE_STAT_PAGEFREE_INLINE_BUSY_PAGES;
	if (mmfree_knob(MMFREE_KNOB_PAGEFREE_IDLE_ONLY) &&
	    !mmfree_idle_cpu_available())
		return MMFREE_STAT_PAGEFREE_INLINE_BUSY_PAGES;
	return MMFREE_OFFLOAD_OK;
}

/*
 * Queue @entries as items of at most batch_pages entries, each on one
 * node, never splitting an entry from its count.
 *
 * Return: entries queued; the caller frees the rest inline.
 */
static unsigned int mmfree_offload(struct mmfree_gather *g, bool async,
				   void **entries, unsigned int nr)
{
	unsigned int batch = mmfree_knob(MMFREE_KNOB_PAGEFREE_BATCH_PAGES);
	unsigned int start = 0, i = 0;

	while (start < nr) {
		int nid = page_to_nid(mmfree_gathered_page(entries + start));
		struct mmfree_item *item;

		for (i = start; i < nr && i - start < batch;
		     i += mmfree_gathered_span(entries + i))
			if (page_to_nid(mmfree_gathered_page(entries + i)) != nid)
				break;
		item = mmfree_item_alloc();
		if (!item)
			break;
		mmfree_item_put_entries(item, entries + start, i - start,
					mmfree_gathered_count(entries + start,
							      i - start));
		mmfree_item_queue(item, async ? NULL : &g->waiter, nid);
		start = i;
	}
	return start;
}

/* Redirected here: free_pages_and_swap_cache(), with a gather open. */
static void mmfree_free_pages_and_swap_cache(void **entries, int nr)
{
	bool async = mmfree_knob(MMFREE_KNOB_PAGEFREE_MODE) ==
		     MMFREE_PAGEFREE_ASYNC;
	struct mmfree_gather *g;
	enum mmfree_stat_id why;
	unsigned int done = 0;

	mmfree_enter();
	g = mmfree_gather_current();
	why = g ? mmfree_offload_refused(async, nr) :
		  MMFREE_STAT_PAGEFREE_INLINE_DISABLED_PAGES;
	if (why == MMFREE_OFFLOAD_OK && nr > 0) {
		/* The kernel drains the zapping CPU's LRU batches first. */
		mmfree_call_free_pages(entries, 0);
		done = mmfree_offload(g, async, entries, nr);
		why = MMFREE_STAT_PAGEFREE_INLINE_NOMEM_PAGES;
	}
	if (done < nr) {
		mmfree_stat_add(why, mmfree_gathered_count(entries + done,
							   nr - done));
		mmfree_call_free_pages(entries + done, nr - done);
	}
	mmfree_leave();
}

/* Redirected here: a gather's flush, the first to hold min_pages. */
static void mmfree_tlb_flush_mmu(struct mmu_gather *tlb)
{
	mmfree_enter();
	if (READ_ONCE(mmfree_pagefree_active) && !mmfree_gather_current() &&
	    !mmfree_gather_open())
		mmfree_stat_add(MMFREE_STAT_PAGEFREE_INLINE_NOMEM_PAGES,
				mmfree_tlb_pending(tlb));
	mmfree_call_tlb_flush(tlb);
	mmfree_leave();
}

/* Redirected here: every gather's end while pagefree is on. */
static void mmfree_tlb_finish_mmu(struct mmu_gather *tlb)
{
	struct mmfree_gather *g;

	mmfree_enter();
	g = mmfree_gather_current();
	if (!g && READ_ONCE(mmfree_pagefree_active)) {
		unsigned long pending = mmfree_tlb_pending(tlb);

		if (pending < mmfree_knob(MMFREE_KNOB_PAGEFREE_MIN_PAGES))
			mmfree_stat_add(MMFREE_STAT_PAGEFREE_INLINE_SMALL_PAGES,
					pending);
		else if (!mmfree_gather_open())
			mmfree_stat_add(MMFREE_STAT_PAGEFREE_INLINE_NOMEM_PAGES,
					pending);
	}
	mmfree_call_tlb_finish(tlb);
	/* Opened above, mid-zap, or by the final flush just now. */
	g = mmfree_gather_current();
	if (g)
		mmfree_gather_close(g);
	mmfree_leave();
}

/*
 * Pages in flight are memory on its way back: before the OOM killer
 * picks a victim, wait for them, and report progress (the allocation is
 * retried) if that made room, as an OOM notifier that freed pages does.
 */
static bool mmfree_oom_drained(struct oom_control *oc)
{
	struct mem_cgroup *memcg = oc->memcg;

	/* order -1: sysrq asked for a kill, not for memory. */
	if (oc->order < 0 || !mmfree_pool_inflight_pages())
		return false;
	mmfree_pool_drain();
	if (!memcg)
		return true;
	return page_counter_read(&memcg->memory) + (1UL << oc->order) <=
	       READ_ONCE(memcg->memory.max);
}

/* Redirected here: out_of_memory(), with pages in flight. */
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
	if (mmfree_hook_from_us(parent_ip) || !mmfree_gather_current())
		return;
	mmfree_hook_redirect(fregs, mmfree_free_pages_and_swap_cache);
}

static void notrace mmfree_tlb_flush_hook(unsigned long ip,
					  unsigned long parent_ip,
					  struct ftrace_ops *ops,
					  struct ftrace_regs *fregs)
{
	struct mmu_gather *tlb = (void *)mmfree_ftrace_arg(fregs, 0);

	if (mmfree_hook_from_us(parent_ip) ||
	    !READ_ONCE(mmfree_pagefree_active) ||
	    mmfree_gather_current() ||
	    mmfree_tlb_pending(tlb) < mmfree_knob(MMFREE_KNOB_PAGEFREE_MIN_PAGES))
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
	if (mmfree_hook_from_us(parent_ip) || !mmfree_pool_inflight_pages())
		return;
	mmfree_hook_redirect(fregs, mmfree_out_of_memory);
}

/* In attach order: a gather is closed before one can be opened. */
static struct mmfree_hook mmfree_pagefree_hooks[] = {
	{ .name = "out_of_memory", .func = mmfree_oom_hook, .redirect = true },
	{
		.name = "tlb_finish_mmu", .func = mmfree_tlb_finish_hook,
		.redirect = true,
	},
	{
		.name = "free_pages_and_swap_cache",
		.func = mmfree_free_pages_hook, .redirect = true,
	},
	{
		.name = "tlb_flush_mmu", .func = mmfree_tlb_flush_hook,
		.redirect = true,
	},
};

static const int mmfree_pagefree_hook_sym[] = {
	SYM_OOM, SYM_TLB_FINISH, SYM_FREE_PAGES, SYM_TLB_FLUSH,
};

static bool mmfree_pagefree_attached(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(mmfree_pagefree_hooks); i++)
		if (mmfree_pagefree_hooks[i].attached)
			return true;
	return false;
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
}

/**
 * mmfree_pagefree_update - attach or detach to match the knobs
 *
 * Return: 0, or the error that kept the hooks from attaching (then the
 * feature is left off).
 */
int mmfree_pagefree_update(void)
{
	bool want = mmfree_pagefree_available &&
		    mmfree_knob(MMFREE_KNOB_ENABLED) &&
		    mmfree_knob(MMFREE_KNOB_PAGEFREE_ENABLED);
	int i, err = 0;

	if (!mmfree_pagefree_available)
		return 0;
	mutex_lock(&mmfree_pagefree_lock);
	mmfree_pool_set_workers(mmfree_knob(MMFREE_KNOB_PAGEFREE_WORKERS));
	if (!want) {
		if (mmfree_pagefree_attached())
			mmfree_pagefree_detach();
		goto out;
	}
	for (i = 0; i < ARRAY_SIZE(mmfree_pagefree_hooks); i++) {
		err = mmfree_hook_attach(&mmfree_pagefree_hooks[i]);
		if (err) {
			mmfree_pagefree_detach();
			goto out;
		}
	}
	WRITE_ONCE(mmfree_pagefree_active, true);
out:
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

/* Offsets of the gather fields mmfree reads; any missing one keeps it off. */
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
	if (tlb && batch) {
		off.local = mmfree_btf_member(tlb, "local", batch->size);
		off.next = mmfree_btf_member(batch, "next", sizeof(void *));
		off.nr = mmfree_btf_member(batch, "nr", sizeof(unsigned int));
	}
	if (!tlb || !batch || off.local < 0 || off.next < 0 || off.nr < 0)
		err = -ENOENT;
	mmfree_btf_exit();
	return err;
}

static int mmfree_pagefree_resolve(void)
{
	int i, err;

	err = mmfree_ksyms_resolve("pagefree", mmfree_pagefree_syms, NR_SYMS);
	if (err)
		return err;
	if (!mmfree_kernel_tested()) {
		pr_warn("pagefree disabled: kernel %s is untested\n",
			init_utsname()->release);
		return -EOPNOTSUPP;
	}
	err = mmfree_pagefree_layout();
	if (err) {
		pr_warn("pagefree disabled: BTF does not confirm the layout of struct mmu_gather\n");
		return err;
	}
	for (i = 0; i < ARRAY_SIZE(mmfree_pagefree_hooks); i++)
		mmfree_pagefree_hooks[i].addr =
			mmfree_pagefree_syms[mmfree_pagefree_hook_sym[i]].addr;
	return 0;
}

static void mmfree_gates_close(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(mmfree_gates); i++)
		mmfree_gate_close(&mmfree_gates[i]);
}

/* Whether the feature can run on this kernel (decided at load). */
bool mmfree_pagefree_usable(void)
{
	return mmfree_pagefree_available;
}

void mmfree_pagefree_init(void)
{
	int i, err;

	if (mmfree_pagefree_resolve())
		return;
	err = mmfree_pool_init();
	if (err) {
		pr_warn("pagefree disabled: no worker pool (%d)\n", err);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(mmfree_gates); i++) {
		err = mmfree_gate_open(&mmfree_gates[i],
				       mmfree_pagefree_syms[i].addr);
		if (err) {
			pr_warn("pagefree disabled: cannot call %s (%d)\n",
				mmfree_pagefree_syms[i].name, err);
			mmfree_gates_close();
			mmfree_pool_exit();
			return;
		}
	}
	err = mmfree_pool_keep_to_nodes(mmfree_call_apply_wq_attrs);
	if (err)
		pr_warn("pagefree: workers may run off their pages' node (%d)\n",
			err);
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
	mmfree_pagefree_detach();
	mutex_unlock(&mmfree_pagefree_lock);
	mmfree_gates_close();
	mmfree_pool_exit();
	/* A task may still be on a wrapper's last instructions. */
	synchronize_rcu_tasks();
}
