#!/bin/sh
# ftrace cannot be switched off under pagefree: its hooks and gates are
# FTRACE_OPS_FL_PERMANENT, as livepatch's are.  While async 512 MiB
# munmaps run, writing kernel.ftrace_enabled=0 is refused (EBUSY) five
# times and ftrace stays on; no page is lost.  percpu's hooks only
# observe but are permanent too: with pagefree off and percpu on, the
# write is still refused (it used to be accepted, and percpu went on
# saying it was on while ftrace called none of its hooks).  With both
# off, ftrace can be switched off, and enabling either then fails with
# one dmesg line saying why, leaving its enabled file at 0; once ftrace
# is back on, enabling works and the pool takes gathers again.  (Before
# the ops were permanent the writes succeeded; on 6.1 the third write
# hung the guest.)  Loading with ftrace off, or with every kprobe
# disarmed (debugfs kprobes/enabled 0), is refused, with one line saying
# that symbols cannot be resolved and naming the switch that is off, and
# none blaming a symbol; once both are back on, the module loads.
# Each feature's hooks, and pagefree's gates, share one ftrace_ops (one
# trampoline in enabled_functions), so that disabling pagefree waits for
# RCU-tasks 3 times, not once per function (before: 16 ops, 14 waits,
# 2 s under TCG).
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

KPROBES=/sys/kernel/debug/kprobes/enabled
kprobes_arm() {
	echo 1 >$KPROBES
}

# The later tests need both: put them back however this one ends.
restore_ftrace() {
	ftrace_write 1 >/dev/null
	kprobes_arm 2>/dev/null
	pf_cleanup
}

# With a switch the symbol lookup's kretprobe needs turned off ($1, as
# the messages name it), a load is refused with one line matching $3
# and none blaming a feature or a symbol; $2 turns the switch back on.
assert_load_refused() {
	dmesg_clear
	if modprobe mmfree 2>/dev/null; then
		$2 >/dev/null
		dmesg_new | grep 'mmfree:'
		fail "modprobe mmfree succeeded with $1"
	fi
	$2 || fail "$1: turning it back on"
	log=$(dmesg_new | grep 'mmfree:')
	echo "$log"
	assert_eq "$(echo "$log" | grep -c "cannot resolve kernel symbols: .*$3")" 1 \
		"lines saying that symbols cannot be resolved with $1"
	assert_eq "$(echo "$log" | grep -c 'disabled\|not found')" 0 \
		"lines blaming a feature or a symbol with $1"
	if loaded; then
		fail "mmfree loaded after the refused modprobe with $1"
	fi
}
trap restore_ftrace EXIT
trap 'exit 1' TERM

pf_load pagefree_mode=async pagefree_idle_only=0
# The trampolines of the functions whose callback is mmfree's.
ours='tramp: 0x[0-9a-f]+ \([a-z_]+\+0x[0-9a-f]+/0x[0-9a-f]+ \[mmfree\]\)'
ops=$(grep -E "$ours" $T/enabled_functions |
	sed -n 's/.*tramp: \(0x[0-9a-f]*\) .*/\1/p' | sort -u | wc -l)
funcs=$(grep -cE "$ours" $T/enabled_functions)
echo "$funcs functions hooked through $ops ftrace_ops"
[ "$funcs" -ge 10 ] || fail "only $funcs functions hooked: the check proves nothing"
assert_eq "$ops" 3 "ftrace_ops (percpu's hooks, pagefree's hooks and its gates)"
trace_functions synchronize_rcu_tasks || fail "tracing synchronize_rcu_tasks"
trace_start
pf_knob enabled 0
waits=$(trace_count synchronize_rcu_tasks)
trace_off
echo "RCU-tasks waits disabling pagefree: $waits"
# Two unregisters, and pagefree's own wait for tasks it redirected.
[ "$waits" -le 3 ] || fail "disabling pagefree waited for RCU-tasks $waits times"
pf_knob enabled 1
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
assert_eq "$(knob percpu/enabled)" 1 "percpu/enabled"
if err=$(ftrace_write 0); then
	fail "kernel.ftrace_enabled=0 accepted while percpu is attached"
fi
echo "with pagefree off and percpu on, kernel.ftrace_enabled=0 refused: $err"
assert_eq "$(cat $SYSCTL)" 1 "kernel.ftrace_enabled after the refused write"
knob_write percpu/enabled 0 || fail "disabling percpu"
err=$(ftrace_write 0) || fail "kernel.ftrace_enabled=0 refused with pagefree and percpu off: $err"
for feature in pagefree percpu; do
	dmesg_clear
	if err=$(knob_write $feature/enabled 1); then
		fail "$feature enabled while ftrace is off"
	fi
	echo "enabling $feature with ftrace off: $err"
	assert_eq "$(knob $feature/enabled)" 0 "$feature/enabled after the refused write"
	log=$(dmesg_new | grep 'mmfree:')
	echo "$log"
	assert_eq "$(echo "$log" | grep -c 'ftrace is switched off')" 1 \
		"dmesg lines saying that ftrace is off"
done
ftrace_write 1 || fail "kernel.ftrace_enabled=1"
knob_write percpu/enabled 1 || fail "enabling percpu once ftrace is back"
pf_knob enabled 1
pf_snap
pf_run pftest munmap 64 2
pf_wait_inflight
pf_show "after ftrace came back"
pf_assert_pooled "after ftrace came back"

# Loading with ftrace off is refused with one line that says why: the
# symbol lookup's kretprobe rides on ftrace and never fires.  (It used
# to load with both features off, each "kernel symbol __start_BTF not
# found".)
unload
ftrace_write 0 || fail "kernel.ftrace_enabled=0 refused with mmfree unloaded"
assert_load_refused "ftrace off" "ftrace_write 1" kernel.ftrace_enabled

# With kprobes disarmed (debugfs kprobes/enabled 0) the lookup's
# kretprobe is registered but never fires either: the line names that
# switch too.  (It used to name only ftrace, which was on.)
[ -w $KPROBES ] || fail "no $KPROBES"
echo 0 >$KPROBES || fail "disarming kprobes"
assert_load_refused "kprobes disarmed" kprobes_arm kprobes/enabled
load
