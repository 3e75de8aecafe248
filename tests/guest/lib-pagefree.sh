# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Helpers for the pagefree tests (tests/*-pagefree-*.sh), sourced after
# lib.sh (from MMFREE_GUEST, as lib.sh says).
#
# The workloads are pftest (tests/guest/bin-src/pftest.c, on PATH).  Sizes
# stay small (TCG: touching 1 GiB takes seconds); THP is off unless a
# test turns it on, so that the page statistics count base pages.

PF=$MMFREE/pagefree
# shellcheck disable=SC2034 # for the tests that source this
PARAMS=/sys/module/mmfree/parameters
THP=/sys/kernel/mm/transparent_hugepage/enabled
PFCG=/sys/fs/cgroup/mmfree-pf

# The statistics that account every gathered page, whichever way it went
# (set by pf_load: every inline_*_pages file the module has); counted
# besides: items queued, and which of the offloaded pages a worker freed
# off their node.
PF_STATS=
PF_COUNTERS=
pf_stats_list() {
	PF_STATS="offloaded_pages helped_pages $(cd "$PF/stats" && echo inline_*_pages)"
	PF_COUNTERS="$PF_STATS work_items remote_pages"
}

# Free memory (MemFree plus the per-CPU lists) moves by a few MB between
# settled readings in this VM; the tolerance is below the smallest region
# any leak check frees (16 MiB), so leaking one region fails.
PF_LEAK_TOL_KB=${PF_LEAK_TOL_KB:-12288}

thp_mode() {
	sed 's/.*\[\(.*\)\].*/\1/' "$THP"
}

thp_set() {
	echo "$1" >"$THP" || fail "cannot set THP to $1"
	assert_eq "$(thp_mode)" "$1" "THP mode"
}

PF_THP_ORIG=$(thp_mode)
PF_T0=$(date +%s)

# Background helpers, by PID ($(jobs -p) is empty in dash: a subshell).
PF_BG=
pf_bg() {
	"$@" &
	PF_BG="$PF_BG $!"
}

# Stop the background jobs and what they run: a loop's current command
# (a pftest munmap) would go on alone and free pages after the caller
# has checked that none is in flight.  Each job is held while its
# children are killed, and their ends are waited for.
pf_bg_stop() {
	local p kids i
	kids=
	for p in $PF_BG; do
		kill -STOP "$p" 2>/dev/null || continue
		kids="$kids $(pgrep -P "$p" | tr '\n' ' ')"
		pkill -P "$p" 2>/dev/null
		kill "$p" 2>/dev/null
		kill -CONT "$p" 2>/dev/null
	done
	for p in $PF_BG; do
		wait "$p" 2>/dev/null
	done
	for p in $kids; do
		i=0
		while kill -0 "$p" 2>/dev/null; do
			[ $i -lt 300 ] || fail "process $p still there 60 s after it was killed"
			sleep 0.2
			i=$((i + 1))
		done
	done
	PF_BG=
}

WQ_MASK=/sys/devices/virtual/workqueue/cpumask
PF_WQ_MASK_ORIG=

# Unbound workqueue workers (the pool's) only on CPU 0; the workload runs
# on CPU 1.
pf_confine_workers() {
	[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || skip "needs 2 CPUs"
	[ -w "$WQ_MASK" ] || skip "no $WQ_MASK"
	PF_WQ_MASK_ORIG=$(cat "$WQ_MASK")
	echo 1 >"$WQ_MASK" || fail "confining unbound workers to CPU 0"
}

# ... where a nice -20 hog leaves them about 1% of the CPU: what the pool
# was given stays in flight for a while.
pf_starve_workers() {
	pf_confine_workers
	pf_bg nice -n -20 taskset -c 0 pftest spin 600
	sleep 0.5
}

# Every unbound kworker, and the pool's rescuer ("mmfree_free" before
# 6.9, "kworker/R-mmfree_free" since): unbound workqueues share their
# workers, so any of them may take the pool's next item, not only those
# that ran its work before.
pf_unbound_kworkers() {
	ps -eo pid=,comm= | awk '$2 ~ /^kworker\/u[0-9]/ || $2 ~ /^(kworker\/R-)?mmfree_free$/ { print $1 }'
}

# What may run the pool's items: the workqueue cpumask, and each unbound
# kworker's policy, nice and CPUs.
pf_show_workers() {
	local p
	echo "workqueue cpumask $(cat "$WQ_MASK" 2>/dev/null)"
	for p in $(pf_unbound_kworkers); do
		echo "  $p $(cat "/proc/$p/comm" 2>/dev/null):" \
			"$(chrt -p "$p" 2>/dev/null | sed -n 's/.*scheduling policy: //p')," \
			"nice $(ps -o ni= -p "$p" | tr -d ' ')," \
			"CPUs $(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$p/status" 2>/dev/null)"
	done
}

# Held for as long as a test needs pages in flight: the unbound workers
# confined to CPU 0, where a SCHED_FIFO hog takes the whole CPU.  No fair
# task runs there meanwhile: not the kworker that takes the pool's next
# item (unbound workqueues share their workers, whatever their names say),
# not one forked meanwhile (bound to the pool's CPUs before it first
# runs), not the rescuer (it takes them before it rescues).  With a nice
# -20 hog instead, a nice 0 worker still gets about 1% of the CPU, which
# under TCG frees 128 MiB in a few seconds.  The real-time throttle is
# lifted (pf_cleanup puts it back) and, since 6.12, CPU 0's fair deadline
# server is stopped, which would give fair tasks 5% of it.  Hold only for
# a few seconds: CPU 0's RCU softirq work waits too, and 21 s of it is an
# RCU stall (seen on 6.1 while a 1 GiB exit ran beside the hog).  The
# test's shell keeps to CPU 1 meanwhile: a child forked onto CPU 0 waits
# there until CPU 1 pulls it (on 6.1 the listing of the workers took 20 s
# after the hog started).
FAIR_SERVER0=/sys/kernel/debug/sched/fair_server/cpu0/runtime
PF_FAIR_ORIG=
PF_SHELL_CPUS=
pf_freeze_workers() {
	pf_confine_workers
	[ -n "$PF_RT_ORIG" ] || pf_lift_rt_throttle
	if [ -w "$FAIR_SERVER0" ]; then
		PF_FAIR_ORIG=$(cat "$FAIR_SERVER0")
		echo 0 >"$FAIR_SERVER0" || fail "stopping CPU 0's fair server"
	fi
	pf_show_workers
	PF_SHELL_CPUS=$(taskset -pc $$ | sed 's/.*: //')
	taskset -pc 1 $$ >/dev/null || fail "keeping the test's shell to CPU 1"
	pf_bg chrt -f 1 taskset -c 0 pftest spin 600
	sleep 0.2
}

# A CPU hog on every online CPU (stopped by pf_bg_stop).
pf_hog_every_cpu() {
	local cpu
	cpu=0
	while [ $cpu -lt "$(getconf _NPROCESSORS_ONLN)" ]; do
		pf_bg taskset -c $cpu pftest spin 600
		cpu=$((cpu + 1))
	done
}

# Real-time tasks may take a whole CPU (sched_rt_runtime_us = -1) until
# pf_cleanup puts the throttle back.
RT_RUNTIME=/proc/sys/kernel/sched_rt_runtime_us
PF_RT_ORIG=
pf_lift_rt_throttle() {
	PF_RT_ORIG=$(cat $RT_RUNTIME)
	echo -1 >$RT_RUNTIME || fail "lifting the real-time throttle"
}

# The 2-node boot's node of memory and no CPU (vm.sh --memnode): its DIMM
# stays offline but while a test needs it, so that the others never see
# it.  pf_memnode online_movable | offline.
PF_MEMNODE=2
pf_memnode() {	# state
	local n b
	n=/sys/devices/system/node/node$PF_MEMNODE
	[ -d $n ] ||
		fail "no node $PF_MEMNODE: tests/run.sh boots this machine with a CPU-less node (vm.sh --memnode)"
	[ -z "$(cat $n/cpulist)" ] || fail "node $PF_MEMNODE has CPUs: $(cat $n/cpulist)"
	for b in "$n"/memory[0-9]*; do
		[ "$(cat "$b/state")" = "${1%_movable}" ] || echo "$1" >"$b/state" ||
			fail "node $PF_MEMNODE's memory: $1"
	done
}

pf_feed_workers() {
	pf_bg_stop
	if [ -n "$PF_SHELL_CPUS" ]; then
		taskset -pc "$PF_SHELL_CPUS" $$ >/dev/null
		PF_SHELL_CPUS=
	fi
	if [ -n "$PF_WQ_MASK_ORIG" ]; then
		echo "$PF_WQ_MASK_ORIG" >"$WQ_MASK"
		PF_WQ_MASK_ORIG=
	fi
	if [ -n "$PF_FAIR_ORIG" ]; then
		echo "$PF_FAIR_ORIG" >"$FAIR_SERVER0"
		PF_FAIR_ORIG=
	fi
}

pf_cleanup() {
	pf_feed_workers
	[ -z "$PF_RT_ORIG" ] || echo "$PF_RT_ORIG" >$RT_RUNTIME
	[ -z "$PF_THP_ORIG" ] || echo "$PF_THP_ORIG" >"$THP" 2>/dev/null
	pf_cgroup_delete
	pf_zram_release
	echo "($(($(date +%s) - PF_T0)) s)"
	return 0
}
trap pf_cleanup EXIT

# A fresh module with defaults (or the given parameters) and pagefree
# present; THP off.  The old module's pf_snap is forgotten: its
# statistics started over.
pf_load() {
	local f
	unload
	load "$@"
	[ -d "$PF" ] || fail "$PF missing: pagefree is not available on $(uname -r) (see dmesg: $(dmesg | grep -i pagefree | tail -n 1))"
	[ "$(knob pagefree/enabled)" = 1 ] || fail "pagefree/enabled is $(knob pagefree/enabled) after modprobe $*"
	pf_stats_list
	for f in "$PF"/stats/*; do
		unset "PF_SNAP_${f##*/}"
	done
	[ "$(thp_mode)" = never ] || thp_set never
}

pf_stat() {	# name under pagefree/stats
	cat "$PF/stats/$1" || fail "cannot read pagefree/stats/$1"
}

pf_knob() {	# name value
	knob_write "pagefree/$1" "$2" || fail "pagefree/$1 = $2 refused"
	assert_eq "$(knob "pagefree/$1")" "$2" "pagefree/$1 after writing $2"
}

# Remember every statistic; pf_delta NAME is its growth since then.
pf_snap() {
	local f v
	[ -d "$PF/stats" ] || fail "pf_snap: no $PF/stats"
	[ -n "$PF_COUNTERS" ] || pf_stats_list
	for f in "$PF"/stats/*; do
		read -r v <"$f" || fail "cannot read $f"
		eval "PF_SNAP_${f##*/}=$v"
	done
}

# A statistic no pf_snap read has no growth to tell: the caller's check
# fails, rather than taking the value since the load for one.
pf_delta() {
	local was
	eval "was=\${PF_SNAP_$1-}"
	if [ -z "$was" ]; then
		echo "FAIL: pf_delta $1: no pf_snap has read it" >&2
		exit 1
	fi
	echo $(($(pf_stat "$1") - was))
}

# All gathered pages accounted since pf_snap, whatever way they went.
pf_delta_total() {
	local n sum
	sum=0
	for n in $PF_STATS; do
		sum=$((sum + $(pf_delta "$n")))
	done
	echo $sum
}

# Gathers went to the pool since pf_snap: work items were queued.  In
# async mode workers must have freed pages; in sync mode the waiting
# task may legitimately take back every item before a worker starts
# (helped_pages), so only the queueing is required.
pf_assert_pooled() {	# what
	[ "$(pf_delta work_items)" -gt 0 ] ||
		fail "$1: work_items did not grow: no gather went to the pool"
	[ "$(cat "$PF/mode")" != async ] || [ "$(pf_delta offloaded_pages)" -gt 0 ] ||
		fail "$1: offloaded_pages did not grow in async mode"
}

pf_show() {	# label
	local n line
	line=
	for n in $PF_COUNTERS; do
		line="$line ${n%_pages}+$(pf_delta "$n")"
	done
	echo "$1:$line inflight=$(pf_stat inflight_pages)"
}

# Async frees finish in the background: wait (at most 60 s) until none
# is in flight.
pf_wait_inflight() {
	local i n
	loaded && [ -d "$PF" ] || return 0
	i=0
	while n=$(pf_stat inflight_pages) && [ "$n" != 0 ]; do
		[ $i -lt 300 ] || fail "inflight_pages still $n after 60 s"
		sleep 0.2
		i=$((i + 1))
	done
}

PF_MEM_FIELDS="AnonPages Shmem Cached Slab PageTables KernelStack"

pf_baseline() {
	local f
	pf_wait_inflight
	settle
	PF_BASE_FREE=$(free_kb)
	PF_BASE_MEMFREE=$(meminfo_kb MemFree)
	for f in $PF_MEM_FIELDS; do
		eval "PF_BASE_$f=$(meminfo_kb "$f")"
	done
}

# Growth of the kernel's other uses of memory since pf_baseline: where
# missing free memory went (a leaked page shows in none of them).
pf_mem_deltas() {
	local f was line
	line=
	for f in $PF_MEM_FIELDS; do
		eval "was=\$PF_BASE_$f"
		line="$line $f$(printf '%+d' $(($(meminfo_kb "$f") - was)))"
	done
	echo "$line kB"
}

# Free memory back within the tolerance.  Pages the kernel frees late
# (page tables after an RCU grace period, slab) can lag: up to five
# settled readings a second apart; a leak stays.
pf_assert_no_leak() {	# what
	local now try
	pf_wait_inflight
	assert_eq "$(pf_stat inflight_pages)" 0 "$1: inflight_pages"
	try=1
	while :; do
		settle
		now=$(free_kb)
		echo "$1: free (MemFree + per-CPU lists) $PF_BASE_FREE kB -> $now kB (MemFree $PF_BASE_MEMFREE kB -> $(meminfo_kb MemFree) kB, per-CPU lists $(pcp_kb) kB;$(pf_mem_deltas))"
		[ $((PF_BASE_FREE - now)) -gt "$PF_LEAK_TOL_KB" ] || return 0
		[ $try -lt 5 ] ||
			fail "$1: $((PF_BASE_FREE - now)) kB less free memory (tolerance $PF_LEAK_TOL_KB kB)"
		try=$((try + 1))
		sleep 1
	done
}

# Run a command, failing the test if it fails; show how long it took.
pf_run() {
	local t0 t1 rc
	t0=$(date +%s.%N)
	"$@"
	rc=$?
	t1=$(date +%s.%N)
	echo "\$ $* (exit $rc, $(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }") s)"
	[ $rc = 0 ] || fail "$* failed (exit $rc)"
}

# --- memory cgroups ----------------------------------------------------

pf_cgroup() {	# memory.max [memory.swap.max]
	pf_cgroup_delete
	grep -qw memory /sys/fs/cgroup/cgroup.subtree_control ||
		echo +memory >/sys/fs/cgroup/cgroup.subtree_control
	mkdir "$PFCG" || fail "mkdir $PFCG"
	echo "$1" >"$PFCG/memory.max" || fail "memory.max = $1"
	echo "${2:-max}" >"$PFCG/memory.swap.max" || fail "memory.swap.max = ${2:-max}"
}

# Run a command inside the cgroup at path $1.
pf_in_cg() {	# cgroup command...
	sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$@"
}

# A cgroup's CPU time so far (cpu.stat usage_usec), in microseconds.
pf_cg_usage_us() {	# cgroup
	awk '$1 == "usage_usec" { print $2 }' "$1/cpu.stat"
}

# Run a command inside the cgroup.
pf_in_cgroup() {
	pf_in_cg "$PFCG" "$@"
}

pf_cgroup_event() {	# name in memory.events
	awk -v k="$1" '$1 == k { print $2 }' "$PFCG/memory.events"
}

pf_cgroup_delete() {
	[ -d "$PFCG" ] || return 0
	local i
	i=0
	while ! rmdir "$PFCG" 2>/dev/null; do
		[ $i -lt 50 ] || { echo "cannot remove $PFCG"; return 1; }
		sleep 0.1
		i=$((i + 1))
	done
}

# --- zram --------------------------------------------------------------

PF_ZRAM_SWAP=
PF_ZRAM_MNT=

# /dev/zram0 of the given size (only one zram user at a time here).
pf_zram() {	# size
	modprobe zram num_devices=1 || fail "modprobe zram"
	[ -e /sys/block/zram0 ] || fail "no /sys/block/zram0"
	echo 1 >/sys/block/zram0/reset
	echo "$1" >/sys/block/zram0/disksize || fail "zram0 disksize = $1"
}

pf_zram_swapon() {	# size
	pf_zram "$1"
	mkswap /dev/zram0 >/dev/null || fail "mkswap /dev/zram0"
	swapon /dev/zram0 || fail "swapon /dev/zram0"
	PF_ZRAM_SWAP=1
}

pf_zram_release() {
	if [ -n "$PF_ZRAM_MNT" ]; then
		umount "$PF_ZRAM_MNT" 2>/dev/null
		PF_ZRAM_MNT=
	fi
	if [ -n "$PF_ZRAM_SWAP" ]; then
		swapoff /dev/zram0 2>/dev/null
		PF_ZRAM_SWAP=
	fi
	if [ -e /sys/block/zram0 ]; then
		echo 1 >/sys/block/zram0/reset 2>/dev/null
		modprobe -r zram 2>/dev/null
	fi
	return 0
}

# Swap in use (kB).
swap_used_kb() {
	echo $(($(meminfo_kb SwapTotal) - $(meminfo_kb SwapFree)))
}
