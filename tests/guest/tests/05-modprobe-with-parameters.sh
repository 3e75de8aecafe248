#!/bin/sh
# modprobe takes the knobs as parameters; the default applies otherwise.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"

unload
load enabled=0
assert_eq "$(knob enabled)" 0 "enabled after modprobe enabled=0"
assert_eq "$(cat /sys/module/mmfree/parameters/enabled)" 0 \
	"parameters/enabled after modprobe enabled=0"
unload

load enabled=1
assert_eq "$(knob enabled)" 1 "enabled after modprobe enabled=1"
unload

load
assert_eq "$(knob enabled)" 1 "enabled by default"
unload
echo "enabled= sets the knob at load; default 1"
