#!/bin/sh
# A feature that cannot attach while mmfree loads stays off, and the rest
# loads.  A test module (tests/kmod) claims tlb_finish_mmu with an
# IPMODIFY ftrace_ops, as a livepatch of it would: modprobe mmfree
# succeeds, percpu runs (a reclaim write makes its hook scan),
# pagefree/enabled reads 0, dmesg names the functions and then says
# that pagefree is disabled (one line each), and writing 1 fails and
# changes nothing.  Once the other user is gone, writing 1
# attaches pagefree and the pool takes gathers.  (modprobe used to fail
# as a whole, percpu included.)
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

HOLDER=mmfree_test_ipmodify
modinfo $HOLDER >/dev/null 2>&1 ||
	fail "no $HOLDER module in this guest (tests/run.sh builds it with scripts/build-module.sh --helper)"
holder_cleanup() {
	rmmod $HOLDER 2>/dev/null
	pf_cleanup
}
trap holder_cleanup EXIT

unload
modprobe $HOLDER func=tlb_finish_mmu || fail "modprobe $HOLDER"
dmesg_clear
load pagefree_mode=async pagefree_idle_only=0
log=$(dmesg_new | grep 'mmfree:')
echo "$log"
assert_eq "$(knob pagefree/enabled)" 0 "pagefree/enabled after the load"
assert_eq "$(echo "$log" | grep -c 'cannot attach to .* (-16)')" 1 \
	"dmesg lines naming the functions pagefree could not attach to"
assert_eq "$(echo "$log" | grep -c 'pagefree disabled: cannot attach')" 1 \
	"dmesg lines saying that pagefree stayed off"
assert_eq "$(echo "$log" | grep -c 'percpu disabled')" 0 "lines saying percpu is off"
assert_eq "$(knob percpu/enabled)" 1 "percpu/enabled after the load"
scans=$(pcpu_stat scans)
knob_write percpu/reclaim 1 || fail "percpu/reclaim with pagefree off"
[ "$(pcpu_stat scans)" -gt "$scans" ] || fail "percpu's hook did not scan on a reclaim"

if err=$(knob_write pagefree/enabled 1); then
	fail "pagefree enabled while $HOLDER claims tlb_finish_mmu"
fi
echo "enabling pagefree under $HOLDER: $err"
assert_eq "$(knob pagefree/enabled)" 0 "pagefree/enabled after the refused write"
assert_eq "$(knob percpu/enabled)" 1 "percpu/enabled after the refused write"

rmmod $HOLDER || fail "rmmod $HOLDER"
[ "$(thp_mode)" = never ] || thp_set never
pf_knob enabled 1
pf_snap
pf_run pftest munmap 64 2
pf_wait_inflight
pf_show "once $HOLDER is gone"
pf_assert_pooled "once $HOLDER is gone"
unload
