// SPDX-License-Identifier: GPL-2.0
/*
 * Hook mechanics: attaching a callback to a kernel function with ftrace.
 *
 * A callback either observes, or (hook->redirect) may move the traced
 * function's instruction pointer to a wrapper of the same signature, as
 * livepatch does; such a hook claims the function exclusively
 * (FTRACE_OPS_FL_IPMODIFY), so a livepatch of the same function makes
 * attaching fail.  When mmfree itself calls a function it hooks (through
 * a gate, gate.c), the callback sees a return address inside mmfree
 * (mmfree_hook_from_us()) and lets the call through.
 *
 * A hook that must run whenever it is attached (hook->permanent: a
 * redirect, a gate, percpu's observers) is registered
 * FTRACE_OPS_FL_PERMANENT, as livepatch's are: while it is attached,
 * "sysctl kernel.ftrace_enabled=0" fails with EBUSY, and attaching fails
 * while ftrace is switched off.  Otherwise switching ftrace off would
 * turn every call site into a no-op behind mmfree's back: a gate would
 * run its own body instead of the kernel function, a wrapper would never
 * be reached, and an observer would see nothing.
 *
 * While it redirects a kernel function, mmfree taints the kernel and
 * itself TAINT_LIVEPATCH ('K'), as livepatch does: oops reports then say
 * that kernel functions were replaced.  Taints last until reboot.
 *
 * unregister_ftrace_function() returns only after every CPU has left the
 * callback (ftrace synchronises with RCU-tasks for an ops outside the
 * core kernel), and callbacks never sleep.  A wrapper that a callback
 * redirected to is another matter: the caller of mmfree_hooks_detach()
 * must wait for tasks inside wrappers itself.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/panic.h>
#include <linux/slab.h>
#include <asm/ibt.h>

#include "compat.h"
#include "mmfree.h"

/* The kernel's kernel.ftrace_enabled, if it could be found (for the log). */
static const int *mmfree_ftrace_enabled;

/* Whether ftrace is known to be switched off (sysctl kernel.ftrace_enabled). */
static bool mmfree_ftrace_off(void)
{
	return mmfree_ftrace_enabled && !READ_ONCE(*mmfree_ftrace_enabled);
}

/* Called while kernel symbols can be resolved: the switch is only read. */
void mmfree_hooks_init(void)
{
	mmfree_ftrace_enabled = (const int *)mmfree_ksym_lookup("ftrace_enabled");
}

/*
 * Whether @hook redirects a kernel function.  A gate's hook sits on
 * mmfree's own gate function and only forwards it to its kernel function:
 * nothing of the kernel is replaced.
 */
static bool mmfree_hook_replaces(const struct mmfree_hook *hook)
{
	return hook->redirect && !within_module(hook->addr, THIS_MODULE);
}

/*
 * Hooks attached together share one ftrace_ops: detaching it waits for
 * RCU-tasks once (ftrace_shutdown() does, for an ops outside the core
 * kernel), where an ops per hook waited once per hook, about 150 ms each
 * under TCG.  The one callback finds the hook by the traced address.
 */
struct mmfree_hooks {
	struct ftrace_ops ops;
	bool pinned;		/* holds the module: a detach failed */
	unsigned int nr;
	struct mmfree_hook *hook[];
};

static void notrace mmfree_hooks_func(unsigned long ip,
				      unsigned long parent_ip,
				      struct ftrace_ops *ops,
				      struct ftrace_regs *fregs)
{
	struct mmfree_hooks *set = container_of(ops, struct mmfree_hooks, ops);
	unsigned int i;

	for (i = 0; i < set->nr; i++) {
		struct mmfree_hook *hook = set->hook[i];

		/* ftrace calls from a function's entry, or after its ENDBR64. */
		if (ip - hook->addr <= ENDBR_INSN_SIZE) {
			hook->func(hook, parent_ip, fregs);
			return;
		}
	}
}

/* Whether any hook of @set redirects a kernel function. */
static bool mmfree_hooks_replace(const struct mmfree_hooks *set)
{
	unsigned int i;

	for (i = 0; i < set->nr; i++)
		if (mmfree_hook_replaces(set->hook[i]))
			return true;
	return false;
}

/* For the log: the set's first function, and how many came with it. */
static const char *mmfree_hooks_name(const struct mmfree_hooks *set,
				     char *buf, size_t size)
{
	if (set->nr == 1)
		return set->hook[0]->name;
	snprintf(buf, size, "%s and %u more", set->hook[0]->name, set->nr - 1);
	return buf;
}

static void mmfree_hooks_free(struct mmfree_hooks *set)
{
	ftrace_free_filter(&set->ops);
	kfree(set);
}

/**
 * mmfree_hooks_attach - attach hooks together
 * @hooks: the hooks, none attached yet
 * @nr: how many
 *
 * They come and go together: ftrace patches their functions in one
 * update, in no set order, so a caller that needs one live before another
 * attaches them in separate calls.
 *
 * Context: process context; serialised by the feature's lock.
 *
 * Return: 0, or the error; then none is attached.
 */
int mmfree_hooks_attach(struct mmfree_hook **hooks, unsigned int nr)
{
	struct mmfree_hooks *set;
	char name[64];
	unsigned int i;
	int err;

	set = kzalloc(struct_size(set, hook, nr), GFP_KERNEL);
	if (!set)
		return -ENOMEM;
	set->ops.func = mmfree_hooks_func;
	/* ftrace guards against recursion into the callback. */
	set->ops.flags = FTRACE_OPS_FL_RECURSION;
	for (i = 0; i < nr; i++) {
		struct mmfree_hook *hook = hooks[i];

		set->hook[set->nr++] = hook;
		if (hook->redirect)
			set->ops.flags |= MMFREE_FTRACE_OPS_IPMODIFY;
		if (hook->permanent)
			set->ops.flags |= FTRACE_OPS_FL_PERMANENT;
		err = ftrace_set_filter_ip(&set->ops, hook->addr, 0, 0);
		if (err) {
			pr_err("cannot trace %s (%d)\n", hook->name, err);
			goto free;
		}
	}
	err = register_ftrace_function(&set->ops);
	if (err) {
		/* -EBUSY: ftrace is off, or another IPMODIFY user owns one. */
		if (err == -EBUSY && (set->ops.flags & FTRACE_OPS_FL_PERMANENT) &&
		    mmfree_ftrace_off())
			pr_err("cannot attach to %s: ftrace is switched off (sysctl kernel.ftrace_enabled=0)\n",
			       mmfree_hooks_name(set, name, sizeof(name)));
		else
			pr_err("cannot attach to %s (%d)\n",
			       mmfree_hooks_name(set, name, sizeof(name)), err);
		goto free;
	}
	for (i = 0; i < nr; i++)
		hooks[i]->set = set;
	if (mmfree_hooks_replace(set) &&
	    !test_bit(TAINT_LIVEPATCH, &THIS_MODULE->taints)) {
		add_taint(TAINT_LIVEPATCH, LOCKDEP_STILL_OK);
		set_bit(TAINT_LIVEPATCH, &THIS_MODULE->taints);
	}
	return 0;
free:
	mmfree_hooks_free(set);
	return err;
}

/* Test hook: the first N detaches fail, as after an ftrace anomaly. */
static unsigned int mmfree_test_fail_detach;
module_param_named(test_fail_detach, mmfree_test_fail_detach, uint, 0400);
MODULE_PARM_DESC(test_fail_detach,
		 "testing only: fail the first N detaches from kernel functions (0: none)");

/**
 * mmfree_hooks_detach - stop calling the callbacks of @hook and of the
 *	hooks attached with it
 * @hook: the hook
 *
 * Hooks that cannot be unregistered (ftrace refused: after an anomaly,
 * ftrace_kill() leaves every ops registered) still call into mmfree:
 * they keep the module pinned until a later detach succeeds, and say so.
 * During the module's exit nothing can pin it: its caller retries.
 *
 * Context: process context; serialised by the feature's lock.
 *
 * Return: 0, or the error; the hooks are still attached then.
 */
int mmfree_hooks_detach(struct mmfree_hook *hook)
{
	struct mmfree_hooks *set = hook->set;
	char name[64];
	unsigned int i;
	int err;

	if (!set)
		return 0;
	if (mmfree_test_fail_detach && mmfree_hooks_replace(set)) {
		mmfree_test_fail_detach--;
		err = -EBUSY;
	} else {
		err = unregister_ftrace_function(&set->ops);
	}
	if (err) {
		if (!set->pinned)
			set->pinned = try_module_get(THIS_MODULE);
		pr_err("cannot detach from %s (%d): %s\n",
		       mmfree_hooks_name(set, name, sizeof(name)), err,
		       set->pinned ? "mmfree stays loaded until it can" :
		       "retrying");
		return err;
	}
	for (i = 0; i < set->nr; i++)
		set->hook[i]->set = NULL;
	if (set->pinned)
		module_put(THIS_MODULE);
	mmfree_hooks_free(set);
	return 0;
}

/* Make the traced function's caller run @to instead. */
void notrace mmfree_hook_redirect(struct ftrace_regs *fregs, void *to)
{
	mmfree_ftrace_set_ip(fregs, (unsigned long)to);
}

/* Whether the traced function was called from mmfree's own code. */
bool notrace mmfree_hook_from_us(unsigned long parent_ip)
{
	return within_module(parent_ip, THIS_MODULE);
}
