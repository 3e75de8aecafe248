#!/bin/sh
# 32 processes, each holding 16 MiB it touched, exit at once (closing a
# pipe they all wait on) with idle_only=1 (busy CPUs: mostly freed
# inline), then 32 more are SIGKILLed at once with idle_only=0 (the pool
# must take pages); in sync and async mode.  All are reaped with the
# right status, every page is accounted, and free memory comes back (no
# leak); the console shows no splat.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

n=${PF_HERD:-32}
mb=16
for mode in sync async; do
	pf_load pagefree_mode=$mode
	pf_run pftest herd 4 $mb exit
	pf_baseline
	for how in exit kill; do
		idle=1
		[ $how = exit ] || idle=0
		pf_knob idle_only $idle
		pf_snap
		pf_run pftest herd "$n" $mb $how
		pf_wait_inflight
		pf_show "$mode, idle_only=$idle, $how"
		total=$(pf_delta_total)
		[ "$total" -ge $((n * mb * 256)) ] ||
			fail "$mode: statistics account for $total pages, expected at least $((n * mb * 256))"
		[ $idle = 1 ] || pf_assert_pooled "$mode, idle_only=0"
	done
	pf_assert_no_leak "$mode: after $n exits and $n kills of $mb MiB"
done
unload
