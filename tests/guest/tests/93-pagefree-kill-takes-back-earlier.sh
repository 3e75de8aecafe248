#!/bin/sh
# A kill takes back what the victim's own earlier async munmaps left in
# flight.  A victim of 4 threads populates 768 MiB and unmaps 256 MiB of
# it again; in async mode those pages go to the pool's workers, confined
# to CPU 0 and starved there by a nice -20 hog.  It is then killed as
# lmkd kills (pidfd_send_signal(SIGKILL), process_mrelease(), poll() on
# the pidfd).  When the call returns 0 and when the pidfd becomes
# readable, at least 90% of what the victim took is free, its unmapped
# pages in flight included, as on stock, where they were free when its
# munmap() returned.
#
# at-once: the caller's reaper may zap beside the victim's exit, and its
# gathers take the pages back; in-exit: the victim's own exit_mmap()
# takes them back at its first flush.  Before kills took back an mm's
# earlier items, the pages stayed with the starved workers: on 6.1, 71%
# of what the victim took was back when the call returned at once, 74%
# when the pidfd became readable.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

mb=768 unmap=256

run() {	# label
	local order out rc took
	for order in at-once in-exit; do
		[ "$1" = stock ] || pf_starve_workers
		out=$(pftest lmkd $mb $order 1 $unmap)
		rc=$?
		echo "$out"
		[ "$1" = stock ] || pf_feed_workers
		[ $rc = 0 ] || fail "$1: $order: memory not back in time (above)"
		[ "$1" = async ] || continue
		# Not free when the kill came: at least half the unmapped pages
		# were in flight (the starved workers still get a little CPU:
		# on trixie-cloud once 690 of 768 MiB, so not 90% of it).
		took=$(echo "$out" | sed -n 's/.* the victim took \([0-9]*\) kB.*/\1/p')
		[ "${took:-0}" -ge $(((mb - unmap / 2) * 1024)) ] ||
			fail "async: $order: the victim took only ${took:-0} kB: its unmapped pages were not in flight at the kill"
	done
}

unload
thp_set never
run stock
pf_load pagefree_mode=async pagefree_idle_only=0
pf_snap
run async
pf_wait_inflight
pf_show async
[ "$(pf_delta work_items)" -gt 0 ] || fail "async: no gather reached the pool"
unload
