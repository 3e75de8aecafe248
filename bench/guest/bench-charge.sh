#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What charging the workers' time to cgroups costs (bench/bench.sh
# --charge-only): munmap of a touched region, and exit of a process
# holding one, by a task in a cgroup of its own (nothing charges the
# root cgroup), in five configurations alternating run by run, so that
# drift over the boot counts for none of them, and each charged
# configuration and its uncharged one swap places from one repetition
# to the next, so that neither always follows the same run:
#
#   stock     mmfree not loaded
#   sync      sync mode, the workers' time charged to the cgroup
#   sync-nc   sync mode, test_uncharged=1: nothing charged
#   async     async mode, charged
#   async-nc  async mode, not charged
#
# Lines: "PF test config size rep seconds" per run, and "PFSTAT config
# test size stat delta" per run (worker_ns and work_items give the
# workers' time per item), "PFINFO key value...".  Sizes come from the
# kernel command line, where bench/bench.sh puts them (--charge-reps,
# --charge-mb): mmfree_charge_reps=N and mmfree_charge_mb=MB; with
# mmfree_charge_control=1 (--charge-control) the -nc configurations are
# charged too: an A/A run, whose ratios are the bench's noise.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")" && pwd)}
# shellcheck source=../../tests/guest/lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=bench-lib.sh
. "$MMFREE_GUEST/bench-lib.sh"

REPS=''
MB=''
CONTROL=''
CONFIGS="stock sync sync-nc async async-nc"
# Odd repetitions run CONFIGS, even ones this order.
SWAPPED="stock sync-nc sync async-nc async"
CG=/sys/fs/cgroup/mmfree-bench
read -r cmdline </proc/cmdline
for arg in $cmdline; do
	case "$arg" in
	mmfree_charge_reps=*) REPS=${arg#*=} ;;
	mmfree_charge_mb=*) MB=${arg#*=} ;;
	mmfree_charge_control=*) CONTROL=${arg#*=} ;;
	esac
done
if [ -z "$REPS" ] || [ -z "$MB" ] || [ -z "$CONTROL" ]; then
	fail "mmfree_charge_reps=, mmfree_charge_mb= or mmfree_charge_control= missing from the command line"
fi

UNCHARGED=/sys/module/mmfree/parameters/test_uncharged

# Loading patches kernel text: only here, while no benchmark process runs.
# The charged and uncharged configurations share one load: test_uncharged
# is toggled at run time, and each item follows the value it was queued
# under.  After a load (in both modes) or an unload, one untimed run of
# each test: the first runs after either pay for translating the patched
# text (and the module's code) anew under TCG.
config() {	# stock|sync|async|sync-nc|async-nc
	local nc=N
	if [ "$1" = stock ]; then
		if loaded; then
			unload
			warm
		fi
		return
	fi
	case "$1" in
	*-nc) [ "$CONTROL" = 1 ] || nc=Y ;;
	esac
	if ! loaded; then
		load
		knob_write pagefree/enabled 1 || fail "pagefree/enabled 1"
		mode async
		warm
		mode sync
		warm
	fi
	mode "${1%-nc}"
	echo $nc >$UNCHARGED || fail "$1: test_uncharged $nc"
	[ "$(cat $UNCHARGED)" = $nc ] || fail "$1: test_uncharged is not $nc"
}

# Untimed runs in the current configuration.
warm() {
	pfbench munmap 256 1 >/dev/null || fail "pfbench munmap"
	pfbench exit 256 1 >/dev/null || fail "pfbench exit"
	quiesce
}

# One timed run: its PF line and its statistics.
run() {	# config test
	local out
	quiesce
	stats_snap /tmp/st.before
	out=$(pfbench "$2" "$MB" 1) || fail "pfbench $2 $MB: $out"
	quiesce
	stats_snap /tmp/st.after
	echo "PF $2 $1 $MB $REP ${out##* }"
	stats_diff "$1" "$2" "$MB" /tmp/st.before /tmp/st.after
}

echo never >/sys/kernel/mm/transparent_hugepage/enabled ||
	fail "THP never"
settle
mkdir -p $CG
# This shell, and so every pfbench it runs, in the cgroup.
echo $$ >$CG/cgroup.procs || fail "moving into $CG"
echo "PFINFO kernel $(uname -r)"
echo "PFINFO cpus $(nproc)"
echo "PFINFO charge reps $REPS mb $MB cgroup ${CG#/sys/fs/cgroup} control $CONTROL"
start=$(date +%s)

# Untimed runs first in each configuration: the first runs of a code path
# under TCG pay for its translation.
for cfg in $CONFIGS; do
	config "$cfg"
	warm
done
REP=1
while [ $REP -le "$REPS" ]; do
	order=$CONFIGS
	[ $((REP % 2)) = 1 ] || order=$SWAPPED
	echo "== repetition $REP of $REPS: $order"
	for cfg in $order; do
		config "$cfg"
		run "$cfg" munmap
		run "$cfg" exit
	done
	REP=$((REP + 1))
done
unload
echo $$ >/sys/fs/cgroup/cgroup.procs
rmdir $CG
echo "PFINFO seconds $(($(date +%s) - start))"
