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
# workers are held on CPU 0; on CPU 1 task B (nice -5) touches 4 MiB and
# drops it (MADV_DONTNEED) in a loop until A is gone, async: its pages
# come from CMA (with far more CMA than other memory free, the allocator
# serves movable pages from CMA first) and stay in flight until an OOM
# call drains them.  B keeps its page tables, so it allocates nothing
# that CMA cannot serve and never waits in the OOM path itself: every
# OOM call finds B's pages in flight.  A goes on beside B until the OOM
# killer takes it.  The OOM calls before A's kill (trace event
# mark_victim) drain B's CMA pages; a drain must not report progress
# when only those came back: zone_watermark_ok() subtracts free CMA
# pages from what an unmovable allocation may use.  So at least one
# drain before A's kill reports none, and A is killed while B still
# runs, as on the stock kernel.  A drain may rightly report progress:
# the OOM killer runs just below the min watermark, and a few non-CMA
# pages that B took from a per-CPU list, or any other task's frees, can
# close that gap; so up to three rounds, one of which must show a drain
# without progress.  The former check counted every free page against
# the min watermark: every drain reported progress, and A was killed
# only by an OOM call that found nothing in flight.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

# B's limit: far beyond A's kill (5 to 8 s after B starts here), so
# that a slow host does not end B first; B is stopped as soon as A is
# gone.
B_SECONDS=60
ROUNDS=3
T=/sys/kernel/tracing
DRAIN=$T/events/mmfree/mmfree_oom_drain
VICTIM=$T/events/oom/mark_victim
cma=$(meminfo_kb CmaTotal)
echo "CmaTotal: ${cma:-none} kB ($(uname -r))"
[ "${cma:-0}" -gt 0 ] || skip "$(uname -r) is built without CMA: every free page serves any allocation"
# Only A may be the OOM killer's choice (children inherit this).
echo -1000 >/proc/self/oom_score_adj || fail "oom_score_adj"

# Each zone's (with free pages) free pages, free CMA pages and min watermark, in kB.
zones() {
	awk '/^Node/ { z = $2 $4 }
	/^  pages free/ { f[z] = $3 }
	/^ +min / { m[z] = $2 }
	/nr_free_cma/ { c[z] = $2 }
	END { for (z in f) if (f[z]) printf " %s %d/%d/%d", z, f[z] * 4, c[z] * 4, m[z] * 4 }' /proc/zoneinfo
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
	A_PID=$a
	decoys=
	for i in 1 2 3 4; do
		sh -c 'echo 999 >/proc/self/oom_score_adj && exec sleep 600' &
		decoys="$decoys $!"
	done
	pf_freeze_workers
	echo "$1: zone free/CMA free/min (kB):$(zones)"
	t0=$(uptime_ms)
	timeout $B_SECONDS nice -n -5 taskset -c 1 pftest dontneed 4 1000000000 &
	b=$!
	sleep 1
	kill -CONT $a
	wait $a
	st=$?
	ta=$(uptime_ms)
	# B still running when A was reaped: A's kill did not wait for B.
	if [ -n "$(proc_state $b)" ]; then tb=running; else tb=ended; fi
	kill $b 2>/dev/null
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
echo 1 >$DRAIN/enable || fail "enabling mmfree_oom_drain"
echo 1 >$VICTIM/enable || fail "enabling oom/mark_victim"
echo 1 >$T/tracing_on
# A round passes when a drain before A's kill reported no progress.  A
# round may rightly have none: every drain found a few non-CMA pages
# (progress), and A's retry then met an OOM call with nothing in flight
# yet.  Up to ROUNDS rounds; the former check never passes one.
round=1
while :; do
	echo >$T/trace
	run "async $round"
	pf_wait_inflight
	# The drains up to A's kill, and those of them that reported progress.
	# shellcheck disable=SC2046 # two numbers
	set -- $(awk -v a="$A_PID" '
		$0 ~ "mark_victim: pid=" a " " { exit }
		/mmfree_oom_drain:/ { d++; if (/progress=1/) p++ }
		END { print d + 0, p + 0 }' $T/trace)
	drains=$1 progress=$2
	echo "async $round: $drains OOM drains before A's kill, $progress reported progress;" \
		"$(grep -c 'mmfree_oom_drain:' $T/trace) in all"
	grep -q "mark_victim: pid=$A_PID " $T/trace ||
		fail "async $round: no mark_victim event for A ($A_PID)"
	[ "$progress" -lt "$drains" ] && break
	[ $round -lt $ROUNDS ] ||
		fail "async: in each of $ROUNDS rounds, all drains before A's kill (if any) reported progress with B's CMA pages back"
	round=$((round + 1))
done
echo 0 >$DRAIN/enable
echo 0 >$VICTIM/enable
pf_show async
[ "$(pf_delta offloaded_pages)" -gt 0 ] || fail "async: B's pages never went to the pool"
unload
