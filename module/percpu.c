// SPDX-License-Identifier: GPL-2.0
/*
 * Percpu policy: depopulate the empty percpu pages the stock heuristic
 * leaves populated.
 *
 * free_percpu() isolates a chunk for depopulation only when a quarter of
 * it is empty (pcpu_should_reclaim_chunk()), so a chunk that keeps a few
 * live allocations keeps all its empty pages.  mmfree isolates, at the
 * start of each balance run (pcpu_balance_workfn()), every chunk with at
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

#include <linux/btf.h>
#include <linux/debugfs.h>
#include <linux/ftrace.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/sysfs.h>
#include <linux/utsname.h>
#include <linux/workqueue.h>

#include "compat.h"
#include "mmfree.h"

/* A page is empty when its block's longest free run spans the page. */
#define MMFREE_PCPU_BLOCK_BITS	(PAGE_SIZE >> 2)	/* PCPU_MIN_ALLOC_SHIFT */
/* Frees quiet this long: a burst (an rmdir storm) is over. */
#define MMFREE_PCPU_QUIET_MS	1000
/* Under steady churn, a run at most this long after the first free. */
#define MMFREE_PCPU_LATEST_MS	10000

enum {
	SYM_BALANCE_WORKFN, SYM_BALANCE_FREE, SYM_FREE_PERCPU,
	SYM_CHUNK_LISTS, SYM_NR_SLOTS, SYM_SIDELINED_SLOT,
	SYM_TO_DEPOPULATE_SLOT, SYM_LOCK, SYM_BALANCE_WORK,
	SYM_NR_EMPTY_POP_PAGES, SYM_NR_POPULATED, SYM_NR_UNITS,
	SYM_FIRST_CHUNK, SYM_RESERVED_CHUNK, SYM_START_BTF, SYM_STOP_BTF,
	NR_SYMS
};

static struct mmfree_ksym mmfree_percpu_syms[NR_SYMS] = {
	[SYM_BALANCE_WORKFN] = { .name = "pcpu_balance_workfn" },
	[SYM_BALANCE_FREE] = { .name = "pcpu_balance_free" },
	[SYM_FREE_PERCPU] = { .name = "free_percpu" },
	[SYM_CHUNK_LISTS] = { .name = "pcpu_chunk_lists" },
	[SYM_NR_SLOTS] = { .name = "pcpu_nr_slots" },
	[SYM_SIDELINED_SLOT] = { .name = "pcpu_sidelined_slot" },
	[SYM_TO_DEPOPULATE_SLOT] = { .name = "pcpu_to_depopulate_slot" },
	[SYM_LOCK] = { .name = "pcpu_lock" },
	[SYM_BALANCE_WORK] = { .name = "pcpu_balance_work" },
	[SYM_NR_EMPTY_POP_PAGES] = { .name = "pcpu_nr_empty_pop_pages" },
	[SYM_NR_POPULATED] = { .name = "pcpu_nr_populated" },
	[SYM_NR_UNITS] = { .name = "pcpu_nr_units" },
	[SYM_FIRST_CHUNK] = { .name = "pcpu_first_chunk" },
	[SYM_RESERVED_CHUNK] = { .name = "pcpu_reserved_chunk" },
	/* The kernel's raw BTF: its BTF helpers are sealed under IBT. */
	[SYM_START_BTF] = { .name = "__start_BTF" },
	[SYM_STOP_BTF] = { .name = "__stop_BTF" },
};

#define KSYM(id, type)	((type)mmfree_percpu_syms[id].addr)

/* The kernel's percpu state, resolved at load. */
static struct {
	struct list_head *lists;
	int nr_slots, sidelined_slot, free_slot, to_depopulate_slot;
	spinlock_t *lock;		/* pcpu_lock: chunk lists and counters */
	struct work_struct *balance_work;
	int *nr_empty_pop_pages;
	unsigned long *nr_populated;
	int nr_units;
	void *first_chunk, *reserved_chunk;
} pcpu;

/* Byte offsets in struct pcpu_chunk and struct pcpu_block_md, from BTF. */
static struct {
	int list, free_bytes, md_blocks, immutable, isolated;
	int nr_pages, nr_populated, nr_empty_pop_pages, populated;
	int block_size, contig_hint;
} off;

#define CHUNK(chunk, field, type) (*(type *)((char *)(chunk) + off.field))

static bool mmfree_percpu_available;
static bool mmfree_percpu_on;
static DEFINE_MUTEX(mmfree_percpu_lock);	/* serialises on/off */

static struct {
	atomic_long_t scans;
	atomic_long_t isolated_chunks;
	atomic_long_t depopulated;
	/* Balance run in progress that mmfree isolated chunks for. */
	unsigned long run_populated;
	bool run_isolated;
} stats;

/* Bits of mmfree_percpu_flags. */
enum {
	MMFREE_PCPU_KICK_PENDING,	/* a kick is scheduled */
	MMFREE_PCPU_RUN_WANTED,		/* the next balance run is mmfree's */
};

static unsigned long mmfree_percpu_flags;
/* jiffies of the latest free, and of the first since the last kick. */
static unsigned long mmfree_percpu_last_free, mmfree_percpu_first_free;
static struct dentry *mmfree_percpu_debugfs;

static void *mmfree_chunk_of(struct list_head *node)
{
	return (char *)node - off.list;
}

static bool mmfree_chunk_page_empty(void *chunk, int page)
{
	const char *md = CHUNK(chunk, md_blocks, const char *);
	int contig = *(const int *)(md + page * off.block_size +
				    off.contig_hint);

	return contig == MMFREE_PCPU_BLOCK_BITS &&
	       test_bit(page, &CHUNK(chunk, populated, unsigned long));
}

static bool mmfree_chunk_candidate(void *chunk, int min)
{
	/* Never the first or reserved chunk (pcpu_should_reclaim_chunk()). */
	return chunk != pcpu.first_chunk && chunk != pcpu.reserved_chunk &&
	       !CHUNK(chunk, immutable, bool) &&
	       !CHUNK(chunk, isolated, bool) &&
	       CHUNK(chunk, nr_empty_pop_pages, int) >= min;
}

/*
 * Isolate qualifying chunks onto the to-depopulate list, exactly as
 * pcpu_isolate_chunk() does.
 *
 * pcpu_reclaim_populated() reintegrates an isolated chunk untouched while
 * fewer than 4 empty pages remain in non-isolated chunks, so the float
 * (keep_empty_pages) must stay in chunks that are not isolated.  When
 * chunks outside the candidates do not hold it, the candidate with the
 * fewest empty pages that can hold it alone stays; all others go.
 */
static void mmfree_percpu_isolate(void)
{
	int min = mmfree_knob(MMFREE_KNOB_PERCPU_MIN_EMPTY_PAGES);
	int keep = mmfree_knob(MMFREE_KNOB_PERCPU_KEEP_EMPTY_PAGES);
	struct list_head *to = &pcpu.lists[pcpu.to_depopulate_slot];
	struct list_head *pos, *next;
	void *holder = NULL;
	int slot, empty, held = *pcpu.nr_empty_pop_pages;

	lockdep_assert_held(pcpu.lock);

	/* Sidelined chunks are isolated already: slots outside it. */
	for (slot = 0; slot <= pcpu.free_slot; slot++) {
		list_for_each(pos, &pcpu.lists[slot]) {
			void *chunk = mmfree_chunk_of(pos);

			if (mmfree_chunk_candidate(chunk, min))
				held -= CHUNK(chunk, nr_empty_pop_pages, int);
		}
	}
	if (held < keep) {
		for (slot = 0; slot <= pcpu.free_slot; slot++) {
			list_for_each(pos, &pcpu.lists[slot]) {
				void *chunk = mmfree_chunk_of(pos);

				if (!mmfree_chunk_candidate(chunk, min))
					continue;
				empty = CHUNK(chunk, nr_empty_pop_pages, int);
				if (held + empty >= keep &&
				    (!holder ||
				     empty < CHUNK(holder, nr_empty_pop_pages, int)))
					holder = chunk;
			}
		}
		/* No single chunk can hold the float: leave it to the kernel. */
		if (!holder)
			return;
	}

	for (slot = 0; slot <= pcpu.free_slot; slot++) {
		if (slot == pcpu.sidelined_slot)
			continue;
		list_for_each_safe(pos, next, &pcpu.lists[slot]) {
			void *chunk = mmfree_chunk_of(pos);

			if (chunk == holder || !mmfree_chunk_candidate(chunk, min))
				continue;
			CHUNK(chunk, isolated, bool) = true;
			*pcpu.nr_empty_pop_pages -= CHUNK(chunk, nr_empty_pop_pages,
							  int);
			list_move(pos, to);
			atomic_long_inc(&stats.isolated_chunks);
			stats.run_isolated = true;
		}
	}
}

/*
 * At the start of a balance run, before pcpu_reclaim_populated(): only in
 * runs mmfree asked for (mmfree_percpu_request_run()).
 */
static void notrace mmfree_balance_workfn_hook(unsigned long ip,
					       unsigned long parent_ip,
					       struct ftrace_ops *op,
					       struct ftrace_regs *fregs)
{
	unsigned long flags;

	if (!test_and_clear_bit(MMFREE_PCPU_RUN_WANTED, &mmfree_percpu_flags))
		return;
	spin_lock_irqsave(pcpu.lock, flags);
	stats.run_isolated = false;
	stats.run_populated = *pcpu.nr_populated;
	mmfree_percpu_isolate();
	spin_unlock_irqrestore(pcpu.lock, flags);
	atomic_long_inc(&stats.scans);
}

/*
 * pcpu_balance_free(true) ends a balance run, after the reclaim: count
 * what the run released when mmfree had isolated chunks for it.  Balance
 * runs are serialised by the workqueue (one work item).
 */
static void notrace mmfree_balance_free_hook(unsigned long ip,
					     unsigned long parent_ip,
					     struct ftrace_ops *op,
					     struct ftrace_regs *fregs)
{
	long released;

	if (!mmfree_ftrace_arg(fregs, 0) || !stats.run_isolated)
		return;
	released = (long)(stats.run_populated - READ_ONCE(*pcpu.nr_populated));
	if (released > 0)
		atomic_long_add(released, &stats.depopulated);
	stats.run_isolated = false;
}

/* Have the next balance run isolate, and queue one. */
static void mmfree_percpu_request_run(void)
{
	set_bit(MMFREE_PCPU_RUN_WANTED, &mmfree_percpu_flags);
	schedule_work(pcpu.balance_work);
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
static void notrace mmfree_free_percpu_hook(unsigned long ip,
					    unsigned long parent_ip,
					    struct ftrace_ops *op,
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

static struct mmfree_hook mmfree_percpu_hooks[] = {
	{ .name = "pcpu_balance_workfn", .func = mmfree_balance_workfn_hook },
	{ .name = "pcpu_balance_free", .func = mmfree_balance_free_hook },
	{ .name = "free_percpu", .func = mmfree_free_percpu_hook },
};

static void mmfree_percpu_tick_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(mmfree_percpu_tick_work, mmfree_percpu_tick_fn);

static void mmfree_percpu_tick_fn(struct work_struct *work)
{
	unsigned int ms = mmfree_knob(MMFREE_KNOB_PERCPU_INTERVAL_MS);

	mmfree_percpu_request_run();
	if (ms && READ_ONCE(mmfree_percpu_on))
		schedule_delayed_work(&mmfree_percpu_tick_work,
				      msecs_to_jiffies(ms));
}

static void mmfree_percpu_detach(void)
{
	int i;

	for (i = ARRAY_SIZE(mmfree_percpu_hooks) - 1; i >= 0; i--)
		mmfree_hook_detach(&mmfree_percpu_hooks[i]);
	/* No hook can queue them now; the tick stops re-arming itself. */
	WRITE_ONCE(mmfree_percpu_on, false);
	cancel_delayed_work_sync(&mmfree_percpu_kick_work);
	cancel_delayed_work_sync(&mmfree_percpu_tick_work);
	clear_bit(MMFREE_PCPU_KICK_PENDING, &mmfree_percpu_flags);
	clear_bit(MMFREE_PCPU_RUN_WANTED, &mmfree_percpu_flags);
}

/**
 * mmfree_percpu_update - attach or detach to match the knobs
 *
 * Return: 0, or the error that kept the hooks from attaching (then the
 * feature is left off).
 */
int mmfree_percpu_update(void)
{
	bool want = mmfree_percpu_available &&
		    mmfree_knob(MMFREE_KNOB_ENABLED) &&
		    mmfree_knob(MMFREE_KNOB_PERCPU_ENABLED);
	unsigned int ms = mmfree_knob(MMFREE_KNOB_PERCPU_INTERVAL_MS);
	int i, err = 0;

	mutex_lock(&mmfree_percpu_lock);
	if (!want) {
		mmfree_percpu_detach();
		goto out;
	}
	for (i = 0; i < ARRAY_SIZE(mmfree_percpu_hooks); i++) {
		err = mmfree_hook_attach(&mmfree_percpu_hooks[i]);
		if (err) {
			mmfree_percpu_detach();
			goto out;
		}
	}
	WRITE_ONCE(mmfree_percpu_on, true);
	/* Re-arm the tick on the new interval (or stop it). */
	cancel_delayed_work_sync(&mmfree_percpu_tick_work);
	if (ms)
		schedule_delayed_work(&mmfree_percpu_tick_work,
				      msecs_to_jiffies(ms));
out:
	mutex_unlock(&mmfree_percpu_lock);
	return err;
}

/**
 * mmfree_percpu_reclaim - scan and depopulate now, return when done
 *
 * Return: 0, or -EPERM while the feature is off.
 */
int mmfree_percpu_reclaim(void)
{
	int err = 0;

	mutex_lock(&mmfree_percpu_lock);
	if (!mmfree_percpu_on) {
		err = -EPERM;
		goto out;
	}
	/*
	 * A queued run scans when it starts; a running one has scanned, so
	 * queue another.  flush_work() waits for the last queued run.
	 */
	mmfree_percpu_request_run();
	flush_work(pcpu.balance_work);
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
	unsigned long flags;
	struct list_head *pos;
	int slot, page;

	memset(c, 0, sizeof(*c));
	spin_lock_irqsave(pcpu.lock, flags);
	for (slot = 0; slot < pcpu.nr_slots; slot++) {
		list_for_each(pos, &pcpu.lists[slot]) {
			void *chunk = mmfree_chunk_of(pos);
			int empty = CHUNK(chunk, nr_empty_pop_pages, int);

			c->chunks++;
			c->empty += empty;
			if (chunk == pcpu.first_chunk ||
			    chunk == pcpu.reserved_chunk)
				c->first_empty += empty;
			if (CHUNK(chunk, isolated, bool))
				continue;
			c->listed_empty += empty;
			for (page = 0; bitmaps && page < CHUNK(chunk, nr_pages, int);
			     page++)
				c->bitmap_empty += mmfree_chunk_page_empty(chunk,
									   page);
		}
	}
	c->populated = *pcpu.nr_populated;
	c->kernel_empty = *pcpu.nr_empty_pop_pages;
	/* The static area counts as populated in no chunk: it is live. */
	c->floor = c->populated - c->empty;
	spin_unlock_irqrestore(pcpu.lock, flags);
}

/* The value of one percpu/stats file. */
long mmfree_percpu_stat(enum mmfree_stat_id id)
{
	struct mmfree_percpu_count c;

	switch (id) {
	case MMFREE_STAT_PERCPU_SCANS:
		return atomic_long_read(&stats.scans);
	case MMFREE_STAT_PERCPU_ISOLATED_CHUNKS:
		return atomic_long_read(&stats.isolated_chunks);
	case MMFREE_STAT_PERCPU_DEPOPULATED_PAGES:
		return atomic_long_read(&stats.depopulated);
	case MMFREE_STAT_PERCPU_UNITS:
		return pcpu.nr_units;
	case MMFREE_STAT_PERCPU_POPULATED_PAGES:
		return READ_ONCE(*pcpu.nr_populated);
	default:
		break;
	}
	mmfree_percpu_count(&c, false);
	switch (id) {
	case MMFREE_STAT_PERCPU_EMPTY_PAGES:
		return c.empty;
	case MMFREE_STAT_PERCPU_FLOOR_PAGES:
		return c.floor;
	default:
		return c.chunks;
	}
}

static int mmfree_percpu_accounting_show(struct seq_file *m, void *v)
{
	struct mmfree_percpu_count c;
	unsigned long flags;
	struct list_head *pos;
	int slot;

	/* One line per chunk, for diagnosis. */
	spin_lock_irqsave(pcpu.lock, flags);
	for (slot = 0; slot < pcpu.nr_slots; slot++) {
		list_for_each(pos, &pcpu.lists[slot]) {
			void *chunk = mmfree_chunk_of(pos);

			seq_printf(m, "chunk slot %d pages %d populated %d empty %d free_bytes %d isolated %d%s\n",
				   slot, CHUNK(chunk, nr_pages, int),
				   CHUNK(chunk, nr_populated, int),
				   CHUNK(chunk, nr_empty_pop_pages, int),
				   CHUNK(chunk, free_bytes, int),
				   CHUNK(chunk, isolated, bool),
				   chunk == pcpu.first_chunk ? " first" : "");
		}
	}
	spin_unlock_irqrestore(pcpu.lock, flags);

	mmfree_percpu_count(&c, true);
	seq_printf(m, "pcpu_nr_empty_pop_pages %ld\n", c.kernel_empty);
	seq_printf(m, "chunks_nr_empty_pop_pages %ld\n", c.listed_empty);
	seq_printf(m, "bitmap_empty_pop_pages %ld\n", c.bitmap_empty);
	seq_printf(m, "first_chunk_empty_pages %ld\n", c.first_empty);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mmfree_percpu_accounting);

/* Offsets of the fields mmfree reads; any missing one keeps it off. */
static int mmfree_percpu_layout(void)
{
	const struct btf_type *chunk, *block;
	int *o;

	chunk = mmfree_btf_struct("pcpu_chunk");
	block = mmfree_btf_struct("pcpu_block_md");
	if (!chunk || !block)
		return -ENOENT;

	off.list = mmfree_btf_member(chunk, "list", sizeof(struct list_head));
	off.free_bytes = mmfree_btf_member(chunk, "free_bytes", sizeof(int));
	off.md_blocks = mmfree_btf_member(chunk, "md_blocks", sizeof(void *));
	off.immutable = mmfree_btf_member(chunk, "immutable", sizeof(bool));
	off.isolated = mmfree_btf_member(chunk, "isolated", sizeof(bool));
	off.nr_pages = mmfree_btf_member(chunk, "nr_pages", sizeof(int));
	off.nr_populated = mmfree_btf_member(chunk, "nr_populated", sizeof(int));
	off.nr_empty_pop_pages = mmfree_btf_member(chunk, "nr_empty_pop_pages",
						   sizeof(int));
	off.populated = mmfree_btf_member(chunk, "populated", 0);
	off.contig_hint = mmfree_btf_member(block, "contig_hint", sizeof(int));
	off.block_size = block->size;

	for (o = &off.list; o <= &off.contig_hint; o++)
		if (*o < 0)
			return -ENOENT;
	return 0;
}

static int mmfree_percpu_resolve(void)
{
	int err;

	/* Before any probe is armed on the kernel's symbols. */
	if (!mmfree_kernel_tested()) {
		pr_warn("percpu disabled: kernel %s is untested\n",
			init_utsname()->release);
		return -EOPNOTSUPP;
	}
	err = mmfree_ksyms_resolve("percpu", mmfree_percpu_syms, NR_SYMS);
	if (err)
		return err;
	err = mmfree_btf_init(KSYM(SYM_START_BTF, void *),
			      KSYM(SYM_STOP_BTF, void *));
	if (err) {
		pr_warn("percpu disabled: kernel BTF unreadable (%d)\n", err);
		return err;
	}
	err = mmfree_percpu_layout();
	mmfree_btf_exit();
	if (err) {
		pr_warn("percpu disabled: BTF does not confirm the layout of struct pcpu_chunk\n");
		return err;
	}

	pcpu.lists = *KSYM(SYM_CHUNK_LISTS, struct list_head **);
	pcpu.nr_slots = *KSYM(SYM_NR_SLOTS, int *);
	pcpu.sidelined_slot = *KSYM(SYM_SIDELINED_SLOT, int *);
	pcpu.to_depopulate_slot = *KSYM(SYM_TO_DEPOPULATE_SLOT, int *);
	/* pcpu_setup_first_chunk(): sidelined, free, to_depopulate, end. */
	pcpu.free_slot = pcpu.sidelined_slot + 1;
	if (pcpu.to_depopulate_slot != pcpu.free_slot + 1 ||
	    pcpu.nr_slots != pcpu.to_depopulate_slot + 1) {
		pr_warn("percpu disabled: unexpected chunk slot layout\n");
		return -EINVAL;
	}
	pcpu.lock = KSYM(SYM_LOCK, spinlock_t *);
	pcpu.balance_work = KSYM(SYM_BALANCE_WORK, struct work_struct *);
	pcpu.nr_empty_pop_pages = KSYM(SYM_NR_EMPTY_POP_PAGES, int *);
	pcpu.nr_populated = KSYM(SYM_NR_POPULATED, unsigned long *);
	pcpu.nr_units = *KSYM(SYM_NR_UNITS, int *);
	pcpu.first_chunk = *KSYM(SYM_FIRST_CHUNK, void **);
	pcpu.reserved_chunk = *KSYM(SYM_RESERVED_CHUNK, void **);

	mmfree_percpu_hooks[0].addr = mmfree_percpu_syms[SYM_BALANCE_WORKFN].addr;
	mmfree_percpu_hooks[1].addr = mmfree_percpu_syms[SYM_BALANCE_FREE].addr;
	mmfree_percpu_hooks[2].addr = mmfree_percpu_syms[SYM_FREE_PERCPU].addr;
	return 0;
}

/* Whether the feature can run on this kernel (decided at load). */
bool mmfree_percpu_usable(void)
{
	return mmfree_percpu_available;
}

void mmfree_percpu_init(void)
{
	if (mmfree_percpu_resolve())
		return;
	mmfree_percpu_available = true;
	pr_info("percpu: %d units, chunk layout from BTF\n", pcpu.nr_units);
	mmfree_percpu_debugfs = debugfs_create_file("percpu_accounting", 0400,
						    mmfree_debugfs_dir(), NULL,
						    &mmfree_percpu_accounting_fops);
}

void mmfree_percpu_exit(void)
{
	if (!mmfree_percpu_available)
		return;
	mutex_lock(&mmfree_percpu_lock);
	mmfree_percpu_detach();
	mutex_unlock(&mmfree_percpu_lock);
	debugfs_remove(mmfree_percpu_debugfs);
}
