#!/bin/sh
# The inline fallbacks.  idle_only: with a CPU hog on each CPU, a 64 MiB
# munmap is freed inline as busy while idle_only=1, and handed to the
# pool (offloaded or helped) once idle_only=0; a scan that found no idle
# CPU is not repeated for each item (with batch_pages=16, the function
# trace of the idle checks counts about one scan per 512 pages inline
# per CPU looked at, not one per item: huge pages are an item each, and
# a kernel call holds up to ~510; since c70d106 and before this, every
# item scanned); with items in flight but
# the workers held, a munmap is freed inline as busy (a busy pool is not
# an idle CPU).  test_fail_alloc=1 (a
# load-time parameter, not writable at run time): every context and work
# item allocation fails, so everything is freed inline as nomem, counted
# once, and nothing is offloaded, in sync and async mode;
# test_fail_alloc=3 mixes both.  No leak either way.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

mb=64
pages=$((2 * mb * 256))		# two munmaps of $mb MiB
ncpu=$(nproc)

# --- idle_only -----------------------------------------------------------
pf_load
pf_run pftest munmap $mb 1
pf_hog_every_cpu
sleep 1
trap 'trace_off; pf_cleanup' EXIT
for idle in 1 0; do
	pf_knob idle_only $idle
	pf_snap
	if [ $idle = 1 ]; then
		pf_knob batch_pages 16
		trace_functions mmfree_call_idle_cpu || fail "cannot trace mmfree_call_idle_cpu"
		trace_start
	fi
	pf_run pftest munmap $mb 2
	if [ $idle = 1 ]; then
		trace_stop
		scans=$(trace_count mmfree_call_idle_cpu)
		trace_off
		pf_knob batch_pages 512
	fi
	pf_wait_inflight
	pf_show "$ncpu hogs, idle_only=$idle"
	busy=$(pf_delta inline_busy_pages)
	pool=$(($(pf_delta offloaded_pages) + $(pf_delta helped_pages)))
	if [ $idle = 1 ]; then
		[ "$busy" -ge $((pages * 9 / 10)) ] ||
			fail "idle_only=1 with busy CPUs: only $busy of $pages pages freed inline as busy"
		[ "$pool" -lt 1024 ] ||
			fail "idle_only=1 with busy CPUs: $pool pages went to the pool"
		items=$((busy / 16))
		# The trace counts each CPU a scan looked at: all but this one.
		looked=$((ncpu - 1 < 64 ? ncpu - 1 : 64))
		echo "idle CPU checks: $scans for $items items of 16 pages freed inline as busy, $looked CPUs a scan"
		[ "$scans" -gt 0 ] || fail "no check for an idle CPU was traced"
		[ "$scans" -le $((items * looked / 8)) ] ||
			fail "$scans checks for an idle CPU for $items items freed inline as busy: each item scanned"
	else
		[ "$pool" -ge $((pages * 9 / 10)) ] ||
			fail "idle_only=0: only $pool of $pages pages went to the pool"
		[ "$busy" -lt 1024 ] ||
			fail "idle_only=0: $busy pages still freed inline as busy"
	fi
done
pf_bg_stop

# --- a busy pool is not an idle CPU --------------------------------------
# Items in flight that no worker runs (pf_freeze_workers holds them) make
# no CPU idle: with idle_only=1 the next munmap is freed inline as busy.
# (Before, any queued item counted as an idle CPU: it went to the pool.)
pf_load pagefree_mode=async pagefree_idle_only=0
pf_freeze_workers
pf_run taskset -c 1 pftest munmap 128 1
[ "$(pf_stat inflight_pages)" -gt 0 ] ||
	fail "busy pool: nothing in flight with the workers held"
pf_knob idle_only 1
pf_snap
pf_run taskset -c 1 pftest munmap $mb 2
busy=$(pf_delta inline_busy_pages)
items=$(pf_delta work_items)
pf_show "workers held, idle_only=1"
pf_feed_workers
pf_wait_inflight
assert_eq "$items" 0 "busy pool: work items queued while no CPU was idle"
[ "$busy" -ge $((pages * 9 / 10)) ] ||
	fail "busy pool: only $busy of $pages pages freed inline as busy"

# --- test_fail_alloc -----------------------------------------------------
# A fault injection for tests, set at load only: not writable later.  It
# fails the allocation of a gather's context as well as of a work item.
pf_load
[ -e "$PARAMS/test_fail_alloc" ] || fail "no $PARAMS/test_fail_alloc"
# (test -w is true for root whatever the mode: look at the mode, and write.)
assert_eq "$(stat -c %a "$PARAMS/test_fail_alloc")" 400 "test_fail_alloc's mode"
if echo 1 >"$PARAMS/test_fail_alloc" 2>/dev/null; then
	fail "test_fail_alloc can be changed at run time"
fi
assert_eq "$(cat "$PARAMS/test_fail_alloc")" 0 "test_fail_alloc after a write"
for mode in sync async; do
	for every in 1 3; do
		pf_load pagefree_mode=$mode pagefree_idle_only=0 test_fail_alloc=$every
		pf_run pftest munmap $mb 1
		pf_baseline
		pf_snap
		pf_run pftest munmap 32 5
		pf_run pftest forkexit 32 5
		pf_wait_inflight
		pf_show "$mode, test_fail_alloc=$every"
		nomem=$(pf_delta inline_nomem_pages)
		off=$(pf_delta offloaded_pages)
		help=$(pf_delta helped_pages)
		expect=$((5 * (32 + 32) * 256))
		if [ $every = 1 ]; then
			if [ "$off" != 0 ] || [ "$(pf_delta work_items)" != 0 ]; then
				fail "$mode, every allocation failing: $off pages offloaded"
			fi
			[ "$help" = 0 ] || fail "$mode, every allocation failing: $help pages helped"
			[ "$nomem" -ge $((expect * 9 / 10)) ] ||
				fail "$mode, every allocation failing: only $nomem of $expect pages inline as nomem"
			# Counted once, though a gather's flushes and its
			# end each look at what it holds.
			[ "$nomem" -le $((expect * 11 / 10)) ] ||
				fail "$mode, every allocation failing: $nomem pages inline as nomem for $expect freed"
		else
			[ "$nomem" -gt 0 ] ||
				fail "$mode, every 3rd allocation failing: no page inline as nomem"
			[ $((off + help)) -gt 0 ] ||
				fail "$mode, every 3rd allocation failing: nothing went to the pool"
		fi
		pf_assert_no_leak "$mode, test_fail_alloc=$every"
	done
done
unload
