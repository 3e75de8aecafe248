#!/bin/sh
# needs: cma
# An unmovable allocation gets its OOM kill even while another task's
# pages are in flight, when the pages the OOM path frees are CMA pages it
# cannot take.  The 2-node boot reserves a CMA area (cma=256M; sid's
# kernel has CMA, Debian's 6.1 and 6.12 do not: skipped there).
#
# A holder (never the OOM killer's choice) fills memory with pipe
# buffers (unmovable: pftest pipes) until 128 MiB is free outside CMA and
# stops.  Task A does the same down to 64 MiB and stops.  Four idle
# decoys (oom_score_adj 999) are the OOM killer's next choice after A:
# between A's kill and its exit freeing the pipes, another task's
# allocation may call it again, and must not take the harness.  The pool's
# workers are held on CPU 0; on CPU 1 task B (nice -5) maps, touches and
# unmaps 4 MiB in a loop for 12 s, async: its pages come from CMA once
# the rest is taken, and stay in flight until an OOM call drains them.
# A goes on beside B until the OOM killer takes it.  Each of A's OOM
# calls finds B's pages in flight and frees them.  Those are CMA pages
# (with far more CMA than other memory free, the allocator serves B's
# movable pages from CMA first), so the drain must not report progress:
# zone_watermark_ok() subtracts free CMA pages from what an unmovable
# allocation may use.  No drain reports progress (mmfree_oom_drain
# events), and A is killed while B still runs, as on the stock kernel.
# (The former check counted every free page against the min watermark:
# the drain reported progress, and A retried its allocation for nothing;
# with B's pages in flight at every OOM call it would never be killed.)
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

B_SECONDS=12
T=/sys/kernel/tracing
DRAIN=$T/events/mmfree/mmfree_oom_drain
cma=$(meminfo_kb CmaTotal)
echo "CmaTotal: ${cma:-none} kB ($(uname -r))"
[ "${cma:-0}" -gt 0 ] || skip "$(uname -r) is built without CMA: every free page serves any allocation"
# Only A may be the OOM killer's choice (children inherit this).
echo -1000 >/proc/self/oom_score_adj || fail "oom_score_adj"

# The time since boot, in ms.
now_ms() {
	awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime
}

# A process's state letter (T: stopped), empty once it is gone.
proc_state() {
	sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' "/proc/$1/status" 2>/dev/null
}

# Start "pftest pipes STOP_MB" with oom_score_adj ADJ on CPU 1
# and wait until it stopped itself; its PID in $pid.
fill_until() {	# label adj stop_mb
	local i st
	sh -c "echo $2 >/proc/self/oom_score_adj && exec taskset -c 1 pftest pipes $3" &
	pid=$!
	i=0
	while st=$(proc_state $pid) && [ "$st" != T ]; do
		[ -n "$st" ] || fail "$1: ended before it stopped itself"
		[ $i -lt 1200 ] || fail "$1: did not stop itself within 120 s"
		sleep 0.1
		i=$((i + 1))
	done
	echo "$1 stopped after $((i / 10)) s: $(meminfo_kb MemFree) kB free, $(meminfo_kb CmaFree) kB of it CMA"
}

run() {	# label
	local a b h i st t0 ta tb decoys
	fill_until "$1: the holder" -1000 128
	h=$pid
	fill_until "$1: A" 1000 64
	a=$pid
	decoys=
	for i in 1 2 3 4; do
		sh -c 'echo 999 >/proc/self/oom_score_adj && exec sleep 600' &
		decoys="$decoys $!"
	done
	pf_freeze_workers
	t0=$(now_ms)
	timeout $B_SECONDS nice -n -5 taskset -c 1 pftest munmap 4 1000000 &
	b=$!
	sleep 1
	kill -CONT $a
	wait $a
	st=$?
	ta=$(now_ms)
	# B still running when A was reaped: A's kill did not wait for B.
	if [ -n "$(proc_state $b)" ]; then tb=running; else tb=ended; fi
	wait $b
	pf_feed_workers
	# shellcheck disable=SC2086 # PIDs, one word each
	kill -9 $h $decoys 2>/dev/null
	# shellcheck disable=SC2086 # PIDs, one word each
	wait $h $decoys
	echo "$1: A ended $((ta - t0)) ms after B started (exit status $st); B had $tb"
	# 128 + SIGKILL: the OOM killer took it.
	assert_eq "$st" 137 "$1: A's exit status"
	[ $tb = running ] ||
		fail "$1: A was killed only after B stopped ($((ta - t0)) ms): the OOM path kept reporting progress with CMA pages"
}

unload
thp_set never
run stock
pf_load pagefree_mode=async pagefree_idle_only=0 pagefree_min_pages=256 \
	pagefree_max_inflight_pages=65536
pf_snap
echo >$T/trace
echo 1 >$DRAIN/enable || fail "enabling mmfree_oom_drain"
echo 1 >$T/tracing_on
run async
pf_wait_inflight
echo 0 >$DRAIN/enable
drains=$(grep -c 'mmfree_oom_drain:' $T/trace)
progress=$(grep -c 'mmfree_oom_drain:.*progress=1' $T/trace)
pf_show async
echo "async: $drains OOM drains, $progress reported progress"
[ "$(pf_delta offloaded_pages)" -gt 0 ] || fail "async: B's pages never went to the pool"
[ "$drains" -gt 0 ] || fail "async: no OOM call found pages in flight: nothing was tested"
[ "$progress" = 0 ] ||
	fail "async: $progress of $drains drains reported progress with only CMA pages back"
unload
