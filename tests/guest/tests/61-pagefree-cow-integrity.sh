#!/bin/sh
# Fork/COW data integrity while the pool frees: parent and child each
# write their own third of a shared 16 MiB region (a third stays shared),
# then one side exits or unmaps and the other, after reallocating and
# overwriting as much memory as was freed, finds its pattern intact (all
# four combinations of parent/child and exit/munmap; pftest cow).  In
# sync and async mode, and in async with every gather of 256 pages or
# more (min_pages at its floor) offloaded in 16-page items.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

rounds=${PF_COW_ROUNDS:-8}

for pass in sync async async-small; do
	case $pass in
	async-small) pf_load pagefree_mode=async pagefree_min_pages=256 pagefree_batch_pages=16 pagefree_workers=8 ;;
	*) pf_load pagefree_mode=$pass ;;
	esac
	pf_snap
	pf_run pftest cow 16 "$rounds"
	pf_wait_inflight
	pf_show "$pass"
	pf_assert_pooled "$pass"
done
unload
