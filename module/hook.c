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
 * redirect, or a gate) is registered FTRACE_OPS_FL_PERMANENT, as
 * livepatch's are: while it is attached, "sysctl kernel.ftrace_enabled=0"
 * fails with EBUSY, and attaching fails while ftrace is switched off.
 * Otherwise switching ftrace off would turn every call site into a no-op
 * behind mmfree's back: a gate would run its own body instead of the
 * kernel function, and a wrapper would never be reached.
 *
 * While it redirects a kernel function, mmfree taints the kernel and
 * itself TAINT_LIVEPATCH ('K'), as livepatch does: oops reports then say
 * that kernel functions were replaced.  Taints last until reboot.
 *
 * unregister_ftrace_function() returns only after every CPU has left the
 * callback (ftrace synchronises with RCU-tasks for dynamically allocated
 * trampolines), and callbacks never sleep.  A wrapper that a callback
 * redirected to is another matter: the caller of mmfree_hook_detach()
 * must wait for tasks inside wrappers itself.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/panic.h>

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

int mmfree_hook_attach(struct mmfree_hook *hook)
{
	int err;

	if (hook->attached)
		return 0;
	hook->ops.func = hook->func;
	/* ftrace guards against recursion into the callback. */
	hook->ops.flags = FTRACE_OPS_FL_RECURSION;
	if (hook->redirect)
		hook->ops.flags |= MMFREE_FTRACE_OPS_IPMODIFY;
	if (hook->permanent)
		hook->ops.flags |= FTRACE_OPS_FL_PERMANENT;
	err = ftrace_set_filter_ip(&hook->ops, hook->addr, 0, 0);
	if (err) {
		pr_err("cannot trace %s (%d)\n", hook->name, err);
		return err;
	}
	err = register_ftrace_function(&hook->ops);
	if (err) {
		/* -EBUSY: ftrace is off, or another IPMODIFY user owns it. */
		if (err == -EBUSY && hook->permanent && mmfree_ftrace_off())
			pr_err("cannot attach to %s: ftrace is switched off (sysctl kernel.ftrace_enabled=0)\n",
			       hook->name);
		else
			pr_err("cannot attach to %s (%d)\n", hook->name, err);
		ftrace_set_filter_ip(&hook->ops, hook->addr, 1, 0);
		return err;
	}
	hook->attached = true;
	if (mmfree_hook_replaces(hook) &&
	    !test_bit(TAINT_LIVEPATCH, &THIS_MODULE->taints)) {
		add_taint(TAINT_LIVEPATCH, LOCKDEP_STILL_OK);
		set_bit(TAINT_LIVEPATCH, &THIS_MODULE->taints);
	}
	return 0;
}

/* Test hook: the first N detaches fail, as after an ftrace anomaly. */
static unsigned int mmfree_test_fail_detach;
module_param_named(test_fail_detach, mmfree_test_fail_detach, uint, 0400);
MODULE_PARM_DESC(test_fail_detach,
		 "testing only: fail the first N detaches from kernel functions (0: none)");

/**
 * mmfree_hook_detach - stop calling @hook's callback
 * @hook: the hook
 *
 * A hook that cannot be unregistered (ftrace refused: after an anomaly,
 * ftrace_kill() leaves every ops registered) still calls into mmfree:
 * it keeps the module pinned until a later detach succeeds, and says so.
 * During the module's exit nothing can pin it: its caller retries.
 *
 * Context: process context; serialised by the feature's lock.
 *
 * Return: 0, or the error; the hook is still attached then.
 */
int mmfree_hook_detach(struct mmfree_hook *hook)
{
	int err;

	if (!hook->attached)
		return 0;
	if (mmfree_test_fail_detach && mmfree_hook_replaces(hook)) {
		mmfree_test_fail_detach--;
		err = -EBUSY;
	} else {
		err = unregister_ftrace_function(&hook->ops);
	}
	if (err) {
		if (!hook->pinned)
			hook->pinned = try_module_get(THIS_MODULE);
		pr_err("cannot detach from %s (%d): %s\n", hook->name, err,
		       hook->pinned ? "mmfree stays loaded until it can" :
		       "retrying");
		return err;
	}
	ftrace_set_filter_ip(&hook->ops, hook->addr, 1, 0);
	hook->attached = false;
	if (hook->pinned) {
		hook->pinned = false;
		module_put(THIS_MODULE);
	}
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
