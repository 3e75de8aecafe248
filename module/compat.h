/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernels mmfree supports (6.1 and 6.12), kept in
 * one place so that the rest of the module is written against one API.
 */
#ifndef _MMFREE_COMPAT_H
#define _MMFREE_COMPAT_H

#include <linux/ftrace.h>
#include <linux/ptrace.h>
#include <linux/types.h>
#include <linux/version.h>
#include <asm/ibt.h>

/*
 * The kernels mmfree was tested on.  Its features reach into kernel
 * internals that change between releases: elsewhere they stay off.
 */
static inline bool mmfree_kernel_tested(void)
{
	unsigned int series = LINUX_VERSION_CODE >> 8;

	return series == KERNEL_VERSION(6, 1, 0) >> 8 ||
	       series == KERNEL_VERSION(6, 12, 0) >> 8;
}

/* Argument @n of the traced function, in an ftrace callback. */
static inline unsigned long mmfree_ftrace_arg(struct ftrace_regs *fregs,
					      unsigned int n)
{
#ifdef ftrace_regs_get_argument
	return ftrace_regs_get_argument(fregs, n);
#else
	/* 6.1: struct ftrace_regs is a struct pt_regs in disguise. */
	return regs_get_kernel_argument(&fregs->regs, n);
#endif
}

#ifdef CONFIG_X86_KERNEL_IBT
/*
 * With IBT an indirect call must land on ENDBR64.  At boot on IBT
 * hardware the kernel seals (overwrites) the ENDBR of functions it never
 * calls indirectly, so only the live instruction tells.
 */
static inline bool mmfree_insn_is_endbr64(u32 insn)
{
	return insn == gen_endbr();
}
#else
static inline bool mmfree_insn_is_endbr64(u32 insn)
{
	return false;
}
#endif

/* True when the kernel needs every indirect call target to be ENDBR64. */
static inline bool mmfree_ibt(void)
{
	return IS_ENABLED(CONFIG_X86_KERNEL_IBT);
}

#endif /* _MMFREE_COMPAT_H */
