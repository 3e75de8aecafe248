#!/bin/sh
# A memfd can be sealed right after its mapping goes, in every mode: a
# process writes a sealable memfd through a shared mapping, unmaps it
# (or exits), and F_SEAL_WRITE at once must succeed, as on stock.
# Sealing waits while a page keeps a reference beyond the page cache's,
# as a page in flight would (memfd_wait_for_pins(): it drains every
# CPU's LRU batches, then fails with EBUSY after about 150 ms): in async
# mode only anonymous pages may stay in flight.  The workers are frozen
# meanwhile (a SCHED_FIFO hog on CPU 0), so a page left to them stays
# in flight, and the drain waits for CPU 0: the seals must be done
# within 8 s while the workers are still frozen (longer is an RCU
# stall).  An anonymous munmap right after must still leave its pages
# in flight in async mode.
# (Async used to leave the memfd's pages in flight: the seal then waited
# for the hog to go.)  Last, a private file mapping written every other
# page: its gather's anonymous and file pages alternate, and must not
# make an item of each page.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

MB=32
unload
out=$(taskset -c 1 pftest memfdseal $MB 2) || fail "stock: $out"
echo "stock: $(echo "$out" | tr '\n' ';')"
for mode in sync async; do
	# A shared file's dirty pages are flushed a page table (512
	# pages) at a time (delay_rmap, 6.1 to 7.2): min_pages at its floor.
	pf_load pagefree_mode=$mode pagefree_idle_only=0 pagefree_min_pages=256
	pf_snap
	pf_freeze_workers
	taskset -c 1 pftest memfdseal $MB 2 >/tmp/seal.out 2>&1 &
	seal=$!
	i=0
	while kill -0 $seal 2>/dev/null && [ $i -lt 80 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	late=
	kill -0 $seal 2>/dev/null && late=1
	anon=
	if [ $mode = async ] && [ -z "$late" ]; then
		taskset -c 1 pftest munmap $MB 1 >/dev/null
		anon=$(pf_stat inflight_pages)
	fi
	pf_feed_workers
	wait $seal
	rc=$?
	echo "$mode: $(tr '\n' ';' </tmp/seal.out)"
	[ -z "$late" ] ||
		fail "$mode: the seals were still waiting after 8 s, for the frozen workers"
	pf_wait_inflight
	pf_show "$mode"
	[ $rc = 0 ] || fail "$mode: sealing right after the unmap failed"
	pf_assert_pooled "$mode"
	if [ $mode = async ]; then
		echo "async: $anon pages of an anonymous munmap in flight"
		[ "$anon" -ge $((MB * 256 / 2)) ] ||
			fail "async: an anonymous munmap left only $anon pages in flight"
	fi
done

# Anonymous and file pages alternating in one gather (a private file
# mapping written every other page) make items of batch_pages, not one
# of each page: the run is not split, and waited for as a whole.
# (b8e6552 split the run at every change: an item of each page.)
pf_load pagefree_mode=async pagefree_min_pages=256
pf_snap
out=$(pftest privfile /tmp/pf-private.dat $MB) || fail "privfile: $out"
pf_wait_inflight
pf_show "async, private file written every other page"
items=$(pf_delta work_items)
echo "$out; $items work items"
[ "$items" -le $((MB * 256 / 64)) ] ||
	fail "async: $items work items for $((MB * 256)) pages of a private file mapping"
unload
