#!/bin/sh
# mmfree's trace events (/sys/kernel/tracing/events/mmfree/) record each
# decision with its fields: a pooled munmap gives mmfree_offload with
# reason=offloaded_pages and its pages, mmfree_item_freed by a worker or
# the task, and mmfree_wait at the gather's end; a small munmap gives
# reason=inline_small_pages, a real-time task reason=inline_limited_pages;
# a filter on the reason keeps only those; a flush with no pages gives
# nothing; the pool's cap, percpu and OOM events exist with their fields (what a
# percpu reclaim's events report: percpu-reclaims-what-stock-leaves);
# mmfree_item_freed names the cgroup of the task that gathered the pages
# (a munmap in a cgroup: its items carry that cgroup's id, its inode
# number in cgroupfs).
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

[ -d $T ] || skip "no tracefs"

TCG=/sys/fs/cgroup/mmfree-trace

trace_cleanup() {
	[ ! -d $E ] || echo 0 >$E/mmfree_offload/filter
	trace_off
	pf_cleanup
	rmdir $TCG 2>/dev/null
}
trap trace_cleanup EXIT

pf_load pagefree_idle_only=0 percpu_enabled=0
[ -d $E ] || fail "no $E after loading mmfree"
for ev in mmfree_offload mmfree_item_freed mmfree_wait mmfree_pool_cap \
	  mmfree_oom_drain mmfree_percpu_scan mmfree_percpu_result; do
	[ -f $E/$ev/format ] || fail "event $ev missing"
done
assert_match "$(cat $E/mmfree_offload/format)" 'field:unsigned long pages;' "mmfree_offload's pages field"
assert_match "$(cat $E/mmfree_offload/format)" 'field:__data_loc char\[\] reason;' "mmfree_offload's reason field"
assert_match "$(cat $E/mmfree_oom_drain/format)" 'field:bool progress;' "mmfree_oom_drain's progress field"
assert_match "$(cat $E/mmfree_item_freed/format)" 'field:u64 cgroup;' "mmfree_item_freed's cgroup field"
echo 1 >$E/enable

trace_start
pf_run pftest munmap 64 1
pf_run pftest munmap 1 1
pf_run chrt -f 10 pftest munmap 64 1
trace_stop
trace_lines mmfree_offload | sed 's/^ *//' | head -n 5
pooled=$(trace_lines mmfree_offload | grep -c 'reason=offloaded_pages')
small=$(trace_lines mmfree_offload | grep -c 'reason=inline_small_pages')
limited=$(trace_lines mmfree_offload | grep -c 'reason=inline_limited_pages')
freed=$(trace_lines mmfree_item_freed | grep -cE 'pages=[1-9][0-9]* nid=[0-9]+ ns=[0-9]+ by=(worker|task)')
waits=$(trace_lines mmfree_wait | grep -cE 'helped=[0-9]+ ns=[0-9]+')
echo "mmfree_offload: $pooled pooled, $small small, $limited limited; mmfree_item_freed $freed; mmfree_wait $waits"
trace_lines mmfree_offload | grep -q ' pages=0 ' && fail "an event for a flush with no pages"
[ "$pooled" -gt 0 ] || fail "no mmfree_offload reason=offloaded_pages for a 64 MiB munmap"
[ "$small" -gt 0 ] || fail "no mmfree_offload reason=inline_small_pages for a 1 MiB munmap"
[ "$limited" -gt 0 ] || fail "no mmfree_offload reason=inline_limited_pages for a SCHED_FIFO munmap"
[ "$freed" -gt 0 ] || fail "no mmfree_item_freed"
[ "$waits" -gt 0 ] || fail "no mmfree_wait (sync mode)"
# The pooled pages the events report are the pages the items freed.
sum_pooled=$(trace_lines mmfree_offload | grep 'reason=offloaded_pages' |
	sed -E 's/.* pages=([0-9]+) .*/\1/' | awk '{ n += $1 } END { print n + 0 }')
sum_freed=$(trace_lines mmfree_item_freed | sed -E 's/.* pages=([0-9]+) .*/\1/' |
	awk '{ n += $1 } END { print n + 0 }')
assert_eq "$sum_freed" "$sum_pooled" "pages freed by items vs pages pooled"

# "Why was this munmap not offloaded": a filter on the reason.
echo 'reason != "offloaded_pages"' >$E/mmfree_offload/filter ||
	fail "cannot filter mmfree_offload on its reason"
trace_start
pf_run chrt -f 10 pftest munmap 64 1
pf_run pftest munmap 64 1
trace_stop
echo 0 >$E/mmfree_offload/filter
trace_lines mmfree_offload | sed 's/^ *//' | head -n 3
trace_lines mmfree_offload | grep -q 'reason=offloaded_pages' &&
	fail "the filter let reason=offloaded_pages through"
trace_lines mmfree_offload | grep -q 'reason=inline_limited_pages' ||
	fail "the filter dropped reason=inline_limited_pages"

# Whose pages an item freed: a 64 MiB munmap in a cgroup.
mkdir -p $TCG || fail "mkdir $TCG"
id=$(stat -c %i $TCG)
trace_start
pf_run pf_in_cg $TCG pftest munmap 64 1
trace_stop
trace_lines mmfree_item_freed | sed 's/^ *//' | head -n 2
mine=$(trace_lines mmfree_item_freed | grep " cgroup=$id\$" |
	sed -E 's/.* pages=([0-9]+) .*/\1/' | awk '{ n += $1 } END { print n + 0 }')
echo "cgroup $id: $mine pages freed by items that name it"
[ "$mine" -ge $((64 * 256 * 9 / 10)) ] ||
	fail "items of a 64 MiB munmap in cgroup $id name it for $mine pages"
unload
