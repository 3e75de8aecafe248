#!/bin/sh
# A SCHED_IDLE task's frees take no CPU from normal tasks: a SCHED_IDLE
# async munmap loop runs on an idle machine for 1 s, then one nice-0 hog
# per CPU counts its rounds for 4 s.  With mmfree loaded (async, its
# defaults) the loop's pages are freed inline, at the loop's own
# priority: no work item is queued and the workers run for no time; and
# the hogs' share of the CPUs is within 15% of theirs with the module
# unloaded (windows without, with, without, with: sums compared).  (A
# pool that took the loop's pages freed them at nice 0 in the root
# cgroup, beside the hogs.)  Their rounds are printed, not compared: a
# CI run on sid, its other lane busy, had them at 80% in both windows
# with mmfree (all of the loop's pages inline), and at 97-100% alone.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

dir=/tmp/pf-idle
trap 'touch $dir/stop $dir/loop-stop; wait; pf_cleanup' EXIT
cpus=$(nproc)

hog() {	# id
	local i=0
	while [ ! -e $dir/stop ]; do
		i=$((i + 1))
	done
	echo $i >"$dir/hog.$1"
}

# One window: the loop alone, then the hogs beside it; sets ROUNDS to
# their rounds and SHARE to their share of the CPUs' time, in per mille
# (the CPU time they ran, from /proc/PID/schedstat, over the window's
# length times the CPUs).  The share is the guest's own account: when
# the host gives the VM less time (another VM, a build), the rounds
# drop, the share does not.
window() {
	local c=0 pids='' loop t0 ms p ns=0
	rm -rf $dir
	mkdir -p $dir
	chrt -i 0 sh -c "while [ ! -e $dir/loop-stop ]; do
		pftest munmap 128 1 >/dev/null || exit 1; done" &
	loop=$!
	sleep 1
	t0=$(uptime_ms)
	while [ $c -lt "$cpus" ]; do
		hog $c &
		pids="$pids $!"
		c=$((c + 1))
	done
	sleep 4
	for p in $pids; do
		ns=$((ns + $(task_runtime_ns "$p")))
	done
	ms=$(($(uptime_ms) - t0))
	touch $dir/stop
	for p in $pids; do
		wait "$p"
	done
	touch $dir/loop-stop
	wait $loop || fail "the SCHED_IDLE munmap loop failed"
	ROUNDS=$(cat $dir/hog.* | awk '{ s += $1 } END { print s }')
	SHARE=$((ns / 1000 / ms / cpus))
}

without=0 with=0
for round in 1 2; do
	unload
	window
	echo "round $round, without mmfree: hogs' rounds $ROUNDS, CPU share $SHARE per mille"
	without=$((without + SHARE))
	pf_load pagefree_mode=async
	pf_snap
	window
	pf_wait_inflight
	pf_show "round $round, with mmfree"
	echo "round $round, with mmfree: hogs' rounds $ROUNDS, CPU share $SHARE per mille"
	with=$((with + SHARE))
	[ "$(pf_delta inline_limited_pages)" -gt 0 ] ||
		fail "round $round: no page of the SCHED_IDLE loop was freed inline as limited"
	assert_eq "$(pf_delta work_items)" 0 "round $round: work items queued for the SCHED_IDLE loop"
	assert_eq "$(pf_delta worker_ns)" 0 "round $round: worker_ns"
done
echo "hogs' CPU share: $((without / 2)) per mille without mmfree, $((with / 2)) with"
[ $((with * 100)) -ge $((without * 85)) ] ||
	fail "the hogs had $((with / 2)) per mille of the CPUs with mmfree, under 85% of their $((without / 2)) without"
unload
