// SPDX-License-Identifier: GPL-2.0
/*
 * Test helper: claim one kernel function with an IPMODIFY ftrace_ops, as
 * a livepatch of it does, so that mmfree's redirect of that function
 * cannot attach (ftrace lets one IPMODIFY user per function).  The
 * callback leaves the instruction pointer alone: the function runs as
 * before.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/module.h>
#include <linux/string.h>

static char *func = "tlb_finish_mmu";
module_param(func, charp, 0400);
MODULE_PARM_DESC(func, "the kernel function to claim");

static void notrace holder_func(unsigned long ip, unsigned long parent_ip,
				struct ftrace_ops *op,
				struct ftrace_regs *fregs)
{
}

/* SAVE_REGS: what IPMODIFY needs where ftrace passes no ftrace_regs args. */
static struct ftrace_ops holder_ops = {
	.func = holder_func,
	.flags = FTRACE_OPS_FL_IPMODIFY | FTRACE_OPS_FL_SAVE_REGS,
};

static int __init holder_init(void)
{
	int err;

	err = ftrace_set_filter(&holder_ops, (unsigned char *)func, strlen(func),
				0);
	if (err) {
		pr_err("cannot trace %s (%d)\n", func, err);
		return err;
	}
	err = register_ftrace_function(&holder_ops);
	if (err) {
		pr_err("cannot claim %s (%d)\n", func, err);
		ftrace_free_filter(&holder_ops);
		return err;
	}
	pr_info("holds %s\n", func);
	return 0;
}

static void __exit holder_exit(void)
{
	unregister_ftrace_function(&holder_ops);
	ftrace_free_filter(&holder_ops);
}

module_init(holder_init);
module_exit(holder_exit);

MODULE_DESCRIPTION("mmfree test helper: an IPMODIFY user of one kernel function");
MODULE_LICENSE("GPL");
