#!/bin/sh
# The pool never frees for a task whose CPU time is limited: in a cgroup
# with cpu.max (or below one that has it) and for a real-time task, a
# 64 MiB munmap is freed inline and counted in inline_limited_pages, in
# sync and async mode, with idle_only=0 so that idleness is not the
# reason; the same munmap outside goes to the pool.  (Workers are root
# cgroup SCHED_NORMAL kworkers: before, they did the limited task's
# freeing outside its limit, and a SCHED_FIFO task waited on them.)
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

mb=64
n=2
pages=$((n * mb * 256))
CPUCG=/sys/fs/cgroup/mmfree-cpu
grep -qw cpu /sys/fs/cgroup/cgroup.controllers || skip "no cpu controller"

cpu_cleanup() {
	pf_cleanup
	rmdir $CPUCG/inner $CPUCG 2>/dev/null
}
trap cpu_cleanup EXIT

grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control ||
	echo +cpu >/sys/fs/cgroup/cgroup.subtree_control || fail "enabling the cpu controller"
mkdir -p $CPUCG
echo "50000 100000" >$CPUCG/cpu.max || fail "cpu.max"
echo +cpu >$CPUCG/cgroup.subtree_control || fail "cpu controller below $CPUCG"
mkdir -p $CPUCG/inner

in_cg() {	# cgroup command...
	sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$@"
}

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
	check "$mode, cpu.max 50%" 1 in_cg $CPUCG pftest munmap $mb $n
	check "$mode, below a cgroup with cpu.max" 1 in_cg $CPUCG/inner pftest munmap $mb $n
	check "$mode, SCHED_FIFO" 1 chrt -f 10 pftest munmap $mb $n
	check "$mode, unlimited" 0 pftest munmap $mb $n
done
unload
