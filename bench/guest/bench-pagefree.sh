#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Page-free benchmark (make bench): stock (mmfree not loaded) against
# mmfree's pagefree feature in sync and async mode, in one boot.
#
#   - munmap of a touched anonymous region, at several sizes (the plot),
#     and exit of a process holding such a region (fork, touch, SIGKILL,
#     waitpid): stock, sync and async alternating run by run;
#   - the stock split between zap and free, two ways: untraced, the same
#     munmap and exit of pages pinned by an io_uring fixed buffer, so that
#     the kernel zaps and unmaps them but frees nothing (zap only); traced,
#     the time inside free_pages_and_swap_cache, measured with
#     function_graph in a separate run (tracing is off during every other
#     timed run);
#   - a sweep of pagefree/workers in sync and in async mode;
#   - small-op overhead: N x (mmap, touch, munmap) of a few KiB, and N x
#     fork/exit of a small process, on one CPU, stock (pagefree
#     disabled), sync and async alternating run by run;
#   - munmap with both CPUs busy (two CPU hogs): stock (pagefree
#     disabled) and sync with idle_only=1 alternating, in wall time and
#     in the munmap's own CPU time.
#
# Every timed repetition is one line "PF test config size rep seconds";
# "PFSTAT config test size stat delta" gives mmfree's statistics over a
# series; "PFINFO key value..." describes the run.  bench/bench.sh turns
# them into tables and a plot; the other lines are progress for the
# console.
#
# The VM runs with multi-threaded TCG (both vCPUs really in parallel).
# QEMU 7.2 then runs stale code when the guest patches kernel text under
# load, so everything that patches text (module load and unload, switching
# the tracer) happens while no benchmark process runs; between series only
# sysfs knobs change.
#
# Sizes and repetitions come from the kernel command line (set by
# bench/bench.sh): mmfree_pf_quick=1 for the smaller set (below), and
# any of mmfree_pf_reps=N, mmfree_pf_small_reps=N, mmfree_pf_sizes=MB,MB,...
# (the largest is also the exit, split and headline size),
# mmfree_pf_sweep_mb=MB, mmfree_pf_busy_mb=MB, mmfree_pf_small=N,
# mmfree_pf_forkexit=N, mmfree_pf_split_reps=N, mmfree_pf_workers=W,W,...
# Under TCG, touching 1 GiB takes about 7 s: the full set runs in about
# 25 minutes, the quick one in 6.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")" && pwd)}
# shellcheck source=../../tests/guest/lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=bench-lib.sh
. "$MMFREE_GUEST/bench-lib.sh"
T=/sys/kernel/tracing

REPS=5
REP0=0
SMALL_REPS=15
SIZES="256 1024 2048 4096"
SWEEP_MB=1024
BUSY_MB=1024
SMALL_N=1000
SMALL_KB=64
FORKEXIT_N=200
SPLIT_REPS=3
WORKERS="1 2 4 8"

cmdline=$(cat /proc/cmdline)
for arg in $cmdline; do
	[ "$arg" = mmfree_pf_quick=1 ] || continue
	REPS=3
	SMALL_REPS=6
	SIZES="256 512 1024"
	SWEEP_MB=512
	BUSY_MB=512
	SPLIT_REPS=2
done
for arg in $cmdline; do
	case "$arg" in
	mmfree_pf_reps=*) REPS=${arg#*=} ;;
	mmfree_pf_small_reps=*) SMALL_REPS=${arg#*=} ;;
	mmfree_pf_sizes=*) SIZES=$(echo "${arg#*=}" | tr , ' ') ;;
	mmfree_pf_sweep_mb=*) SWEEP_MB=${arg#*=} ;;
	mmfree_pf_busy_mb=*) BUSY_MB=${arg#*=} ;;
	mmfree_pf_small=*) SMALL_N=${arg#*=} ;;
	mmfree_pf_forkexit=*) FORKEXIT_N=${arg#*=} ;;
	mmfree_pf_split_reps=*) SPLIT_REPS=${arg#*=} ;;
	mmfree_pf_workers=*) WORKERS=$(echo "${arg#*=}" | tr , ' ') ;;
	esac
done
BIG=$(echo "$SIZES" | tr ' ' '\n' | sort -n | tail -n 1)

# Run one series: REPS separate runs of a command printing "what size
# seconds" (pfbench), numbered from REP0 + 1.
series() {	# config test size reps command...
	local cfg test size reps rep out t0
	cfg=$1 test=$2 size=$3 reps=$4
	shift 4
	quiesce
	t0=$(date +%s)
	stats_snap /tmp/st.before
	rep=1
	while [ $rep -le "$reps" ]; do
		out=$("$@") || fail "$*: $out"
		# "what size seconds", and busy's CPU seconds after them
		echo "$out" | awk -v h="PF $test $cfg $size $((REP0 + rep))" \
			-v c="PF ${test}cpu $cfg $size $((REP0 + rep))" \
			'{ print h, $3; if (NF > 3) print c, $4 }'
		quiesce
		rep=$((rep + 1))
	done
	stats_snap /tmp/st.after
	stats_diff "$cfg" "$test" "$size" /tmp/st.before /tmp/st.after
	echo "   ($cfg $test $size: $(($(date +%s) - t0)) s)"
}

# Untimed runs first in each configuration: the first runs of a code path
# under TCG pay for its translation.
warm_up() {
	pfbench munmap 256 2 >/dev/null || fail "pfbench munmap"
	pfbench exit 256 1 >/dev/null || fail "pfbench exit"
	pfbench small 200 "$SMALL_KB" >/dev/null || fail "pfbench small"
	pfbench forkexit 50 >/dev/null || fail "pfbench forkexit"
}

# The headline series: every size's munmap and the exit, stock, sync and
# async alternating repetition by repetition, so that drift over the boot
# (this host's noise moves a series by tens of percent) counts for none
# of them.
main_series() {	# configs...
	local cfg mb rep
	for cfg in "$@"; do
		main_config "$cfg"
		warm_up
	done
	echo "== $*, alternating: munmap at $SIZES MiB, exit at $BIG MiB"
	rep=1
	while [ $rep -le "$REPS" ]; do
		REP0=$((rep - 1))
		for cfg in "$@"; do
			main_config "$cfg"
			for mb in $SIZES; do
				series "$cfg" munmap "$mb" 1 pfbench munmap "$mb" 1
			done
			series "$cfg" exit "$BIG" 1 pfbench exit "$BIG" 1
		done
		rep=$((rep + 1))
	done
	REP0=0
}

small_config() {	# stock|sync|async
	if [ "$1" = stock ]; then
		knob_write pagefree/enabled 0 || fail "pagefree/enabled 0"
	else
		knob_write pagefree/enabled 1 || fail "pagefree/enabled 1"
		mode "$1"
	fi
}

# Small ops run on one CPU (the last): under multi-threaded TCG, waking a
# task on the other, idle vCPU (the parent, at each child's exit) costs
# more than the fork and exit themselves, and varies more.  Gathers this
# small stay below min_pages: mmfree frees them inline wherever they run.
# Their times drift by tens of percent over a boot, so stock (mmfree
# loaded, pagefree/enabled=0: hooks detached), sync and async alternate
# run by run, and drift counts for none of them.
small_series() {
	local cpu rep cfg
	cpu=$(($(nproc) - 1))
	echo "== small ops, on CPU $cpu: stock, sync and async alternating"
	for cfg in stock sync async; do
		small_config $cfg
		taskset -c $cpu pfbench small 200 "$SMALL_KB" >/dev/null || fail "pfbench small"
		taskset -c $cpu pfbench forkexit 50 >/dev/null || fail "pfbench forkexit"
	done
	rep=1
	while [ $rep -le "$SMALL_REPS" ]; do
		REP0=$((rep - 1))
		for cfg in stock sync async; do
			small_config $cfg
			series $cfg small "${SMALL_N}x$SMALL_KB" 1 \
				taskset -c $cpu pfbench small "$SMALL_N" "$SMALL_KB"
			series $cfg forkexit "$FORKEXIT_N" 1 \
				taskset -c $cpu pfbench forkexit "$FORKEXIT_N"
		done
		rep=$((rep + 1))
	done
	REP0=0
	small_config sync
}

# With both CPUs busy, stock and sync alternate run by run (stock here:
# mmfree loaded, pagefree/enabled=0, its hooks detached), so that drift
# over the boot counts neither for nor against the hooks; twice the
# repetitions, since with three tasks on two CPUs the munmap's share of a
# CPU varies from run to run.
busy_series() {
	local rep
	rep=1
	echo "== busy: munmap of $BUSY_MB MiB, two CPU hogs running, stock and sync alternating"
	while [ $rep -le $((REPS * 2)) ]; do
		REP0=$((rep - 1))
		knob_write pagefree/enabled 0 || fail "pagefree/enabled 0"
		series stock busy "$BUSY_MB" 1 pfbench busy "$BUSY_MB" 1 2
		knob_write pagefree/enabled 1 || fail "pagefree/enabled 1"
		series sync busy "$BUSY_MB" 1 pfbench busy "$BUSY_MB" 1 2
		rep=$((rep + 1))
	done
	REP0=0
}

# --- stock split ------------------------------------------------------

# The zap alone, untraced: pinned pages are unmapped, with the accounting
# of their last unmap (which pages still mapped by a forked process would
# skip), and the mapping's references dropped, but none is freed.
zap_series() {
	echo "== stock: zap only (pages pinned) at $BIG MiB"
	series zaponly munmap "$BIG" "$REPS" pfbench zap "$BIG" 1
	series zaponly exit "$BIG" "$REPS" pfbench exitzap "$BIG" 1
}

# Time inside free_pages_and_swap_cache, traced.

trace_on() {
	[ -w "$T/current_tracer" ] || { echo "no tracefs: no zap/free split"; return 1; }
	grep -qw function_graph "$T/available_tracers" ||
		{ echo "no function_graph tracer: no zap/free split"; return 1; }
	grep -qx free_pages_and_swap_cache "$T/available_filter_functions" ||
		{ echo "free_pages_and_swap_cache not traceable: no zap/free split"; return 1; }
	echo 0 >"$T/tracing_on"
	echo free_pages_and_swap_cache >"$T/set_ftrace_filter"
	echo free_pages_and_swap_cache >"$T/set_graph_function"
	echo 1 >"$T/max_graph_depth"
	echo 16384 >"$T/buffer_size_kb"
	echo function_graph >"$T/current_tracer"
	sleep 1
}

trace_off() {
	echo 0 >"$T/tracing_on"
	echo nop >"$T/current_tracer"
	echo >"$T/set_ftrace_filter"
	echo >"$T/set_graph_function"
	echo 0 >"$T/max_graph_depth"
	echo 1408 >"$T/buffer_size_kb"
	sleep 1
}

# One traced repetition: the whole operation's time, and the time inside
# free_pages_and_swap_cache: the sum of function_graph's durations (only
# that function is traced, to depth 1; durations are in microseconds, on
# the "func();" line of a call or on its closing "}").
traced() {	# test mb rep
	local out free overrun
	quiesce
	echo >"$T/trace"
	echo 1 >"$T/tracing_on"
	out=$(pfbench "$1" "$2" 1) || fail "pfbench $1 $2: $out"
	echo 0 >"$T/tracing_on"
	free=$(awk '/^ *#/ { next }
		{ for (i = 2; i <= NF; i++) if ($i == "us") { s += $(i - 1); n++ } }
		END { printf "%.6f %d\n", s / 1e6, n }' "$T/trace")
	overrun=$(cat "$T"/per_cpu/cpu*/stats | awk '$1 == "overrun:" { s += $2 } END { print s + 0 }')
	[ "$overrun" = 0 ] || echo "warning: trace buffer overran ($overrun events lost)"
	echo "PF $1 traced $2 $3 ${out##* }"
	echo "PF $1 free $2 $3 ${free% *}"
	echo "free_pages_and_swap_cache calls: ${free#* }"
}

split_series() {
	local rep t
	echo "== stock, traced: time in free_pages_and_swap_cache at $BIG MiB"
	trace_on || return 0
	for t in munmap exit; do
		rep=1
		while [ $rep -le "$SPLIT_REPS" ]; do
			traced $t "$BIG" $rep
			rep=$((rep + 1))
		done
	done
	trace_off
}

# --- mmfree -----------------------------------------------------------

# Workers in sync mode (config wN), then in async mode (awN): in async
# mode the munmap returns after the zap, so its time shows whether workers
# compete with the zapping task for its own CPU.
sweep_series() {
	local w w0 m
	w0=$(knob pagefree/workers)
	for m in sync async; do
		echo "== $m: workers $WORKERS, munmap of $SWEEP_MB MiB"
		mode $m
		for w in $WORKERS; do
			knob_write pagefree/workers "$w" || fail "pagefree/workers $w"
			series "$([ $m = sync ] || echo a)w$w" sweep "$SWEEP_MB" "$REPS" \
				pfbench munmap "$SWEEP_MB" 1
		done
	done
	mode sync
	knob_write pagefree/workers "$w0" || fail "pagefree/workers $w0"
}

# ----------------------------------------------------------------------

echo never >/sys/kernel/mm/transparent_hugepage/enabled
settle
echo "PFINFO kernel $(uname -r)"
echo "PFINFO cpus $(nproc)"
echo "PFINFO memtotal_kb $(meminfo_kb MemTotal)"
echo "PFINFO thp $(cat /sys/kernel/mm/transparent_hugepage/enabled)"
echo "PFINFO reps $REPS"
echo "PFINFO small_reps $SMALL_REPS"
echo "PFINFO sizes $SIZES"
echo "PFINFO big $BIG"
echo "PFINFO small $SMALL_N $SMALL_KB"
echo "PFINFO forkexit $FORKEXIT_N"
echo "PFINFO busy $BUSY_MB"
echo "PFINFO sweep $SWEEP_MB"
start=$(date +%s)

# 1. Stock, mmfree not loaded: the zap/free split.
unload
warm_up
zap_series
split_series

# 2. The headline: stock against mmfree's defaults (sync) and async.
load
if ! have_pagefree; then
	echo "PFINFO nopagefree this mmfree has no pagefree feature"
	unload
	main_series stock
else
	knob_write pagefree/enabled 1 || fail "pagefree/enabled"
	echo "PFINFO defaults $(for k in mode workers batch_pages min_pages idle_only max_inflight_pages; do
		printf '%s=%s ' $k "$(knob pagefree/$k)"; done)"
	main_series stock sync async

	# 3. mmfree's own series: loaded from here on.
	main_config sync
	busy_series
	sweep_series
	small_series
	quiesce
	unload
fi

echo "PFINFO seconds $(($(date +%s) - start))"
