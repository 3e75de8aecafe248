#!/bin/sh
# needs: numa=2
# A gather finished under a spinlock: migrating a MAP_SHARED hugetlb page
# makes try_to_migrate_one() run tlb_gather_mmu_vma() and
# tlb_finish_mmu() under the page table lock (the hugetlb PMD unshare
# that Debian's 6.1 and 6.12 carry).  mmfree redirects every
# tlb_finish_mmu(); with min_pages at its floor (256), in sync and async
# mode, it must neither open a context nor wait there (such a gather
# holds no page: the floor alone keeps it out of the pool, and
# mmfree_gather_try_open() refuses where the kernel may not sleep, for a
# gather that would hold pages): 32 MiB moved
# to node 1 and back 5 times while another mapping holds the pages, the
# data intact, the gathers seen (function trace), no "scheduling while
# atomic" or other splat.  No task can start a gather inside another on
# these kernels, so this shows the path is safe rather than a failure
# that used to happen.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

NODES=/sys/devices/system/node
mb=32
[ -d $T ] || skip "no tracefs"

hp() {	# node count
	echo "$2" >"$NODES/node$1/hugepages/hugepages-2048kB/nr_hugepages"
	[ "$(cat "$NODES/node$1/hugepages/hugepages-2048kB/nr_hugepages")" = "$2" ] ||
		skip "node $1: only $(cat "$NODES/node$1/hugepages/hugepages-2048kB/nr_hugepages") of $2 huge pages"
}

mig_cleanup() {
	trace_off
	pf_cleanup
	hp 0 0
	hp 1 0
}
trap mig_cleanup EXIT

settle
hp 0 $((mb / 2))
hp 1 $((mb / 2))
for mode in stock sync async; do
	if [ $mode = stock ]; then
		unload
	else
		pf_load pagefree_mode=$mode pagefree_min_pages=256 pagefree_idle_only=0
	fi
	trace_functions tlb_gather_mmu_vma || skip "cannot trace tlb_gather_mmu_vma"
	trace_start
	out=$(pftest hugemigrate $mb 5)
	rc=$?
	trace_stop
	gathers=$(trace_count tlb_gather_mmu_vma)
	trace_off
	echo "$mode: $out; $gathers gathers started under the page table lock"
	[ $rc = 0 ] || fail "$mode: hugetlb migration lost data (exit $rc)"
	[ "$gathers" -gt 0 ] || fail "$mode: no gather under the page table lock: the path was not exercised"
done
pf_wait_inflight
unload
