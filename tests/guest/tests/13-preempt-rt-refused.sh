#!/bin/sh
# needs: rt
# On a PREEMPT_RT kernel mmfree refuses to load: spinlock_t sleeps
# there, and its callbacks take pcpu_lock with preemption off.  modprobe
# fails with one dmesg line saying why, nothing is left loaded, and no
# splat (the host reads the console).  (DKMS refusing to build it is
# checked on the host: tests/run.sh.)  Runs only in the RT boot.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"

uname -v
case "$(uname -v)" in
*PREEMPT_RT*) ;;
*) fail "not a PREEMPT_RT kernel: $(uname -v)" ;;
esac
dmesg_clear
if modprobe mmfree 2>/tmp/modprobe.err; then
	fail "mmfree loaded on a PREEMPT_RT kernel"
fi
cat /tmp/modprobe.err
loaded && fail "mmfree is loaded"
[ ! -e "$MMFREE" ] || fail "$MMFREE exists"
lines=$(dmesg_new | grep 'mmfree:' | grep -v 'taints kernel\|verification failed')
echo "$lines"
assert_eq "$(echo "$lines" | grep -c .)" 1 "mmfree's dmesg lines"
assert_match "$lines" 'PREEMPT_RT kernels are not supported' "the refusal"
