/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Declarations shared by the files of mmfree.ko.
 *
 *   main.c   init and exit: wires the parts together, nothing else
 *   sysfs.c  the knobs: /sys/kernel/mmfree/ and the module parameters
 *   ksyms.c  resolving the unexported kernel symbols the features need
 *   hook.c   attaching callbacks to kernel functions with ftrace; gates
 *   btf.c    reading struct layouts from the kernel's BTF
 *   percpu.c the percpu policy: which chunks to depopulate, and when
 *   pagefree.c the page-free policy: which gathers go to the pool, waiting
 *   pool.c   the page-free pool: work items, workers, draining
 *   compat.h the only place that knows kernel versions
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

/* sysfs.c */
extern unsigned int mmfree_knob_vals[MMFREE_NR_KNOBS];

static inline unsigned int mmfree_knob(enum mmfree_knob_id id)
{
	/* Knobs change under mmfree_knobs_lock; readers take a snapshot. */
	return READ_ONCE(mmfree_knob_vals[id]);
}

extern char *mmfree_test_missing_ksym;

void mmfree_knobs_init(void);
int mmfree_sysfs_init(void);
void mmfree_sysfs_exit(void);

/* main.c */
int mmfree_features_update(void);
struct dentry *mmfree_debugfs_dir(void);

/* hook.c */
struct mmfree_hook {
	const char *name;
	unsigned long addr;
	ftrace_func_t func;
	bool redirect;		/* func may call mmfree_hook_redirect() */
	bool permanent;		/* must run while attached: ftrace stays on */
	struct ftrace_ops ops;
	bool attached;
};

struct mmfree_gate {
	struct mmfree_hook hook;
	unsigned long target;
};

/*
 * Marks a gate function: never inlined, cloned or otherwise changed by
 * the compiler (noipa), so that its callers pass exactly its arguments.
 */
#define __mmfree_gate	__attribute__((__noipa__))

void mmfree_hooks_init(void);
int mmfree_hook_attach(struct mmfree_hook *hook);
void mmfree_hook_detach(struct mmfree_hook *hook);
void mmfree_hook_redirect(struct ftrace_regs *fregs, void *to);
bool mmfree_hook_from_us(unsigned long parent_ip);
int mmfree_gate_open(struct mmfree_gate *gate, unsigned long target);
void mmfree_gate_close(struct mmfree_gate *gate);
void mmfree_gate_missed(const char *name);

/* btf.c */
struct btf_type;
int mmfree_btf_init(const void *start, const void *end);
void mmfree_btf_exit(void);
const struct btf_type *mmfree_btf_struct(const char *name);
int mmfree_btf_member(const struct btf_type *t, const char *name, int size);

/* percpu.c */
void mmfree_percpu_init(void);
void mmfree_percpu_exit(void);
bool mmfree_percpu_usable(void);
int mmfree_percpu_update(void);
int mmfree_percpu_reclaim(void);
long mmfree_percpu_stat(enum mmfree_stat_id id);

/* pagefree.c */
void mmfree_pagefree_init(void);
void mmfree_pagefree_exit(void);
bool mmfree_pagefree_usable(void);
int mmfree_pagefree_update(void);
long mmfree_pagefree_stat(enum mmfree_stat_id id);
void mmfree_stat_add(enum mmfree_stat_id id, unsigned long n);
void mmfree_free_gathered(void **entries, unsigned int nr);

/* pool.c */
struct mmfree_item;
struct workqueue_attrs;
struct workqueue_struct;

/* The items of one task's gather, which it waits for (sync mode). */
struct mmfree_waiter {
	struct list_head items;
	atomic_t pending;	/* unfinished items, plus one for the waiter */
	struct completion done;
};

int mmfree_pool_init(void);
void mmfree_pool_exit(void);
struct mmfree_item *mmfree_item_alloc(void);
void mmfree_item_put_entries(struct mmfree_item *item, void *const *entries,
			     unsigned int nr, unsigned long pages);
void mmfree_item_queue(struct mmfree_item *item, struct mmfree_waiter *w,
		       int nid);
void mmfree_waiter_init(struct mmfree_waiter *w);
unsigned long mmfree_waiter_finish(struct mmfree_waiter *w);
bool mmfree_pool_working(void);
long mmfree_pool_inflight_pages(void);
long mmfree_pool_inflight_pages_on(const nodemask_t *nodes);
void mmfree_pool_set_workers(unsigned int workers);
int mmfree_pool_keep_to_nodes(int (*apply)(struct workqueue_struct *wq,
					   const struct workqueue_attrs *attrs));
void mmfree_pool_set_min_active(void (*set)(struct workqueue_struct *wq,
					    int min_active));
void mmfree_pool_drain(void);

/* ksyms.c */
struct mmfree_ksym {
	const char *name;
	unsigned long addr;
};

int mmfree_ksyms_init(void);
void mmfree_ksyms_exit(void);
int mmfree_ksyms_resolve(const char *feature, struct mmfree_ksym *syms,
			 size_t nr);
int mmfree_ksyms_resolve_optional(struct mmfree_ksym *sym);

#endif /* _MMFREE_H */
