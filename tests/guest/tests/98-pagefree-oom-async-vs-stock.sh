#!/bin/sh
# Async freeing must not cause OOM kills the stock kernel would not.  In a
# memory cgroup without swap, three holders keep 48 MiB each; each of 12
# rounds has one holder exit and a replacement, the moment waitpid
# reports the exit, touch 48 MiB (pftest oom).  A first stock run with
# room to spare measures the peak (memory.peak); memory.max is then set
# 2 MiB above it, so that pages of an exited holder still in flight push
# the replacement over the limit.  The cgroup's oom_kill count with
# mmfree in async mode is at most the stock count at that limit (and the
# async run really offloaded).
. /mmfree/lib.sh
. /mmfree/tests/90-pagefree.lib

holders=3
mb=48
rounds=${PF_OOM_ROUNDS:-12}

run() {	# label memory.max
	pf_cgroup "$2" 0
	out=$(pf_in_cgroup pftest oom $holders $mb "$rounds")
	rc=$?
	echo "$out" | sed "s/^/$1: /"
	[ $rc = 0 ] || fail "$1: pftest oom failed (exit $rc)"
	kills=$(pf_cgroup_event oom_kill)
	peak=$(cat "$PFCG/memory.peak" 2>/dev/null)
	echo "$1: memory.max $2, peak ${peak:-?}; memory.events: $(tr '\n' ' ' <"$PFCG/memory.events")"
	pf_cgroup_delete || fail "$1: cgroup busy"
}

unload
thp_set never
run "stock, roomy" $(((holders * mb + 32) * 1024 * 1024))
[ -n "$peak" ] || fail "no memory.peak"
[ "$kills" = 0 ] || fail "stock: OOM kills with 32 MiB to spare"
limit=$((peak + 2 * 1024 * 1024))
run stock $limit
stock=$kills

pf_load pagefree_mode=async
pf_snap
run async $limit
async=$kills
pf_wait_inflight
pf_show async
[ "$(pf_delta offloaded_pages)" -gt 0 ] || fail "async: offloaded_pages did not grow"
echo "OOM kills at memory.max $limit: stock $stock, async $async"
[ "$async" -le "$stock" ] || fail "async mode caused $async OOM kills, stock $stock"
unload
