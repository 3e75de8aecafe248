// SPDX-License-Identifier: GPL-2.0
/*
 * A feature's kernel symbols, as one table: each row names a symbol once
 * and says what mmfree does with it: reads it (data, whose address goes
 * where the row says), hooks it (a callback in hook.c), calls it (a gate
 * in gate.c), or hooks and calls it.  Here a table is resolved
 * (ksyms.c), its functions' prototypes are checked against the kernel's
 * BTF (btf.c), its data, hooks and gates learn their addresses, and its
 * gates, then its hooks, are attached, each as one set (hook.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bug.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "mmfree.h"

/* Most hooks, or gates, of one table. */
#define MMFREE_SET_MAX		16

/* Longest prototype compared: a few pointers to structs. */
#define MMFREE_PROTO_MAX	256

/*
 * A function's prototype as the kernel's BTF has it must be the one its
 * gate or wrapper was written for: a stable backport can change it.
 */
static int mmfree_sym_check(const char *feature, struct mmfree_sym *sym)
{
	char *got;
	int err;

	if (!sym->proto)
		return 0;
	got = kmalloc(MMFREE_PROTO_MAX, GFP_KERNEL);
	if (!got)
		return -ENOMEM;
	err = mmfree_btf_func(sym->name, got, MMFREE_PROTO_MAX);
	if (!err && strcmp(got, sym->proto))
		err = -EINVAL;
	if (err == -ENOENT)
		pr_warn("%s%s: kernel BTF has no function %s\n", feature,
			sym->flags & MMFREE_SYM_OPTIONAL ? "" : " disabled",
			sym->name);
	else if (err)
		pr_warn("%s%s: %s is %s in this kernel's BTF, mmfree calls it as %s\n",
			feature,
			sym->flags & MMFREE_SYM_OPTIONAL ? "" : " disabled",
			sym->name, got, sym->proto);
	kfree(got);
	return err;
}

/**
 * mmfree_syms_check - check a feature's functions against the kernel's BTF
 * @feature: the feature's name, for the log
 * @syms: its table
 * @nr: the number of rows
 *
 * Reads BTF only: no probe is placed on the kernel.  An optional function
 * whose prototype differs is marked unusable (one line says so).
 *
 * Return: 0, or a negative errno after one dmesg line naming the first
 * function that keeps @feature off.
 */
int mmfree_syms_check(const char *feature, struct mmfree_sym *syms,
		      size_t nr)
{
	size_t i;
	int err;

	for (i = 0; i < nr; i++) {
		if (syms[i].flags & MMFREE_SYM_UNUSED) {
			syms[i].unusable = true;
			continue;
		}
		err = mmfree_sym_check(feature, &syms[i]);
		if (err && !(syms[i].flags & MMFREE_SYM_OPTIONAL))
			return err;
		syms[i].unusable = err;
	}
	return 0;
}

/**
 * mmfree_syms_resolve - resolve a feature's symbols and bind them
 * @feature: the feature's name, for the log
 * @syms: its table, checked by mmfree_syms_check()
 * @nr: the number of rows
 *
 * The address of each symbol goes to its data pointer, hook or gate; an
 * optional symbol that is missing or unusable is left at 0 (its gate
 * cannot open).
 *
 * Return: 0, or a negative errno after one dmesg line naming the first
 * symbol that keeps @feature off.
 */
int mmfree_syms_resolve(const char *feature, struct mmfree_sym *syms,
			size_t nr)
{
	size_t i;
	int err;

	err = mmfree_ksyms_resolve(feature, syms, nr);
	if (err)
		return err;
	for (i = 0; i < nr; i++) {
		struct mmfree_sym *sym = &syms[i];

		if (sym->unusable)
			sym->addr = 0;
		if (sym->data)
			*sym->data = (void *)sym->addr;
		if (sym->hook) {
			sym->hook->name = sym->name;
			sym->hook->addr = sym->addr;
		}
		if (sym->gate) {
			sym->gate->target_name = sym->name;
			sym->gate->target = sym->addr;
		}
	}
	return 0;
}

/* What of a table is attached or detached as one set. */
enum mmfree_sym_set {
	MMFREE_SYMS_HOOKS,
	MMFREE_SYMS_GATES,		/* the gates called while it runs */
	MMFREE_SYMS_LOAD_GATES,		/* the gates used at load only */
};

/* The hook of row @sym in @which, or NULL. */
static struct mmfree_hook *mmfree_sym_hook(struct mmfree_sym *sym,
					   enum mmfree_sym_set which)
{
	bool at_load = sym->flags & MMFREE_SYM_AT_LOAD;
	bool want_at_load = which == MMFREE_SYMS_LOAD_GATES;

	if (which == MMFREE_SYMS_HOOKS)
		return sym->hook;
	return sym->gate && at_load == want_at_load ? &sym->gate->hook : NULL;
}

/*
 * Detach the sets of @which; each set once, one that cannot be detached
 * stays attached (hook.c pins the module).  Return: the first error.
 */
static int mmfree_syms_detach_sets(struct mmfree_sym *syms, size_t nr,
				   enum mmfree_sym_set which)
{
	struct mmfree_hooks *failed = NULL;
	struct mmfree_hook *hook;
	size_t i;
	int err = 0, e;

	for (i = 0; i < nr; i++) {
		hook = mmfree_sym_hook(&syms[i], which);
		if (!hook || !hook->set || hook->set == failed)
			continue;
		failed = hook->set;
		e = mmfree_hooks_detach(hook);
		err = err ?: e;
	}
	return err;
}

/* Attach, as one set, the hooks of @which that are not attached yet. */
static int mmfree_syms_attach_set(struct mmfree_sym *syms, size_t nr,
				  enum mmfree_sym_set which)
{
	struct mmfree_hook *set[MMFREE_SET_MAX], *hook;
	unsigned int n = 0;
	size_t i;

	for (i = 0; i < nr; i++) {
		hook = mmfree_sym_hook(&syms[i], which);
		/* An optional function's gate is left closed if it is missing. */
		if (!hook || hook->set || !syms[i].addr)
			continue;
		if (WARN_ON_ONCE(n == MMFREE_SET_MAX))
			return -E2BIG;
		set[n++] = hook;
	}
	return n ? mmfree_hooks_attach(set, n) : 0;
}

/* Close the gates a feature calls while it runs.  Return: the first error. */
int mmfree_syms_close_gates(struct mmfree_sym *syms, size_t nr)
{
	return mmfree_syms_detach_sets(syms, nr, MMFREE_SYMS_GATES);
}

/* Detach the hooks; the gates stay open.  Return: the first error. */
int mmfree_syms_detach(struct mmfree_sym *syms, size_t nr)
{
	return mmfree_syms_detach_sets(syms, nr, MMFREE_SYMS_HOOKS);
}

/**
 * mmfree_syms_attach - open a feature's gates, then attach its hooks
 * @syms: its table
 * @nr: the number of rows
 *
 * The gates go live before any hook that may call them.  The hooks come
 * up together, in no set order: a feature lets its hooks act only once
 * this returns.
 *
 * Return: 0, or the first error; then what was attached stays so: the
 * feature undoes it with its own detach, which knows what must be
 * waited for (tasks inside its wrappers) before its gates close.
 */
int mmfree_syms_attach(struct mmfree_sym *syms, size_t nr)
{
	return mmfree_syms_attach_set(syms, nr, MMFREE_SYMS_GATES) ?:
	       mmfree_syms_attach_set(syms, nr, MMFREE_SYMS_HOOKS);
}

/*
 * Open the gates a feature uses at load only, as one set: each open and
 * close of a set waits for RCU-tasks once.  A gate whose function is
 * missing stays closed.  Return: 0, or the error; then none is open.
 */
int mmfree_syms_open_load_gates(struct mmfree_sym *syms, size_t nr)
{
	return mmfree_syms_attach_set(syms, nr, MMFREE_SYMS_LOAD_GATES);
}

/* Close them again.  Return: 0, or the error; then they stay open. */
int mmfree_syms_close_load_gates(struct mmfree_sym *syms, size_t nr)
{
	return mmfree_syms_detach_sets(syms, nr, MMFREE_SYMS_LOAD_GATES);
}

/* Whether any hook or gate of the table is attached. */
bool mmfree_syms_attached(const struct mmfree_sym *syms, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if ((syms[i].hook && syms[i].hook->set) ||
		    (syms[i].gate && mmfree_gate_is_open(syms[i].gate)))
			return true;
	return false;
}
