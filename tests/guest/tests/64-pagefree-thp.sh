#!/bin/sh
# Transparent huge pages while the pool frees: with THP "always" (only if
# AnonHugePages really rises; else that half is skipped) and "never", in
# sync and async mode: fork/COW integrity (pftest cow), munmaps in odd
# 1 MiB + 4 KiB pieces that split huge pages with the rest verified
# (pftest split), and munmap and fork/exit cycles; afterwards MemFree and
# AnonHugePages are back where they were.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

ran=0
for thp in always never; do
	for mode in sync async; do
		pf_load pagefree_mode=$mode
		thp_set $thp
		if [ $thp = always ]; then
			# pftest thp exits 3 when no huge page backed it.
			pftest thp 16
			rc=$?
			if [ $rc = 3 ]; then
				echo "THP always: no AnonHugePages appeared, skipping this half"
				break
			fi
			[ $rc = 0 ] || fail "pftest thp failed (exit $rc)"
		fi
		pf_run pftest munmap 16 1
		pf_baseline
		ahp=$(meminfo_kb AnonHugePages)
		pf_snap
		pf_run pftest cow 16 4
		pf_run pftest split 16 3
		pf_run pftest munmap 32 5
		pf_run pftest forkexit 32 5
		pf_wait_inflight
		pf_show "THP $thp, $mode"
		pf_assert_pooled "THP $thp, $mode"
		pf_assert_no_leak "THP $thp, $mode"
		assert_kb_near AnonHugePages "$ahp" 0
		ran=$((ran + 1))
	done
done
unload
[ $ran -gt 0 ] || skip "nothing ran"
