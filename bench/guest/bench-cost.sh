#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Where a worker's time per page goes (bench/bench.sh --cost-only): the
# same free_pages_and_swap_cache() calls, timed in three places, on a
# munmap of MB by a task on CPU 1:
#
#   inline  stock: (munmap - zap) / pages, the kernel freeing inline
#           (pfbench zap unmaps the same pages pinned: all but the free)
#   alone   async, the workers held off CPU 0 by a SCHED_FIFO hog until
#           the munmap returned: they free every item after the zap,
#           with nothing else freeing (idle_only 0, else the held-off
#           pool is not offered the items), all on CPU 0 (items queued
#           while the workqueue was confined there stay with its
#           workers there)
#   beside  sync, the defaults: workers free while the task zaps and
#           then helps, both CPUs freeing the same memcg's pages into the
#           same zone; the workers' items and the task's apart
#
# A worker's and a task's item times come from the mmfree_item_freed
# trace event (its ns and pages: CPU time since ca1c008, before it the
# wall time, which on a kernel that preempts at the tick included other
# tasks' runs).  Lines: "PFCOST config rep ns_per_page
# items" (inline: items 0), "PFINFO key value...".  No tracer that
# patches kernel text runs here: under multi-threaded TCG the guest may
# then execute stale code (the function graph tracer, which hooks
# __schedule(), oopsed a boot so).  From the kernel
# command line: mmfree_cost_reps=N (default 3), mmfree_cost_mb=MB
# (default 1024).
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")" && pwd)}
# shellcheck source=../../tests/guest/lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../../tests/guest/lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"
# shellcheck source=bench-lib.sh
. "$MMFREE_GUEST/bench-lib.sh"
trap 'pf_cleanup; trace_off' EXIT

REPS=3
MB=1024
read -r cmdline </proc/cmdline
for arg in $cmdline; do
	case "$arg" in
	mmfree_cost_reps=*) REPS=${arg#*=} ;;
	mmfree_cost_mb=*) MB=${arg#*=} ;;
	esac
done
PAGES=$((MB * 256))

# The seconds pfbench printed last on its line.
timed() {	# pfbench arguments
	local out
	out=$(taskset -c 1 pfbench "$@" "$MB" 1) || fail "pfbench $1 $MB: $out"
	echo "${out##* }"
}

# One munmap with the item events traced; "PFCOST" lines for the
# workers' items and the task's.  With "held", the workers are held off
# until the munmap returned.  The trace is set up first: enabling the
# event sizes its buffer, which waits for work on every CPU, and
# clearing it waits for an RCU grace period; neither may wait on a CPU
# that a SCHED_FIFO hog holds.
traced() {	# config [held]
	echo 1 >"$E/mmfree_item_freed/enable" || fail "enabling mmfree_item_freed"
	trace_start
	[ "${2:-}" != held ] || pf_freeze_workers
	pfbench munmap "$MB" 1 >/dev/null || fail "pfbench munmap $MB"
	pf_feed_workers
	pf_wait_inflight
	trace_stop
	trace_lines mmfree_item_freed |
		sed -n 's/.* pages=\([0-9]*\) .* ns=\([0-9]*\) by=\([a-z]*\) .*/\1 \2 \3/p' |
		awk -v c="$1" -v r="$REP" '
			{ p[$3] += $1; ns[$3] += $2; n[$3]++ }
			END { for (by in n)
				printf "PFCOST %s-%s %d %.1f %d\n", c, by, r,
					ns[by] / p[by], n[by] }'
	trace_off
}

echo never >/sys/kernel/mm/transparent_hugepage/enabled ||
	fail "THP never"
settle
echo "PFINFO kernel $(uname -r)"
echo "PFINFO cpus $(nproc)"
echo "PFINFO cost reps $REPS mb $MB"
start=$(date +%s)

# Untimed first runs: under TCG the first run of a path pays for its
# translation.
unload
pfbench munmap 256 1 >/dev/null || fail "pfbench munmap"
pfbench zap 256 1 >/dev/null || fail "pfbench zap"
for mode in async sync; do
	pf_load pagefree_mode=$mode
	pfbench munmap 256 1 >/dev/null || fail "pfbench munmap"
	pf_wait_inflight
done
REP=1
while [ "$REP" -le "$REPS" ]; do
	unload
	t=$(timed munmap)
	z=$(timed zap)
	awk -v t="$t" -v z="$z" -v p=$PAGES -v r="$REP" \
		'BEGIN { printf "PFCOST inline %d %.1f 0\n", r, (t - z) * 1e9 / p }'

	pf_load pagefree_mode=async
	pf_knob idle_only 0
	traced alone held

	pf_load pagefree_mode=sync
	traced beside
	REP=$((REP + 1))
done
unload
echo "PFINFO seconds $(($(date +%s) - start))"
