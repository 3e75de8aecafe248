#!/bin/sh
# MADV_DONTNEED on a 64 MiB region that three threads keep writing and
# verifying (each page is its thread's current pattern, or zero once
# zapped: the threads re-create it), while a reader checks that no page
# ever holds another page's data and a scribbler thread keeps reusing
# freed pages (a stale mapping writing into one would corrupt it).  With
# idle_only=0 (the threads keep both CPUs busy), in sync and async mode;
# the pool must have taken the zapped pages, and none may leak.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

secs=${PF_THREADS_SECONDS:-5}
for mode in sync async; do
	pf_load pagefree_mode=$mode pagefree_idle_only=0
	pf_baseline
	pf_snap
	pf_run pftest threads 64 3 "$secs"
	pf_wait_inflight
	pf_show "$mode"
	[ $(($(pf_delta offloaded_pages) + $(pf_delta helped_pages))) -gt 0 ] ||
		fail "$mode: the pool took no zapped page"
	pf_assert_pooled "$mode"
	pf_assert_no_leak "$mode: after $secs s of zaps"
done
unload
