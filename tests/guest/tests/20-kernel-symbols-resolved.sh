#!/bin/sh
# Every kernel symbol the features need resolves on a supported kernel; a
# missing one turns off only its feature, with one line naming it.
. /mmfree/lib.sh

unload
dmesg_clear
load
log=$(dmesg_new)
echo "$log" | grep 'mmfree:'
echo "$log" | grep -q 'mmfree: pagefree: [0-9]* kernel symbols resolved' ||
	fail "pagefree symbols not all resolved"
echo "$log" | grep -q 'mmfree: percpu: [0-9]* kernel symbols resolved' ||
	fail "percpu symbols not all resolved"
echo "$log" | grep -q 'disabled' && fail "a feature was disabled"
unload

dmesg_clear
load test_missing_ksym=pcpu_lock
log=$(dmesg_new)
echo "$log" | grep 'mmfree:'
n=$(echo "$log" | grep -c 'percpu disabled: kernel symbol pcpu_lock not found')
assert_eq "$n" 1 "lines reporting the missing symbol"
assert_eq "$(echo "$log" | grep -c 'disabled')" 1 "lines reporting a disabled feature"
echo "$log" | grep -q 'mmfree: pagefree: [0-9]* kernel symbols resolved' ||
	fail "pagefree lost its symbols when percpu missed one"
assert_eq "$(knob enabled)" 1 "enabled with one feature off"
unload
