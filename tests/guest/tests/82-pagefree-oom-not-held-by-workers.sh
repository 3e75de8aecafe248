#!/bin/sh
# The OOM path does not wait on workers that cannot run.  Another task's
# async munmap leaves 128 MiB in flight with the pool's workers held
# (pf_freeze_workers: a SCHED_FIFO hog on their CPU); a tenant in a
# memory cgroup (memory.max 32 MiB, no swap) then touches 64 MiB and
# meets its memcg OOM.  The OOM path frees the queued items itself
# (helped_pages grows by what was in flight, the held workers free
# nothing) and the OOM killer kills the tenant within 5 s, while the
# workers are still held.  (The OOM path used to flush the workqueue:
# the tenant's OOM waited for the hog to go.)
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

go=/tmp/mmfree-tenant-go
rm -f $go
pf_load pagefree_mode=async pagefree_idle_only=0 percpu_enabled=0
pf_cgroup 32M 0
# The tenant joins its cgroup before the hold: on 6.1 the hog also holds
# up RCU grace periods, which a write to cgroup.procs waits for.
pf_in_cgroup taskset -c 1 sh -c "while [ ! -e $go ]; do sleep 0.05; done; exec pftest munmap 64 1" &
tenant=$!
trap 'kill $tenant 2>/dev/null; rm -f $go; pf_cleanup' EXIT
pf_freeze_workers
pf_snap
pf_run taskset -c 1 pftest munmap 128 1
held=$(pf_stat inflight_pages)
[ "$held" -gt 0 ] || fail "nothing in flight after an async munmap with held workers"

: >$go
i=0
while kill -0 $tenant 2>/dev/null && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
alive=0
kill -0 $tenant 2>/dev/null && alive=1
pf_show "after the tenant's OOM, $((i * 100)) ms, workers held"
helped=$(pf_delta helped_pages)
offloaded=$(pf_delta offloaded_pages)
pf_feed_workers
wait $tenant
rc=$?
pf_wait_inflight
echo "tenant: exit $rc, OOM kills $(pf_cgroup_event oom_kill); $held pages were in flight, the OOM path freed $helped"
[ $alive = 0 ] || fail "the tenant's OOM waited more than 5 s for the held workers"
assert_eq "$rc" 137 "the tenant's exit status (SIGKILL)"
assert_eq "$(pf_cgroup_event oom_kill)" 1 "OOM kills in the tenant's cgroup"
assert_eq "$offloaded" 0 "pages the held workers freed"
[ "$helped" -ge "$held" ] || fail "the OOM path freed $helped of the $held pages in flight"
