#!/bin/sh
# needs: numa=2
# A constrained OOM gets its kill while another task's pages are in
# flight elsewhere.  Task A, bound to node 1 (MPOL_BIND), allocates until
# the OOM killer takes it.  Meanwhile task B, on the same CPU, maps,
# touches and unmaps 512 MiB bound to node 0 in a loop, async, while a
# nice -20 hog on node 0's CPU starves the workers that free node 0's
# pages: up to max_inflight_pages (256 MiB here) of B's pages are in
# flight at every OOM call of A.  Draining them cannot make room on node
# 1, so mmfree lets the kernel kill at once: A is killed about as fast as
# with the stock kernel (the same B and hog), and never stalls while B
# runs (A is given 120 s).  (The drain used to report progress for every
# OOM with pages in flight: A waited for B's pages and retried for as
# long as B ran.)
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

NODES=/sys/devices/system/node
limit=120

node_cpu() {	# node: its first CPU
	sed 's/[-,].*//' "$NODES/node$1/cpulist"
}

run() {	# label
	pf_bg nice -n -20 taskset -c "$(node_cpu 0)" pftest spin 600
	# shellcheck disable=SC2016 # "$0": sh -c's first argument, the CPU
	pf_bg sh -c 'echo -1000 >/proc/self/oom_score_adj && exec taskset -c "$0" pftest node 512 1000000 0' "$(node_cpu 1)"
	sleep 5
	t0=$(date +%s.%N)
	# shellcheck disable=SC2016 # as above
	timeout -k 5 $limit sh -c 'echo 1000 >/proc/self/oom_score_adj && exec taskset -c "$0" pftest hog 1 64' "$(node_cpu 1)"
	rc=$?
	t1=$(date +%s.%N)
	pf_bg_stop
	secs=$(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }")
	echo "$1: A ended after $secs s (exit status $rc)"
	# timeout(1) ends it with SIGKILL too when SIGTERM is not enough.
	awk "BEGIN { exit !($t1 - $t0 < $limit) }" ||
		fail "$1: A was still allocating after $limit s: its OOM kill never came"
	# 128 + SIGKILL: the OOM killer took it.
	assert_eq "$rc" 137 "$1: A's exit status"
}

unload
thp_set never
run stock
stock=$secs
pf_load pagefree_mode=async pagefree_idle_only=0 pagefree_max_inflight_pages=65536
pf_snap
run async
pf_wait_inflight
pf_show async
[ "$(pf_delta offloaded_pages)" -gt 0 ] || fail "async: B's pages never went to the pool"
echo "A was killed after $stock s with the stock kernel, $secs s with async mmfree"
[ "$(awk "BEGIN { print ($secs <= 2 * $stock + 10) }")" = 1 ] ||
	fail "async: A was killed after $secs s, stock after $stock s"
unload
