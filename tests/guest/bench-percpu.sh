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
. /mmfree/lib.sh

A_PARENTS=1000
B_CGROUPS=11000
# Smaller runs: mmfree_bench_a=PARENTS mmfree_bench_b=CGROUPS on the
# kernel command line (scripts/bench.sh --a N --b N).
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	mmfree_bench_a=*) A_PARENTS=${arg#*=} ;;
	mmfree_bench_b=*) B_CGROUPS=${arg#*=} ;;
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

: >/tmp/verdicts
echo "kernel $(uname -r), $(nproc) CPUs online, possible CPUs $(cat /sys/devices/system/cpu/possible)"
echo
echo "| pattern | phase | Percpu: kB | populated | empty | floor | chunks |"
echo "|---|---|---|---|---|---|---|"
run "A: ${A_PARENTS}x10, children deleted" pattern_a pattern_a_delete
run "B: $B_CGROUPS flat, i%100<20 deleted" "memcg_create $B_CGROUPS" "memcg_delete_pct $B_CGROUPS 20"
echo
echo "Pages are per unit (possible CPU). floor: pages holding live allocations."
cat /tmp/verdicts
