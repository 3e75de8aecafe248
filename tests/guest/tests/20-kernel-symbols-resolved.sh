#!/bin/sh
# Every kernel symbol and struct field the features need resolves on a
# supported kernel; a missing one turns off only its feature, with one
# dmesg line naming it, and the module still loads.
. /mmfree/lib.sh

unload
dmesg_clear
load
log=$(dmesg_new)
echo "$log" | grep 'mmfree:'
echo "$log" | grep -q 'mmfree: percpu: [0-9]* units, chunk layout from BTF' ||
	fail "percpu did not come up"
echo "$log" | grep -q 'disabled' && fail "a feature was disabled"
[ -d "$MMFREE/percpu" ] || fail "percpu/ missing"
unload

for sym in pcpu_lock __start_BTF pcpu_balance_workfn; do
	dmesg_clear
	load test_missing_ksym=$sym
	log=$(dmesg_new)
	echo "$log" | grep 'mmfree:'
	n=$(echo "$log" | grep -c "percpu disabled: kernel symbol $sym not found")
	assert_eq "$n" 1 "lines reporting the missing $sym"
	assert_eq "$(echo "$log" | grep -c 'disabled')" 1 \
		"lines reporting a disabled feature"
	[ -d "$MMFREE/percpu" ] && fail "percpu/ present without $sym"
	assert_eq "$(knob enabled)" 1 "enabled with percpu off"
	knob_write enabled 0 || fail "master switch with percpu off"
	unload
done
