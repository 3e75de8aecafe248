#!/bin/sh
# /sys/kernel/mmfree/ holds the master switch and the version.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"

unload
[ -d "$MMFREE" ] && fail "$MMFREE present before modprobe"
load
ls -l "$MMFREE"
assert_eq "$(stat -c %a "$MMFREE/enabled")" 644 "mode of enabled"
assert_eq "$(stat -c %a "$MMFREE/version")" 444 "mode of version"
assert_eq "$(knob version)" "$(modinfo -F version mmfree)" "version"
unload
[ -d "$MMFREE" ] && fail "$MMFREE left behind after rmmod"
echo "tree created at load, removed at unload"
