#!/bin/sh
# runs: once
# modprobe with an invalid knob value fails, says why, and loads nothing.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"

unload
for bad in 2 -1 abc '' 0x1 4294967296; do
	dmesg_clear
	modprobe mmfree enabled="$bad" 2>&1 && fail "modprobe enabled='$bad' succeeded"
	loaded && fail "mmfree loaded with enabled='$bad'"
	dmesg_new | grep "mmfree: invalid value '$bad' for parameter enabled: expected an integer from 0 to 1" ||
		fail "no clear message for enabled='$bad'"
done
load enabled=0
unload
echo "invalid parameters refused with a message"
