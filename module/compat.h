/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernels mmfree supports (6.1 and 6.12), kept in
 * one place so that the rest of the module is written against one API.
 */
#ifndef _MMFREE_COMPAT_H
#define _MMFREE_COMPAT_H

#include <linux/types.h>
#include <asm/ibt.h>

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
