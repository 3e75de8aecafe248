/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Declarations shared by the files of mmfree.ko.
 *
 *   main.c   init and exit: wires the parts together, nothing else
 *   sysfs.c  the knobs: /sys/kernel/mmfree/ and the module parameters
 *   ksyms.c  resolving the unexported kernel symbols the features need
 *   hook.c   attaching callbacks to kernel functions with ftrace
 *   btf.c    reading struct layouts from the kernel's BTF
 *   percpu.c the percpu policy: which chunks to depopulate, and when
 *   compat.h the only place that knows kernel versions
 */
#ifndef _MMFREE_H
#define _MMFREE_H

#include <linux/compiler.h>
#include <linux/ftrace.h>
#include <linux/types.h>
#include <mmfree/knobs.h>

/* sysfs.c */
extern unsigned int mmfree_knob_vals[MMFREE_NR_KNOBS];

static inline unsigned int mmfree_knob(enum mmfree_knob_id id)
{
	/* Knobs change under mmfree_knobs_lock; readers take a snapshot. */
	return READ_ONCE(mmfree_knob_vals[id]);
}

extern char *mmfree_test_missing_ksym;

void mmfree_knobs_init(void);
int mmfree_sysfs_init(void);
void mmfree_sysfs_exit(void);

/* main.c */
int mmfree_features_update(void);
struct dentry *mmfree_debugfs_dir(void);

/* hook.c */
struct mmfree_hook {
	const char *name;
	unsigned long addr;
	ftrace_func_t func;
	struct ftrace_ops ops;
	bool attached;
};

int mmfree_hook_attach(struct mmfree_hook *hook);
void mmfree_hook_detach(struct mmfree_hook *hook);

/* btf.c */
struct btf_type;
int mmfree_btf_init(const void *start, const void *end);
void mmfree_btf_exit(void);
const struct btf_type *mmfree_btf_struct(const char *name);
int mmfree_btf_member(const struct btf_type *t, const char *name, int size);

/* percpu.c */
struct attribute_group;
extern const struct attribute_group mmfree_percpu_stats_group;
void mmfree_percpu_init(void);
void mmfree_percpu_exit(void);
bool mmfree_percpu_usable(void);
int mmfree_percpu_update(void);
int mmfree_percpu_reclaim(void);

/* ksyms.c */
struct mmfree_ksym {
	const char *name;
	unsigned long addr;
	bool call;		/* called through a pointer: must be IBT-safe */
};

int mmfree_ksyms_init(void);
void mmfree_ksyms_exit(void);
int mmfree_ksyms_resolve(const char *feature, struct mmfree_ksym *syms,
			 size_t nr);

#endif /* _MMFREE_H */
