#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Knob floors (bench/bench.sh --floors-only): what the smallest values of
# pagefree/min_pages and percpu/interval_ms cost, measured in one boot,
# so that their minimums rest on a measurement.
#
#   - min_pages: N x (mmap, touch, munmap) of P pages on one CPU, for P
#     from 1 to 1024 pages (from the module's min_pages floor up), in sync
#     mode with every gather pooled (min_pages at its floor: 0 before
#     the floor was raised) and with every gather freed inline
#     (min_pages at its maximum; the hooks stay attached), alternating
#     run by run: "PF floor pooled|inline P rep seconds".  Pooling a
#     gather costs a context, a work item and a wakeup, about the same at
#     any size; the floor is the smallest P where pooling costs at most
#     25% more than freeing inline (the median, on every kernel).
#   - interval_ms: what one balance run that the periodic rescan queues
#     costs.  With C memory cgroups made (chunks to walk), interval_ms at
#     its floor (1 before it was raised) for S seconds, each run of pcpu_balance_workfn() timed by
#     function_graph (that function alone): "PFFLOOR run_us MEDIAN max_us
#     MAX runs R traced T chunks N rep K".  The floor keeps the rescan
#     under 0.1% of one CPU.
#
# The guest has 64 possible CPUs and 2 online (bench/bench.sh), as the
# percpu benchmark has: a chunk has a unit per possible CPU.
# mmfree_floor_reps=N, mmfree_floor_n=N and mmfree_floor_cgroups=C on the
# kernel command line change the repetitions (default 5), the ops per run
# (default 500) and the cgroups (default 2000).
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")" && pwd)}
# shellcheck source=../../tests/guest/lib.sh
. "$MMFREE_GUEST/lib.sh"

REPS=5
N=500
CGROUPS=2000
SECONDS_ON=10
PAGES="1 4 16 64 256 1024"
read -r cmdline </proc/cmdline
for arg in $cmdline; do
	case "$arg" in
	mmfree_floor_reps=*) REPS=${arg#*=} ;;
	mmfree_floor_n=*) N=${arg#*=} ;;
	mmfree_floor_cgroups=*) CGROUPS=${arg#*=} ;;
	esac
done

echo "PFINFO kernel $(uname -r)"
echo "PFINFO cpus $(nproc) possible $(cat /sys/devices/system/cpu/possible)"
echo "PFINFO floor reps $REPS n $N cgroups $CGROUPS seconds $SECONDS_ON"
echo never >/sys/kernel/mm/transparent_hugepage/enabled ||
	fail "THP never"
load pagefree_mode=sync pagefree_idle_only=0 percpu_interval_ms=0

# The smallest value each knob takes, from its description ("(LO-HI, "
# or "(0 or LO-HI, "): sizes below this module's min_pages floor cannot
# be pooled, and the rescan runs at most as often as interval_ms allows.
param_floor() {	# parameter
	modinfo -F parm mmfree | sed -n "s/^$1:.*(\(0 or \)\{0,1\}\([0-9]*\)-[0-9]*, default.*/\2/p"
}
pages_floor=$(param_floor pagefree_min_pages)
interval_floor=$(param_floor percpu_interval_ms)
if [ -z "$pages_floor" ] || [ -z "$interval_floor" ]; then
	fail "no floors in modinfo"
fi
[ "$interval_floor" -gt 0 ] || interval_floor=1
echo "PFINFO floors min_pages $pages_floor interval_ms $interval_floor"
PAGES=$(for p in $PAGES; do [ "$p" -lt "$pages_floor" ] || echo "$p"; done)

# --- min_pages ----------------------------------------------------------

floor_config() {	# pooled|inline
	if [ "$1" = pooled ]; then
		knob_write pagefree/min_pages "$pages_floor" || fail "min_pages $pages_floor"
	else
		knob_write pagefree/min_pages 1073741824 || fail "min_pages max"
	fi
}

cpu=$(($(nproc) - 1))
echo "== min_pages: $N x (mmap, touch, munmap) on CPU $cpu, pooled and inline alternating"
for cfg in pooled inline; do
	floor_config $cfg
	taskset -c "$cpu" pfbench small 100 $((pages_floor > 1 ? pages_floor * 4 : 4)) >/dev/null || fail "pfbench small"
done
rep=1
while [ $rep -le "$REPS" ]; do
	for p in $PAGES; do
		for cfg in pooled inline; do
			floor_config $cfg
			s=$(taskset -c "$cpu" pfbench small "$N" $((p * 4)) |
				awk '{ print $3 }') || fail "pfbench small"
			echo "PF floor $cfg $p $rep $s" | tee -a /tmp/floor.log
		done
	done
	rep=$((rep + 1))
done
knob_write pagefree/min_pages 1024 || fail "min_pages 1024"
offloaded=$(cat "$MMFREE/pagefree/stats/offloaded_pages")
[ "$offloaded" -gt 0 ] || fail "no gather was pooled: the pooled runs measured nothing"

# --- interval_ms --------------------------------------------------------

T=/sys/kernel/tracing
memcg_setup
echo "== interval_ms: $CGROUPS memory cgroups"
memcg_create "$CGROUPS"
chunks=$(pcpu_stat chunks)
# Each balance run's duration, from function_graph on the work function
# alone (its entry and exit are the only traced points).
echo pcpu_balance_workfn >$T/set_ftrace_filter || fail "set_ftrace_filter"
echo 1 >$T/max_graph_depth
echo function_graph >$T/current_tracer || fail "function_graph"
rep=1
while [ $rep -le "$REPS" ]; do
	echo >$T/trace
	s0=$(pcpu_stat scans)
	knob_write percpu/interval_ms "$interval_floor" || fail "interval_ms $interval_floor"
	sleep "$SECONDS_ON"
	knob_write percpu/interval_ms 0 || fail "interval_ms 0"
	s1=$(pcpu_stat scans)
	# "  1)   38.123 us   |  pcpu_balance_workfn();"
	awk '/pcpu_balance_workfn/ {
		for (i = 2; i <= NF; i++)
			if ($i == "us" || $i == "ms") {
				print $(i - 1) * ($i == "ms" ? 1000 : 1)
				break
			}
		}' $T/trace | sort -g | awk -v rep="$rep" -v c="$chunks" -v runs=$((s1 - s0)) '
		{ v[++n] = $1 }
		END {
			printf "PFFLOOR run_us %.1f max_us %.1f runs %d traced %d chunks %d rep %d\n",
				n ? v[int((n + 1) / 2)] : -1, n ? v[n] : -1, runs, n, c, rep
		}' | tee -a /tmp/floor.log
	rep=$((rep + 1))
done
echo nop >$T/current_tracer
echo >$T/set_ftrace_filter
memcg_delete_all

# --- the report ---------------------------------------------------------

# Median and range of the values read on stdin, one per line.
median_range() {
	sort -g | awk '{ v[NR] = $1 } END {
		m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%s %s %s\n", m, v[1], v[NR] }'
}

echo "== min_pages: ms per op, median and range of $REPS runs"
echo "| pages | inline | pooled | pooled / inline |"
echo "|---|---|---|---|"
for p in $PAGES; do
	# shellcheck disable=SC2046 # three numbers
	set -- $(awk -v p="$p" '$3 == "inline" && $4 == p { print $6 }' /tmp/floor.log | median_range)
	i=$1 ilo=$2 ihi=$3
	# shellcheck disable=SC2046 # three numbers
	set -- $(awk -v p="$p" '$3 == "pooled" && $4 == p { print $6 }' /tmp/floor.log | median_range)
	awk -v p="$p" -v n="$N" -v i="$i" -v ilo="$ilo" -v ihi="$ihi" \
		-v o="$1" -v olo="$2" -v ohi="$3" 'BEGIN {
		f = 1000 / n
		printf "| %d | %.3f (%.3f-%.3f) | %.3f (%.3f-%.3f) | %.2f |\n",
			p, i * f, ilo * f, ihi * f, o * f, olo * f, ohi * f, o / i }'
done
# shellcheck disable=SC2046 # three numbers
set -- $(awk '$1 == "PFFLOOR" { print $3 }' /tmp/floor.log | median_range)
echo "== interval_ms: a balance run takes $1 us (median of each run's median; range $2-$3) with $chunks chunks"
echo "PFINFO seconds $(cut -d' ' -f1 /proc/uptime)"
unload
