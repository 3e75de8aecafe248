/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Declarations shared by the files of mmfree.ko.
 *
 *   main.c   init and exit: wires the parts together, nothing else
 *   sysfs.c  the knobs: /sys/kernel/mmfree/ and the module parameters
 *   ksyms.c  resolving the unexported kernel symbols the features need
 *   compat.h the only place that knows kernel versions
 */
#ifndef _MMFREE_H
#define _MMFREE_H

#include <linux/compiler.h>
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

int mmfree_sysfs_init(void);
void mmfree_sysfs_exit(void);

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
void mmfree_ksyms_check_features(void);

#endif /* _MMFREE_H */
