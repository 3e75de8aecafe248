#!/bin/sh
# runs: once
# mmfreectl load sets the knobs it is given, and the load-time parameter
# untested_kernel (checked against the table before loading: numbers
# within range, names for a knob with names; untested_kernel used to be
# refused as an unknown knob),
# checks the options of /etc/modprobe.d the same way, refuses to load
# twice, explains a missing module and a non-root caller; unload refuses
# while the module is in use or absent.  Each failure has its documented
# exit status and leaves the module as it was.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"

unload
ctl_rc 3 unload
assert_match "$err" "not loaded" "unload when not loaded"

# Usage errors load nothing.
for bad in nosuch=1 enabled=2 percpu_min_empty_pages=0 \
	   percpu/keep_empty_pages=3 percpu_interval_ms=abc enabled= \
	   enabled =1 "enabled=1 enabled=0" pagefree_mode=1 pagefree_mode=2 \
	   pagefree_mode=Sync pagefree/mode= pagefree-mode=async \
	   pagefree_workers=0 pagefree_batch_pages=513 \
	   pagefree_max_inflight_pages=511 \
	   "pagefree_mode=sync pagefree/mode=async"; do
	# shellcheck disable=SC2086 # the last one is two arguments
	ctl_usage load $bad
	loaded && fail "load $bad loaded mmfree"
done
ctl_usage load pagefree_mode=2
assert_contains "$err" "invalid value '2' for pagefree/mode: expected one of: sync, async" \
	"load with a number for pagefree/mode"

ctl_rc 0 load enabled=0 percpu/min_empty_pages=7 percpu_interval_ms=5000 \
	pagefree_mode=async pagefree/workers=2 untested_kernel=1
loaded || fail "mmfreectl load did not load mmfree"
assert_match "$out" "^mmfree [0-9][^ ]* loaded with enabled=0 percpu_min_empty_pages=7 percpu_interval_ms=5000 pagefree_mode=async pagefree_workers=2 untested_kernel=1\$" \
	"load message"
# The load-time parameter the README offers for an untested series.
assert_eq "$(cat /sys/module/mmfree/parameters/untested_kernel)" Y \
	"module parameter untested_kernel"
assert_eq "$(knob enabled)" 0 "enabled from load"
assert_eq "$(knob percpu/min_empty_pages)" 7 "percpu/min_empty_pages from load"
assert_eq "$(knob percpu/interval_ms)" 5000 "percpu/interval_ms from load"
assert_eq "$(knob percpu/keep_empty_pages)" 4 "percpu/keep_empty_pages default"
assert_eq "$(knob percpu/enabled)" 1 "percpu/enabled default"
assert_eq "$(cat /sys/module/mmfree/parameters/percpu_min_empty_pages)" 7 \
	"module parameter percpu_min_empty_pages"
[ -d "$MMFREE/pagefree" ] || fail "pagefree unavailable (see dmesg)"
assert_eq "$(knob pagefree/mode)" async "pagefree/mode from load"
assert_eq "$(knob pagefree/workers)" 2 "pagefree/workers from load"
assert_eq "$(knob pagefree/batch_pages)" 512 "pagefree/batch_pages default"
assert_eq "$(cat /sys/module/mmfree/parameters/pagefree_mode)" async \
	"module parameter pagefree_mode"

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
# shellcheck disable=SC2217 # the open file is the point, not its data
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

# A bad value in /etc/modprobe.d: refused before loading (the kernel
# would stop at it even where the command line overrides it), with the
# allowed values and the options; exit status 1, the command line being
# fine.  Options that are not knobs are the kernel's to judge.
mkdir -p /etc/modprobe.d
modconf=/etc/modprobe.d/mmfree-test.conf
echo "options mmfree percpu_keep_empty_pages=2" >"$modconf"
dmesg_clear
ctl_rc 1 load percpu_min_empty_pages=3
loaded && fail "loaded with percpu_keep_empty_pages=2"
assert_contains "$err" "invalid value '2' for percpu_keep_empty_pages in /etc/modprobe.d: expected an integer from 4 to 65536" \
	"bad number in modprobe.d"
assert_match "$err" "modprobe.d: percpu_keep_empty_pages=2" "the options from modprobe.d"
assert_match "$err" "not loaded" "nothing loaded"
[ -z "$out" ] || fail "printed on stdout: $out"
dmesg_new | grep -q "invalid value" && fail "the kernel was asked to load it"
printf '%s\n' "options mmfree pagefree_workers=2 pagefree_mode=2" \
	"options mmfree pagefree-mode=Sync test_missing_ksym=no_such_symbol" \
	>"$modconf"
ctl_rc 1 load pagefree_mode=async
loaded && fail "loaded with pagefree_mode=2 in modprobe.d"
assert_contains "$err" "invalid value '2' for pagefree_mode in /etc/modprobe.d: expected one of: sync, async" \
	"number for pagefree_mode in modprobe.d"
assert_contains "$err" "invalid value 'Sync' for pagefree-mode in /etc/modprobe.d: expected one of: sync, async" \
	"pagefree-mode, as the kernel reads it, in modprobe.d"
echo "options mmfree pagefree_mode= " >"$modconf"
ctl_rc 1 load
loaded && fail "loaded with an empty pagefree_mode in modprobe.d"
assert_contains "$err" "invalid value '' for pagefree_mode in /etc/modprobe.d" \
	"empty pagefree_mode in modprobe.d"
printf '%s\n' "options mmfree pagefree_mode=\"async\" pagefree-workers=3" \
	"options mmfree test_missing_ksym=no_such_symbol" >"$modconf"
ctl_rc 0 load
assert_eq "$(knob pagefree/mode)" async "quoted pagefree_mode from modprobe.d"
assert_eq "$(knob pagefree/workers)" 3 "pagefree-workers from modprobe.d"
ctl_rc 0 unload
rm -f "$modconf"

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
assert_contains "$err_load" "not installed for kernel $(uname -r) (install the kernel's headers: DKMS builds it" \
	"not-installed message"
assert_eq "$rc_status" 3 "status when not installed"
assert_match "$out_status" "not installed" "status when not installed"

ctl_rc 0 load
assert_eq "$(knob percpu/min_empty_pages)" 1 "percpu/min_empty_pages default"
ctl_rc 0 unload
echo "mmfreectl load/unload: knobs set, errors explained with their exit status"
