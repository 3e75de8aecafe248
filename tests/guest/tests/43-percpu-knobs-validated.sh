#!/bin/sh
# runs: once
# The percpu knobs take module parameters and reject bad writes with
# EINVAL, keeping their value; interval_ms takes 0 (off) or its floor and
# above, nothing in between, as a write and as a parameter; reclaim
# refuses anything but 1, and refuses with EPERM while the feature is off.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"

unload
load percpu_min_empty_pages=2 percpu_keep_empty_pages=8 percpu_interval_ms=0
assert_eq "$(knob percpu/min_empty_pages)" 2 "min_empty_pages from modprobe"
assert_eq "$(knob percpu/keep_empty_pages)" 8 "keep_empty_pages from modprobe"
# The floor as modinfo states it: "(0 or FLOOR-MAX, default 0)".
floor=$(modinfo -F parm mmfree |
	sed -n 's/^percpu_interval_ms:.*(0 or \([0-9]*\)-3600000, default 0).*/\1/p')
[ "${floor:-0}" -gt 1 ] || fail "no floor in percpu_interval_ms's description"
echo "percpu/interval_ms: 0 or $floor-3600000"
knob_write percpu/interval_ms "$floor" || fail "interval_ms $floor"
knob_write percpu/interval_ms 0 || fail "interval_ms 0 (off)"
for k in enabled:2 min_empty_pages:0 min_empty_pages:65537 \
	 keep_empty_pages:3 keep_empty_pages:abc interval_ms:3600001 \
	 interval_ms:-1 interval_ms:1 "interval_ms:$((floor - 1))"; do
	name=${k%%:*}
	before=$(knob "percpu/$name")
	knob_write "percpu/$name" "${k#*:}" && fail "percpu/$name accepted ${k#*:}"
	assert_eq "$(knob "percpu/$name")" "$before" "percpu/$name after ${k#*:}"
done
for bad in 0 2 abc ''; do
	if err=$(knob_write percpu/reclaim "$bad"); then
		[ -z "$bad" ] || fail "reclaim accepted '$bad'"
	fi
done
scans=$(pcpu_stat scans)
knob_write percpu/reclaim 1 || fail "reclaim"
[ "$(pcpu_stat scans)" -gt "$scans" ] || fail "reclaim did not scan"
knob_write percpu/enabled 0 || fail "disabling percpu"
err=$(knob_write percpu/reclaim 1) && fail "reclaim while disabled"
case "$err" in *"not permitted"*) ;; *) fail "expected EPERM, got $err" ;; esac
knob_write percpu/enabled 1 || fail "enabling percpu"
knob_write enabled 0 || fail "master off"
knob_write percpu/reclaim 1 && fail "reclaim with the master switch off"
knob_write enabled 1 || fail "master on"
knob_write percpu/reclaim 1 || fail "reclaim after re-enabling"
unload
unload
dmesg_clear
modprobe mmfree percpu_keep_empty_pages=2 && fail "keep_empty_pages=2 accepted"
dmesg_new | grep "invalid value '2' for parameter percpu_keep_empty_pages" ||
	fail "no message for percpu_keep_empty_pages=2"
modprobe mmfree percpu_interval_ms=1 && fail "interval_ms=1 accepted"
dmesg_new | grep "invalid value '1' for parameter percpu_interval_ms: expected 0 (off) or an integer from $floor to 3600000" ||
	fail "no message for percpu_interval_ms=1"
echo "percpu knobs validated"
