#!/bin/sh
# The time a worker is counted (worker_ns) and charged (charged_ns) for
# an item is its CPU time, not its wall time: with the workers confined
# to CPU 0 beside a nice-0 CPU hog there, async munmaps of 512 MiB from
# CPU 1 in a cgroup add to worker_ns at most 1.2 times what the unbound
# kworkers ran meanwhile (/proc/PID/schedstat), and charged_ns as much.
# On a kernel that preempts kernel code at the tick (sid's lazy
# preemption), a worker is preempted in the middle of its items for the
# hog; their wall time was about twice what the workers ran, and the
# cgroup paid for the hog's time too.  On a voluntary-preemption kernel
# (6.1, 6.12) an item runs to its end, and wall and CPU time agree.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

CG=/sys/fs/cgroup/mmfree-cputime
trap 'pf_cleanup; rmdir $CG 2>/dev/null' EXIT

# "PID runtime_ns" of each unbound kworker.
kworker_runtimes() {
	local p
	for p in $(pf_unbound_kworkers); do
		echo "$p $(task_runtime_ns "$p" 2>/dev/null)"
	done
}

pf_load pagefree_mode=async pagefree_idle_only=0
echo "preemption: $(cat /sys/kernel/debug/sched/preempt 2>/dev/null || echo unknown)"
mkdir $CG || fail "mkdir $CG"
pf_confine_workers
pf_bg taskset -c 0 pftest spin 600
sleep 0.2
pf_snap
before=$(kworker_runtimes)
pf_in_cg $CG taskset -c 1 pftest munmap 512 2 >/dev/null ||
	fail "pftest munmap 512 2 failed"
pf_wait_inflight
after=$(kworker_runtimes)
pf_feed_workers
pf_show cputime

# Each kworker's run time since the first look (0 then if it was new).
ran=$(printf '%s\n--\n%s\n' "$before" "$after" | awk '
	$0 == "--" { late = 1; next }
	!late { was[$1] = $2; next }
	{ sum += $2 - ($1 in was ? was[$1] : 0) }
	END { print sum + 0 }')
worker=$(pf_delta worker_ns)
charged=$(pf_delta charged_ns)
echo "kworkers ran $((ran / 1000000)) ms; worker_ns +$((worker / 1000000)) ms, charged_ns +$((charged / 1000000)) ms"
[ "$(pf_delta offloaded_pages)" -ge $((2 * 512 * 256 * 9 / 10)) ] ||
	fail "the workers freed $(pf_delta offloaded_pages) pages, under 90% of the munmaps'"
[ "$ran" -gt 0 ] || fail "the unbound kworkers ran for no time"
[ "$worker" -le $((ran * 6 / 5)) ] ||
	fail "worker_ns grew by $((worker / 1000000)) ms, over 1.2 times the $((ran / 1000000)) ms the kworkers ran: it counts time they waited for the hog"
[ "$worker" -ge $((ran / 4)) ] ||
	fail "worker_ns grew by $((worker / 1000000)) ms, under a quarter of the $((ran / 1000000)) ms the kworkers ran"
if [ "$charged" -lt $((worker * 9 / 10)) ] || [ "$charged" -gt "$worker" ]; then
	fail "charged_ns grew by $charged, not the workers' $worker for the cgroup's pages"
fi
