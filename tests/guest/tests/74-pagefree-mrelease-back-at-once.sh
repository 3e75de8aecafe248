#!/bin/sh
# Memory reaped for another process is back when the reaper returns: a
# parent kills a child holding 256 MiB and calls process_mrelease() on
# its pidfd (as lmkd and systemd-oomd do); when the call returns, at least
# 90% of the child's memory is free again, in every mode.  The child
# and a SCHED_FIFO hog (real-time throttling lifted) share CPU 0, where
# the pool's workers are confined too, so neither the pool nor the dying
# child runs until the call returns: in async mode a reaper's gather is
# still pooled, but as a sync one whose items the reaper takes back and
# frees itself (the mm is not the reaper's own).  (Async used to return
# with the memory still in flight.)
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

mb=256
pf_lift_rt_throttle

run() {	# label
	out=$(taskset -c 1 pftest mrelease $mb 0) || fail "$1: pftest mrelease failed"
	echo "$1: $out"
	took=$(echo "$out" | sed -n 's/.*child took \([0-9-]*\) kB.*/\1/p')
	back=$(echo "$out" | sed -n 's/.*; \([0-9-]*\) kB were back.*/\1/p')
	if [ -z "$took" ] || [ -z "$back" ]; then
		fail "$1: cannot read pftest's output"
	fi
	[ "$took" -ge $((mb * 1024 * 9 / 10)) ] ||
		fail "$1: the child took only $took kB"
	[ $((back * 10)) -ge $((took * 9)) ] ||
		fail "$1: only $back of $took kB back when process_mrelease returned"
}

unload
thp_set never
run stock
for mode in sync async; do
	pf_load pagefree_mode=$mode pagefree_idle_only=0
	pf_snap
	pf_confine_workers
	run "$mode"
	pf_feed_workers
	pf_wait_inflight
	pf_show "$mode"
	[ "$(pf_delta work_items)" -gt 0 ] ||
		fail "$mode: the reaper's gather never reached the pool"
done
unload
