#!/bin/sh
# Async freeing must not cause OOM kills the stock kernel would not.  In a
# memory cgroup without swap, three holders keep 48 MiB each; each of 12
# rounds has one holder exit and a replacement, the moment waitpid
# reports the exit, populate 48 MiB (pftest oom).  A first stock run with
# room to spare measures the peak (memory.peak); memory.max is then set
# 1 MiB above it.  For the tight runs, unbound workqueue workers (the
# pool's) are confined to CPU 0, where a nice -20 hog leaves them about 1%
# of the CPU, while the test runs on CPU 1: in async mode an exited
# holder's pages are still in flight when the replacement charges its
# own, the limit is hit (memory.events "max"), and the module's
# out_of_memory hook must drain the pool rather than let the OOM killer
# pick a victim.  The cgroup's oom_kill count in async mode is at most
# the stock count in the same setting (and the async run really
# offloaded).
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

holders=3
mb=48
rounds=${PF_OOM_ROUNDS:-12}
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
[ -w "$WQ_MASK" ] || skip "no $WQ_MASK"

run() {	# label memory.max [starve]
	local cpus
	cpus=
	if [ -n "$3" ]; then
		PF_WQ_MASK_ORIG=$(cat "$WQ_MASK")
		echo 1 >"$WQ_MASK" || fail "confining unbound workers to CPU 0"
		pf_bg nice -n -20 taskset -c 0 pftest spin 600
		cpus="taskset -c 1"
	fi
	pf_cgroup "$2" 0
	# shellcheck disable=SC2086 # $cpus: nothing, or a command and its options
	out=$(pf_in_cgroup $cpus pftest oom $holders $mb "$rounds")
	rc=$?
	pf_bg_stop
	if [ -n "$PF_WQ_MASK_ORIG" ]; then
		echo "$PF_WQ_MASK_ORIG" >"$WQ_MASK"
		PF_WQ_MASK_ORIG=
	fi
	echo "$out" | sed "s/^/$1: /"
	[ $rc = 0 ] || fail "$1: pftest oom failed (exit $rc)"
	kills=$(pf_cgroup_event oom_kill)
	hits=$(pf_cgroup_event max)
	peak=$(cat "$PFCG/memory.peak" 2>/dev/null)
	echo "$1: memory.max $2, peak ${peak:-?}; memory.events: $(tr '\n' ' ' <"$PFCG/memory.events")"
	pf_cgroup_delete || fail "$1: cgroup busy"
}

unload
thp_set never
run "stock, roomy" $(((holders * mb + 32) * 1024 * 1024))
[ -n "$peak" ] || fail "no memory.peak"
[ "$kills" = 0 ] || fail "stock: OOM kills with 32 MiB to spare"
limit=$((peak + 1024 * 1024))
run "stock, starved workers" $limit starve
stock=$kills

pf_load pagefree_mode=async pagefree_idle_only=0
pf_snap
run "async, starved workers" $limit starve
async=$kills
async_hits=$hits
pf_wait_inflight
pf_show async
[ "$(pf_delta offloaded_pages)" -gt 0 ] || fail "async: offloaded_pages did not grow"
echo "at memory.max $limit: OOM kills stock $stock, async $async; async hit the limit $async_hits times"
[ "$async_hits" != 0 ] ||
	echo "note: async never hit the limit: the out_of_memory drain was not exercised"
[ "$async" -le "$stock" ] || fail "async mode caused $async OOM kills, stock $stock"
unload
