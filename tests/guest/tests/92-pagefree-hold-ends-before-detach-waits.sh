#!/bin/sh
# The test hook test_hold_node ends before a detach waits for the tasks
# inside mmfree's wrappers.  A task faults in 64 MiB and stops itself;
# then, in sync mode with node 0's workers holding their items
# (test_hold_node=0), it unmaps them: it takes back the items no worker
# started and waits in tlb_finish_mmu() for the one a worker holds.
# Disabling pagefree must end the hold and return within 20 s, the
# munmap with it, nothing left in flight.  (The hold used to end only at
# the pool's drain, after that wait: the detach spun until the held
# worker's 60 s ran out.)
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

HOLD=/sys/module/mmfree/parameters/test_hold_node
trap '[ ! -w $HOLD ] || echo -1 >$HOLD; pkill -9 -f "^pftest stopped"; pf_cleanup' EXIT
pf_load pagefree_mode=sync pagefree_idle_only=0
taskset -c 1 pftest stopped 64 &
bg=$!
i=0
while ! pid=$(pgrep -f '^pftest stopped') ||
	[ "$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null)" != T ]; do
	[ $i -lt 200 ] || fail "the munmap's task did not stop within 20 s"
	sleep 0.1
	i=$((i + 1))
done
pf_snap
echo 0 >$HOLD || fail "holding node 0's workers (test_hold_node)"
kill -CONT "$pid"
sleep 2
pf_show "2 s after the munmap"
kill -0 "$pid" 2>/dev/null || fail "the sync munmap returned while a worker held its item"
held=$(pf_stat inflight_pages)
[ "$held" -gt 0 ] || fail "no page in flight while the munmap waits"
t0=$(date +%s.%N)
knob_write pagefree/enabled 0 || fail "disabling pagefree"
t1=$(date +%s.%N)
wait $bg || fail "pftest stopped failed"
took=$(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }")
echo "disabled with a sync munmap waiting on $held held pages: $took s; test_hold_node $(cat $HOLD), $(pf_stat inflight_pages) pages in flight"
awk "BEGIN { exit !($took < 20) }" ||
	fail "disabling pagefree took $took s: it waited for the held item"
assert_eq "$(cat $HOLD)" -1 "test_hold_node after the detach"
assert_eq "$(pf_stat inflight_pages)" 0 "pages in flight after the detach"
unload
