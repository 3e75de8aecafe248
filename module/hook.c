// SPDX-License-Identifier: GPL-2.0
/*
 * Hook mechanics: attaching a callback to a kernel function with ftrace.
 *
 * Callbacks observe; none changes the traced function's instruction
 * pointer, so the traced function always runs as the kernel wrote it and
 * no exclusive (IPMODIFY) claim is made on it.
 *
 * unregister_ftrace_function() returns only after every CPU has left the
 * callback (ftrace synchronises with RCU-tasks for dynamically allocated
 * trampolines), and callbacks never sleep, so once mmfree_hook_detach()
 * returns the callback's code may go away with the module.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/kernel.h>

#include "mmfree.h"

int mmfree_hook_attach(struct mmfree_hook *hook)
{
	int err;

	if (hook->attached)
		return 0;
	hook->ops.func = hook->func;
	/* ftrace guards against recursion into the callback. */
	hook->ops.flags = FTRACE_OPS_FL_RECURSION;
	err = ftrace_set_filter_ip(&hook->ops, hook->addr, 0, 0);
	if (err) {
		pr_err("cannot trace %s (%d)\n", hook->name, err);
		return err;
	}
	err = register_ftrace_function(&hook->ops);
	if (err) {
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
