#!/bin/sh
# Parallel page freeing returns every page: in sync and in async mode,
# 60 munmaps of a touched 32 MiB region and 60 fork/exits of a child
# that touched 16 MiB leave free memory (MemFree plus the per-CPU lists)
# where it was (within 12 MiB: leaking one region fails), with the pool
# really used (offloaded_pages grew), every gathered page accounted in
# the statistics, and none in flight.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

n=${PF_LEAK_CYCLES:-60}
mb=32
fmb=16
expect=$((n * (mb + fmb) * 256))	# pages freed, at least

for mode in sync async; do
	pf_load pagefree_mode=$mode
	assert_eq "$(knob pagefree/mode)" "$mode" "pagefree/mode after modprobe pagefree_mode=$mode"
	# Warm up: page tables, slab caches and the pool's workers.
	pf_run pftest munmap $mb 2
	pf_run pftest forkexit $fmb 2
	pf_baseline
	pf_snap
	pf_run pftest munmap $mb "$n"
	pf_run pftest forkexit $fmb "$n"
	pf_wait_inflight
	pf_show "$mode"
	off=$(pf_delta offloaded_pages)
	total=$(pf_delta_total)
	pf_assert_pooled "$mode"
	[ "$total" -ge "$expect" ] ||
		fail "$mode: statistics account for $total pages, the test freed at least $expect"
	if [ "$mode" = async ]; then
		# Nothing waits in async mode: offloading is the rule.
		[ "$off" -ge $((expect / 2)) ] ||
			fail "async: only $off of $expect pages offloaded"
	fi
	pf_assert_no_leak "$mode: after $n munmaps of $mb MiB and $n fork/exits of $fmb MiB"
done
unload
