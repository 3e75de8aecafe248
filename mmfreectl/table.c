// SPDX-License-Identifier: GPL-2.0
/*
 * The knob and stat tables, shared with the module: the headers define
 * them in the one file that asks, as CREATE_TRACE_POINTS does, so that
 * every other file of mmfreectl only declares them.
 */
#define MMFREE_KNOB_TABLE
#define MMFREE_STAT_TABLE

#include <mmfree/knobs.h>
#include <mmfree/stats.h>
