#!/bin/sh
# A task helping with its own queued items (sync mode, workers starved)
# offers the CPU between items, as the kernel's own free loop does
# between batches: on a voluntary-preemption kernel a second task on its
# CPU (a cyclictest-like loop waking every millisecond) is not held off
# for the whole help.  A 1 GiB process exits on CPU 1 beside the loop;
# the loop's longest gap must stay under a quarter of the time the exit
# spent helping and waiting (wait_ns: one gather, one help loop), where
# without the yield it spans nearly all of it.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

grep -q voluntary /sys/kernel/debug/sched/preempt 2>/dev/null ||
	echo "preemption: $(cat /sys/kernel/debug/sched/preempt 2>/dev/null || echo unknown)"

pf_load pagefree_mode=sync pagefree_idle_only=0 percpu_enabled=0
pf_starve_workers
# A hog beside the exit too, so that the help takes its time.
pf_bg taskset -c 1 pftest spin 600
pf_snap
wait0=$(pf_stat wait_ns)
# Long enough for the populate (beside a hog) and the exit.
taskset -c 1 pftest latency 25 >/tmp/latency.out &
lat=$!
pf_run taskset -c 1 pftest forkexit 1024 1
wait $lat
pf_feed_workers
cat /tmp/latency.out
pf_show "exit of 1 GiB"
helped=$(pf_delta helped_pages)
[ "$helped" -gt 100000 ] || fail "the exit helped with only $helped pages: no long help loop to measure"
help_ns=$(($(pf_stat wait_ns) - wait0))
gap_us=$(sed -n 's/.*longest gap \([0-9]*\) us.*/\1/p' /tmp/latency.out)
echo "longest help: $((help_ns / 1000000)) ms; the loop's longest gap: $((gap_us / 1000)) ms"
[ -n "$gap_us" ] || fail "no gap from the latency loop"
[ $((gap_us * 4)) -lt $((help_ns / 1000)) ] ||
	fail "a task on the helping CPU waited ${gap_us} us of a ${help_ns} ns help: the help loop did not yield"
