#!/bin/sh
# The pool never frees for a task whose CPU time is limited or below the
# workers': in a cgroup with cpu.max (or below one that has it), with
# cpu.idle, with a cpu.weight below the default, niced, SCHED_IDLE and
# real-time, a 64 MiB munmap is freed inline and counted in
# inline_limited_pages, in sync and async mode, with idle_only=0 so that
# idleness is not the reason; the same munmap outside, or in a cgroup of
# a higher weight, goes to the pool.  (Workers are root cgroup nice-0
# kworkers: before, they did the limited task's freeing outside its
# limit, a SCHED_FIFO task waited on them, and niced, idle and
# low-weight tasks had their freeing done at nice 0 and the root's
# weight.)  Over 10 s, an async munmap loop in a cgroup with cpu.max 20%
# uses at most its quota, workers included (their time is charged to
# the cgroup, but not held to its quota: hence inline).
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

mb=64
n=2
pages=$((n * mb * 256))
CPUCG=/sys/fs/cgroup/mmfree-cpu
IDLECG=/sys/fs/cgroup/mmfree-idle
LIGHTCG=/sys/fs/cgroup/mmfree-light
HEAVYCG=/sys/fs/cgroup/mmfree-heavy
QUOTACG=/sys/fs/cgroup/mmfree-quota
grep -qw cpu /sys/fs/cgroup/cgroup.controllers || skip "no cpu controller"

cpu_cleanup() {
	pf_cleanup
	rm -f /tmp/quota-stop
	rmdir $CPUCG/inner $CPUCG $IDLECG $LIGHTCG $HEAVYCG $QUOTACG 2>/dev/null
}
trap cpu_cleanup EXIT

grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control ||
	echo +cpu >/sys/fs/cgroup/cgroup.subtree_control || fail "enabling the cpu controller"
mkdir -p $CPUCG
echo "50000 100000" >$CPUCG/cpu.max || fail "cpu.max"
echo +cpu >$CPUCG/cgroup.subtree_control || fail "cpu controller below $CPUCG"
mkdir -p $CPUCG/inner $IDLECG $LIGHTCG $HEAVYCG $QUOTACG
echo "20000 100000" >$QUOTACG/cpu.max || fail "cpu.max 20%"
echo 1 >$IDLECG/cpu.idle || fail "cpu.idle"
echo 50 >$LIGHTCG/cpu.weight || fail "cpu.weight 50"
echo 200 >$HEAVYCG/cpu.weight || fail "cpu.weight 200"

check() {	# label limited(1/0) command...
	label=$1 limited=$2
	shift 2
	pf_snap
	pf_run "$@"
	pf_wait_inflight
	pf_show "$label"
	items=$(pf_delta work_items)
	if [ "$limited" = 1 ]; then
		assert_eq "$items" 0 "$label: work items queued"
		lim=$(pf_delta inline_limited_pages)
		[ "$lim" -ge $((pages * 9 / 10)) ] ||
			fail "$label: only $lim of $pages pages freed inline as limited"
	else
		lim=$(pf_delta inline_limited_pages)
		assert_eq "$lim" 0 "$label: pages freed inline as limited"
		[ "$items" -gt 0 ] || fail "$label: the pool was not used"
	fi
}

for mode in sync async; do
	pf_load pagefree_mode=$mode pagefree_idle_only=0
	check "$mode, cpu.max 50%" 1 pf_in_cg $CPUCG pftest munmap $mb $n
	check "$mode, below a cgroup with cpu.max" 1 pf_in_cg $CPUCG/inner pftest munmap $mb $n
	check "$mode, SCHED_FIFO" 1 chrt -f 10 pftest munmap $mb $n
	check "$mode, cpu.idle" 1 pf_in_cg $IDLECG pftest munmap $mb $n
	check "$mode, cpu.weight 50" 1 pf_in_cg $LIGHTCG pftest munmap $mb $n
	check "$mode, nice 5" 1 nice -n 5 pftest munmap $mb $n
	check "$mode, SCHED_IDLE" 1 chrt -i 0 pftest munmap $mb $n
	check "$mode, cpu.weight 200" 0 pf_in_cg $HEAVYCG pftest munmap $mb $n
	check "$mode, unlimited" 0 pftest munmap $mb $n
done

# The loop stops at its next round once told to; usage is read after it.
pf_load pagefree_mode=async pagefree_idle_only=0
pf_snap
u0=$(pf_cg_usage_us $QUOTACG) t0=$(uptime_ms)
pf_in_cg $QUOTACG sh -c 'while [ ! -e /tmp/quota-stop ]; do
	pftest munmap 64 1 >/dev/null || exit 1; done' &
loop=$!
sleep 10
touch /tmp/quota-stop
wait $loop || fail "the munmap loop under cpu.max 20% failed"
pf_wait_inflight
used=$((($(pf_cg_usage_us $QUOTACG) - u0) / 1000)) ms=$(($(uptime_ms) - t0))
pf_show "10 s under cpu.max 20%"
# Slack: one period's quota (the loop may start anywhere in one) and 5%
# (a throttled task overruns by up to a tick, paid back the next period).
quota=$((ms * 21 / 100 + 20))
echo "cpu.max 20%: the cgroup used $used ms in $ms ms (quota $quota ms), charged_ns +$(($(pf_delta charged_ns) / 1000000)) ms"
[ "$(pf_delta inline_limited_pages)" -ge $((64 * 256)) ] ||
	fail "cpu.max 20%: the loop freed no 64 MiB inline"
assert_eq "$(pf_delta work_items)" 0 "cpu.max 20%: work items queued"
[ "$used" -le "$quota" ] ||
	fail "cpu.max 20%: the cgroup used $used ms of CPU in $ms ms, over its quota of $quota ms"
unload
