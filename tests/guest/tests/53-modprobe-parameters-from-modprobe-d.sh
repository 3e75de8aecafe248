#!/bin/sh
# runs: once
# Options in /etc/modprobe.d/mmfree.conf apply to modprobe mmfree and to
# mmfreectl load, and those on the command line win over them; a knob
# with names takes a name there too, and a bad value there is refused by
# both, before loading by mmfreectl; the example file installed by make
# install, uncommented, is valid and names every parameter with its
# default.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"

conf=/etc/modprobe.d/mmfree.conf
# The example installed by make install, from the project's etc/: in the
# VM beside these files (tests/run.sh, tests/vm.sh), two levels up in a
# checkout (tests/installed.sh).
example=$MMFREE_GUEST/etc/modprobe.d/mmfree.conf
[ -f "$example" ] || example=$MMFREE_GUEST/../../etc/modprobe.d/mmfree.conf
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

# A knob with names, by name, and a number next to it.
echo "options mmfree pagefree_mode=async pagefree_workers=2" >"$conf"
load
[ -d "$MMFREE/pagefree" ] || fail "pagefree unavailable (see dmesg)"
assert_eq "$(knob pagefree/mode)" async "modprobe: pagefree_mode from modprobe.d"
assert_eq "$(knob pagefree/workers)" 2 "modprobe: pagefree_workers from modprobe.d"
assert_eq "$(cat /sys/module/mmfree/parameters/pagefree_mode)" async \
	"modprobe: parameter pagefree_mode"
unload
ctl_rc 0 load
assert_eq "$(knob pagefree/mode)" async "mmfreectl load: pagefree_mode from modprobe.d"
assert_eq "$(knob pagefree/workers)" 2 "mmfreectl load: pagefree_workers from modprobe.d"
ctl_rc 0 unload
ctl_rc 0 load pagefree/mode=sync pagefree_workers=3
assert_eq "$(knob pagefree/mode)" sync "mmfreectl load: pagefree_mode over modprobe.d"
assert_eq "$(knob pagefree/workers)" 3 "mmfreectl load: pagefree_workers over modprobe.d"
ctl_rc 0 unload

# Anything but a name is refused, by the kernel and, before it, by
# mmfreectl (exit status 1: the command line is fine), even where the
# command line overrides it: the kernel would stop at it.
for bad in 2 1 Sync '' ASYNC; do
	echo "options mmfree pagefree_workers=2 pagefree_mode=$bad" >"$conf"
	dmesg_clear
	modprobe mmfree 2>/dev/null && fail "modprobe with pagefree_mode='$bad' in modprobe.d"
	loaded && fail "loaded with pagefree_mode='$bad' in modprobe.d"
	dmesg_new | grep -q "invalid value '$bad' for parameter pagefree_mode" ||
		fail "no kernel message for pagefree_mode='$bad'"
	dmesg_clear
	ctl_rc 1 load pagefree_mode=async
	loaded && fail "mmfreectl loaded with pagefree_mode='$bad' in modprobe.d"
	assert_contains "$err" "invalid value '$bad' for pagefree_mode in /etc/modprobe.d: expected one of: sync, async" \
		"mmfreectl load with pagefree_mode='$bad' in modprobe.d"
	assert_contains "$err" "from /etc/modprobe.d: pagefree_workers=2 pagefree_mode=$bad" \
		"the options from modprobe.d"
	dmesg_new | grep -q "invalid value" &&
		fail "mmfreectl passed pagefree_mode='$bad' to the kernel"
done
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
	v=$(cat "/sys/module/mmfree/parameters/$p")
	# A bool parameter reads back as Y or N.
	case "$v" in Y) v=1 ;; N) v=0 ;; esac
	assert_eq "$v" "$k" "parameter $p"
done
unload
cleanup
echo "modprobe.d options apply, command-line parameters override them"
