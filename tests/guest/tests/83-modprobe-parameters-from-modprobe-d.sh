#!/bin/sh
# Options in /etc/modprobe.d/mmfree.conf apply to modprobe mmfree and to
# mmfreectl load, and those on the command line win over them; the
# example file installed by make install, uncommented, is valid and
# names every parameter with its default.
. /mmfree/lib.sh

conf=/etc/modprobe.d/mmfree.conf
example=/mmfree/etc/modprobe.d/mmfree.conf
mkdir -p /etc/modprobe.d
cleanup() {
	rm -f "$conf"
}

unload
echo "options mmfree percpu_min_empty_pages=3" >"$conf"
load
assert_eq "$(knob percpu/min_empty_pages)" 3 "modprobe with modprobe.d"
unload
load percpu_min_empty_pages=1
assert_eq "$(knob percpu/min_empty_pages)" 1 "modprobe with a parameter over modprobe.d"
unload

ctl_rc 0 load
assert_eq "$(knob percpu/min_empty_pages)" 3 "mmfreectl load with modprobe.d"
ctl_rc 0 unload
ctl_rc 0 load percpu/min_empty_pages=5
assert_eq "$(knob percpu/min_empty_pages)" 5 "mmfreectl load with a parameter over modprobe.d"
ctl_rc 0 unload

# Two options lines and an unrelated module's: all are merged.
printf '%s\n' "options mmfree percpu_interval_ms=250" \
	"options zram num_devices=2" \
	"options mmfree enabled=0 percpu_keep_empty_pages=16" >"$conf"
load
assert_eq "$(knob percpu/interval_ms)" 250 "first options line"
assert_eq "$(knob enabled)" 0 "second options line: enabled"
assert_eq "$(knob percpu/keep_empty_pages)" 16 "second options line: keep_empty_pages"
unload
cleanup

# The example: every line commented out, so loading with it changes
# nothing; uncommented, it sets every parameter to its default.
[ -f "$example" ] || fail "no example file $example"
cp "$example" "$conf"
grep -q '^options' "$conf" && fail "the example sets options"
load
defaults=$(cd "$MMFREE" && grep -r . --exclude-dir=stats 2>/dev/null | sort)
unload
sed 's/^#options /options /' "$example" >"$conf"
echo "example, uncommented:"
grep '^options' "$conf"
for p in $(ls /sys/module/mmfree/parameters 2>/dev/null) \
	 $(modinfo -F parm mmfree | cut -d: -f1); do
	case "$p" in test_*) continue ;; esac
	grep -q "^options mmfree $p=" "$conf" || fail "example lacks parameter $p"
done
dmesg_clear
load
dmesg_new | grep -q "invalid value" && fail "the example has an invalid value"
assert_eq "$(cd "$MMFREE" && grep -r . --exclude-dir=stats 2>/dev/null | sort)" \
	"$defaults" "knobs with the uncommented example"
for p in $(modinfo -F parm mmfree | cut -d: -f1); do
	case "$p" in test_*) continue ;; esac
	k=$(grep "^options mmfree $p=" "$conf" | sed 's/.*=//')
	assert_eq "$(cat "/sys/module/mmfree/parameters/$p")" "$k" "parameter $p"
done
unload
cleanup
echo "modprobe.d options apply, command-line parameters override them"
