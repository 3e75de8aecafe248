#!/bin/sh
# A SCHED_IDLE task's frees take no CPU from normal tasks: a SCHED_IDLE
# async munmap loop runs on an idle machine for 1 s, then one nice-0 hog
# per CPU counts its rounds for 4 s.  With mmfree loaded (async, its
# defaults) the loop's pages are freed inline, at the loop's own
# priority: no work item is queued and the workers run for no time; and
# the hogs' rounds are within 15% of those with the module unloaded
# (windows without, with, without, with: sums compared).  (A pool that
# took the loop's pages freed them at nice 0 in the root cgroup, beside
# the hogs.)
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
# their rounds.
window() {
	local c=0 pids='' loop
	rm -rf $dir
	mkdir -p $dir
	chrt -i 0 sh -c "while [ ! -e $dir/loop-stop ]; do
		pftest munmap 128 1 >/dev/null || exit 1; done" &
	loop=$!
	sleep 1
	while [ $c -lt "$cpus" ]; do
		hog $c &
		pids="$pids $!"
		c=$((c + 1))
	done
	sleep 4
	touch $dir/stop
	for p in $pids; do
		wait "$p"
	done
	touch $dir/loop-stop
	wait $loop || fail "the SCHED_IDLE munmap loop failed"
	ROUNDS=$(cat $dir/hog.* | awk '{ s += $1 } END { print s }')
}

without=0 with=0
for round in 1 2; do
	unload
	window
	echo "round $round, without mmfree: hogs' rounds $ROUNDS"
	without=$((without + ROUNDS))
	pf_load pagefree_mode=async
	pf_snap
	window
	pf_wait_inflight
	pf_show "round $round, with mmfree"
	echo "round $round, with mmfree: hogs' rounds $ROUNDS"
	with=$((with + ROUNDS))
	[ "$(pf_delta inline_limited_pages)" -gt 0 ] ||
		fail "round $round: no page of the SCHED_IDLE loop was freed inline as limited"
	assert_eq "$(pf_delta work_items)" 0 "round $round: work items queued for the SCHED_IDLE loop"
	assert_eq "$(pf_delta worker_ns)" 0 "round $round: worker_ns"
done
echo "hogs' rounds: $without without mmfree, $with with ($((with * 100 / without))%)"
[ $((with * 100)) -ge $((without * 85)) ] ||
	fail "the hogs did $with rounds with mmfree, under 85% of their $without without"
unload
