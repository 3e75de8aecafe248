// SPDX-License-Identifier: GPL-2.0
/*
 * The module parameters: one per knob, named after its path ('/' becomes
 * '_'), read-only in sysfs, setting the knob at load, and the load-time
 * parameters that are no knob (untested_kernel).  Their names and
 * descriptions (help, limits, default) are made by the preprocessor from
 * the declaration in include/mmfree/knobs.h, so they cannot drift.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

#include "mmfree.h"

/* Set by a parameter: mmfree_knobs_init() keeps the value. */
static bool mmfree_param_given[MMFREE_NR_KNOBS];

static enum mmfree_knob_id mmfree_param_knob(const struct kernel_param *kp)
{
	return (const bool *)kp->arg - mmfree_param_given;
}

static int mmfree_param_set(const char *buf, const struct kernel_param *kp)
{
	enum mmfree_knob_id id = mmfree_param_knob(kp);
	const struct mmfree_knob_desc *desc = &mmfree_knob_descs[id];
	unsigned int val;

	if (mmfree_knob_parse(id, buf, &val)) {
		if (desc->names)
			pr_err("invalid value '%s' for parameter %s: expected %s or %s\n",
			       buf, kp->name, desc->names[0], desc->names[1]);
		else if (desc->off)
			pr_err("invalid value '%s' for parameter %s: expected 0 (off) or an integer from %u to %u\n",
			       buf, kp->name, desc->min, desc->max);
		else
			pr_err("invalid value '%s' for parameter %s: expected an integer from %u to %u\n",
			       buf, kp->name, desc->min, desc->max);
		return -EINVAL;
	}
	/* Parameters are read-only in sysfs: this runs only at load. */
	WRITE_ONCE(mmfree_knob_vals[id], val);
	mmfree_param_given[id] = true;
	return 0;
}

static int mmfree_param_get(char *buf, const struct kernel_param *kp)
{
	return mmfree_knob_print(mmfree_param_knob(kp), buf);
}

static const struct kernel_param_ops mmfree_param_ops = {
	.set = mmfree_param_set,
	.get = mmfree_param_get,
};

/* Knob defaults where no parameter was given: before any feature starts. */
void mmfree_knobs_init(void)
{
	int i;

	for (i = 0; i < MMFREE_NR_KNOBS; i++)
		if (!mmfree_param_given[i])
			mmfree_knob_vals[i] = mmfree_knob_descs[i].def;
}

#define MMFREE_PARAM(param, id, desc)					\
	module_param_cb(param, &mmfree_param_ops,			\
			&mmfree_param_given[MMFREE_KNOB_##id], 0444);	\
	MODULE_PARM_DESC(param, desc);
#define MMFREE_PARAM_TOP(id, name, d, lo, hi, h)			\
	MMFREE_PARAM(name, id, h " (" #lo "-" #hi ", default " #d ")")
#define MMFREE_PARAM_NUM(id, dir, name, d, lo, hi, h)			\
	MMFREE_PARAM(dir##_##name, id, h " (" #lo "-" #hi ", default " #d ")")
#define MMFREE_PARAM_OFF(id, dir, name, d, lo, hi, h)			\
	MMFREE_PARAM(dir##_##name, id,					\
		     h " (0 or " #lo "-" #hi ", default " #d ")")
#define MMFREE_PARAM_NAMED(id, dir, name, first, second, h)		\
	MMFREE_PARAM(dir##_##name, id,					\
		     h " (" #first " or " #second ", default " #first ")")

MMFREE_KNOBS(MMFREE_PARAM_TOP, MMFREE_PARAM_NUM, MMFREE_PARAM_OFF,
	     MMFREE_PARAM_NAMED)

/* Opting in to a kernel series mmfree was not run on (main.c). */
bool mmfree_untested_kernel;
module_param_named(untested_kernel, mmfree_untested_kernel, bool, 0444);
#define MMFREE_LOAD_PARAM_DESC(name, d, lo, hi, h)			\
	MODULE_PARM_DESC(name, h " (" #lo "-" #hi ", default " #d ")");
MMFREE_LOAD_PARAMS(MMFREE_LOAD_PARAM_DESC)
