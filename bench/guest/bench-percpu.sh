#!/bin/sh
# Percpu benchmark (make bench): stock vs mmfree on two memory cgroup
# patterns, reported as a markdown table.  The guest has many possible
# CPUs (a unit each) and two online, as a large machine would have.
#
#   A: the test of the 2021 percpu patch: 1000 cgroups with 10 children
#      each, then the 10 children of each deleted;
#   B: a pattern the stock heuristic misses: 11000 cgroups, those with
#      i % 100 < 20 deleted.
#
# Each pattern is created once; the deletion runs with mmfree loaded but
# its percpu feature off (stock behaviour, stats readable), then one
# reclaim write shows what mmfree recovers.
#
#   C: steady churn, what it costs: CHURN_CGROUPS cgroups, then one in 8
#      of them deleted and re-created in a loop for CHURN_SECONDS, with
#      the percpu feature off (stock) and on (mmfree, default knobs),
#      alternating run by run, CHURN_REPS times each: cgroups re-created
#      per second and TLB shootdown interrupts (/proc/interrupts "TLB",
#      all CPUs) per re-created cgroup, then 5 s after the churn stops
#      the empty pages left.  Target: mmfree costs at most 10% more than
#      stock in either.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")" && pwd)}
# shellcheck source=../../tests/guest/lib.sh
. "$MMFREE_GUEST/lib.sh"

A_PARENTS=1000
B_CGROUPS=11000
CHURN_CGROUPS=400
CHURN_SECONDS=60
CHURN_REPS=3
# Smaller runs: mmfree_bench_a=PARENTS mmfree_bench_b=CGROUPS
# mmfree_bench_churn=SECONDS on the kernel command line (bench/bench.sh
# --a N --b N --churn N).
read -r cmdline </proc/cmdline
for arg in $cmdline; do
	case "$arg" in
	mmfree_bench_a=*) A_PARENTS=${arg#*=} ;;
	mmfree_bench_b=*) B_CGROUPS=${arg#*=} ;;
	mmfree_bench_churn=*) CHURN_SECONDS=${arg#*=} ;;
	esac
done

kb() { meminfo_kb Percpu; }

row() {	# pattern phase
	echo "| $1 | $2 | $(kb) | $(pcpu_stat populated_pages) | $(pcpu_stat empty_pages) | $(pcpu_stat floor_pages) | $(pcpu_stat chunks) |"
}

verdict() {	# pattern
	local pop floor keep
	pop=$(pcpu_stat populated_pages)
	floor=$(pcpu_stat floor_pages)
	keep=$(knob percpu/keep_empty_pages)
	if [ "$pop" -le $((floor + keep)) ]; then
		echo "$1: populated $pop <= floor $floor + keep $keep: target met"
	else
		echo "$1: populated $pop > floor $floor + keep $keep: target missed by $((pop - floor - keep)) pages per unit" \
			"(the $((pop - floor)) empty pages left hold the kernel's float, which its reclaim keeps in whole chunks)"
	fi
}

pattern_a() {
	local i j
	i=0
	while [ $i -lt "$A_PARENTS" ]; do
		mkdir "$CG/p$i" || fail "mkdir p$i"
		echo +memory >"$CG/p$i/cgroup.subtree_control"
		j=0
		while [ $j -lt 10 ]; do
			mkdir "$CG/p$i/c$j" || fail "mkdir p$i/c$j"
			j=$((j + 1))
		done
		i=$((i + 1))
	done
}

pattern_a_delete() {
	local i j
	i=0
	while [ $i -lt "$A_PARENTS" ]; do
		j=0
		while [ $j -lt 10 ]; do
			rmdir "$CG/p$i/c$j" || fail "rmdir p$i/c$j"
			j=$((j + 1))
		done
		i=$((i + 1))
	done
}

run() {	# name create delete
	local t0 t1
	unload
	load percpu_enabled=0
	memcg_setup
	pcpu_quiesce
	row "$1" "before"
	t0=$(date +%s)
	$2
	t1=$(date +%s)
	row "$1" "created ($((t1 - t0)) s)"
	$3
	pcpu_quiesce
	row "$1" "deleted, stock"
	# Per-chunk detail on the console only, for diagnosis.
	pcpu_accounting >/dev/ttyS0
	knob_write percpu/enabled 1 || fail "enable percpu"
	t0=$(date +%s%N)
	knob_write percpu/reclaim 1 || fail "reclaim"
	t1=$(date +%s%N)
	row "$1" "mmfree, one reclaim ($(((t1 - t0) / 1000000)) ms)"
	pcpu_accounting >/dev/ttyS0
	assert_pcpu_accounting "$1" >/dev/ttyS0
	verdict "$1" >>/tmp/verdicts
	memcg_delete_all
	unload
}

# TLB shootdown interrupts so far, all CPUs.
tlb_ipis() {
	awk '$1 == "TLB:" { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) n += $i } END { print n + 0 }' /proc/interrupts
}

# One churn run: delete and re-create every 8th cgroup for CHURN_SECONDS.
# Prints: re-created cgroups, TLB interrupts, mmfree runs, empty pages
# per unit 5 s after.
churn_run() {
	local end n ipis scans i
	ipis=$(tlb_ipis)
	scans=$(pcpu_stat scans)
	end=$(($(date +%s) + CHURN_SECONDS))
	n=0
	while [ "$(date +%s)" -lt $end ]; do
		i=0
		while [ $i -lt "$CHURN_CGROUPS" ]; do
			rmdir "$CG/$i" || fail "rmdir $i"
			mkdir "$CG/$i" || fail "mkdir $i"
			n=$((n + 1))
			i=$((i + 8))
		done
	done
	ipis=$(($(tlb_ipis) - ipis))
	scans=$(($(pcpu_stat scans) - scans))
	sleep 5
	pcpu_quiesce
	echo "$n $ipis $scans $(pcpu_stat empty_pages)"
}

churn() {
	local r mode rate per
	unload
	load percpu_enabled=0
	memcg_setup
	memcg_create "$CHURN_CGROUPS"
	pcpu_quiesce
	echo
	echo "C: steady churn, $CHURN_CGROUPS cgroups, every 8th deleted and re-created for $CHURN_SECONDS s; stock and mmfree alternating"
	echo
	echo "| run | percpu | re-created | per s | TLB interrupts | per cgroup | mmfree runs | empty pages 5 s after |"
	echo "|---|---|---|---|---|---|---|---|"
	r=1
	while [ $r -le "$CHURN_REPS" ]; do
		for mode in stock mmfree; do
			if [ $mode = stock ]; then
				knob_write percpu/enabled 0 || fail "percpu off"
			else
				knob_write percpu/enabled 1 || fail "percpu on"
			fi
			# shellcheck disable=SC2046 # churn_run prints two numbers
			set -- $(churn_run)
			rate=$(awk -v n="$1" -v s="$CHURN_SECONDS" 'BEGIN { printf "%.2f", n / s }')
			per=$(awk -v i="$2" -v n="$1" 'BEGIN { printf "%.3f", n ? i / n : 0 }')
			echo "| $r | $mode | $1 | $rate | $2 | $per | $3 | $4 |"
			echo "CHURN $mode $1 $2" >>/tmp/churn
		done
		r=$((r + 1))
	done
	memcg_delete_all
	unload
}

# (The conditionals are in parentheses: in a printf's arguments mawk, the
# guest's awk, reads ">" as an output redirection.)
churn_verdict() {
	awk '$1 == "CHURN" { n[$2] += $3; i[$2] += $4 }
	END {
		if (!n["stock"] || !n["mmfree"])
			exit
		rate = n["mmfree"] / n["stock"]
		ipi = (i["mmfree"] / n["mmfree"]) / (i["stock"] / n["stock"])
		printf "C: mmfree re-created %.1f%% of stock'"'"'s cgroups in the same time (target >= 90%%): %s\n",
			100 * rate, (rate >= 0.9 ? "met" : "missed")
		printf "C: mmfree took %.1f%% of stock'"'"'s TLB interrupts per re-created cgroup (target <= 110%%): %s\n",
			100 * ipi, (ipi <= 1.1 ? "met" : "missed")
	}' /tmp/churn
}

: >/tmp/verdicts
: >/tmp/churn
echo "kernel $(uname -r), $(nproc) CPUs online, possible CPUs $(cat /sys/devices/system/cpu/possible)"
echo
echo "| pattern | phase | Percpu: kB | populated | empty | floor | chunks |"
echo "|---|---|---|---|---|---|---|"
run "A: ${A_PARENTS}x10, children deleted" pattern_a pattern_a_delete
run "B: $B_CGROUPS flat, i%100<20 deleted" "memcg_create $B_CGROUPS" "memcg_delete_pct $B_CGROUPS 20"
echo
echo "Pages are per unit (possible CPU). floor: pages holding live allocations."
churn
echo
cat /tmp/verdicts
churn_verdict
