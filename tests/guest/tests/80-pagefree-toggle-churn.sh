#!/bin/sh
# Reconfiguring under load: while two loops keep running fork/COW checks,
# munmaps and fork/exits, pagefree/enabled, mode, workers, batch_pages,
# min_pages and the master switch are flipped, and the module is removed
# and loaded again (with other parameters) every few steps.  No check
# fails, no knob write is refused, no splat, and afterwards nothing is in
# flight, no context is open, no work item left (debugfs pagefree_state),
# and MemFree is back (no leak).
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

steps=${PF_CHURN_STEPS:-20}
dir=/tmp/pf-churn
rm -rf $dir
mkdir -p $dir

churn() {	# id
	local i
	i=0
	while [ ! -e $dir/stop ]; do
		case $((i % 3)) in
		0) pftest cow 16 4 ;;
		1) pftest munmap 16 4 ;;
		2) pftest forkexit 16 4 ;;
		esac >"$dir/$1.log" 2>&1 || { cp "$dir/$1.log" "$dir/fail.$1.$i"; }
		i=$((i + 1))
	done
	echo $i >"$dir/$1.loops"
}

pf_load
pf_run pftest munmap 16 2
pf_baseline
pf_bg churn a
pf_bg churn b
i=0
reloads=0
while [ $i -lt "$steps" ]; do
	case $((i % 10)) in
	0) pf_knob mode async ;;
	1) pf_knob workers 1 ;;
	2) pf_knob enabled 0 ;;
	3) pf_knob enabled 1 ;;
	4) pf_knob batch_pages 16; pf_knob min_pages 256 ;;
	5) knob_write enabled 0 || fail "enabled = 0 refused" ;;
	6) knob_write enabled 1 || fail "enabled = 1 refused"; pf_knob mode sync ;;
	7) pf_knob workers 512; pf_knob batch_pages 512; pf_knob min_pages 1024 ;;
	8) pf_knob mode async; pf_knob workers 4 ;;
	9)
		# Remove the module mid-load and bring it back.
		unload
		reloads=$((reloads + 1))
		if [ $((reloads % 2)) = 1 ]; then
			load pagefree_mode=async pagefree_min_pages=256 pagefree_workers=2
		else
			load pagefree_mode=sync pagefree_batch_pages=64
		fi
		[ -d "$PF" ] || fail "pagefree missing after reload"
		;;
	esac
	sleep 0.3
	i=$((i + 1))
done
touch $dir/stop
for p in $PF_BG; do
	wait "$p"
done
PF_BG=
echo "churn loops: a $(cat $dir/a.loops 2>/dev/null), b $(cat $dir/b.loops 2>/dev/null); $reloads reloads"
for f in "$dir"/fail.*; do
	[ -e "$f" ] || continue
	cat "$f"
	fail "a workload failed during the churn ($f)"
done
echo "stats since the last reload:"
grep . "$PF"/stats/* | sed "s|^$PF/stats/||"
pf_assert_no_leak "after $steps reconfigurations"
# No context was opened that nothing closes (a task inside the kernel's
# own tlb_finish_mmu() while the hooks went live could open one through
# the flush hook), and no item is left.
state=/sys/kernel/debug/mmfree/pagefree_state
[ -r $state ] || fail "no $state"
echo "pagefree_state: $(tr '\n' ' ' <$state)"
assert_eq "$(sed -n 's/^contexts //p' $state)" 0 "contexts open once idle"
assert_eq "$(sed -n 's/^items //p' $state)" 0 "work items once idle"
unload
