// SPDX-License-Identifier: GPL-2.0
/*
 * Percpu policy: depopulate the empty percpu pages the stock heuristic
 * leaves populated.
 *
 * free_percpu() isolates a chunk for depopulation only when a quarter of
 * it is empty (pcpu_should_reclaim_chunk()), so a chunk that keeps a few
 * live allocations keeps all its empty pages.  mmfree isolates, at the
 * start of a balance run (pcpu_balance_workfn()), every chunk with at
 * least min_empty_pages empty populated pages while keep_empty_pages stay
 * populated system wide, with exactly pcpu_isolate_chunk()'s accounting.
 * The same run's pcpu_reclaim_populated() then unmaps and frees the pages
 * and sidelines or reintegrates the chunk: mmfree never depopulates
 * anything itself, and allocation reintegrates a sidelined chunk as it
 * does for the kernel's own isolations.
 *
 * mmfree isolates only in balance runs it asked for; the kernel's own runs
 * (scheduled when an allocation leaves too few empty pages) stay stock.
 * It asks when percpu frees have been quiet for MMFREE_PCPU_QUIET_MS (an
 * rmdir storm is over), at the latest MMFREE_PCPU_LATEST_MS after the
 * first free since the last run, every interval_ms, and on a write to
 * reclaim.  That is the hysteresis: under steady churn (memory cgroups
 * created and deleted all the time) a page emptied now is likely filled
 * again soon, and each depopulating run ends in a TLB flush on every CPU,
 * so mmfree depopulates at most once per MMFREE_PCPU_LATEST_MS then, and
 * down to the floor once the churn stops.
 *
 * Chunk lists, chunk fields and the global counters are protected by
 * pcpu_lock, taken with interrupts off as the kernel does.  Statistics
 * that walk the chunks under it are root-only files; the page bitmaps are
 * walked only for the debugfs recount.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/ftrace.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "compat.h"
#include "mmfree.h"
#include "trace.h"

/* A page is empty when its block's longest free run spans the page. */
#define MMFREE_PCPU_BLOCK_BITS	(PAGE_SIZE >> 2)	/* PCPU_MIN_ALLOC_SHIFT */
/* Frees quiet this long: a burst (an rmdir storm) is over. */
#define MMFREE_PCPU_QUIET_MS	1000
/* Under steady churn, a run at most this long after the first free. */
#define MMFREE_PCPU_LATEST_MS	10000

/* The kernel's percpu allocator, where its symbols were found. */
static struct {
	struct list_head **lists;	/* pcpu_chunk_lists: one per slot */
	int *nr_slots, *sidelined_slot, *to_depopulate_slot;
	spinlock_t *lock;		/* pcpu_lock: chunk lists and counters */
	struct work_struct *balance_work;
	int *nr_empty_pop_pages;
	unsigned long *nr_populated;
	int *nr_units;
	void **first_chunk, **reserved_chunk;
} mmfree_pcpu;

/* Slots as pcpu_setup_first_chunk() lays them out: ..., sidelined, free. */
static int mmfree_pcpu_free_slot;

/* Byte offsets in struct pcpu_chunk and struct pcpu_block_md, from BTF. */
static struct {
	int list, free_bytes, md_blocks, immutable, isolated;
	int nr_pages, nr_populated, nr_empty_pop_pages, populated;
	int block_size, contig_hint;
} mmfree_chunk_off;

#define CHUNK(chunk, field, type) \
	(*(type *)((char *)(chunk) + mmfree_chunk_off.field))

static bool mmfree_percpu_attached;
static DEFINE_MUTEX(mmfree_percpu_lock);	/* serialises on/off, reclaim */
/* The interval the tick was armed with, under mmfree_percpu_lock. */
static unsigned int mmfree_percpu_tick_ms;

/* The balance run in progress that mmfree isolated chunks for. */
static struct {
	unsigned long populated;	/* pcpu_nr_populated at its start */
	bool isolated;
} mmfree_percpu_run;

/* Bits of mmfree_percpu_flags. */
enum {
	MMFREE_PCPU_KICK_PENDING,	/* a kick is scheduled */
	MMFREE_PCPU_RUN_WANTED,		/* the next balance run is mmfree's */
};

static unsigned long mmfree_percpu_flags;
/* jiffies of the last chunk count the statistics keep; 0: none. */
static unsigned long mmfree_percpu_last_at;
/* jiffies of the latest free, and of the first since the last kick. */
static unsigned long mmfree_percpu_last_free, mmfree_percpu_first_free;
static struct dentry *mmfree_percpu_debugfs;

static void *mmfree_chunk_of(struct list_head *node)
{
	return (char *)node - mmfree_chunk_off.list;
}

static struct list_head *mmfree_chunk_node(void *chunk)
{
	return (struct list_head *)((char *)chunk + mmfree_chunk_off.list);
}

static struct list_head *mmfree_pcpu_slot(int slot)
{
	return &(*mmfree_pcpu.lists)[slot];
}

/*
 * A walk over the chunks on the lists of slots 0 to last, under
 * pcpu_lock: the current chunk may be moved to another list, as the next
 * node is taken before it is returned.
 */
struct mmfree_chunk_iter {
	int slot, last;			/* slot: the current chunk's */
	struct list_head *next;
};

static void *mmfree_chunks_next(struct mmfree_chunk_iter *it)
{
	struct list_head *pos;

	while (it->next == mmfree_pcpu_slot(it->slot)) {
		if (++it->slot > it->last)
			return NULL;
		it->next = mmfree_pcpu_slot(it->slot)->next;
	}
	pos = it->next;
	it->next = pos->next;
	return mmfree_chunk_of(pos);
}

static void *mmfree_chunks_first(struct mmfree_chunk_iter *it, int last)
{
	it->slot = 0;
	it->last = last;
	it->next = mmfree_pcpu_slot(0)->next;
	return mmfree_chunks_next(it);
}

static bool mmfree_chunk_page_empty(void *chunk, int page)
{
	const char *md = CHUNK(chunk, md_blocks, const char *);
	int contig = *(const int *)(md + page * mmfree_chunk_off.block_size +
				    mmfree_chunk_off.contig_hint);

	return contig == MMFREE_PCPU_BLOCK_BITS &&
	       test_bit(page, &CHUNK(chunk, populated, unsigned long));
}

static bool mmfree_chunk_first(void *chunk)
{
	return chunk == *mmfree_pcpu.first_chunk ||
	       chunk == *mmfree_pcpu.reserved_chunk;
}

/* Whether a chunk has pages to depopulate, whatever its list. */
static bool mmfree_chunk_reclaimable(void *chunk, int min)
{
	/* Never the first or reserved chunk (pcpu_should_reclaim_chunk()). */
	return !mmfree_chunk_first(chunk) &&
	       !CHUNK(chunk, immutable, bool) &&
	       CHUNK(chunk, nr_empty_pop_pages, int) >= min;
}

/* A chunk whose empty pages count in the float now, to isolate. */
static bool mmfree_chunk_candidate(void *chunk, int min)
{
	return !CHUNK(chunk, isolated, bool) &&
	       mmfree_chunk_reclaimable(chunk, min);
}

/*
 * The candidate that is to keep the float, or NULL when chunks that are
 * not candidates hold it already.  Sets *none when no single candidate
 * can hold it.
 */
static void *mmfree_percpu_holder(int min, int keep, bool *none)
{
	int held = *mmfree_pcpu.nr_empty_pop_pages;
	struct mmfree_chunk_iter it;
	void *chunk, *holder = NULL;

	*none = false;
	/* Sidelined chunks are isolated already: in no float. */
	for (chunk = mmfree_chunks_first(&it, mmfree_pcpu_free_slot); chunk;
	     chunk = mmfree_chunks_next(&it))
		if (mmfree_chunk_candidate(chunk, min))
			held -= CHUNK(chunk, nr_empty_pop_pages, int);
	if (held >= keep)
		return NULL;
	for (chunk = mmfree_chunks_first(&it, mmfree_pcpu_free_slot); chunk;
	     chunk = mmfree_chunks_next(&it)) {
		int empty = CHUNK(chunk, nr_empty_pop_pages, int);

		if (mmfree_chunk_candidate(chunk, min) && held + empty >= keep &&
		    (!holder || empty < CHUNK(holder, nr_empty_pop_pages, int)))
			holder = chunk;
	}
	*none = !holder;
	return holder;
}

/*
 * Isolate qualifying chunks onto the to-depopulate list, exactly as
 * pcpu_isolate_chunk() does.
 *
 * pcpu_reclaim_populated() reintegrates an isolated chunk untouched while
 * fewer than 4 empty pages remain in non-isolated chunks, so the float
 * (keep_empty_pages) must stay in chunks that are not isolated.  When
 * chunks outside the candidates do not hold it, the candidate with the
 * fewest empty pages that can hold it alone stays; all others go.  When
 * none can hold it alone, candidates go in list order for as long as
 * those left hold it: a few chunks keep it together.
 *
 * A sidelined chunk is isolated already, so its empty pages are in no
 * float, yet pcpu_balance_populated() populates it (its slot comes
 * before the free one) when non-isolated chunks run low, and nothing
 * depopulates those pages until a free in the chunk lists it again
 * (pcpu_should_reclaim_chunk()) or an allocation reintegrates it.  It
 * goes back to the to-depopulate list, as pcpu_isolate_chunk() moves an
 * isolated chunk: the reclaim then depopulates those pages, or
 * reintegrates the chunk with them while the float is short.
 */
static void mmfree_percpu_isolate(int *chunks, int *pages)
{
	int min = mmfree_knob(MMFREE_KNOB_PERCPU_MIN_EMPTY_PAGES);
	int keep = mmfree_knob(MMFREE_KNOB_PERCPU_KEEP_EMPTY_PAGES);
	struct list_head *to = mmfree_pcpu_slot(*mmfree_pcpu.to_depopulate_slot);
	struct mmfree_chunk_iter it;
	void *chunk, *holder;
	bool none;

	lockdep_assert_held(mmfree_pcpu.lock);
	holder = mmfree_percpu_holder(min, keep, &none);
	for (chunk = mmfree_chunks_first(&it, mmfree_pcpu_free_slot); chunk;
	     chunk = mmfree_chunks_next(&it)) {
		int empty = CHUNK(chunk, nr_empty_pop_pages, int);

		if (it.slot == *mmfree_pcpu.sidelined_slot) {
			/* Isolated already: the counts stay as they are. */
			if (!mmfree_chunk_reclaimable(chunk, min))
				continue;
		} else {
			if (chunk == holder || !mmfree_chunk_candidate(chunk, min))
				continue;
			/* The kernel's count is of the chunks not isolated. */
			if (none &&
			    *mmfree_pcpu.nr_empty_pop_pages - empty < keep)
				continue;
			CHUNK(chunk, isolated, bool) = true;
			*mmfree_pcpu.nr_empty_pop_pages -= empty;
		}
		list_move(mmfree_chunk_node(chunk), to);
		(*chunks)++;
		*pages += empty;
		mmfree_stat_add(MMFREE_STAT_PERCPU_ISOLATED_CHUNKS, 1);
		mmfree_percpu_run.isolated = true;
	}
}

/*
 * At the start of a balance run, before pcpu_reclaim_populated(): only in
 * runs mmfree asked for (mmfree_percpu_request_run()).
 */
static void notrace mmfree_balance_workfn_cb(struct mmfree_hook *hook,
					     unsigned long parent_ip,
					     struct ftrace_regs *fregs)
{
	int chunks = 0, pages = 0;
	unsigned long flags;

	/*
	 * Every run starts clean: one that isolated while the hooks were
	 * detached under it never reached mmfree_balance_free_cb().
	 */
	mmfree_percpu_run.isolated = false;
	if (!test_and_clear_bit(MMFREE_PCPU_RUN_WANTED, &mmfree_percpu_flags))
		return;
	spin_lock_irqsave(mmfree_pcpu.lock, flags);
	mmfree_percpu_run.populated = *mmfree_pcpu.nr_populated;
	mmfree_percpu_isolate(&chunks, &pages);
	spin_unlock_irqrestore(mmfree_pcpu.lock, flags);
	mmfree_stat_add(MMFREE_STAT_PERCPU_SCANS, 1);
	trace_mmfree_percpu_scan(chunks, pages);
}

/*
 * pcpu_balance_free(true) ends a balance run, after the reclaim: count
 * what the run released when mmfree had isolated chunks for it.  Balance
 * runs are serialised by the workqueue (one work item).
 */
static void notrace mmfree_balance_free_cb(struct mmfree_hook *hook,
					   unsigned long parent_ip,
					   struct ftrace_regs *fregs)
{
	long released;

	/* A bool argument: only its low byte is defined (x86-64 ABI). */
	if (!(u8)mmfree_ftrace_arg(fregs, 0) || !mmfree_percpu_run.isolated)
		return;
	released = (long)(mmfree_percpu_run.populated -
			  READ_ONCE(*mmfree_pcpu.nr_populated));
	if (released > 0)
		mmfree_stat_add(MMFREE_STAT_PERCPU_DEPOPULATED_PAGES, released);
	trace_mmfree_percpu_result(released);
	mmfree_percpu_run.isolated = false;
	/* The chunks changed: the next statistic counts them again. */
	WRITE_ONCE(mmfree_percpu_last_at, 0);
}

/* Have the next balance run isolate, and queue one. */
static void mmfree_percpu_request_run(void)
{
	set_bit(MMFREE_PCPU_RUN_WANTED, &mmfree_percpu_flags);
	schedule_work(mmfree_pcpu.balance_work);
}

static void mmfree_percpu_kick_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(mmfree_percpu_kick_work, mmfree_percpu_kick_fn);

/* Quiet since the latest free, or waited long enough: run; else wait on. */
static void mmfree_percpu_kick_fn(struct work_struct *work)
{
	unsigned long now = jiffies;
	unsigned long quiet = READ_ONCE(mmfree_percpu_last_free) +
			      msecs_to_jiffies(MMFREE_PCPU_QUIET_MS);
	unsigned long latest = READ_ONCE(mmfree_percpu_first_free) +
			       msecs_to_jiffies(MMFREE_PCPU_LATEST_MS);

	if (time_before(now, quiet) && time_before(now, latest)) {
		schedule_delayed_work(&mmfree_percpu_kick_work,
				      (time_before(quiet, latest) ? quiet : latest) -
				      now);
		return;
	}
	clear_bit(MMFREE_PCPU_KICK_PENDING, &mmfree_percpu_flags);
	mmfree_percpu_request_run();
}

/*
 * Any context: free_percpu() runs in softirq (RCU callbacks) too.  On
 * every free of every CPU: shared words are written at most once a jiffy
 * and once a kick.
 */
static void notrace mmfree_free_percpu_cb(struct mmfree_hook *hook,
					  unsigned long parent_ip,
					  struct ftrace_regs *fregs)
{
	unsigned long now = jiffies;

	if (READ_ONCE(mmfree_percpu_last_free) != now)
		WRITE_ONCE(mmfree_percpu_last_free, now);
	if (test_bit(MMFREE_PCPU_KICK_PENDING, &mmfree_percpu_flags) ||
	    test_and_set_bit(MMFREE_PCPU_KICK_PENDING, &mmfree_percpu_flags))
		return;
	WRITE_ONCE(mmfree_percpu_first_free, now);
	schedule_delayed_work(&mmfree_percpu_kick_work,
			      msecs_to_jiffies(MMFREE_PCPU_QUIET_MS));
}

static void mmfree_percpu_tick_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(mmfree_percpu_tick_work, mmfree_percpu_tick_fn);

static void mmfree_percpu_tick_fn(struct work_struct *work)
{
	unsigned int ms = mmfree_knob(MMFREE_KNOB_PERCPU_INTERVAL_MS);

	mmfree_percpu_request_run();
	if (ms && READ_ONCE(mmfree_percpu_attached))
		schedule_delayed_work(&mmfree_percpu_tick_work,
				      msecs_to_jiffies(ms));
}

/*
 * Permanent, though they only observe: with ftrace switched off percpu
 * would still say it is on, reclaim would run stock's balance alone and
 * report success, and a run observed at one end only would count wrong.
 */
#define MMFREE_OBSERVE(cb) \
	(&(struct mmfree_hook){ .func = cb, .permanent = true })
#define MMFREE_DATA(sym, where)	{ .name = sym, .data = (void **)(where) }

/*
 * What percpu does with each kernel symbol: the data it reads, and the
 * functions it observes (no function is replaced, and they go live
 * together), with the prototype BTF must show for each.
 */
static struct mmfree_sym mmfree_percpu_syms[] = {
	MMFREE_DATA("pcpu_chunk_lists", &mmfree_pcpu.lists),
	MMFREE_DATA("pcpu_nr_slots", &mmfree_pcpu.nr_slots),
	MMFREE_DATA("pcpu_sidelined_slot", &mmfree_pcpu.sidelined_slot),
	MMFREE_DATA("pcpu_to_depopulate_slot",
		    &mmfree_pcpu.to_depopulate_slot),
	MMFREE_DATA("pcpu_lock", &mmfree_pcpu.lock),
	MMFREE_DATA("pcpu_balance_work", &mmfree_pcpu.balance_work),
	MMFREE_DATA("pcpu_nr_empty_pop_pages",
		    &mmfree_pcpu.nr_empty_pop_pages),
	MMFREE_DATA("pcpu_nr_populated", &mmfree_pcpu.nr_populated),
	MMFREE_DATA("pcpu_nr_units", &mmfree_pcpu.nr_units),
	MMFREE_DATA("pcpu_first_chunk", &mmfree_pcpu.first_chunk),
	MMFREE_DATA("pcpu_reserved_chunk", &mmfree_pcpu.reserved_chunk),
	{
		.name = "pcpu_balance_workfn",
		.proto = "void (struct work_struct *)",
		.hook = MMFREE_OBSERVE(mmfree_balance_workfn_cb),
	},
	{
		.name = "pcpu_balance_free", .proto = "void (bool)",
		.hook = MMFREE_OBSERVE(mmfree_balance_free_cb),
	},
	{
		.name = "free_percpu", .proto = "void (void *)",
		.hook = MMFREE_OBSERVE(mmfree_free_percpu_cb),
	},
};

/* Return: 0, or the error of a hook that stays attached (retry later). */
static int mmfree_percpu_detach(void)
{
	int err;

	err = mmfree_syms_detach(mmfree_percpu_syms,
				 ARRAY_SIZE(mmfree_percpu_syms));
	/* No hook can queue them now; the tick stops re-arming itself. */
	WRITE_ONCE(mmfree_percpu_attached, false);
	cancel_delayed_work_sync(&mmfree_percpu_kick_work);
	cancel_delayed_work_sync(&mmfree_percpu_tick_work);
	clear_bit(MMFREE_PCPU_KICK_PENDING, &mmfree_percpu_flags);
	clear_bit(MMFREE_PCPU_RUN_WANTED, &mmfree_percpu_flags);
	/*
	 * A run detached under after it isolated never reached its end's
	 * hook; were the hooks attached again before the next run's end,
	 * that end would count the next run's release as mmfree's.  A
	 * detach waits for the callbacks in flight; after a failed one they
	 * may still run, and each run's start resets the flag itself.
	 */
	if (!err)
		mmfree_percpu_run.isolated = false;
	return err;
}

/* Attach or detach to match the knobs, and re-arm the tick. */
static int mmfree_percpu_update(void)
{
	bool want = mmfree_knob_feature_on(MMFREE_KNOB_PERCPU_ENABLED);
	unsigned int ms = mmfree_knob(MMFREE_KNOB_PERCPU_INTERVAL_MS);
	bool rearm;
	int err = 0;

	mutex_lock(&mmfree_percpu_lock);
	if (!want) {
		err = mmfree_percpu_detach();
		goto out;
	}
	err = mmfree_syms_attach(mmfree_percpu_syms,
				 ARRAY_SIZE(mmfree_percpu_syms));
	if (err) {
		mmfree_percpu_detach();
		goto out;
	}
	/*
	 * Re-arm the tick only when it starts or its interval changed: every
	 * knob write comes here, and writes more often than the interval
	 * would otherwise keep putting the next tick off.
	 */
	rearm = !mmfree_percpu_attached || ms != mmfree_percpu_tick_ms;
	WRITE_ONCE(mmfree_percpu_attached, true);
	if (rearm) {
		cancel_delayed_work_sync(&mmfree_percpu_tick_work);
		if (ms)
			schedule_delayed_work(&mmfree_percpu_tick_work,
					      msecs_to_jiffies(ms));
		mmfree_percpu_tick_ms = ms;
	}
out:
	mutex_unlock(&mmfree_percpu_lock);
	return err;
}

/*
 * percpu/reclaim: scan and depopulate now, return when done; -EPERM
 * while the feature is off.
 */
static int mmfree_percpu_reclaim(void)
{
	int err = 0;

	mutex_lock(&mmfree_percpu_lock);
	if (!mmfree_percpu_attached) {
		err = -EPERM;
		goto out;
	}
	/*
	 * A queued run scans when it starts; a running one has scanned, so
	 * queue another.  flush_work() waits for the last queued run.
	 */
	mmfree_percpu_request_run();
	flush_work(mmfree_pcpu.balance_work);
out:
	mutex_unlock(&mmfree_percpu_lock);
	return err;
}

struct mmfree_percpu_count {
	long chunks, populated, empty, floor;
	/* Non-isolated chunks only, as pcpu_nr_empty_pop_pages counts. */
	long listed_empty, bitmap_empty;
	long kernel_empty;
	/* Empty pages of the chunks the kernel never depopulates. */
	long first_empty;
};

/*
 * Count what the chunks hold, under pcpu_lock with interrupts off: only
 * for root (the files that call it are 0400, debugfs is root's), as every
 * percpu allocation and free waits meanwhile.  @bitmaps: also recount
 * the empty pages from the page bitmaps (the debugfs check).
 */
static noinline void mmfree_percpu_count(struct mmfree_percpu_count *c,
					 bool bitmaps)
{
	struct mmfree_chunk_iter it;
	unsigned long flags;
	void *chunk;
	int page;

	memset(c, 0, sizeof(*c));
	spin_lock_irqsave(mmfree_pcpu.lock, flags);
	for (chunk = mmfree_chunks_first(&it, *mmfree_pcpu.nr_slots - 1); chunk;
	     chunk = mmfree_chunks_next(&it)) {
		int empty = CHUNK(chunk, nr_empty_pop_pages, int);

		c->chunks++;
		c->empty += empty;
		if (mmfree_chunk_first(chunk))
			c->first_empty += empty;
		if (CHUNK(chunk, isolated, bool))
			continue;
		c->listed_empty += empty;
		for (page = 0; bitmaps && page < CHUNK(chunk, nr_pages, int);
		     page++)
			c->bitmap_empty += mmfree_chunk_page_empty(chunk, page);
	}
	c->populated = *mmfree_pcpu.nr_populated;
	c->kernel_empty = *mmfree_pcpu.nr_empty_pop_pages;
	/* The static area counts as populated in no chunk: it is live. */
	c->floor = c->populated - c->empty;
	spin_unlock_irqrestore(mmfree_pcpu.lock, flags);
}

/*
 * The last count, for the statistics that need one: mmfreectl status
 * reads three of them at once, and each walk holds every percpu
 * allocation up.  Kept MMFREE_PCPU_COUNT_TTL; a balance run that
 * mmfree asked for (a reclaim) drops it.
 */
#define MMFREE_PCPU_COUNT_TTL	(HZ / 10)
static DEFINE_MUTEX(mmfree_percpu_count_lock);
static struct mmfree_percpu_count mmfree_percpu_last;

static void mmfree_percpu_count_recent(struct mmfree_percpu_count *c)
{
	unsigned long at;

	mutex_lock(&mmfree_percpu_count_lock);
	at = READ_ONCE(mmfree_percpu_last_at);
	if (!at || time_after(jiffies, at + MMFREE_PCPU_COUNT_TTL)) {
		mmfree_percpu_count(&mmfree_percpu_last, false);
		WRITE_ONCE(mmfree_percpu_last_at, jiffies ?: 1);
	}
	*c = mmfree_percpu_last;
	mutex_unlock(&mmfree_percpu_count_lock);
}

/* The value of one percpu/stats file. */
static long mmfree_percpu_stat(enum mmfree_stat_id id)
{
	struct mmfree_percpu_count c;

	switch (id) {
	case MMFREE_STAT_PERCPU_UNITS:
		return *mmfree_pcpu.nr_units;
	case MMFREE_STAT_PERCPU_POPULATED_PAGES:
		return READ_ONCE(*mmfree_pcpu.nr_populated);
	case MMFREE_STAT_PERCPU_EMPTY_PAGES:
	case MMFREE_STAT_PERCPU_FLOOR_PAGES:
	case MMFREE_STAT_PERCPU_CHUNKS:
		break;
	default:
		return mmfree_stat_sum(id);
	}
	mmfree_percpu_count_recent(&c);
	if (id == MMFREE_STAT_PERCPU_EMPTY_PAGES)
		return c.empty;
	if (id == MMFREE_STAT_PERCPU_FLOOR_PAGES)
		return c.floor;
	return c.chunks;
}

static int mmfree_percpu_accounting_show(struct seq_file *m, void *v)
{
	struct mmfree_percpu_count c;
	struct mmfree_chunk_iter it;
	unsigned long flags;
	void *chunk;

	/* One line per chunk, for diagnosis. */
	spin_lock_irqsave(mmfree_pcpu.lock, flags);
	for (chunk = mmfree_chunks_first(&it, *mmfree_pcpu.nr_slots - 1); chunk;
	     chunk = mmfree_chunks_next(&it))
		seq_printf(m, "chunk slot %d pages %d populated %d empty %d free_bytes %d isolated %d%s\n",
			   it.slot, CHUNK(chunk, nr_pages, int),
			   CHUNK(chunk, nr_populated, int),
			   CHUNK(chunk, nr_empty_pop_pages, int),
			   CHUNK(chunk, free_bytes, int),
			   CHUNK(chunk, isolated, bool),
			   chunk == *mmfree_pcpu.first_chunk ? " first" : "");
	spin_unlock_irqrestore(mmfree_pcpu.lock, flags);

	mmfree_percpu_count(&c, true);
	seq_printf(m, "pcpu_nr_empty_pop_pages %ld\n", c.kernel_empty);
	seq_printf(m, "chunks_nr_empty_pop_pages %ld\n", c.listed_empty);
	seq_printf(m, "bitmap_empty_pop_pages %ld\n", c.bitmap_empty);
	seq_printf(m, "first_chunk_empty_pages %ld\n", c.first_empty);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mmfree_percpu_accounting);

/* The fields percpu reads, with the types it reads them as. */
static const struct mmfree_field mmfree_chunk_fields[] = {
	{ "pcpu_chunk", "list", "struct list_head", &mmfree_chunk_off.list },
	{ "pcpu_chunk", "free_bytes", "int", &mmfree_chunk_off.free_bytes },
	{ "pcpu_chunk", "md_blocks", "struct pcpu_block_md *",
	  &mmfree_chunk_off.md_blocks },
	{ "pcpu_chunk", "immutable", "bool", &mmfree_chunk_off.immutable },
	{ "pcpu_chunk", "isolated", "bool", &mmfree_chunk_off.isolated },
	{ "pcpu_chunk", "nr_pages", "int", &mmfree_chunk_off.nr_pages },
	{ "pcpu_chunk", "nr_populated", "int",
	  &mmfree_chunk_off.nr_populated },
	{ "pcpu_chunk", "nr_empty_pop_pages", "int",
	  &mmfree_chunk_off.nr_empty_pop_pages },
	{ "pcpu_chunk", "populated", "long unsigned int[0]",
	  &mmfree_chunk_off.populated },
	{ "pcpu_block_md", "contig_hint", "int",
	  &mmfree_chunk_off.contig_hint },
	{ "pcpu_block_md", "", "", &mmfree_chunk_off.block_size },
};

static int mmfree_percpu_init(struct dentry *debugfs)
{
	/* pcpu_setup_first_chunk(): sidelined, free, to_depopulate, end. */
	mmfree_pcpu_free_slot = *mmfree_pcpu.sidelined_slot + 1;
	if (*mmfree_pcpu.to_depopulate_slot != mmfree_pcpu_free_slot + 1 ||
	    *mmfree_pcpu.nr_slots != *mmfree_pcpu.to_depopulate_slot + 1) {
		pr_warn("percpu disabled: unexpected chunk slot layout\n");
		return -EINVAL;
	}
	pr_info("percpu: %d units, chunk layout from BTF\n",
		*mmfree_pcpu.nr_units);
	mmfree_percpu_debugfs = debugfs_create_file("percpu_accounting", 0400,
						    debugfs, NULL,
						    &mmfree_percpu_accounting_fops);
	return 0;
}

static void mmfree_percpu_exit(void)
{
	mutex_lock(&mmfree_percpu_lock);
	/* The module goes whatever: what stays attached must not. */
	while (mmfree_percpu_detach())
		msleep(1000);
	mutex_unlock(&mmfree_percpu_lock);
	debugfs_remove(mmfree_percpu_debugfs);
}

struct mmfree_feature mmfree_percpu_feature = {
	.name = "percpu",
	.syms = mmfree_percpu_syms,
	.nr_syms = ARRAY_SIZE(mmfree_percpu_syms),
	.fields = mmfree_chunk_fields,
	.nr_fields = ARRAY_SIZE(mmfree_chunk_fields),
	.init = mmfree_percpu_init,
	.exit = mmfree_percpu_exit,
	.enabled_knob = MMFREE_KNOB_PERCPU_ENABLED,
	.update = mmfree_percpu_update,
	.stat = mmfree_percpu_stat,
	.action_name = "reclaim",
	.action = mmfree_percpu_reclaim,
};
