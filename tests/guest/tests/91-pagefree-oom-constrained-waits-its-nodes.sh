#!/bin/sh
# needs: numa=2
# A constrained OOM frees and waits for the pages in flight on the nodes
# its allocation may use, no others.  The CPU-less node 2 (256 MiB) is
# onlined, and node 0's workers hold each item before they start it
# (test_hold_node: they sleep, with no page of it freed yet).  B, on
# CPU 1, unmaps 768 MiB of node 0; C, on CPU 0, unmaps 64 MiB of node 2
# (its items queue on the queuing CPU's node, node 0, behind B's);
# async.  A, bound to node 2, allocates until the OOM killer takes it.
# Its OOM call finds C's pages in flight and takes C's queued items back
# (helped_pages grows by C's pages, no more: B's stay in flight), then
# waits (mmfree_pool_wait_back(), timed by a kprobe and a kretprobe) for
# the pages of node 2 only: none are left, and it returns at once.  (It
# used to take back and free every queued item, B's too, and to wait
# for every page in flight: its whole second, for B's held items.)
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

KP=$T/kprobe_events
HOLD=/sys/module/mmfree/parameters/test_hold_node
C_PAGES=$((64 * 256))
trap '[ ! -w $HOLD ] || echo -1 >$HOLD; pf_cleanup; [ ! -d $T/events/kprobes ] || echo 0 >$T/events/kprobes/enable; echo >$KP; trace_off; pf_memnode offline' EXIT
pf_memnode online_movable
thp_set never
pf_load pagefree_mode=async pagefree_idle_only=0 pagefree_max_inflight_pages=262144
echo 'p:mmfree_wait_in mmfree:mmfree_pool_wait_back' >$KP || fail "a kprobe on mmfree_pool_wait_back"
echo 'r:mmfree_wait_out mmfree:mmfree_pool_wait_back' >>$KP || fail "a kretprobe on mmfree_pool_wait_back"
echo 1 >$T/events/kprobes/enable || fail "enabling the kprobes"
echo 1 >$E/mmfree_oom_drain/enable || fail "enabling mmfree_oom_drain"
echo 0 >$HOLD || fail "holding node 0's workers (test_hold_node)"
pf_snap
pf_run taskset -c 1 pftest node 768 1 0
pf_run taskset -c 0 pftest node 64 1 $PF_MEMNODE
held=$(pf_stat inflight_pages)
echo "node 0's workers held with $held pages in flight"
[ "$held" -ge $((768 * 256 / 2 + C_PAGES)) ] ||
	fail "only $held pages in flight with node 0's workers held: B's and C's items were freed"
pf_snap
trace_start
# shellcheck disable=SC2016 # "$0": sh -c's first argument, the node
timeout -k 5 120 sh -c 'echo 1000 >/proc/self/oom_score_adj && exec taskset -c 1 pftest hog "$0" 16' $PF_MEMNODE
rc=$?
trace_stop
left=$(pf_stat inflight_pages)
helped=$(pf_delta helped_pages)
echo -1 >$HOLD
pf_wait_inflight
pf_show "after A's OOM kill"
trace_lines 'mmfree_(wait_in|wait_out|oom_drain)' | sed 's/^ *//'
assert_eq "$rc" 137 "A's exit status (the OOM killer's SIGKILL)"
# The calls' lengths (ms), from the entry and return times.
waits=$(trace_lines 'mmfree_wait_(in|out)' | awk '{
	for (i = 1; i <= NF; i++)
		if ($i ~ /^[0-9]+\.[0-9]+:$/) t = substr($i, 1, length($i) - 1)
	if ($0 ~ /mmfree_wait_in:/) t0 = t
	else if (t0 != "") { printf "%d\n", (t - t0) * 1000; t0 = "" }
}')
n=$(echo "$waits" | grep -c .)
longest=$(echo "$waits" | sort -n | tail -n 1)
timed_out=$(trace_lines mmfree_oom_drain | grep -c 'timed_out=1')
echo "A's OOM calls waited $n times, the longest ${longest:-0} ms ($timed_out ran out); they freed $helped pages of the $held in flight, $left still in flight after the kill"
[ "$n" -gt 0 ] || fail "no OOM call of A found C's pages in flight"
[ "$helped" -ge "$C_PAGES" ] ||
	fail "A's OOM calls freed $helped pages, not C's $C_PAGES of node 2"
[ "$helped" -le $((C_PAGES + 256)) ] ||
	fail "A's OOM calls freed $helped pages, more than C's $C_PAGES of node 2"
[ "$left" -ge $((held - C_PAGES - 256)) ] ||
	fail "$left of the $held pages in flight left after A's OOM kill: B's of node 0 were freed for it"
{ [ "$longest" -lt 500 ] && [ "$timed_out" = 0 ]; } ||
	fail "an OOM call of A waited $longest ms, for pages of node 0 that make no room for it"
echo 0 >$T/events/kprobes/enable
echo >$KP
unload
