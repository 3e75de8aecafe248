#!/bin/sh
# mmfreectl wait returns once no page is in flight, without polling in a
# loop: it sleeps in poll() on pagefree/stats/inflight_pages, which the
# module wakes (sysfs_notify()) when the count falls to 0 and before its
# files go at unload.  With the pool's workers held (pf_freeze_workers:
# a SCHED_FIFO hog on their CPU), an async munmap leaves all its pages
# in flight: wait --timeout 1 gives up with status 4 and
# leaves them so; a wait started then is still waiting a second later and
# returns 0 once the workers may run and the last item is freed, after
# which nothing is in flight; with nothing in flight it returns 0 at
# once; unloading the module (which drains the pool) wakes a waiter,
# which returns 0 once the module is gone.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

wout=/tmp/mmfree-wait.out

# An async munmap whose pages stay in flight: the workers cannot run.
pending() {	# what
	pf_freeze_workers
	pf_snap
	pf_run taskset -c 1 pftest munmap 128 1
	n=$(pf_stat inflight_pages)
	pf_show "$1"
	[ "$(pf_delta offloaded_pages)" = 0 ] || fail "$1: the held workers freed $(pf_delta offloaded_pages) pages"
	[ "$n" -gt 0 ] || fail "$1: nothing in flight after an async munmap with held workers"
}

# Start mmfreectl wait in the background: its status and what was in
# flight right after it returned go to $wout.
wait_bg() {
	: >"$wout"
	(mmfreectl wait; echo "rc=$? inflight=$(cat "$PF/stats/inflight_pages" 2>/dev/null || echo gone)" >"$wout") &
	WAITER=$!
}

# Whether the background wait has returned within SECONDS.
waited_within() {	# seconds
	i=0
	while [ ! -s "$wout" ]; do
		[ $i -lt $(($1 * 10)) ] || return 1
		sleep 0.1
		i=$((i + 1))
	done
	wait $WAITER
	return 0
}

pf_load pagefree_mode=async pagefree_idle_only=0 percpu_enabled=0

# Nothing in flight: at once.
pf_wait_inflight
ctl_rc 0 wait --timeout 5

# A timeout leaves what is in flight as it is.
pending timeout
ctl_rc 4 wait --timeout 1
[ "$(pf_stat inflight_pages)" -gt 0 ] || fail "the pages were freed while the workers starved: no timeout tested"

# Waiting until the last item.
wait_bg
sleep 1
[ ! -s "$wout" ] || fail "wait returned while pages were in flight: $(cat "$wout")"
pf_feed_workers
waited_within 60 || fail "wait did not return within 60 s of the workers running"
echo "after the workers ran: $(cat "$wout")"
assert_eq "$(cat "$wout")" "rc=0 inflight=0" "wait's status and what was in flight when it returned"

# Unloading wakes the waiter; it returns once the module (and its
# drain) is gone.
pending unload
wait_bg
sleep 1
[ ! -s "$wout" ] || fail "wait returned while pages were in flight: $(cat "$wout")"
modprobe -r mmfree &
rmmod_pid=$!
sleep 2
# The files are gone, the drain waits for the workers: the waiter was
# woken and now waits for the module to go (a sleep, no longer poll()).
# It wakes every 20 ms to look, and a task that is running or runnable
# shows wchan 0: sample ten times, never in poll, at least once asleep.
[ ! -e "$MMFREE" ] || fail "$MMFREE still there 2 s into the unload"
[ ! -s "$wout" ] || fail "wait returned before the unload's drain: $(cat "$wout")"
waiter=$(pgrep -x mmfreectl) || fail "no mmfreectl waiting during the unload's drain"
wchans=
i=0
while [ $i -lt 10 ]; do
	wchans="$wchans $(cat /proc/"$waiter"/wchan 2>/dev/null || echo gone)"
	sleep 0.05
	i=$((i + 1))
done
echo "the waiter, during the unload's drain: in$wchans"
case "$wchans" in
*poll*) fail "the waiter is still in poll ($wchans): the unload did not wake it" ;;
*nanosleep*) ;;
*) fail "the waiter was never seen asleep waiting for the module to go:$wchans" ;;
esac
pf_feed_workers
wait $rmmod_pid || fail "modprobe -r mmfree failed"
waited_within 30 || fail "unloading the module did not wake the waiter"
echo "after the unload: $(cat "$wout")"
assert_eq "$(cat "$wout")" "rc=0 inflight=gone" "wait's status after the unload"
