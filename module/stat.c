// SPDX-License-Identifier: GPL-2.0
/*
 * Event counters: per CPU, so that counting costs no shared cache line on
 * the freeing path; a read sums them (include/mmfree/stats.h says what
 * each counts).  Statistics that are not events (pages in flight, the
 * percpu allocator's state) are read by their feature instead.
 */
#include <linux/percpu.h>

#define MMFREE_STAT_TABLE
#include "mmfree.h"

struct mmfree_stat_counts {
	unsigned long v[MMFREE_NR_STATS];
};

static DEFINE_PER_CPU(struct mmfree_stat_counts, mmfree_stat_counts);

/* Any context: a per-CPU add. */
void mmfree_stat_add(enum mmfree_stat_id id, unsigned long n)
{
	this_cpu_add(mmfree_stat_counts.v[id], n);
}

/* The total so far, every CPU's share summed without locking. */
unsigned long mmfree_stat_sum(enum mmfree_stat_id id)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(mmfree_stat_counts.v[id], cpu);
	return sum;
}
