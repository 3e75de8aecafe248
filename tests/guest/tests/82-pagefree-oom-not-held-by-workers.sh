#!/bin/sh
# A memcg OOM frees its own memcg's async items, no one else's, and does
# not wait on workers that cannot run.  The pool's workers are held
# (pf_freeze_workers: a SCHED_FIFO hog on their CPU) while an async
# munmap leaves 128 MiB in flight; a tenant in a memory cgroup (no swap)
# then touches 64 MiB.
#  - other: the munmap ran outside the tenant's cgroup, memory.max is
#    32 MiB.  The OOM killer kills the tenant within 5 s; the OOM path
#    freed none of the munmap's pages (another memcg's: all stay in
#    flight) and the held workers freed nothing.  (The OOM path used to
#    free every memcg's queued items: helped_pages grew by 128 MiB.
#    helped_pages grew by 67 in one 6.1 run while all 32768 pages
#    stayed in flight: it also counts what tasks free of their own sync
#    items, which since b8e6552 include an async gather's file pages,
#    so here it is only bounded below the pages in flight.)
#  - own: the munmap ran in the tenant's cgroup, memory.max is 160 MiB,
#    so its pages in flight, still charged, push the tenant over.  The
#    OOM path frees them itself (helped_pages grows by what was in
#    flight) and reports progress: no kill, the tenant finishes within
#    5 s while the workers are still held.  (It used to flush the
#    workqueue: the tenant waited for the hog to go.)
#  - moved: as own, but the munmap's task faulted its 128 MiB in the
#    tenant's cgroup, then moved to a sibling cgroup before the munmap:
#    its pages stay charged to the tenant's, so the tenant's OOM takes
#    them back, as in own.  (Items used to be tagged with the memcg of
#    the task that unmapped them: the OOM found none of its own, and
#    the kernel killed the tenant.)
#  - queuing: a 16 MiB async munmap in the tenant's cgroup (memory.max
#    32 MiB) sleeps right after queuing its first item (the test hook
#    test_queue_hold_ms), as if preempted there, while the tenant's OOM
#    looks for the memcg's items.  The OOM path takes that item back:
#    nothing is left in flight while the munmap still sleeps.  (The item
#    used to be listed before it was queued, with the lock dropped in
#    between: the OOM path found it not pending and left it in flight,
#    8 pages on 6.1.  Had the queuing task run on in that moment,
#    between cancel_work()'s setting and clearing of PENDING, the item
#    would never have been queued at all: its pages never freed.)
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

go=/tmp/mmfree-go
tenant=
munmapper=
MOVED=/sys/fs/cgroup/mmfree-pf-moved
trap 'kill -9 $tenant $munmapper 2>/dev/null; pkill -9 -f "^pftest stopped"; rm -f $go.*; rmdir $MOVED 2>/dev/null; pf_cleanup' EXIT
pf_load pagefree_mode=async pagefree_idle_only=0 percpu_enabled=0

# Run "$@" in the cgroup once $go.$1 exists; the pid is in $!.  It has
# joined the cgroup when this returns, before the hold: on 6.1 the hog
# also holds up RCU grace periods, which a write to cgroup.procs waits
# for, and every fork waits for that write.
later_in_cgroup() {	# name command...
	local name f n i
	name=$1
	f=$go.$name
	shift
	rm -f "$f"
	n=$(grep -c . "$PFCG/cgroup.procs")
	pf_in_cgroup taskset -c 1 sh -c "while [ ! -e $f ]; do sleep 0.05; done; exec $*" &
	i=0
	while [ "$(grep -c . "$PFCG/cgroup.procs")" -le "$n" ]; do
		[ $i -lt 100 ] || fail "the $name did not join $PFCG within 5 s"
		sleep 0.05
		i=$((i + 1))
	done
}

# Wait up to 5 s for a pid to end; sets ms to the milliseconds waited.
# Not in a command substitution: only this shell reaps its children, and
# kill -0 finds a zombie alive.
wait_gone() {	# pid
	ms=0
	while kill -0 "$1" 2>/dev/null && [ $ms -lt 5000 ]; do
		sleep 0.1
		ms=$((ms + 100))
	done
}

# The munmap's task (pftest stopped), once it faulted in the tenant's
# cgroup and stopped itself, moved to a sibling cgroup; its pid in pid.
# $! may be a shell above it: the stopped task is pftest's.
move_stopped() {
	local i
	: >$go.munmap
	i=0
	while :; do
		pid=$(pgrep -f '^pftest stopped') &&
			[ "$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null)" = T ] &&
			break
		[ $i -lt 200 ] || fail "moved: the munmap's task did not stop within 20 s"
		sleep 0.1
		i=$((i + 1))
	done
	[ -d $MOVED ] || mkdir $MOVED || fail "mkdir $MOVED"
	echo "$pid" >$MOVED/cgroup.procs || fail "moving $pid to $MOVED"
}

# The round: "other", "own" or "moved".
oom_round() {
	local where ms alive helped offloaded rc left pid
	where=$1
	case $where in
	other)
		pf_cgroup 32M 0
		;;
	own)
		pf_cgroup 160M 0
		later_in_cgroup munmap pftest munmap 128 1
		munmapper=$!
		;;
	moved)
		pf_cgroup 160M 0
		later_in_cgroup munmap pftest stopped 128
		munmapper=$!
		;;
	esac
	later_in_cgroup tenant pftest munmap 64 1
	tenant=$!
	# Before the hold: on 6.1 it also holds up cgroup.procs writes.
	[ "$where" != moved ] || move_stopped
	pf_freeze_workers
	pf_snap
	case $where in
	other)
		pf_run taskset -c 1 pftest munmap 128 1
		;;
	own)
		: >$go.munmap
		;;
	moved)
		kill -CONT "$pid"
		;;
	esac
	if [ -n "$munmapper" ]; then
		wait $munmapper || fail "$where: the munmap failed"
		munmapper=
	fi
	held=$(pf_stat inflight_pages)
	[ "$held" -gt 0 ] || fail "$where: nothing in flight after an async munmap with held workers"
	: >$go.tenant
	wait_gone $tenant
	alive=0
	kill -0 $tenant 2>/dev/null && alive=1
	pf_show "$where: after the tenant's OOM, $ms ms, workers held"
	helped=$(pf_delta helped_pages)
	offloaded=$(pf_delta offloaded_pages)
	left=$(pf_stat inflight_pages)
	pf_feed_workers
	wait $tenant
	rc=$?
	tenant=
	pf_wait_inflight
	echo "$where: tenant exit $rc, OOM kills $(pf_cgroup_event oom_kill);" \
		"$held pages were in flight, the OOM path freed $helped, $left were left"
	[ $alive = 0 ] || fail "$where: the tenant's OOM waited more than 5 s for the held workers"
	assert_eq "$offloaded" 0 "$where: pages the held workers freed"
	if [ "$where" != other ]; then
		assert_eq "$rc" 0 "$where: the tenant's exit status (no kill)"
		assert_eq "$(pf_cgroup_event oom_kill)" 0 "$where: OOM kills in the tenant's cgroup"
		[ "$helped" -ge "$held" ] ||
			fail "$where: the OOM path freed $helped of the $held pages in flight"
	else
		assert_eq "$rc" 137 "$where: the tenant's exit status (SIGKILL)"
		assert_eq "$(pf_cgroup_event oom_kill)" 1 "$where: OOM kills in the tenant's cgroup"
		[ "$helped" -lt "$held" ] ||
			fail "$where: $helped pages helped, the OOM path freed another memcg's $held"
		[ "$left" -ge "$held" ] ||
			fail "$where: $left of another memcg's $held pages left in flight"
	fi
}

# The "queuing" round: the munmap sleeps right after queuing its first
# item, for HOLD_S, while the tenant's OOM takes back its memcg's items.
HOLD_S=10
HOLD=/sys/module/mmfree/parameters/test_queue_hold_ms
uptime_s() {
	cut -d. -f1 /proc/uptime
}
queuing_round() {
	local t0 i held left helped rc
	pf_cgroup 32M 0
	later_in_cgroup munmap pftest munmap 16 1
	munmapper=$!
	later_in_cgroup tenant pftest munmap 64 1
	tenant=$!
	pf_freeze_workers
	pf_snap
	echo $((HOLD_S * 1000)) >$HOLD || fail "writing $HOLD"
	t0=$(uptime_s)
	: >$go.munmap
	i=0
	while [ "$(cat $HOLD)" != 0 ]; do
		[ $i -lt 100 ] || fail "queuing: the munmap queued no async item within 10 s"
		sleep 0.1
		i=$((i + 1))
	done
	held=$(pf_stat inflight_pages)
	[ "$held" -gt 0 ] || fail "queuing: nothing in flight while the munmap sleeps"
	: >$go.tenant
	wait_gone $tenant
	left=$(pf_stat inflight_pages)
	helped=$(pf_delta helped_pages)
	[ $(($(uptime_s) - t0)) -lt $HOLD_S ] ||
		fail "queuing: the tenant's OOM took longer than the munmap's $HOLD_S s sleep"
	pf_show "queuing: after the tenant's OOM, $ms ms, the munmap asleep, workers held"
	pf_feed_workers
	wait $tenant
	rc=$?
	tenant=
	wait $munmapper || fail "queuing: the munmap in the tenant's cgroup failed"
	munmapper=
	pf_wait_inflight
	echo "queuing: tenant exit $rc; $held pages were in flight, the OOM path freed $helped, $left were left"
	assert_eq "$rc" 137 "queuing: the tenant's exit status (SIGKILL)"
	assert_eq "$left" 0 "queuing: pages left in flight after the OOM, the munmap asleep right after queuing"
	[ "$helped" -ge "$held" ] ||
		fail "queuing: the OOM path freed $helped of the $held pages in flight"
}

oom_round other
oom_round own
oom_round moved
queuing_round
