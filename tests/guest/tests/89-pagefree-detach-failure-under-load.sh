#!/bin/sh
# A detach that ftrace refuses (the fault injection test_fail_detach=1,
# as after an ftrace anomaly) changes nothing while pages are in flight:
# with the pool's workers frozen and an async munmap's pages queued,
# disabling pagefree fails at once, without waiting for RCU-tasks or the
# pool, the pages stay queued, the next munmap is still pooled, and once
# the workers run again everything is freed and no context is left.
# (The refused detach used to go on as if it had succeeded: wait for the
# tasks inside the wrappers, drain the pool, then close every open
# context, though the hooks still ran and a task that had slept in the
# middle of its gather, an exit waiting for process_mrelease(), could
# still be using its own: closed twice, its memcg put twice.)
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

mb=64
pf_load test_fail_detach=1 pagefree_mode=async pagefree_idle_only=0
pf_run pftest munmap $mb 1
pf_baseline
pf_snap
pf_freeze_workers
taskset -c 1 pftest munmap $mb 1 || fail "pftest munmap"
before=$(pf_stat inflight_pages)
echo "in flight with the workers frozen: $before pages"
[ "$before" -gt 0 ] || fail "nothing in flight with the workers frozen"

dmesg_clear
rc=/tmp/pf-refused-disable.rc
rm -f $rc
(
	if knob_write pagefree/enabled 0 >/dev/null; then
		echo succeeded
	else
		echo refused
	fi >$rc.tmp
	mv $rc.tmp $rc
) &
writer=$!
i=0
while [ ! -e $rc ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
if [ ! -e $rc ]; then
	pf_feed_workers
	wait $writer
	fail "the refused disable waited for the frozen workers: it returned only once they ran ($(cat $rc))"
fi
wait $writer
echo "disable: $(cat $rc) after about $((i * 100)) ms; $(dmesg_new | grep 'cannot detach from')"
assert_eq "$(cat $rc)" refused "disabling pagefree with a hook that could not be detached"
assert_eq "$(knob pagefree/enabled)" 1 "pagefree/enabled after the refused disable"
after=$(pf_stat inflight_pages)
echo "in flight after the refused disable: $after pages"
[ "$after" -ge "$before" ] ||
	fail "$after pages in flight after the refused disable, $before before: it drained the pool"

# Still pooling: the next munmap's pages are queued, not freed inline.
offloaded=$(pf_delta offloaded_pages)
queued=$(pf_delta work_items)
taskset -c 1 pftest munmap $mb 1 || fail "pftest munmap after the refused disable"
[ "$(pf_delta work_items)" -gt "$queued" ] ||
	fail "the munmap after the refused disable queued no work item"
[ "$(pf_delta inline_disabled_pages)" = 0 ] ||
	fail "$(pf_delta inline_disabled_pages) pages freed inline as disabled after a disable that was refused"

pf_feed_workers
pf_wait_inflight
pf_show "two munmaps of $mb MiB around a refused disable"
[ "$(pf_delta offloaded_pages)" -gt "$offloaded" ] || fail "the workers freed nothing once fed"
state=/sys/kernel/debug/mmfree/pagefree_state
echo "pagefree_state: $(tr '\n' ' ' <$state)"
assert_eq "$(sed -n 's/^contexts //p' $state)" 0 "contexts open once idle"
assert_eq "$(sed -n 's/^items //p' $state)" 0 "work items once idle"
pf_assert_no_leak "munmaps around a refused disable"
# The fault was one detach: the next one works and lets the module go.
knob_write pagefree/enabled 0 || fail "disabling pagefree once the fault is spent"
unload
