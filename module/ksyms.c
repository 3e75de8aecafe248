// SPDX-License-Identifier: GPL-2.0
/*
 * Resolving the kernel symbols mmfree needs but the kernel does not export.
 *
 * kallsyms_lookup_name() is unexported since 5.7, and on 6.12 its ENDBR
 * is sealed (it is never called indirectly), so calling it through a
 * pointer would raise #CP on IBT hardware.  mmfree never calls it: it asks
 * register_kprobe() to place a probe at the symbol, which makes the kernel
 * call kallsyms_lookup_name() itself, and reads the result with a
 * kretprobe on kallsyms_lookup_name().  That works for data symbols too:
 * register_kprobe() fails for them only after the lookup.  The probe is
 * registered disabled: an armed one on a hot function (idle_cpu, say) is
 * text that every CPU may execute until its removal is synchronised, and
 * only the address is wanted.
 *
 * mmfree never calls a resolved function through a pointer: it calls
 * kernel functions through gates (hook.c), which work whether or not the
 * kernel sealed the function's ENDBR64.
 *
 * A feature whose symbols do not all resolve stays off, with one dmesg
 * line naming the first missing symbol; the other features still load.
 * A symbol marked MMFREE_SYM_OPTIONAL may be missing: its feature says
 * what it does without it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/ptrace.h>
#include <linux/string.h>

#include "mmfree.h"

/* Test hook: a symbol name that lookups pretend not to find. */
static char *mmfree_test_missing_ksym;
module_param_named(test_missing_ksym, mmfree_test_missing_ksym, charp, 0400);
MODULE_PARM_DESC(test_missing_ksym,
		 "testing only: treat this kernel symbol as missing");

/* One lookup at a time: the kretprobe reports into these. */
static DEFINE_MUTEX(mmfree_lookup_lock);
static const char *mmfree_lookup_name;
static unsigned long mmfree_lookup_addr;

/* Catch only our own lookup: the kernel passes our string through. */
static int mmfree_lookup_entry(struct kretprobe_instance *ri,
			       struct pt_regs *regs)
{
	const char *name = (const char *)regs_get_kernel_argument(regs, 0);

	return name == READ_ONCE(mmfree_lookup_name) ? 0 : 1;
}

static int mmfree_lookup_ret(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	WRITE_ONCE(mmfree_lookup_addr, regs_return_value(regs));
	return 0;
}

/*
 * Every caller of kallsyms_lookup_name() takes an instance at entry, ours
 * or not: maxactive 0 asks for the kernel's default, max(10, 2 x possible
 * CPUs), and a lookup that ran while none was free is retried.
 */
static struct kretprobe mmfree_lookup_probe = {
	.kp.symbol_name = "kallsyms_lookup_name",
	.entry_handler = mmfree_lookup_entry,
	.handler = mmfree_lookup_ret,
};

#define MMFREE_LOOKUP_TRIES	5

static unsigned long mmfree_lookup_missed(void)
{
	return READ_ONCE(mmfree_lookup_probe.nmissed) +
	       READ_ONCE(mmfree_lookup_probe.kp.nmissed);
}

/**
 * mmfree_ksym_lookup - the address of a kernel symbol
 * @name: the symbol
 *
 * Only between mmfree_ksyms_init() and mmfree_ksyms_exit().
 *
 * Return: its address, or 0 when the kernel has no such symbol.
 */
unsigned long mmfree_ksym_lookup(const char *name)
{
	unsigned long addr = 0, missed;
	int try;

	if (mmfree_test_missing_ksym && !strcmp(name, mmfree_test_missing_ksym))
		return 0;

	mutex_lock(&mmfree_lookup_lock);
	for (try = 0; !addr && try < MMFREE_LOOKUP_TRIES; try++) {
		/* Never armed: learning an address patches no kernel text. */
		struct kprobe kp = {
			.symbol_name = name,
			.flags = KPROBE_FLAG_DISABLED,
		};

		missed = mmfree_lookup_missed();
		WRITE_ONCE(mmfree_lookup_addr, 0);
		WRITE_ONCE(mmfree_lookup_name, name);
		/* Fails for data and blacklisted text, after the lookup ran. */
		if (!register_kprobe(&kp))
			unregister_kprobe(&kp);
		WRITE_ONCE(mmfree_lookup_name, NULL);
		addr = READ_ONCE(mmfree_lookup_addr);
		/* Not found, and the probe saw every call: really missing. */
		if (!addr && mmfree_lookup_missed() == missed)
			break;
	}
	mutex_unlock(&mmfree_lookup_lock);
	return addr;
}

int mmfree_ksyms_init(void)
{
	int err;

	err = register_kretprobe(&mmfree_lookup_probe);
	if (err) {
		pr_err("cannot resolve kernel symbols: kretprobe on kallsyms_lookup_name failed (%d)\n",
		       err);
		return err;
	}
	/*
	 * The kretprobe rides on ftrace (the function starts with its
	 * patchable call): with ftrace switched off, or with every kprobe
	 * disarmed, it registers but never fires, and every symbol would
	 * look missing.  Neither switch is readable from a module.
	 */
	if (!mmfree_ksym_lookup(mmfree_lookup_probe.kp.symbol_name)) {
		pr_err("cannot resolve kernel symbols: the kretprobe on kallsyms_lookup_name does not fire (ftrace switched off? sysctl kernel.ftrace_enabled; kprobes disarmed? /sys/kernel/debug/kprobes/enabled)\n");
		unregister_kretprobe(&mmfree_lookup_probe);
		return -EBUSY;
	}
	return 0;
}

void mmfree_ksyms_exit(void)
{
	unregister_kretprobe(&mmfree_lookup_probe);
}

/**
 * mmfree_ksyms_resolve - resolve the kernel symbols of one feature
 * @feature: the feature's name, for the log
 * @syms: the symbols; on success each has its address (0 for an optional
 *	  symbol this kernel lacks)
 * @nr: the number of @syms
 *
 * Return: 0, or -ENOENT after one dmesg line saying that @feature stays
 * off and which symbol is missing.
 */
int mmfree_ksyms_resolve(const char *feature, struct mmfree_sym *syms,
			 size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		/* An optional symbol BTF does not confirm is not looked up. */
		if (syms[i].unusable)
			continue;
		syms[i].addr = mmfree_ksym_lookup(syms[i].name);
		if (!syms[i].addr && !(syms[i].flags & MMFREE_SYM_OPTIONAL)) {
			pr_warn("%s disabled: kernel symbol %s not found\n",
				feature, syms[i].name);
			return -ENOENT;
		}
	}
	return 0;
}
