#!/bin/sh
# While a task gathers pages the pool frees on at most the other CPUs
# (its own CPU is busy zapping); once its gather is done (an async munmap
# has returned) the pool may use every CPU.  On 2 CPUs with workers=4,
# in each of two rounds: the gather's start sets the cap to 1, its end
# (after its mmfree_wait) sets it to 2 (mmfree_pool_cap events, the value
# given to workqueue_set_max_active()), and no two work items overlap in
# time while the gather is open.  Whether two items overlap after it
# closed is the scheduler's business (it often wakes the second worker
# beside the first): printed, not asserted.  Intervals come from the
# trace (its mono clock, the ktime the items' ns are measured with): each
# mmfree_item_freed ends at its timestamp and took ns.  (The pool used to
# stay at one worker on 2 CPUs after the gather too: the cap stayed 1.)
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

[ -d $T ] || skip "no tracefs"
[ "$(nproc)" = 2 ] || skip "needs exactly 2 CPUs"

clock=$(sed 's/.*\[\(.*\)\].*/\1/' $T/trace_clock)
trace_cleanup() {
	trace_off
	echo "$clock" >$T/trace_clock
	pf_cleanup
}
trap trace_cleanup EXIT

# Pairs of worker items that overlap, among those that ran wholly while
# the gather was open ("during"), and among those that started after it
# closed ("after"); then how many items started after it closed, and on
# which CPUs.
overlaps() {
	awk '
	match($0, /[0-9]+\.[0-9]+: mmfree_/) {
		ts = substr($0, RSTART, RLENGTH - 9) + 0
		if ($0 ~ / mmfree_wait: /) { close_ts = ts; next }
		if ($0 !~ / mmfree_item_freed: .*by=worker/) next
		match($0, / ns=[0-9]+/)
		ns = substr($0, RSTART + 4, RLENGTH - 4) + 0
		n++; s[n] = ts - ns / 1e9; e[n] = ts
		match($0, /\[[0-9]+\]/); c[n] = substr($0, RSTART + 1, RLENGTH - 2) + 0
	}
	END {
		for (i = 1; i <= n; i++)
			for (j = i + 1; j <= n; j++) {
				if (s[i] >= e[j] || s[j] >= e[i])
					continue
				if (e[i] <= close_ts && e[j] <= close_ts)
					during++
				else if (s[i] >= close_ts && s[j] >= close_ts)
					after++
			}
		for (i = 1; i <= n; i++)
			if (s[i] >= close_ts) {
				late++
				cpus[c[i]]++
			}
		for (i in cpus)
			on = on " " i ":" cpus[i]
		printf "%d %d %d %d%s\n", n, during + 0, after + 0, late + 0, on
	}' $T/trace
}

# The cap events and the gather's end, in trace order: "1/1 wait 2/0".
cap_steps() {
	grep -E ' mmfree_(pool_cap|wait): ' $T/trace |
		sed -E -e 's/.* cap=([0-9]+) gatherers=([0-9]+).*/\1\/\2/' \
			-e 's/.* mmfree_wait: .*/wait/' | paste -sd' '
}

pf_load pagefree_mode=async pagefree_idle_only=0 pagefree_workers=4 percpu_enabled=0
pf_show_workers
echo 1 >$E/mmfree_item_freed/enable
echo 1 >$E/mmfree_wait/enable
echo 1 >$E/mmfree_pool_cap/enable
echo 16384 >$T/buffer_size_kb
# One clock for both CPUs, the one the items' ns come from (the default,
# "local", is per CPU).
echo mono >$T/trace_clock || fail "no mono trace clock"
during=0 after=0
for round in 1 2; do
	trace_start
	pf_run taskset -c 1 pftest munmap 512 1
	pf_wait_inflight
	trace_stop
	[ "$(trace_lines mmfree_wait | grep -c .)" = 1 ] ||
		fail "round $round: expected one gather's mmfree_wait"
	steps=$(cap_steps)
	# shellcheck disable=SC2046 # numbers
	set -- $(overlaps)
	echo "round $round: cap/gatherers: $steps; $1 items by workers;" \
		"overlapping pairs while gathering $2, after $3;" \
		"$4 items started after (CPU:items$(shift 4; printf ' %s' "$@"));" \
		"$(trace_lines mmfree_item_freed | awk '{ print $1 }' | sort -u | paste -sd' ')"
	[ "$1" -gt 0 ] || fail "round $round: no item freed by a worker"
	assert_eq "$steps" "1/1 wait 2/0" "round $round: cap while gathering, gather's end, cap after"
	during=$((during + $2)) after=$((after + $3))
done
assert_eq "$during" 0 "items freed at once while the task gathered (cap: the other CPU)"
