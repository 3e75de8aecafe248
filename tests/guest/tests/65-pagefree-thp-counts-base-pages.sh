#!/bin/sh
# Sizes are base pages: a PMD-mapped transparent huge page counts 512 in
# the statistics and in max_inflight_pages, not 1.  Four munmaps of a
# 64 MiB THP-backed region account 4 x 16384 pages; with the pool's
# workers held (pf_freeze_workers) and max_inflight_pages=16384, what
# is in flight when a 256 MiB munmap returns stays within 16384 pages,
# the pool takes at least 3/4 of that and the rest is freed inline as
# busy: the pool is asked per item, so the huge pages that fit go to
# it, though 120 of the 128 are freed in one call.  (Entries used to be counted: 32 per
# munmap, and 1M THPs could be in flight, 2 TiB.  The pool used to be
# asked once per call: a call over the bound was freed inline whole, and
# the pool took the first call's 8 huge pages at most.  With the
# workers only starved by a nice -20 hog, their 1% freed the 32 huge
# pages before the count was read: 0 in flight, a bound never tested.)
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

# 256 MiB: 128 huge pages, freed in two calls (the gather's first
# batch holds 8 entries, the next one the other 120).
big=256
max=16384
pf_knob max_inflight_pages $max
pf_snap
pf_freeze_workers
taskset -c 1 pftest munmap $big 1 || fail "pftest munmap"
inflight=$(pf_stat inflight_pages)
pf_feed_workers
pf_wait_inflight
pf_show "THP, workers held, max_inflight_pages=$max"
echo "in flight when munmap returned: $inflight pages"
[ "$inflight" -le $max ] || fail "$inflight pages in flight, max_inflight_pages is $max"
[ "$inflight" -ge $((max * 3 / 4)) ] ||
	fail "only $inflight pages in flight with the workers held: the bound was not reached"
pool=$(($(pf_delta offloaded_pages) + $(pf_delta helped_pages)))
[ "$pool" -ge $((max * 3 / 4)) ] ||
	fail "the pool took $pool pages: the huge pages that fit in max_inflight_pages=$max were freed inline too"
[ "$(pf_delta inline_busy_pages)" -ge $((big * 256 - pool - 512)) ] ||
	fail "pages beyond max_inflight_pages were not freed inline as busy"
pf_assert_no_leak "THP munmaps"
unload
