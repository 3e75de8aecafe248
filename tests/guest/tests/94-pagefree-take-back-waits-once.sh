#!/bin/sh
# A take-back waits for the items workers have started once for an mm,
# not once a gather.  In async mode, with node 0's workers holding the
# items they start (test_hold_node=0: they sleep, as workers starved by
# a real-time hog would), a victim of 4 threads unmaps 128 of its 130
# MiB (the 2 left are freed inline, below pagefree/min_pages).  It is
# killed as lmkd kills, reaper first (an unthrottled SCHED_FIFO hog
# keeps it off its CPU, so its mm stays in use): process_mrelease()
# zaps one VMA a gather, and each gather takes back the victim's
# earlier items.  The first frees the queued ones and waits 1 s for the
# held ones; no other gather, the victim's exit included, may wait for
# them again (mmfree_wait events of 0.5 s or more: at most 1), and the
# call returns within 5 s, 90% of what the victim took back.  (Every
# gather used to wait 1 s again for the same held items: on 6.1, 16
# waits of 1 s, the call returned after 16.4 s, and the exit waited 1 s
# more.)
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

mb=130 unmap=128
HOLD=/sys/module/mmfree/parameters/test_hold_node
trap '[ ! -w $HOLD ] || echo -1 >$HOLD; trace_off; pf_cleanup' EXIT
unload
thp_set never
pf_load pagefree_mode=async pagefree_idle_only=0
pf_lift_rt_throttle
pf_snap
echo 1 >$E/mmfree_wait/enable
echo 0 >$HOLD || fail "holding node 0's workers (test_hold_node)"
trace_start
out=$(pftest lmkd $mb reaper-first 1 $unmap)
rc=$?
trace_stop
echo "$out"
held=$(pf_stat inflight_pages)
echo -1 >$HOLD
pf_wait_inflight
pf_show "after the kill"
trace_lines mmfree_wait | sed 's/^ *//'
long=$(trace_lines mmfree_wait | awk '{
	for (i = 1; i <= NF; i++)
		if ($i ~ /^ns=/ && substr($i, 4) + 0 >= 5e8)
			n++
} END { print n + 0 }')
[ $rc = 0 ] || fail "memory not back in time (above)"
took=$(echo "$out" | sed -n 's/.* the victim took \([0-9]*\) kB.*/\1/p')
[ "${took:-0}" -ge $((mb * 1024 * 9 / 10)) ] ||
	fail "the victim took only ${took:-0} kB: its unmapped pages were not in flight at the kill"
call=$(echo "$out" | sed -n 's/.* returned 0 after \([0-9.]*\) s.*/\1/p')
[ -n "$call" ] || fail "process_mrelease did not return 0 (above)"
echo "process_mrelease returned after $call s; $long waits of 0.5 s or more; $held pages still held after the victim's exit"
[ "$held" -gt 0 ] || fail "no item was held: nothing tested"
[ "$long" -le 1 ] || fail "$long waits of 0.5 s or more: the gathers waited again for the held items"
awk "BEGIN { exit !($call < 5) }" ||
	fail "process_mrelease took $call s: its gathers waited again and again for the held items"
[ "$(pf_delta helped_pages)" -gt 0 ] || fail "no gather took back the victim's queued items"
unload
