#!/bin/sh
# The workers' time on a task's pages is charged to the task's cgroup: a
# munmap loop in a cgroup (2 GiB async, 512 MiB sync) grows the cgroup's
# cpu.stat usage_usec, beyond the loop's own CPU time (pftest's
# runtime_ns), by at least 90% of the time the workers spent
# (pagefree/stats/worker_ns), and charged_ns counts it; mmfreectl status
# shows the share.  Once the loop has exited and its pages are back, the
# cgroup reports populated 0, rmdir succeeds, and no dying cgroup is
# left.  Then 100 cgroups, each left by a task right after an async
# 8 MiB munmap: each says populated 0 by the time mmfreectl wait
# returns, is removed, and nr_dying_descendants comes back to where it
# was (an item's cgroup reference lasts as long as the item).  With
# test_uncharged=1 (make bench's baseline) charged_ns stays 0; set to 0
# at run time it grows, set back to 1 it stays 0 again (the pool's
# statistics are complete once inflight_pages says the pages are back),
# and a malformed write is refused and changes nothing.  (Before,
# the workers' time showed in no cgroup: usage grew by the loop's own
# time only.)
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

CG=/sys/fs/cgroup/mmfree-charged
trap 'pf_cleanup; rmdir $CG $CG-* 2>/dev/null' EXIT

dying() {
	awk '$1 == "nr_dying_descendants" { print $2 }' /sys/fs/cgroup/cgroup.stat
}

charged() {	# mode MB N
	mode=$1 mb=$2 n=$3
	pf_load pagefree_mode="$mode" pagefree_idle_only=0
	mkdir $CG || fail "mkdir $CG"
	u0=$(pf_cg_usage_us $CG)
	pf_snap
	out=$(PFTEST_RUNTIME=1 pf_in_cg $CG pftest munmap "$mb" "$n") ||
		fail "$mode: pftest munmap $mb $n failed"
	pf_wait_inflight
	own=$(echo "$out" | sed -n 's/^runtime_ns=//p')
	[ -n "$own" ] || fail "$mode: pftest printed no runtime_ns"
	u1=$(pf_cg_usage_us $CG)
	worker=$(pf_delta worker_ns)
	extra=$(((u1 - u0) * 1000 - own))
	pf_show "$mode"
	echo "$mode: cgroup usage +$(((u1 - u0) / 1000)) ms, pftest's own $((own / 1000000)) ms, so +$((extra / 1000000)) ms charged; workers $((worker / 1000000)) ms"
	[ "$(pf_delta offloaded_pages)" -gt 0 ] || fail "$mode: the workers freed nothing"
	[ "$extra" -ge $((worker * 9 / 10)) ] ||
		fail "$mode: the cgroup was charged $((extra / 1000000)) ms beyond its own time, under 90% of the workers' $((worker / 1000000)) ms"
	stat=$(pf_delta charged_ns)
	echo "$mode: charged_ns +$((stat / 1000000)) ms"
	[ "$stat" -ge $((worker * 9 / 10)) ] ||
		fail "$mode: charged_ns grew by $stat, under 90% of worker_ns' $worker"
	line=$(ctl status | grep -E '^ +charged_ns ')
	echo "$line"
	assert_match "$line" '% of worker_ns' "mmfreectl status' charged_ns line"

	assert_eq "$(populated $CG)" 0 \
		"$mode: populated in cgroup.events once the loop exited and its pages are back"
	rmdir $CG || fail "$mode: rmdir of the emptied cgroup"
}

populated() {	# cgroup
	awk '$1 == "populated" { print $2 }' "$1/cgroup.events"
}

# Back to where it was within 10 s: a removed cgroup is freed after RCU.
dying_back() {	# baseline what
	i=0
	while [ "$(dying)" -gt "$1" ]; do
		[ $i -lt 50 ] || fail "$2: nr_dying_descendants $(dying), $1 before, 10 s after the pages were back"
		sleep 0.2
		i=$((i + 1))
	done
	echo "$2: nr_dying_descendants $1 before, $(dying) after"
}

# Its pages may come back later than the cgroup is removed: then the
# cgroup is dying until its last item is freed, no longer.
base=$(dying)
charged async 256 8
charged sync 256 2
dying_back "$base" "2 cgroups"

pf_load pagefree_mode=async pagefree_idle_only=0
base=$(dying)
pf_snap
n=0
while [ $n -lt 100 ]; do
	mkdir $CG-$n || fail "mkdir $CG-$n"
	pf_in_cg $CG-$n pftest munmap 8 1 >/dev/null || fail "pftest in cgroup $n"
	mmfreectl wait --timeout 30 || fail "mmfreectl wait after cgroup $n: exit $?"
	assert_eq "$(populated $CG-$n)" 0 "cgroup $n populated once mmfreectl wait returned"
	rmdir $CG-$n || fail "rmdir of cgroup $n"
	n=$((n + 1))
done
items=$(pf_delta work_items)
echo "100 cgroups: $items work items, $(pf_delta offloaded_pages) pages offloaded"
[ "$items" -ge 100 ] || fail "100 cgroups: only $items work items: not every task's pages were pooled"
dying_back "$base" "100 cgroups"

# make bench's uncharged baseline: test_uncharged=1 charges nothing.
pf_load pagefree_mode=async pagefree_idle_only=0 test_uncharged=1
mkdir $CG || fail "mkdir $CG"
pf_snap
pf_in_cg $CG pftest munmap 64 2 >/dev/null || fail "pftest with test_uncharged=1"
pf_wait_inflight
[ "$(pf_delta worker_ns)" -gt 0 ] || fail "test_uncharged=1: the workers freed nothing"
assert_eq "$(pf_delta charged_ns)" 0 "test_uncharged=1: charged_ns"

# The bench toggles it at run time, both configurations in one module
# instance: each item follows the value it was queued under.
P=/sys/module/mmfree/parameters/test_uncharged
echo 0 >$P || fail "writing 0 to $P"
pf_snap
pf_in_cg $CG pftest munmap 64 2 >/dev/null || fail "pftest with test_uncharged=0"
pf_wait_inflight
[ "$(pf_delta charged_ns)" -gt 0 ] ||
	fail "test_uncharged set to 0 at run time: charged_ns did not grow"
echo 1 >$P || fail "writing 1 to $P"
pf_snap
pf_in_cg $CG pftest munmap 64 2 >/dev/null || fail "pftest with test_uncharged=1 again"
pf_wait_inflight
assert_eq "$(pf_delta charged_ns)" 0 "test_uncharged set back to 1: charged_ns"
if /usr/bin/printf maybe >$P 2>/dev/null; then
	fail "test_uncharged took 'maybe'"
fi
assert_eq "$(cat $P)" Y "test_uncharged after the refused write"
rmdir $CG || fail "rmdir $CG"
unload
