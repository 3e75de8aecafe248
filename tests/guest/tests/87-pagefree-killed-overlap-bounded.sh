#!/bin/sh
# A killed task leaves at most one flush in flight while it unmaps on, and
# only when that flush is within a 32nd of its RSS.  A child holding MB
# on CPU 1 is SIGKILLed (pftest herd 1 MB kill; no reaper), the workers
# starved on CPU 0 so that what the task leaves them stays queued (a
# victim there would be starved too), and mmfree's events
# (mmfree_offload for each item queued, mmfree_item_freed for each item
# freed, by a worker or by the task, mmfree_wait for the task's wait after
# a flush) are replayed in order, counting the pages in flight.
#
# A flush is at most about 10,000 pages (MAX_GATHER_BATCH_COUNT; THP is
# off).  512 MiB: its 32nd is smaller than a flush, so the task frees each
# flush before it zaps on: nothing is left in flight when its wait ends.
# 1536 MiB: the task leaves each flush to the workers and frees it after
# the next one: at least half a flush is left after some wait.  Both:
# never more than 2 flushes in flight.  A gather that never freed the
# flush it left (all of a 1536 MiB victim's pages in flight until
# tlb_finish_mmu()) passed pagefree-killed-back-before-visible, whose
# victims are small, and a 1536 MiB round of it; it fails here.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

[ -d $T ] || skip "no tracefs"
trap 'trace_off; pf_cleanup' EXIT

flush=10008	# MMU_GATHER_BUNDLE + MAX_GATHER_BATCH_COUNT * MAX_GATHER_BATCH, at most

# Replays the trace; prints "ITEMS LEFT MOST": the items queued, the most
# pages still in flight when the task's wait after a flush (mmfree_wait)
# ended, and the most in flight at any time.
replay() {
	grep -E ' mmfree_(offload|item_freed|wait): ' $T/trace | awk '
	{ p = $0; sub(/.* pages=/, "", p); sub(/ .*/, "", p) }
	/ mmfree_offload: / && / reason=offloaded_pages/ {
		out += p; items++
		if (out > most) most = out
	}
	/ mmfree_item_freed: / { out -= p }
	/ mmfree_wait: / && out > left { left = out }
	END { print items + 0, left + 0, most + 0 }'
}

pf_load pagefree_mode=sync pagefree_idle_only=0
thp_set never
echo 1 >$E/mmfree_offload/enable
echo 1 >$E/mmfree_item_freed/enable
echo 1 >$E/mmfree_wait/enable
for mb in 512 1536; do
	pf_starve_workers
	trace_start
	taskset -c 1 pftest herd 1 $mb kill || fail "$mb MiB: the victim (above)"
	trace_stop
	pf_feed_workers
	pf_wait_inflight
	read -r items left most <<-EOF
	$(replay)
	EOF
	echo "$mb MiB killed: $items items queued; at most $left pages left in flight after a wait, $most at any time"
	[ "$items" -gt 0 ] || fail "$mb MiB: the killed task queued nothing"
	if [ $mb = 512 ]; then
		[ "$left" -lt $((flush / 2)) ] ||
			fail "512 MiB: $left pages left in flight while it zapped on (more than a 32nd of its RSS)"
	else
		[ "$left" -ge $((flush / 2)) ] ||
			fail "1536 MiB: no flush left to the workers while it zapped on"
	fi
	[ "$most" -le $((2 * flush)) ] ||
		fail "$mb MiB: $most pages in flight, more than 2 flushes"
done
