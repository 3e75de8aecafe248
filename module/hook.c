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
	return 0;
}

void mmfree_hook_detach(struct mmfree_hook *hook)
{
	if (!hook->attached)
		return;
	unregister_ftrace_function(&hook->ops);
	ftrace_set_filter_ip(&hook->ops, hook->addr, 1, 0);
	hook->attached = false;
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
