#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Stress run (make stress, scripts/stress.sh): for a bounded time, stress-ng
# memory stressors (vm, mmap, fork, exit-group, madvise, brk, memfd) run
# in a memory cgroup whose memory.max pushes them into zram swap, while
#   - a controller toggles every knob under /sys/kernel/mmfree, switches
#     pagefree between sync and async, writes percpu/reclaim and removes
#     and reloads the module (with varying parameters) every few steps;
#   - allocation faults are injected into mmfree's gather contexts and
#     work items: the module's test_fail_alloc parameter at its reloads
#     (every Nth allocation fails), and
#     where the kernel has FAILSLAB (the debug kernel, booted with
#     slub_debug=A,mmfree_item) failslab restricted to the mmfree_item
#     cache;
#   - OOM storms: stress-ng workers wanting twice their cgroup's
#     memory.max (no swap), respawned as the OOM killer kills them;
#   - memory cgroups are created and removed (percpu churn);
#   - hugetlb memory and process_mrelease() (pftest hugetlb, pftest
#     lmkd) every few seconds: memory that must be back at once.
# Afterwards, with the module removed and swap off: no splat in the
# kernel log (oops, WARN, BUG, KASAN, lockdep, RCU), no kmemleak report
# (see the kmemleak step), no memory unaccounted for (see mem_other_kb)
# beyond STRESS_TOL_KB more than before,
# nothing left in flight, and the percpu empty-page accounting equal to
# its recounts.  The last lines are a report table; "STRESS key value"
# lines are the same numbers for scripts/stress.sh.
#
# Duration: $1 minutes, else STRESS_SECONDS=N in the environment (the
# short run inside make check), else mmfree_stress_minutes=N (or, for
# quick trials, mmfree_stress_seconds=N) on the kernel command line;
# default 2.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")" && pwd)}
# shellcheck source=lib.sh
. "$MMFREE_GUEST/lib.sh"

PF=$MMFREE/pagefree
DBG=/sys/kernel/debug
FS=$DBG/failslab
KML=$DBG/kmemleak
SCG=/sys/fs/cgroup/mmfree-stress
W=/tmp/stress
STRESS_TOL_KB=${STRESS_TOL_KB:-16384}

secs=
[ -z "$1" ] || secs=$(($1 * 60))
[ -n "$secs" ] || secs=$STRESS_SECONDS
read -r cmdline </proc/cmdline
for arg in $cmdline; do
	case "$arg" in
	mmfree_stress_minutes=*) [ -n "$secs" ] || secs=$((${arg#*=} * 60)) ;;
	mmfree_stress_seconds=*) [ -n "$secs" ] || secs=${arg#*=} ;;
	esac
done
[ -n "$secs" ] || secs=120

rm -rf $W
mkdir -p $W
errors=0
err() {
	errors=$((errors + 1))
	echo "ERROR: $*"
	echo "$*" >>$W/errors
}
note() {
	echo "[stress $(($(date +%s) - T0))s] $*"
}
T0=$(date +%s)

# --- what this kernel offers -------------------------------------------

command -v stress-ng >/dev/null || fail "no stress-ng in the guest (scripts/mkrootfs.sh)"
stressors=
for s in vm mmap fork exit-group madvise brk memfd; do
	if stress-ng --"$s" 1 -n >/dev/null 2>&1; then
		stressors="$stressors $s"
	else
		echo "stress-ng $(stress-ng --version | awk '{ print $3 }') has no $s stressor"
	fi
done
have_kmemleak=0
[ -w $KML ] && have_kmemleak=1
have_failslab=0
[ -d $FS ] && have_failslab=1
have_lockdep=0
[ -e /proc/lockdep ] && have_lockdep=1
have_kasan=0
dmesg | grep -q 'KernelAddressSanitizer initialized' && have_kasan=1
memtotal=$(meminfo_kb MemTotal)
note "$(uname -r), $(nproc) CPUs, MemTotal $memtotal kB, $secs s of stress;" \
	"stressors:$stressors; kasan=$have_kasan lockdep=$have_lockdep" \
	"kmemleak=$have_kmemleak failslab=$have_failslab"

# --- splats --------------------------------------------------------------

# Kernel log lines that are splats, one per line (OOM reports skipped).
splat_lines() {
	awk -f "$MMFREE_GUEST/splat.awk"
}

# --- setup ------------------------------------------------------------------

cleanup() {
	# shellcheck disable=SC2086 # a list of PIDs
	[ -z "$BG" ] || kill $BG 2>/dev/null
	[ -z "$SNG" ] || kill "$SNG" 2>/dev/null
	[ ! -d $FS ] || echo 0 >$FS/probability
	return 0
}
trap cleanup EXIT

# Memory in use that no /proc/meminfo counter explains: a page mmfree
# took from a gather and never freed is here (unmapped, so not in
# AnonPages, and off the LRU or not, never back in MemFree).  Unlike
# MemFree, this ignores slab growth (KASAN's quarantine, kmemleak's and
# lockdep's metadata, cgroups dying in the background), page tables etc.
mem_other_kb() {
	awk -v pcp="$(pcp_kb)" '{ v[$1] = $2 }
	END { print v["MemTotal:"] - v["MemFree:"] - v["Buffers:"] - v["Cached:"] \
		- v["SwapCached:"] - v["AnonPages:"] - v["Slab:"] - v["KernelStack:"] \
		- v["PageTables:"] - v["SecPageTables:"] - v["Percpu:"] \
		- v["VmallocUsed:"] - v["HugePages_Total:"] * v["Hugepagesize:"] \
		- pcp }' /proc/meminfo
}

BG=
bg() {
	"$@" &
	BG="$BG $!"
}

# Warm caches that stay (first module load, zram, cgroup code), then take
# the baselines; kmemleak forgets everything reported so far.
unload
load
unload
modprobe zram num_devices=1 && modprobe -r zram
mkdir -p $SCG/warm && rmdir $SCG/warm
if [ $have_kmemleak = 1 ]; then
	note "kmemleak: baseline scan"
	echo scan >$KML
	n=$(grep -c '^unreferenced object' $KML)
	echo clear >$KML
	note "kmemleak: $n objects reported before the run (boot), cleared"
fi
settle
sleep 1
settle
cp /proc/meminfo $W/meminfo0
free0=$(free_kb)
other0=$(mem_other_kb)
dmesg -C
note "baseline: free (MemFree + per-CPU lists) $free0 kB, unaccounted $other0 kB"

# Swap: zram, a third of RAM.
modprobe zram num_devices=1 || fail "modprobe zram"
echo $((memtotal / 3))K >/sys/block/zram0/disksize || fail "zram0 disksize"
mkswap /dev/zram0 >/dev/null || fail "mkswap /dev/zram0"
swapon /dev/zram0 || fail "swapon /dev/zram0"

# Cgroups: main (the stressors: memory.max below what they want, swap
# allowed), oom (no swap, small memory.max), pcpu (churned).
grep -qw memory /sys/fs/cgroup/cgroup.subtree_control ||
	echo +memory >/sys/fs/cgroup/cgroup.subtree_control
mkdir -p $SCG
echo +memory >$SCG/cgroup.subtree_control || fail "+memory in $SCG"
mkdir -p $SCG/main $SCG/oom $SCG/pcpu
echo +memory >$SCG/pcpu/cgroup.subtree_control
main_max=$((memtotal / 8))
[ $main_max -le 393216 ] || main_max=393216
echo ${main_max}K >$SCG/main/memory.max
echo $((memtotal / 6))K >$SCG/main/memory.swap.max
echo 32M >$SCG/oom/memory.max
echo 0 >$SCG/oom/memory.swap.max

# The command itself is spared by the OOM killer (-1000): timeout(1) and
# stress-ng's parent must outlive the workers (stress-ng sets its
# workers' own oom_score_adj).
in_cg() {	# cgroup command...
	local g
	g=$1
	shift
	sh -c 'echo -1000 >/proc/self/oom_score_adj &&
		echo $$ >"$0/cgroup.procs" && exec "$@"' "$SCG/$g" "$@"
}

# Stop whatever is left in a cgroup (cgroup.kill) and wait until it is
# empty.
cg_kill() {	# cgroup
	local i
	[ -e "$SCG/$1/cgroup.kill" ] || return 0
	echo 1 >"$SCG/$1/cgroup.kill"
	i=0
	while [ -n "$(cat "$SCG/$1/cgroup.procs")" ]; do
		[ $i -lt 600 ] || { err "$SCG/$1 still has tasks after 60 s"; return 1; }
		sleep 0.1
		i=$((i + 1))
	done
}

load
faults_fs=0
if [ $have_failslab = 1 ]; then
	if [ "$(cat /sys/kernel/slab/mmfree_item/failslab 2>/dev/null)" = 1 ]; then
		# Fail 5% of mmfree_item allocations, silently (verbose
		# traces would read as splats), sleeping or not.
		echo Y >$FS/cache-filter
		echo N >$FS/ignore-gfp-wait
		echo 0 >$FS/verbose
		echo 0 >$FS/space
		echo 1 >$FS/interval
		echo 1000000000 >$FS/times
		echo 5 >$FS/probability
		note "failslab: 5% of mmfree_item allocations fail"
	else
		have_failslab=0
		note "failslab: mmfree_item is not marked (boot with slub_debug=A,mmfree_item); not used"
	fi
fi

# --- the load --------------------------------------------------------------

# stress-ng's workers, one of each, wanting together more than the
# cgroup's memory.max (brk grows until the OOM killer stops it).  At nice
# 0: the pool frees inline for a niced task, and the load is there for
# the pool; the controller runs at nice -5 to keep its pace (its "nice -n
# 5" children are back at 0).  timeout(1) stops a run that hangs.
per=$((main_max / 1024 / 3))	# MiB: a third more than memory.max
args="--timeout ${secs}s --yaml $W/sng.yaml --metrics-brief"
for s in $stressors; do
	args="$args --$s 1"
	case $s in
	vm) args="$args --vm-bytes $((per * 2))M" ;;
	mmap) args="$args --mmap-bytes ${per}M" ;;
	memfd) args="$args --memfd-bytes ${per}M" ;;
	esac
done
note "stress-ng$args (in $SCG/main: memory.max ${main_max} kB)"
renice -n -5 $$ >/dev/null || err "renice of the controller"
# shellcheck disable=SC2086
in_cg main timeout -k 30 $((secs + 180)) nice -n 5 stress-ng $args >$W/sng.log 2>&1 &
SNG=$!
end=$(($(date +%s) + secs))

# OOM storms: every 20 s, 6 s of three workers wanting 32 MiB each in a
# 32 MiB cgroup without swap (stress-ng shares --vm-bytes among them).
oom_storms() {
	local n
	n=0
	sleep 5
	while [ ! -e $W/stop ]; do
		in_cg oom timeout -k 10 30 nice -n 5 stress-ng --vm 3 \
			--vm-bytes 96M --vm-keep --timeout 6s >>$W/oom.log 2>&1
		cg_kill oom
		n=$((n + 1))
		echo $n >$W/oom.storms
		sleep 14
	done
}
bg oom_storms

# Percpu churn: memory cgroups hold percpu memory; make and remove
# batches, leaving holes in the chunks.
pcpu_churn() {
	local i r
	r=0
	while [ ! -e $W/stop ]; do
		i=0
		while [ $i -lt 200 ] && [ ! -e $W/stop ]; do
			mkdir $SCG/pcpu/$r-$i 2>/dev/null
			i=$((i + 1))
		done
		i=0
		while [ $i -lt 200 ]; do
			[ $((i % 4)) = 0 ] || rmdir $SCG/pcpu/$r-$i 2>/dev/null
			i=$((i + 1))
		done
		# Keep at most two rounds' survivors.
		i=0
		while [ $i -lt 200 ]; do
			rmdir $SCG/pcpu/$((r - 2))-$i 2>/dev/null
			i=$((i + 1))
		done
		r=$((r + 1))
		echo $r >$W/pcpu.rounds
	done
	find $SCG/pcpu -mindepth 1 -depth -type d -exec rmdir {} + 2>/dev/null
}
bg pcpu_churn

# Memory a caller expects back when the call returns, every 10 s:
# hugetlb pages freed by exit, munmap and a SysV segment's removal are
# back at once (pftest hugetlb: a mapping of the same size made right
# after succeeds; mmfree frees them inline), and a victim killed as lmkd
# does (pidfd_send_signal, process_mrelease, poll) has its memory back
# when the call returns (pftest lmkd; under this load its "90% back"
# check is only counted, not an error: other tasks allocate meanwhile).
HP=/proc/sys/vm/nr_hugepages
hugetlb_loop() {
	local n bad
	n=0 bad=0
	echo 8 >$HP
	if [ "$(cat $HP)" -lt 8 ]; then
		note "hugetlb: only $(cat $HP) of 8 huge pages: no hugetlb in the mix"
		echo 0 >$HP
		return 0
	fi
	while [ ! -e $W/stop ]; do
		pftest hugetlb 8 1 >>$W/hugetlb.log 2>&1 || bad=$((bad + 1))
		n=$((n + 1))
		echo "$n $bad" >$W/hugetlb.runs
		sleep 10
	done
	echo 0 >$HP
}
bg hugetlb_loop

mrelease_loop() {
	local n short rc
	n=0 short=0
	sleep 3
	while [ ! -e $W/stop ]; do
		pftest lmkd 32 at-once 1 >>$W/lmkd.log 2>&1
		rc=$?
		case $rc in
		0) ;;
		1) short=$((short + 1)) ;;
		*) echo "pftest lmkd: exit status $rc" >>$W/lmkd.errors ;;
		esac
		n=$((n + 1))
		echo "$n $short" >$W/lmkd.runs
		sleep 7
	done
}
bg mrelease_loop

# --- the controller ------------------------------------------------------

# Statistics are per module instance: fold them in before each unload.
acc_offloaded=0 acc_nomem=0 acc_items=0 acc_oompages=0
fold_stats() {
	[ -d $PF/stats ] || return 0
	acc_offloaded=$((acc_offloaded + $(cat $PF/stats/offloaded_pages)))
	acc_nomem=$((acc_nomem + $(cat $PF/stats/inline_nomem_pages)))
	acc_items=$((acc_items + $(cat $PF/stats/work_items)))
	acc_oompages=$((acc_oompages + $(cat $PF/stats/inline_oom_pages)))
}

setk() {	# knob value
	[ -e "$MMFREE/$1" ] || return 0
	if ! e=$(knob_write "$1" "$2"); then
		err "write $2 to $1 refused: $e"
	fi
	writes=$((writes + 1))
}

# The values each step picks from: lists indexed by the step number
# (deterministic, so a failing run can be repeated).
pick() {	# n list...
	local n
	n=$1
	shift
	shift $((n % $#))
	echo "$1"
}

# One knob per step, the module reloaded every 8th step (with one of
# four parameter sets); the master switch and each feature are off for
# a third of a 16-step round at most, fault injection on most of the time.
step=0 writes=0 cycles=0 reclaims=0 reclaim_eperm=0 tfa_on=0 pcpu_checks=0
swap_peak=0
while [ "$(date +%s)" -lt $end ] && kill -0 $SNG 2>/dev/null; do
	s=$step
	r=$((s / 16))
	t=$(date +%s)
	case $((s % 16)) in
	0) setk enabled "$(pick $r 1 0 1)" ;;
	1) setk percpu/enabled "$(pick $r 1 1 0)" ;;
	2) setk percpu/min_empty_pages "$(pick $r 1 4 64 1024)"
	   setk percpu/keep_empty_pages "$(pick $r 4 16 256)" ;;
	3) setk percpu/interval_ms "$(pick $r 0 100 1000 0)" ;;
	4 | 12)
		if e=$(knob_write percpu/reclaim 1); then
			reclaims=$((reclaims + 1))
		else
			case "$e" in
			*"not permitted"*) reclaim_eperm=$((reclaim_eperm + 1)) ;;
			*) err "percpu/reclaim: $e" ;;
			esac
		fi ;;
	5) setk pagefree/mode "$(pick $r async sync)" ;;
	6) setk pagefree/workers "$(pick $r 1 2 4 512 3)" ;;
	8) setk pagefree/batch_pages "$(pick $r 16 64 512 100)" ;;
	9) setk pagefree/min_pages "$(pick $r 256 300 256 1024 512)" ;;
	10) setk pagefree/idle_only "$(pick $r 0 0 1)" ;;
	11) setk pagefree/max_inflight_pages "$(pick $r 512 65536 1048576)" ;;
	14)
		setk pagefree/enabled "$(pick $r 1 1 0)"
		# The kernel's counter and both recounts, read under
		# pcpu_lock: they agree but in an allocation's populate.
		if [ -r $DBG/mmfree/percpu_accounting ]; then
			pcpu_counts_agree ||
				err "percpu accounting at step $s: $pcpu_counts in 10 readings"
			pcpu_checks=$((pcpu_checks + 1))
		fi ;;
	7 | 15)
		# Remove the module under load and load it again.
		fold_stats
		if ! e=$(modprobe -r mmfree 2>&1); then
			err "modprobe -r mmfree: $e"
		else
			p=$(pick $((s / 8)) "pagefree_mode=async pagefree_min_pages=256 pagefree_idle_only=0 test_fail_alloc=3" \
				"pagefree_mode=sync pagefree_batch_pages=64 pagefree_min_pages=256 pagefree_idle_only=0 test_fail_alloc=5" \
				"" "pagefree_workers=1 pagefree_mode=async percpu_interval_ms=100 pagefree_idle_only=0")
			# shellcheck disable=SC2086
			if e=$(modprobe mmfree $p 2>&1); then
				cycles=$((cycles + 1))
				case "$p" in *test_fail_alloc=*) tfa_on=$((tfa_on + 1)) ;; esac
			else
				err "modprobe mmfree $p: $e"
			fi
		fi ;;
	esac
	t=$(($(date +%s) - t))
	[ $t -lt 5 ] || note "step $s (slot $((s % 16))) took $t s"
	if [ $((s % 4)) = 0 ]; then
		u=$(($(meminfo_kb SwapTotal) - $(meminfo_kb SwapFree)))
		[ $u -le $swap_peak ] || swap_peak=$u
	fi
	step=$((step + 1))
	[ $((step % 64)) != 0 ] || note "step $step: $cycles reloads, $(cat $W/oom.storms 2>/dev/null || echo 0) OOM storms"
	sleep 0.1
done
[ "$(date +%s)" -ge $end ] || err "stress-ng ended $((end - $(date +%s))) s early"
wait $SNG
sng_rc=$?
SNG=
touch $W/stop
cg_kill main
for p in $BG; do
	wait "$p"
done
BG=
note "stress-ng exited with status $sng_rc; controller: $step steps, $writes knob writes, $cycles reloads"
grep -E 'metrc|successful|failed|skipped|passed|untrustworthy|error' $W/sng.log | head -n 40

# --- afterwards -------------------------------------------------------------

faults_fs=0
if [ $have_failslab = 1 ]; then
	echo 0 >$FS/probability
	faults_fs=$((1000000000 - $(cat $FS/times)))
fi
# Defaults again, so that async frees drain and percpu reclaims.
setk enabled 1
setk percpu/enabled 1
setk pagefree/enabled 1
i=0
while [ -d $PF/stats ] && [ "$(cat $PF/stats/inflight_pages)" != 0 ]; do
	[ $i -lt 300 ] || { err "pagefree inflight_pages still $(cat $PF/stats/inflight_pages) after 60 s"; break; }
	sleep 0.2
	i=$((i + 1))
done
fold_stats
# A load that never reached the pool tested nothing of it.
[ $acc_offloaded -gt 0 ] || err "the pool took no pages: the load never reached it"

oom_kills=0
for g in main oom; do
	n=$(awk '$1 == "oom_kill" { print $2 }' $SCG/$g/memory.events)
	oom_kills=$((oom_kills + ${n:-0}))
done

# Percpu: settle the freed cgroups, reclaim, then the full check (the
# meminfo comparison needs a quiet system).
for g in main oom pcpu; do
	find $SCG/$g -mindepth 1 -depth -type d -exec rmdir {} + 2>/dev/null
	rmdir $SCG/$g 2>/dev/null
done
rmdir $SCG 2>/dev/null
pcpu_quiesce
knob_write percpu/reclaim 1 >/dev/null
( assert_pcpu_accounting "after the run" ) || err "percpu accounting inconsistent after the run"
pcpu_checks=$((pcpu_checks + 1))

unload
swapoff /dev/zram0 || err "swapoff /dev/zram0"
echo 1 >/sys/block/zram0/reset
modprobe -r zram || err "modprobe -r zram"

# Free memory: settled twice (freed cgroups go away in the background).
settle
sleep 2
settle
free1=$(free_kb)
other1=$(mem_other_kb)
free_change=$((free1 - free0))
other_kb=$((other1 - other0))
leaked_pages=0
if [ $other_kb -gt "$STRESS_TOL_KB" ]; then
	leaked_pages=$((other_kb / 4))
	err "$other_kb kB more memory unaccounted for than before (tolerance $STRESS_TOL_KB kB)"
fi
note "free (MemFree + per-CPU lists) $free0 -> $free1 kB ($free_change kB), unaccounted $other0 -> $other1 kB;" \
	"$(grep nr_dying_descendants /sys/fs/cgroup/cgroup.stat)"
echo "meminfo fields that moved by 1 MB or more (kB):"
awk 'NR == FNR { a[$1] = $2; next }
	{ d = $2 - a[$1]; if (d >= 1024 || d <= -1024) printf "  %-16s %10d -> %10d  (%+d)\n", $1, a[$1], $2, d }' \
	$W/meminfo0 /proc/meminfo

# kmemleak: two scans (an object is reported once it has been
# unreferenced for a scan interval); every object reported after the
# run counts, whoever allocated it: the boot's were cleared above.  The
# module is unloaded, so its frames show as bare addresses; lines naming
# mmfree are called out.
leaks=0 mmfree_leaks=0
if [ $have_kmemleak = 1 ]; then
	note "kmemleak: scanning"
	# kmemleak switches itself off on an internal error (metadata
	# allocation failure): then the check proves nothing.
	if ! { echo scan >$KML && sleep 6 && echo scan >$KML; }; then
		err "kmemleak scan refused: $(dmesg | grep 'kmemleak' | tail -n 2)"
	fi
	cat $KML >$W/kmemleak
	leaks=$(grep -c '^unreferenced object' $W/kmemleak)
	mmfree_leaks=$(grep -c 'mmfree' $W/kmemleak)
	if [ "$leaks" != 0 ]; then
		err "kmemleak: $leaks unreferenced objects ($mmfree_leaks lines name mmfree)"
		head -n 200 $W/kmemleak
	fi
fi

# Splats: from the kernel log since the baseline.
dmesg >$W/dmesg
splat_lines <$W/dmesg >$W/splats
splats=$(grep -c . $W/splats)
if [ "$splats" != 0 ]; then
	err "$splats splat lines in the kernel log"
	# The first splat in full, then every splat line.
	first=$(head -n 1 $W/splats)
	grep -F -A 60 -- "$first" $W/dmesg | head -n 80
	echo "all splat lines:"
	cat $W/splats
fi

# --- report -------------------------------------------------------------------

ops=$(awk '$1 == "bogo-ops:" { s += $2 } END { print s + 0 }' $W/sng.yaml 2>/dev/null)
if [ -z "$ops" ] || [ "$ops" = 0 ]; then
	err "stress-ng reported no bogo ops (status $sng_rc)"
fi
storms=$(cat $W/oom.storms 2>/dev/null || echo 0)
read -r hugetlb_runs hugetlb_bad <$W/hugetlb.runs 2>/dev/null || hugetlb_runs=0 hugetlb_bad=0
[ "${hugetlb_bad:-0}" = 0 ] ||
	err "hugetlb: $hugetlb_bad of $hugetlb_runs rounds found the pages not back at once ($(grep -v '^hugetlb:' $W/hugetlb.log | head -n 3 | tr '\n' ' '))"
read -r lmkd_runs lmkd_short <$W/lmkd.runs 2>/dev/null || lmkd_runs=0 lmkd_short=0
[ ! -s $W/lmkd.errors ] || err "process_mrelease: $(sort $W/lmkd.errors | uniq -c | tr '\n' ' ')"
mins=$(awk -v s="$secs" 'BEGIN { printf "%.1f", s / 60 }')
{
	echo "STRESS kernel $(uname -r)"
	echo "STRESS minutes $mins"
	echo "STRESS bogo_ops $ops"
	echo "STRESS stressors$stressors"
	echo "STRESS knob_writes $writes"
	echo "STRESS reclaims $reclaims"
	echo "STRESS reclaim_eperm $reclaim_eperm"
	echo "STRESS load_unload_cycles $cycles"
	echo "STRESS faults_failslab $faults_fs"
	echo "STRESS test_fail_alloc_periods $tfa_on"
	echo "STRESS inline_nomem_pages $acc_nomem"
	echo "STRESS offloaded_pages $acc_offloaded"
	echo "STRESS work_items $acc_items"
	echo "STRESS oom_storms $storms"
	echo "STRESS hugetlb_rounds ${hugetlb_runs:-0}"
	echo "STRESS mrelease_rounds ${lmkd_runs:-0}"
	echo "STRESS mrelease_short ${lmkd_short:-0}"
	echo "STRESS oom_kills $oom_kills"
	echo "STRESS swap_peak_kb $swap_peak"
	echo "STRESS inline_oom_pages $acc_oompages"
	echo "STRESS percpu_checks $pcpu_checks"
	echo "STRESS splats $splats"
	echo "STRESS kmemleak $leaks"
	echo "STRESS memfree_change_kb $free_change"
	echo "STRESS unaccounted_change_kb $other_kb"
	echo "STRESS pages_leaked $leaked_pages"
	echo "STRESS errors $errors"
} | tee $W/report
echo
echo "| minutes | stress-ng bogo ops | load/unload cycles | faults injected | OOM kills | splats | kmemleak | pages leaked |"
echo "|---|---|---|---|---|---|---|---|"
echo "| $mins | $ops | $cycles | failslab $faults_fs; test_fail_alloc: $acc_nomem pages inline | $oom_kills | $splats | $leaks | $leaked_pages |"
echo
if [ $errors != 0 ]; then
	echo "FAIL: $errors errors:"
	cat $W/errors
	exit 1
fi
echo "stress: all checks held"
