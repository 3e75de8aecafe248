#!/bin/sh
# needs: numa=2
# NUMA: work items are freed on their pages' node.  With two nodes of one
# CPU each, a task on one node's CPU unmaps 8 x 64 MiB bound to the other
# node, in sync and async mode: the pool took the gathers, at most 2% of
# the pages its workers freed were freed on another node (remote_pages),
# and free memory is back where it was.  Were items queued on the zapping
# CPU's node instead (plain queue_work(), or 6.1's implicitly ordered
# workqueue with one pool for all nodes), 6.1 would free every page on
# the wrong node, and 6.12 7-30% of them (measured).
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

NODES=/sys/devices/system/node

node_cpu() {	# node: its first CPU
	sed 's/[-,].*//' "$NODES/node$1/cpulist"
}

mb=64
n=8
for mode in sync async; do
	pf_load pagefree_mode=$mode
	# The task is pinned to one CPU: idle_only would see no other.
	pf_knob idle_only 0
	for node in 0 1; do
		cpu=$(node_cpu $((1 - node)))
		[ -n "$cpu" ] || fail "node $((1 - node)) has no CPU"
		pf_run taskset -c "$cpu" pftest node $mb 2 $node
		pf_baseline
		pf_snap
		pf_run taskset -c "$cpu" pftest node $mb $n $node
		pf_wait_inflight
		pf_show "$mode, pages on node $node, task on CPU $cpu"
		pf_assert_pooled "$mode, node $node"
		off=$(pf_delta offloaded_pages)
		remote=$(pf_delta remote_pages)
		echo "$mode, node $node: $off pages freed by workers, $remote of them on another node"
		[ $((remote * 50)) -le "$off" ] ||
			fail "$mode: $remote of $off pages of node $node freed on another node"
		pf_assert_no_leak "$mode, node $node: after $n munmaps of $mb MiB"
	done
done
unload
