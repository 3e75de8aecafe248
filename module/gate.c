// SPDX-License-Identifier: GPL-2.0
/*
 * Gates: how mmfree calls kernel functions that are not exported.
 *
 * A gate is a do-nothing module function whose only caller-visible effect
 * comes from an ftrace callback that redirects it to a kernel function:
 * calling the gate runs the kernel function with the gate's arguments,
 * and it returns to the gate's caller.  Nothing jumps through a pointer,
 * so this works for functions whose ENDBR64 the kernel sealed at boot
 * (on IBT, an indirect call to them raises #CP).  A gate is a permanent
 * hook (hook.c): while it is open, ftrace cannot be switched off, and a
 * gate's own body runs only if it is called while closed, a bug: it
 * stops the caller (BUG()) rather than return a made-up value.
 *
 * Each gate has exactly its kernel function's prototype; which kernel
 * function, and the prototype BTF must confirm, is said by the row of a
 * feature's symbol table that names the gate (sym.c).  __noipa keeps the
 * compiler from changing the arguments a gate is called with.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bug.h>
#include <linux/ftrace.h>
#include <linux/kernel.h>

#include "compat.h"
#include "mmfree.h"

static void notrace mmfree_gate_func(struct mmfree_hook *hook,
				     unsigned long parent_ip,
				     struct ftrace_regs *fregs)
{
	struct mmfree_gate *gate = container_of(hook, struct mmfree_gate, hook);

	mmfree_ftrace_set_ip(fregs, gate->target);
}

#define MMFREE_GATE(fn) {						\
	.hook = {							\
		.name = #fn, .addr = (unsigned long)fn,			\
		.func = mmfree_gate_func, .redirect = true,		\
		.permanent = true,					\
	},								\
}

/*
 * Reached only if a gate is called while closed: a bug in mmfree.  The
 * kernel function did not run, and its caller must not go on as if it
 * had (after a missed flush, a gather would write past its full batch):
 * stop it here.
 */
static __always_inline void mmfree_gate_missed(const struct mmfree_gate *gate)
{
	pr_crit("gate to %s called while closed\n",
		gate->target_name ?: gate->hook.name);
	/*
	 * A gate's name is always set, so this always stops; read as a
	 * volatile, it leaves the compiler a path back, without which
	 * objtool would take every gate for a function that never returns
	 * (an open gate does return, through its kernel function).
	 */
	if (READ_ONCE(gate->hook.name))
		BUG();
}

struct mmfree_gate mmfree_gate_free_pages = MMFREE_GATE(mmfree_call_free_pages);

__mmfree_gate void mmfree_call_free_pages(void **entries, int nr)
{
	mmfree_gate_missed(&mmfree_gate_free_pages);
}

struct mmfree_gate mmfree_gate_lru_add_drain =
	MMFREE_GATE(mmfree_call_lru_add_drain);

__mmfree_gate void mmfree_call_lru_add_drain(void)
{
	mmfree_gate_missed(&mmfree_gate_lru_add_drain);
}

struct mmfree_gate mmfree_gate_tlb_flush = MMFREE_GATE(mmfree_call_tlb_flush);

__mmfree_gate void mmfree_call_tlb_flush(struct mmu_gather *tlb)
{
	mmfree_gate_missed(&mmfree_gate_tlb_flush);
}

struct mmfree_gate mmfree_gate_tlb_finish = MMFREE_GATE(mmfree_call_tlb_finish);

__mmfree_gate void mmfree_call_tlb_finish(struct mmu_gather *tlb)
{
	mmfree_gate_missed(&mmfree_gate_tlb_finish);
}

struct mmfree_gate mmfree_gate_oom = MMFREE_GATE(mmfree_call_oom);

__mmfree_gate bool mmfree_call_oom(struct oom_control *oc)
{
	mmfree_gate_missed(&mmfree_gate_oom);
	return false;	/* never reached: the gate stopped */
}

struct mmfree_gate mmfree_gate_zone_watermark_ok =
	MMFREE_GATE(mmfree_call_zone_watermark_ok);

__mmfree_gate bool mmfree_call_zone_watermark_ok(struct zone *z,
						 unsigned int order,
						 unsigned long mark,
						 int highest_zoneidx,
						 unsigned int alloc_flags)
{
	mmfree_gate_missed(&mmfree_gate_zone_watermark_ok);
	return false;	/* never reached */
}

struct mmfree_gate mmfree_gate_idle_cpu = MMFREE_GATE(mmfree_call_idle_cpu);

__mmfree_gate int mmfree_call_idle_cpu(int cpu)
{
	mmfree_gate_missed(&mmfree_gate_idle_cpu);
	return 0;	/* never reached */
}

struct mmfree_gate mmfree_gate_cgroup_cputime =
	MMFREE_GATE(mmfree_call_cgroup_cputime);

__mmfree_gate void mmfree_call_cgroup_cputime(struct cgroup *cgrp,
					      u64 delta_exec)
{
	mmfree_gate_missed(&mmfree_gate_cgroup_cputime);
}

struct mmfree_gate mmfree_gate_cpuset_cpus = MMFREE_GATE(mmfree_call_cpuset_cpus);

__mmfree_gate void mmfree_call_cpuset_cpus(struct task_struct *tsk,
					   struct cpumask *mask)
{
	mmfree_gate_missed(&mmfree_gate_cpuset_cpus);
}

struct mmfree_gate mmfree_gate_apply_wq_attrs =
	MMFREE_GATE(mmfree_call_apply_wq_attrs);

__mmfree_gate int mmfree_call_apply_wq_attrs(struct workqueue_struct *wq,
					     const struct workqueue_attrs *attrs)
{
	mmfree_gate_missed(&mmfree_gate_apply_wq_attrs);
	return -EOPNOTSUPP;	/* never reached */
}

struct mmfree_gate mmfree_gate_wq_set_min_active =
	MMFREE_GATE(mmfree_call_wq_set_min_active);

__mmfree_gate void mmfree_call_wq_set_min_active(struct workqueue_struct *wq,
						 int min_active)
{
	mmfree_gate_missed(&mmfree_gate_wq_set_min_active);
}

/* Whether calling @gate now runs its kernel function. */
bool mmfree_gate_is_open(const struct mmfree_gate *gate)
{
	return gate->hook.set;
}
