// SPDX-License-Identifier: GPL-2.0
/*
 * The knobs' values.  Declared in include/mmfree/knobs.h (name, default,
 * limits), written only by sysfs.c (files, at run time) and param.c
 * (module parameters, at load), read by the features with
 * mmfree_knob(MMFREE_KNOB_<PATH>).  Both writers parse and print a value
 * here, the same way.
 */
#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/sysfs.h>

#define MMFREE_KNOB_TABLE
#include "mmfree.h"

unsigned int mmfree_knob_vals[MMFREE_NR_KNOBS];

/**
 * mmfree_knob_parse - a knob's value from what a user wrote
 * @id: the knob
 * @buf: one of the knob's names, or decimal digits within its limits (or
 *	 0 for a knob that 0 turns off); an optional trailing newline
 * @val: the value, on success
 *
 * Return: 0 or -EINVAL.
 */
int mmfree_knob_parse(enum mmfree_knob_id id, const char *buf,
		      unsigned int *val)
{
	const struct mmfree_knob_desc *desc = &mmfree_knob_descs[id];

	if (desc->names) {
		for (*val = desc->min; *val <= desc->max; (*val)++)
			if (sysfs_streq(buf, desc->names[*val]))
				return 0;
		return -EINVAL;
	}
	if (!isdigit(buf[0]) || kstrtouint(buf, 10, val))
		return -EINVAL;
	if (*val == 0 && desc->off)
		return 0;
	if (*val < desc->min || *val > desc->max)
		return -EINVAL;
	return 0;
}

/* A knob's value as it reads back: its name, or the number. */
int mmfree_knob_print(enum mmfree_knob_id id, char *buf)
{
	const struct mmfree_knob_desc *desc = &mmfree_knob_descs[id];
	unsigned int val = mmfree_knob(id);

	if (desc->names)
		return sysfs_emit(buf, "%s\n", desc->names[val]);
	return sysfs_emit(buf, "%u\n", val);
}
