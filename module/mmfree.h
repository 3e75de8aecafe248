/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Declarations shared by the files of mmfree.ko, by layer: a file calls
 * only into the layers below its own.
 *
 *   main.c      init and exit: the features, in order; the knob files
 *   sysfs.c     the knob files: /sys/kernel/mmfree/
 *   param.c     the module parameters, made from the knobs' declaration
 *   percpu.c    feature: which percpu chunks to depopulate, and when
 *   pagefree.c  feature: which gathers go to the pool, and who waits
 *   pool.c      the page-free pool: work items, workers, draining
 *   sym.c       a feature's kernel symbols: resolve, check, attach
 *   gate.c      calling kernel functions that are not exported
 *   hook.c      attaching callbacks to kernel functions with ftrace
 *   stat.c      per-CPU event counters
 *   knob.c      the knobs' values
 *   btf.c       struct layouts and prototypes from the kernel's BTF
 *   ksyms.c     resolving unexported kernel symbols
 *   compat.h    the only place that knows kernel versions
 */
#ifndef _MMFREE_H
#define _MMFREE_H

#include <linux/compiler.h>
#include <linux/ftrace.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/list.h>
#include <linux/nodemask.h>
#include <linux/types.h>
#include <mmfree/knobs.h>
#include <mmfree/stats.h>

struct cgroup;
struct cpumask;
struct dentry;
struct task_struct;
struct mmu_gather;
struct oom_control;
struct workqueue_attrs;
struct workqueue_struct;

/* --- the features (percpu.c, pagefree.c), as main.c and sysfs.c see them */

struct mmfree_sym;

struct mmfree_feature {
	const char *name;		/* its directory and knob prefix */
	struct mmfree_sym *syms;	/* the kernel symbols it uses */
	size_t nr_syms;
	/* After its symbols and fields checked out; 0: it can run. */
	int (*init)(struct dentry *debugfs);
	void (*exit)(void);
	/* Its own switch (mmfree_knob_feature_on()). */
	enum mmfree_knob_id enabled_knob;
	/*
	 * Attach or detach to match the knobs (under the knob lock); an
	 * attach that fails leaves it detached.
	 */
	int (*update)(void);
	/* The struct fields it reads, checked against BTF at load. */
	const struct mmfree_field *fields;
	size_t nr_fields;
	/* A statistic that is not an event counter. */
	long (*stat)(enum mmfree_stat_id id);
	/* Its file that acts on a write of "1" (NULL: none). */
	const char *action_name;
	int (*action)(void);
	bool usable;			/* decided at load */
};

extern struct mmfree_feature mmfree_percpu_feature;
extern struct mmfree_feature mmfree_pagefree_feature;

/* --- sysfs.c, param.c */

int mmfree_sysfs_init(struct mmfree_feature *const *features, size_t nr);
void mmfree_sysfs_exit(void);
void mmfree_knobs_init(void);
extern bool mmfree_untested_kernel;

/* --- pool.c */

struct mmfree_item;
struct mem_cgroup;

/* The items of one task's gather, which it waits for (sync mode). */
struct mmfree_waiter {
	struct list_head items;
	atomic_t pending;	/* unfinished items, plus one for the waiter */
	struct completion done;
};

int mmfree_pool_init(void);
void mmfree_pool_exit(void);
void mmfree_pool_tune(void);
bool mmfree_pool_fail_alloc(void);
struct mmfree_item *mmfree_item_alloc(void);
void mmfree_item_put_entries(struct mmfree_item *item, void *const *entries,
			     unsigned int nr, unsigned long pages);
void mmfree_item_queue(struct mmfree_item *item, struct mmfree_waiter *w,
		       int nid, int run, struct mem_cgroup *memcg, u64 mm_id);
void mmfree_waiter_init(struct mmfree_waiter *w);
unsigned long mmfree_waiter_finish(struct mmfree_waiter *w);
void mmfree_pool_got_cpu(int nid);
bool mmfree_pool_has_cpu(int nid);
int mmfree_pool_nr_items(void);
long mmfree_pool_inflight_pages(void);
long mmfree_pool_inflight_pages_on(const nodemask_t *nodes);
void mmfree_pool_set_workers(unsigned int workers);
void mmfree_pool_gather_begin(void);
void mmfree_pool_gather_end(void);
void mmfree_pool_end_hold(void);
void mmfree_pool_drain(void);
unsigned long mmfree_pool_help(struct mem_cgroup *memcg,
			       const nodemask_t *nodes);
long mmfree_pool_async_pages(struct mem_cgroup *memcg);
unsigned long mmfree_pool_take_back(u64 mm_id, unsigned long timeout,
				    unsigned long *helped);
bool mmfree_pool_wait_back(struct mem_cgroup *memcg, const nodemask_t *nodes,
			   unsigned long timeout);

/* --- sym.c */

/* A kernel symbol of a feature, and what mmfree does with it. */
struct mmfree_sym {
	const char *name;
	const char *proto;		/* a function's prototype, for BTF */
	struct mmfree_hook *hook;	/* attached to the function, or NULL */
	struct mmfree_gate *gate;	/* calls the function, or NULL */
	void **data;			/* data: where its address goes */
	unsigned int flags;
	bool unusable;			/* optional, and its BTF differs */
	unsigned long addr;		/* resolved at load */
};

/* mmfree_sym.flags */
#define MMFREE_SYM_OPTIONAL	0x1	/* the feature works without it */
#define MMFREE_SYM_AT_LOAD	0x2	/* its gate is opened only at load */
#define MMFREE_SYM_UNUSED	0x4	/* not used on this kernel version */

int mmfree_syms_check(const char *feature, struct mmfree_sym *syms,
		      size_t nr);
int mmfree_syms_resolve(const char *feature, struct mmfree_sym *syms,
			size_t nr);
int mmfree_syms_attach(struct mmfree_sym *syms, size_t nr);
int mmfree_syms_detach(struct mmfree_sym *syms, size_t nr);
int mmfree_syms_close_gates(struct mmfree_sym *syms, size_t nr);
int mmfree_syms_open_load_gates(struct mmfree_sym *syms, size_t nr);
int mmfree_syms_close_load_gates(struct mmfree_sym *syms, size_t nr);
bool mmfree_syms_attached(const struct mmfree_sym *syms, size_t nr);

/* --- gate.c */

struct mmfree_gate;

/*
 * Marks a gate function: never inlined, cloned or otherwise changed by
 * the compiler (noipa), so that its callers pass exactly its arguments
 * and assume nothing of its body.  Clang has no noipa (its noinline
 * still lets it propagate what it knows of the body): refused.
 */
#ifdef __clang__
#error "mmfree needs GCC (noipa): dkms.conf refuses clang-built kernels"
#endif
#define __mmfree_gate	__attribute__((__noipa__))

bool mmfree_gate_is_open(const struct mmfree_gate *gate);

/* Each kernel function mmfree calls: its gate and the gate function. */
extern struct mmfree_gate mmfree_gate_free_pages;
void mmfree_call_free_pages(void **entries, int nr);
extern struct mmfree_gate mmfree_gate_lru_add_drain;
void mmfree_call_lru_add_drain(void);
extern struct mmfree_gate mmfree_gate_tlb_flush;
void mmfree_call_tlb_flush(struct mmu_gather *tlb);
extern struct mmfree_gate mmfree_gate_tlb_finish;
void mmfree_call_tlb_finish(struct mmu_gather *tlb);
extern struct mmfree_gate mmfree_gate_oom;
bool mmfree_call_oom(struct oom_control *oc);
extern struct mmfree_gate mmfree_gate_zone_watermark_ok;
bool mmfree_call_zone_watermark_ok(struct zone *z, unsigned int order,
				   unsigned long mark, int highest_zoneidx,
				   unsigned int alloc_flags);
extern struct mmfree_gate mmfree_gate_idle_cpu;
int mmfree_call_idle_cpu(int cpu);
extern struct mmfree_gate mmfree_gate_cgroup_cputime;
void mmfree_call_cgroup_cputime(struct cgroup *cgrp, u64 delta_exec);
extern struct mmfree_gate mmfree_gate_cpuset_cpus;
void mmfree_call_cpuset_cpus(struct task_struct *tsk, struct cpumask *mask);
extern struct mmfree_gate mmfree_gate_apply_wq_attrs;
int mmfree_call_apply_wq_attrs(struct workqueue_struct *wq,
			       const struct workqueue_attrs *attrs);
extern struct mmfree_gate mmfree_gate_wq_set_min_active;
void mmfree_call_wq_set_min_active(struct workqueue_struct *wq,
				   int min_active);

/* --- hook.c */

struct mmfree_hook;
struct mmfree_hooks;

/* A hook's callback: atomic context, never sleeps. */
typedef void (*mmfree_hook_fn)(struct mmfree_hook *hook,
			       unsigned long parent_ip,
			       struct ftrace_regs *fregs);

struct mmfree_hook {
	const char *name;	/* the kernel function, set by sym.c */
	unsigned long addr;
	mmfree_hook_fn func;
	bool redirect;		/* func may call mmfree_hook_redirect() */
	bool permanent;		/* must run while attached: ftrace stays on */
	struct mmfree_hooks *set;	/* attached with these, or NULL */
};

struct mmfree_gate {
	struct mmfree_hook hook;	/* on the gate function itself */
	const char *target_name;
	unsigned long target;
};

void mmfree_hooks_init(void);
int mmfree_hooks_attach(struct mmfree_hook **hooks, unsigned int nr);
int mmfree_hooks_detach(struct mmfree_hook *hook);
void mmfree_hook_redirect(struct ftrace_regs *fregs, void *to);
bool mmfree_hook_from_us(unsigned long parent_ip);

/* --- stat.c */

struct kernfs_node;

void mmfree_stat_add(enum mmfree_stat_id id, unsigned long n);
unsigned long mmfree_stat_sum(enum mmfree_stat_id id);
void mmfree_stat_notify(enum mmfree_stat_id id);
void mmfree_stat_set_file(enum mmfree_stat_id id, struct kernfs_node *kn);

/* --- knob.c */

extern unsigned int mmfree_knob_vals[MMFREE_NR_KNOBS];

int mmfree_knob_parse(enum mmfree_knob_id id, const char *buf,
		      unsigned int *val);
int mmfree_knob_print(enum mmfree_knob_id id, char *buf);

static inline unsigned int mmfree_knob(enum mmfree_knob_id id)
{
	/* Knobs change under the knob lock (sysfs.c); readers take a snapshot. */
	return READ_ONCE(mmfree_knob_vals[id]);
}

/* Whether a feature whose own switch is @id is to run. */
static inline bool mmfree_knob_feature_on(enum mmfree_knob_id id)
{
	return mmfree_knob(MMFREE_KNOB_ENABLED) && mmfree_knob(id);
}

/* --- btf.c */

/* A struct field a feature reads, and the C type it reads it as. */
struct mmfree_field {
	const char *type;	/* the struct */
	const char *member;	/* "" for the struct's size */
	const char *ctype;	/* as BTF spells it: "long unsigned int" */
	int *offset;		/* where its byte offset goes */
	bool skip;		/* not in this kernel's configuration */
};

int mmfree_btf_init(const void *start, const void *end);
void mmfree_btf_exit(void);
int mmfree_btf_func(const char *name, char *buf, size_t size);
int mmfree_btf_fields(const char *feature, const struct mmfree_field *fields,
		      size_t nr);

/* --- ksyms.c */

int mmfree_ksyms_init(void);
void mmfree_ksyms_exit(void);
unsigned long mmfree_ksym_lookup(const char *name);
int mmfree_ksyms_resolve(const char *feature, struct mmfree_sym *syms,
			 size_t nr);

#endif /* _MMFREE_H */
