#!/bin/sh
# Sizes are base pages: a PMD-mapped transparent huge page counts 512 in
# the statistics and in max_inflight_pages, not 1.  Four munmaps of a
# 64 MiB THP-backed region account 4 x 16384 pages; with the pool's
# workers starved and max_inflight_pages=4096, what is in flight when such
# a munmap returns stays within 4096 pages.  (Entries used to be counted:
# 32 per munmap, and 1M THPs could be in flight, 2 TiB.)
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

mb=64
pf_load pagefree_mode=async pagefree_idle_only=0
thp_set always
pftest thp $mb
rc=$?
[ $rc = 3 ] && skip "THP always: no AnonHugePages appeared"
[ $rc = 0 ] || fail "pftest thp failed (exit $rc)"

pf_run pftest munmap $mb 1
pf_baseline
pf_snap
pf_run pftest munmap $mb 4
pf_wait_inflight
pf_show "THP, 4 munmaps of $mb MiB"
# Small gathers (every command the test runs) are counted besides.
total=$(($(pf_delta_total) - $(pf_delta inline_small_pages)))
expect=$((4 * mb * 256))
echo "statistics account for $total pages in large gathers, the munmaps freed $expect"
if [ "$total" -lt $((expect * 9 / 10)) ] || [ "$total" -gt $((expect * 11 / 10)) ]; then
	fail "statistics account for $total pages, not about $expect base pages"
fi

pf_knob max_inflight_pages 4096
pf_snap
pf_starve_workers
taskset -c 1 pftest munmap $mb 1 || fail "pftest munmap"
inflight=$(pf_stat inflight_pages)
pf_feed_workers
pf_wait_inflight
pf_show "THP, workers starved, max_inflight_pages=4096"
echo "in flight when munmap returned: $inflight pages"
[ "$inflight" -le 4096 ] || fail "$inflight pages in flight, max_inflight_pages is 4096"
[ "$(pf_delta inline_busy_pages)" -ge $((mb * 256 - 4096)) ] ||
	fail "pages beyond max_inflight_pages were not freed inline as busy"
pf_assert_no_leak "THP munmaps"
unload
