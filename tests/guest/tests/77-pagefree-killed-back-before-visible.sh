#!/bin/sh
# A killed task's memory is back before anyone can see it gone, in every
# mode, as on stock: a victim of 4 threads holding 512 MiB is killed the
# way lmkd and systemd-oomd kill (pidfd_send_signal(SIGKILL), then
# process_mrelease(), then poll() on the pidfd); when the call returns 0
# and when the pidfd becomes readable, at least 90% of what the victim
# took is free (MemFree plus the per-CPU lists).  Anything left to the
# pool's workers would still be in flight: they are confined to CPU 0 and
# starved there.
#
# reaper-first: the victim on CPU 0, where a SCHED_FIFO hog holds it (and
# the workers) until the call returned; the caller reaps it all.
# at-once: the victim exits on CPU 1 beside the caller (nice -10), which
# calls at once: its reaper zaps beside the victim's exit_mmap(), or
# finds no mm if the victim's threads ran first.  in-exit: the caller
# calls 20 ms after the kill, with the victim's exit under way (the call
# finds no mm, ESRCH, as lmkd knows, once its threads have dropped it).
#
# exit: the victim exits on its own, exit_group(0) (no kill): only its
# mode's promise holds, so in async mode its pages are still in flight
# when the pidfd is readable, in sync mode none.  (An exit switched out
# on its way used to look like another task's teardown, and was made
# sync.)
#
# Before killed tasks waited at each flush, exit_mmap() set MMF_OOM_SKIP
# with its zapped pages still queued: process_mrelease() returned 0 with
# them in flight, and an async exit became visible with them in flight.
# A victim of 512 MiB is under the size (a 32nd of it larger than one
# flush) from which a killed task leaves one flush's items in flight
# while it zaps on: it waits at every flush.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

mb=512
pf_lift_rt_throttle

run() {	# label
	local order
	for order in reaper-first at-once in-exit exit; do
		if [ "$1" != stock ]; then
			# The FIFO hog of reaper-first starves CPU 0 itself.
			if [ $order = reaper-first ]; then
				pf_confine_workers
			else
				pf_starve_workers
			fi
		fi
		pftest lmkd $mb $order 1 ||
			fail "$1: $order: memory not back in time (above)"
		if [ $order = exit ] && [ "$1" != stock ]; then
			n=$(pf_stat inflight_pages)
			echo "$1: $n pages in flight after the exit of its own"
			if [ "$1" = async ]; then
				[ "$n" -gt 0 ] || fail "async: an exit of its own waited for its pages"
			else
				assert_eq "$n" 0 "sync: pages in flight after an exit"
			fi
		fi
		[ "$1" = stock ] || pf_feed_workers
	done
}

unload
thp_set never
run stock
for mode in sync async; do
	pf_load pagefree_mode=$mode pagefree_idle_only=0
	pf_snap
	run "$mode"
	pf_feed_workers
	pf_wait_inflight
	pf_show "$mode"
	[ "$(pf_delta work_items)" -gt 0 ] ||
		fail "$mode: no gather reached the pool"
	[ "$(pf_delta killed_pages)" -gt 0 ] ||
		fail "$mode: the victims' own exits pooled nothing"
done
unload
