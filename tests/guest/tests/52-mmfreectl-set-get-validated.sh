#!/bin/sh
# runs: once
# mmfreectl get/set round-trip every knob, by path and by parameter name;
# an unknown key, an out-of-range or non-numeric value, or for a knob with
# names anything but one of its names, is exit status 2 with a message and
# changes nothing, as sysfs refuses it with EINVAL; enable/disable flip
# the switches; percpu reclaim runs a scan, and fails while the feature is
# off.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"

unload
ctl_rc 3 get enabled
ctl_rc 3 set enabled 0
ctl_usage set enabled 2		# usage errors come first, loaded or not
ctl_usage set pagefree/mode 2
ctl_rc 3 set pagefree/mode async
load
[ -d "$MMFREE/pagefree" ] || fail "pagefree unavailable (see dmesg)"

# Every numeric knob: "path value-to-set out-of-range..."; a knob missing
# here or below (the knobs with names) fails the count after them.
knobs='enabled 0 2
percpu/enabled 0 2
percpu/min_empty_pages 7 0 65537
percpu/keep_empty_pages 9 3 65537
percpu/interval_ms 1234 1 99 3600001 4294967296
pagefree/enabled 0 2
pagefree/workers 2 0 513
pagefree/batch_pages 16 15 513
pagefree/min_pages 4096 0 255 1073741825 4294967296
pagefree/idle_only 0 2
pagefree/max_inflight_pages 4096 511 1073741825'

n=0
echo "$knobs" | {
	while read -r k v bad; do
		n=$((n + 1))
		ctl_rc 0 get "$k"
		old=$out
		assert_eq "$old" "$(knob "$k")" "get $k"
		ctl_rc 0 set "$k" "$v"
		assert_eq "$out" "$k: $old -> $v" "set $k message"
		assert_eq "$(knob "$k")" "$v" "$k after set"
		ctl_rc 0 get "$k"
		assert_eq "$out" "$v" "get $k after set"
		param=$(echo "$k" | tr / _)
		ctl_rc 0 set "$param" "$old"
		assert_eq "$(knob "$k")" "$old" "$k after set by parameter name"
		ctl_rc 0 get "$param"
		assert_eq "$out" "$old" "get $param"
		for b in $bad -1 abc 0x1 1.0 +1 "" " 1" "1 " 1e3 \
			 99999999999999999999; do
			ctl_usage set "$k" "$b"
			# 0 turns interval_ms off: no other value below its floor.
			exp="an integer from"
			[ "$k" != percpu/interval_ms ] || exp="0 (off) or $exp"
			assert_contains "$err" "invalid value '$b' for $k: expected $exp" \
				"set $k '$b' message"
			assert_eq "$(knob "$k")" "$old" "$k after set '$b'"
		done
	done
	assert_eq "$n" 11 "numeric knobs tested"
} || exit 1

# pagefree/mode takes its names only: not its index, not another case,
# nothing around the name (sysfs alone takes one trailing newline).
nl='
'
ctl_rc 0 get pagefree/mode
assert_eq "$out" sync "get pagefree/mode (default)"
ctl_rc 0 set pagefree/mode async
assert_eq "$out" "pagefree/mode: sync -> async" "set pagefree/mode message"
assert_eq "$(knob pagefree/mode)" async "pagefree/mode after set"
ctl_rc 0 get pagefree_mode
assert_eq "$out" async "get pagefree_mode after set"
ctl_rc 0 set pagefree_mode sync
assert_eq "$out" "pagefree/mode: async -> sync" "set pagefree_mode message"
assert_eq "$(knob pagefree/mode)" sync "pagefree/mode after set by parameter name"
for b in 2 Sync "" 0 1 SYNC Async syn syncc " sync" "sync " "sync$nl" \
	 "sync async" sync,async -1 abc; do
	ctl_usage set pagefree/mode "$b"
	assert_contains "$err" "invalid value '$b' for pagefree/mode: expected one of: sync, async" \
		"set pagefree/mode '$b' message"
	assert_eq "$(knob pagefree/mode)" sync "pagefree/mode after set '$b'"
done
# The same through sysfs: the names, one trailing newline allowed.
knob_write pagefree/mode async || fail "sysfs: writing async"
assert_eq "$(knob pagefree/mode)" async "sysfs: pagefree/mode after async"
knob_write pagefree/mode "sync$nl" || fail "sysfs: writing sync with a newline"
assert_eq "$(knob pagefree/mode)" sync "sysfs: pagefree/mode after sync\\n"
for b in 2 Sync 0 1 SYNC syn syncc " sync" "sync " "sync$nl$nl" "$nl" \
	 "sync${nl}x" "sync async" -1; do
	if e=$(knob_write pagefree/mode "$b"); then
		fail "sysfs: pagefree/mode accepted '$b'"
	fi
	case "$e" in
	*"Invalid argument"*) ;;
	*) fail "sysfs: pagefree/mode '$b': expected EINVAL, got: $e" ;;
	esac
	assert_eq "$(knob pagefree/mode)" sync "sysfs: pagefree/mode after '$b'"
done
# An empty write transfers nothing: the value stays.
knob_write pagefree/mode '' >/dev/null
assert_eq "$(knob pagefree/mode)" sync "sysfs: pagefree/mode after an empty write"

[ "$(cd "$MMFREE" && find . -type f -perm -u+r -perm -u+w ! -path '*/stats/*' | wc -l)" = 12 ] ||
	fail "sysfs has knobs this test does not cover"

before=$(cd "$MMFREE" && grep -r . --exclude-dir=stats 2>/dev/null)
for k in nosuch percpu/nosuch percpu percpu_ enabled/ /enabled ENABLED \
	 percpu/stats percpu/reclaim pagefree pagefree/ pagefree-mode \
	 pagefree/stats pagefree/Mode; do
	ctl_usage set "$k" 1
	assert_contains "$err" "unknown knob '$k'" "set $k"
done
ctl_usage get nosuch
ctl_usage set version 1
assert_match "$err" "read-only" "set version"
ctl_usage set percpu/stats/scans 1
ctl_usage set pagefree/stats/work_items 1
ctl_usage set enabled
ctl_usage set enabled 1 1
ctl_usage get
ctl_usage enable nosuch
ctl_usage disable percpu/enabled
ctl_usage disable pagefree/enabled
ctl_usage enable pagefree_
ctl_usage percpu
ctl_usage percpu nosuch
ctl_usage nosuch
ctl_usage --nosuch
assert_eq "$(cd "$MMFREE" && grep -r . --exclude-dir=stats 2>/dev/null)" "$before" \
	"knobs after usage errors"

ctl_rc 0 get version
assert_eq "$out" "$(knob version)" "get version"
ctl_rc 0 get percpu/stats/units
assert_eq "$out" "$(pcpu_stat units)" "get percpu/stats/units"
for f in $(cd "$MMFREE/pagefree/stats" && ls); do
	ctl_rc 0 get "pagefree/stats/$f"
	assert_match "$out" '^-?[0-9]+$' "get pagefree/stats/$f"
done

ctl_rc 0 disable
assert_eq "$(knob enabled)" 0 "enabled after disable"
ctl_rc 1 percpu reclaim
assert_match "$err" "refused: the feature is off" "reclaim while disabled"
ctl_rc 0 enable
assert_eq "$(knob enabled)" 1 "enabled after enable"
ctl_rc 0 disable percpu
assert_eq "$(knob percpu/enabled)" 0 "percpu/enabled after disable percpu"
assert_eq "$(knob enabled)" 1 "enabled after disable percpu"
ctl_rc 1 percpu reclaim
ctl_rc 0 enable percpu
assert_eq "$(knob percpu/enabled)" 1 "percpu/enabled after enable percpu"
ctl_rc 0 disable pagefree
assert_eq "$out" "pagefree/enabled: 1 -> 0" "disable pagefree message"
assert_eq "$(knob pagefree/enabled)" 0 "pagefree/enabled after disable pagefree"
assert_eq "$(knob enabled)" 1 "enabled after disable pagefree"
ctl_rc 0 enable pagefree
assert_eq "$(knob pagefree/enabled)" 1 "pagefree/enabled after enable pagefree"

scans=$(pcpu_stat scans)
ctl_rc 0 percpu reclaim
assert_match "$out" "^percpu: populated_pages [0-9]+ -> [0-9]+ per unit \([0-9.]+ [KMG]?i?B released system wide\)\$" \
	"reclaim message"
[ "$(pcpu_stat scans)" -gt "$scans" ] || fail "percpu reclaim did not scan"

# Not root: the kernel's refusal, exit status 1, nothing changed.
out=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
	mmfreectl set percpu/min_empty_pages 3 2>&1)
rc=$?
echo "nobody: mmfreectl set percpu/min_empty_pages 3 (exit $rc): $out"
assert_eq "$rc" 1 "non-root set"
assert_match "$out" "Permission denied" "non-root set message"
assert_eq "$(knob percpu/min_empty_pages)" 1 "percpu/min_empty_pages after non-root set"
out=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
	mmfreectl set pagefree/mode async 2>&1)
rc=$?
echo "nobody: mmfreectl set pagefree/mode async (exit $rc): $out"
assert_eq "$rc" 1 "non-root set of pagefree/mode"
assert_match "$out" "Permission denied" "non-root set of pagefree/mode message"
assert_eq "$(knob pagefree/mode)" sync "pagefree/mode after non-root set"
unload
echo "every knob set and read back; bad keys and values changed nothing"
