#!/bin/sh
# Hugetlb memory is back when exit or munmap returns, in every mode: the
# hugetlb pool (and its reservations) only recovers when the pages are
# freed, and a failing hugetlb reservation never reaches the OOM killer,
# so mmfree frees hugetlb pages inline.  With nr_hugepages sized for one
# 64 MiB mapping, 3 rounds of: a child maps and touches it and exits, the
# parent maps the same size with MAP_POPULATE the moment waitpid returns;
# the parent maps, touches and unmaps it and HugePages_Free is back at
# once; a SysV SHM_HUGETLB segment the same.  Stock, then sync and async
# with min_pages at its floor (256) and the pool's workers starved, so
# that anything left to them would still be in flight.  (Async used to
# fail: ENOMEM on the new mapping.)
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

HP=/proc/sys/vm/nr_hugepages
mb=64
rounds=3
[ -w $HP ] || skip "no $HP"
[ "$(meminfo_kb Hugepagesize)" = 2048 ] || skip "huge pages are not 2 MiB"

hp_cleanup() {
	pf_cleanup
	echo 0 >$HP
}
trap hp_cleanup EXIT

settle
echo $((mb / 2)) >$HP
[ "$(cat $HP)" = $((mb / 2)) ] || skip "only $(cat $HP) of $((mb / 2)) huge pages could be reserved"

unload
pftest hugetlb $mb $rounds || fail "stock: hugetlb memory not back at once"
for mode in async sync; do
	pf_load pagefree_mode=$mode pagefree_min_pages=256 pagefree_idle_only=0
	pf_snap
	pf_starve_workers
	out=$(taskset -c 1 pftest hugetlb $mb $rounds 2>&1)
	rc=$?
	pf_feed_workers
	echo "$out" | sed "s/^/$mode: /"
	pf_wait_inflight
	pf_show "$mode"
	[ $rc = 0 ] || fail "$mode: hugetlb memory not back when exit or munmap returned"
	huge=$(pf_delta inline_hugetlb_pages)
	# Each round frees the mapping at least 3 times (exit, munmap, shm).
	[ "$huge" -ge $((rounds * 3 * mb * 256)) ] ||
		fail "$mode: only $huge hugetlb pages counted as freed inline"
	assert_eq "$(meminfo_kb HugePages_Free)" "$(meminfo_kb HugePages_Total)" \
		"$mode: HugePages_Free at the end"
done
unload
