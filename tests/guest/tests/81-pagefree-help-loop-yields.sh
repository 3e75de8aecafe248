#!/bin/sh
# A task helping with its own queued items (sync mode, workers starved)
# offers the CPU between items, as the kernel's own free loop does
# between batches: on a voluntary-preemption kernel a second task on its
# CPU (a cyclictest-like loop waking every millisecond) is not held off
# for the whole help.  A 1 GiB process exits on CPU 1 beside the loop;
# the loop's longest gap within the exit (from the child's _exit() to its
# reaping) must stay under a quarter of the time the exit spent helping
# and waiting (wait_ns: one gather, one help loop), where without the
# yield it spans nearly all of it.  Only gaps within the exit count: the
# populate before it (beside a hog) and a stall of the whole VM under
# TCG elsewhere say nothing about the help loop.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

grep -q voluntary /sys/kernel/debug/sched/preempt 2>/dev/null ||
	echo "preemption: $(cat /sys/kernel/debug/sched/preempt 2>/dev/null || echo unknown)"

lat=
trap 'kill $lat 2>/dev/null; pf_cleanup' EXIT
pf_load pagefree_mode=sync pagefree_idle_only=0 percpu_enabled=0
# One exit beside the loop: true when the loop's longest gap within the
# exit stays under a quarter of the help; $gap_us and $help_ns.
round() {
	pf_starve_workers
	# A hog beside the exit too, so that the help takes its time.
	pf_bg taskset -c 1 pftest spin 600
	pf_snap
	wait0=$(pf_stat wait_ns)
	# Until it is killed, once the exit is reaped.
	taskset -c 1 pftest latency 600 >/tmp/latency.out &
	lat=$!
	t0=$(date +%s)
	out=$(taskset -c 1 pftest exitat 1024) || fail "pftest exitat 1024 failed: $out"
	echo "$out (exit of 1 GiB after $(($(date +%s) - t0)) s)"
	kill $lat
	wait $lat 2>/dev/null
	lat=
	pf_feed_workers
	pf_show "exit of 1 GiB"
	helped=$(pf_delta helped_pages)
	[ "$helped" -gt 100000 ] || fail "the exit helped with only $helped pages: no long help loop to measure"
	help_ns=$(($(pf_stat wait_ns) - wait0))
	from=$(echo "$out" | sed -n 's/^exit from //p')
	to=$(echo "$out" | sed -n 's/^exit to //p')
	start=$(sed -n 's/^latency: start //p' /tmp/latency.out)
	if [ -z "$from" ] || [ -z "$to" ] || [ -z "$start" ]; then
		fail "no times from pftest exitat or latency"
	fi
	awk -v s="$start" -v f="$from" 'BEGIN { exit !(s < f) }' ||
		fail "the latency loop started after the exit"
	# The longest part of a gap that lies within [from, to].
	gap_us=$(awk -v f="$from" -v t="$to" '$1 == "gap" {
		lo = $2 - $3 / 1e6; hi = $2
		if (lo < f) lo = f
		if (hi > t) hi = t
		if (hi - lo > m) m = hi - lo
	} END { printf "%d\n", m * 1e6 }' /tmp/latency.out)
	echo "latency loop: $(grep -c '^gap' /tmp/latency.out) gaps over 2 ms," \
		"longest $(awk '$1 == "gap" && $3 > m { m = $3 } END { printf "%d", m / 1000 }' /tmp/latency.out) ms"
	echo "exit: $(awk -v f="$from" -v t="$to" 'BEGIN { printf "%d", (t - f) * 1000 }') ms;" \
		"help and wait: $((help_ns / 1000000)) ms; the loop's longest gap within the exit: $((gap_us / 1000)) ms"
	[ $((gap_us * 4)) -lt $((help_ns / 1000)) ]
}

# A stall of the whole guest under TCG (the host preempting QEMU) can
# make one such gap; a help loop that does not yield makes it each time.
round || {
	echo "one more exit: the longest gap was ${gap_us} us of a ${help_ns} ns help"
	round
} || fail "a task on the helping CPU waited ${gap_us} us of a ${help_ns} ns help: the help loop did not yield"
