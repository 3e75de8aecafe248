#!/bin/sh
# A hook that cannot be detached (ftrace refusing, as after an anomaly;
# here the load-time fault injection test_fail_detach=1) stays attached
# and keeps the module loaded: disabling pagefree fails and changes
# nothing, one dmesg line says why, the module is pinned (refcnt 1) and
# rmmod refuses; the next disable detaches it and lets the module go.
# Failing during the unload itself, the module retries (one dmesg line)
# and is gone after it.  (A failed detach used to be ignored: the
# module's text could go with a hook still pointing into it.)
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"

refcnt() {
	cat /sys/module/mmfree/refcnt
}

unload
load test_fail_detach=1
[ -d "$MMFREE/pagefree" ] || fail "pagefree unavailable"
assert_eq "$(refcnt)" 0 "references after load"
dmesg_clear
if knob_write pagefree/enabled 0; then
	fail "disabling pagefree succeeded with a hook that could not be detached"
fi
assert_eq "$(knob pagefree/enabled)" 1 "pagefree/enabled after the failed disable"
msg=$(dmesg_new | grep 'cannot detach from')
echo "dmesg: $msg"
[ "$(echo "$msg" | grep -c .)" = 1 ] || fail "expected one 'cannot detach' line"
assert_match "$msg" 'mmfree stays loaded' "the failed detach's line"
assert_eq "$(refcnt)" 1 "references with a hook left attached"
if rmmod mmfree 2>/dev/null; then
	fail "rmmod removed mmfree with a hook attached"
fi
loaded || fail "mmfree is gone"
# The fault was one detach: the next one works and lets go.
knob_write pagefree/enabled 0 || fail "disabling pagefree again"
assert_eq "$(refcnt)" 0 "references once detached"
unload

# During the unload: one retry, then gone.
load test_fail_detach=1
dmesg_clear
rmmod mmfree || fail "rmmod with one failing detach"
loaded && fail "mmfree still loaded after rmmod"
dmesg_new | grep 'cannot detach from'
assert_match "$(dmesg_new)" 'cannot detach from .*retrying' "the unload's failed detach"
