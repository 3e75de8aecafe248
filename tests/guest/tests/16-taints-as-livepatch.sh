#!/bin/sh
# While mmfree redirects kernel functions (pagefree attached) it taints
# the kernel and itself TAINT_LIVEPATCH, as livepatch does: 'K' in
# /sys/module/mmfree/taint and bit 15 of kernel.tainted; with pagefree
# off from the load (percpu only observes), no 'K'.  Run as
# untested_kernel=1 asks on a series taken for untested, it taints
# TAINT_CRAP ('C').  (mmfree used to taint nothing of its own.)
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"

taint() {
	cat /sys/module/mmfree/taint
}

unload
load pagefree_enabled=0
echo "pagefree off: module taint '$(taint)'"
case "$(taint)" in
*K*) fail "'K' with no function redirected" ;;
esac
knob_write pagefree/enabled 1 || fail "enabling pagefree"
echo "pagefree on: module taint '$(taint)', kernel.tainted $(cat /proc/sys/kernel/tainted)"
case "$(taint)" in
*K*) ;;
*) fail "no 'K' while pagefree redirects kernel functions" ;;
esac
[ $(($(cat /proc/sys/kernel/tainted) >> 15 & 1)) = 1 ] || fail "kernel.tainted lacks TAINT_LIVEPATCH (bit 15)"
case "$(taint)" in
*C*) fail "'C' on a tested kernel" ;;
esac
unload

load test_untested_kernel=1 untested_kernel=1
echo "untested_kernel=1: module taint '$(taint)'"
case "$(taint)" in
*C*) ;;
*) fail "no 'C' when run as untested_kernel=1 asks" ;;
esac
unload
