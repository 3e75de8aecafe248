#!/bin/sh
# Pages in the swap cache while the pool frees them: with zram as swap, a
# process in a memory cgroup smaller than its 48 MiB region has most of it
# swapped out; children read it back through the swap cache (shared with
# the parent's swap entries), write half of it and exit, or unmap it; a
# second region is filled, half read back and unmapped; after each step
# the parent reads its whole region back intact (pftest swap).  Pages
# must really have been swapped out and come back through the swap cache,
# and afterwards no swap slot stays in use.  In sync and async mode.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

mb=${PF_SWAP_MB:-48}
rounds=${PF_SWAP_ROUNDS:-1}
pf_zram_swapon 256M
[ "$(meminfo_kb SwapTotal)" -gt 0 ] || fail "swapon gave no swap"
for mode in sync async; do
	pf_load pagefree_mode=$mode
	swap0=$(swap_used_kb)
	pf_cgroup 16M
	pf_snap
	out=$(pf_in_cgroup pftest swap "$mb" "$rounds")
	rc=$?
	echo "$out"
	[ $rc = 0 ] || fail "$mode: pftest swap failed (exit $rc)"
	pf_wait_inflight
	pf_show "$mode"
	echo "$mode: memory.events: $(tr '\n' ' ' <"$PFCG/memory.events")"
	[ "$(pf_cgroup_event oom_kill)" = 0 ] || fail "$mode: OOM kill in the cgroup"
	vmswap=$(echo "$out" | sed -n 's/.*VmSwap \([0-9]*\) kB after filling.*/\1/p')
	cached=$(echo "$out" | sed -n 's/^swapcached_max_kb //p')
	[ "${vmswap:-0}" -ge $((mb * 1024 / 2)) ] ||
		fail "$mode: only ${vmswap:-0} kB of the region went to swap"
	[ "${cached:-0}" -gt 0 ] || fail "$mode: SwapCached never grew"
	pf_assert_pooled "$mode"
	pf_cgroup_delete || fail "$mode: cgroup busy"
	# Every slot the processes used is free again (swap cache pages of
	# exited processes are dropped, as the stock kernel does), but for
	# the per-CPU swap slot caches: up to 2 x 64 slots per CPU.
	used=$(swap_used_kb)
	slack=$(($(nproc) * 128 * 4))
	echo "$mode: swap in use $swap0 kB before, $used kB after"
	[ "$used" -le $((swap0 + slack)) ] ||
		fail "$mode: $used kB of swap still in use (slot caches: $slack kB at most)"
done
swapoff /dev/zram0 || fail "swapoff"
PF_ZRAM_SWAP=
unload
