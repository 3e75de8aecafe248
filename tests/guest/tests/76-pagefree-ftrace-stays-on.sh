#!/bin/sh
# ftrace cannot be switched off under pagefree: its hooks and gates are
# FTRACE_OPS_FL_PERMANENT, as livepatch's are.  While async 512 MiB
# munmaps run, writing kernel.ftrace_enabled=0 is refused (EBUSY) five
# times and ftrace stays on; no page is lost.  With pagefree off, ftrace
# can be switched off, and enabling pagefree then fails with one dmesg
# line saying why, leaving pagefree/enabled at 0; once ftrace is back on,
# enabling works and the pool takes gathers again.  (Before the ops were
# permanent the writes succeeded; on 6.1 the third write hung the guest.)
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

SYSCTL=/proc/sys/kernel/ftrace_enabled
[ -w $SYSCTL ] || skip "no $SYSCTL"
assert_eq "$(cat $SYSCTL)" 1 "kernel.ftrace_enabled at the start"

# Write kernel.ftrace_enabled; print the error and fail as the write did.
ftrace_write() {
	{ /usr/bin/printf '%s' "$1" >$SYSCTL; } 2>&1
}

restore_ftrace() {
	ftrace_write 1 >/dev/null
	pf_cleanup
}
trap restore_ftrace EXIT

pf_load pagefree_mode=async pagefree_idle_only=0
pf_run pftest munmap 64 1
pf_baseline
pf_snap
pf_bg sh -c 'while pftest munmap 512 1; do :; done'
sleep 1
i=1
while [ $i -le 5 ]; do
	if err=$(ftrace_write 0); then
		fail "round $i: kernel.ftrace_enabled=0 accepted while pagefree is attached"
	fi
	echo "round $i: kernel.ftrace_enabled=0 refused: $err"
	assert_eq "$(cat $SYSCTL)" 1 "kernel.ftrace_enabled after the refused write"
	ftrace_write 1 || fail "round $i: kernel.ftrace_enabled=1 refused"
	sleep 1
	i=$((i + 1))
done
pf_bg_stop
pf_show "async munmaps of 512 MiB during the writes"
pf_assert_pooled "async munmaps during the writes"
pf_assert_no_leak "after the writes"

pf_knob enabled 0
err=$(ftrace_write 0) || fail "kernel.ftrace_enabled=0 refused with pagefree off: $err"
dmesg_clear
if err=$(knob_write pagefree/enabled 1); then
	fail "pagefree enabled while ftrace is off"
fi
echo "enabling pagefree with ftrace off: $err"
assert_eq "$(knob pagefree/enabled)" 0 "pagefree/enabled after the refused write"
log=$(dmesg_new | grep 'mmfree:')
echo "$log"
assert_eq "$(echo "$log" | grep -c 'ftrace is switched off')" 1 \
	"dmesg lines saying that ftrace is off"
ftrace_write 1 || fail "kernel.ftrace_enabled=1"
pf_knob enabled 1
pf_snap
pf_run pftest munmap 64 2
pf_wait_inflight
pf_show "after ftrace came back"
pf_assert_pooled "after ftrace came back"
unload
