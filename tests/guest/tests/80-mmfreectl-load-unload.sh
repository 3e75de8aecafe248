#!/bin/sh
# mmfreectl load sets the knobs it is given (checked against the table
# before loading), refuses to load twice, explains a kernel-refused
# parameter, a missing module and a non-root caller; unload refuses while
# the module is in use or absent.  Each failure has its documented exit
# status and leaves the module as it was.
. /mmfree/lib.sh

unload
ctl_rc 3 unload
assert_match "$err" "not loaded" "unload when not loaded"

# Usage errors load nothing.
for bad in nosuch=1 enabled=2 percpu_min_empty_pages=0 \
	   percpu/keep_empty_pages=3 percpu_interval_ms=abc enabled= \
	   enabled =1 "enabled=1 enabled=0"; do
	# shellcheck disable=SC2086 # the last one is two arguments
	ctl_usage load $bad
	loaded && fail "load $bad loaded mmfree"
done

ctl_rc 0 load enabled=0 percpu/min_empty_pages=7 percpu_interval_ms=5000
loaded || fail "mmfreectl load did not load mmfree"
assert_match "$out" "^mmfree [0-9][^ ]* loaded" "load message"
assert_eq "$(knob enabled)" 0 "enabled from load"
assert_eq "$(knob percpu/min_empty_pages)" 7 "percpu/min_empty_pages from load"
assert_eq "$(knob percpu/interval_ms)" 5000 "percpu/interval_ms from load"
assert_eq "$(knob percpu/keep_empty_pages)" 4 "percpu/keep_empty_pages default"
assert_eq "$(knob percpu/enabled)" 1 "percpu/enabled default"
assert_eq "$(cat /sys/module/mmfree/parameters/percpu_min_empty_pages)" 7 \
	"module parameter percpu_min_empty_pages"

ctl_rc 1 load enabled=1
assert_match "$err" "already loaded" "second load"
assert_eq "$(knob enabled)" 0 "enabled after a refused second load"

# Not root: refused by the kernel, said so.
nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}
out=$(nobody mmfreectl unload 2>&1)
rc=$?
echo "nobody: mmfreectl unload (exit $rc): $out"
assert_eq "$rc" 1 "non-root unload exit status"
assert_match "$out" "not permitted|denied" "non-root unload message"
loaded || fail "a non-root unload removed mmfree"

# In use: an open debugfs file holds a reference to the module.
sleep 60 </sys/kernel/debug/mmfree/percpu_accounting &
holder=$!
i=0
while [ "$(cat /sys/module/mmfree/refcnt)" = 0 ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ "$(cat /sys/module/mmfree/refcnt)" -gt 0 ] || fail "no reference held"
ctl_rc 1 unload
assert_match "$err" "in use" "unload while in use"
loaded || fail "unloaded while in use"
kill $holder
wait $holder 2>/dev/null

ctl_rc 0 unload
assert_eq "$out" "mmfree unloaded" "unload message"
loaded && fail "still loaded after mmfreectl unload"
[ -d "$MMFREE" ] && fail "$MMFREE still present"
ctl_rc 3 unload

out=$(nobody mmfreectl load 2>&1)
rc=$?
echo "nobody: mmfreectl load (exit $rc): $out"
assert_eq "$rc" 1 "non-root load exit status"
assert_match "$out" "not permitted.*needs root" "non-root load message"
loaded && fail "a non-root load loaded mmfree"

# A value the kernel refuses, from /etc/modprobe.d (mmfreectl cannot
# check those): the kernel's own message, the options, a pointer to dmesg.
mkdir -p /etc/modprobe.d
echo "options mmfree percpu_keep_empty_pages=2" >/etc/modprobe.d/mmfree-test.conf
ctl_rc 1 load percpu_min_empty_pages=3
rm -f /etc/modprobe.d/mmfree-test.conf
loaded && fail "loaded with percpu_keep_empty_pages=2"
assert_match "$err" "refused a parameter" "kernel-refused parameter"
assert_match "$err" "modprobe.d: percpu_keep_empty_pages=2" "the options from modprobe.d"
assert_match "$err" "command line: percpu_min_empty_pages=3" "the options given"
assert_match "$err" "invalid value '2' for parameter percpu_keep_empty_pages" \
	"the kernel's message"
assert_match "$err" "dmesg" "pointer to dmesg"

# Not installed for this kernel: the module file gone from the index.
ko=$(modinfo -n mmfree) || fail "modinfo -n mmfree"
mv "$ko" /tmp/mmfree.ko.moved && depmod
ctl load
rc_load=$rc err_load=$err
ctl status
rc_status=$rc out_status=$out
mv /tmp/mmfree.ko.moved "$ko" && depmod
[ "$(modinfo -n mmfree)" = "$ko" ] || fail "module not restored"
assert_eq "$rc_load" 1 "load when not installed"
assert_contains "$err_load" "not installed for kernel $(uname -r): run make dkms-install" \
	"not-installed message"
assert_eq "$rc_status" 3 "status when not installed"
assert_match "$out_status" "not installed" "status when not installed"

ctl_rc 0 load
assert_eq "$(knob percpu/min_empty_pages)" 1 "percpu/min_empty_pages default"
ctl_rc 0 unload
echo "mmfreectl load/unload: knobs set, errors explained with their exit status"
