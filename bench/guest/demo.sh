#!/bin/sh
# The main job for now (tests/vm.sh --demo): load mmfree the way a user
# does, show what it exposes, toggle it, unload it.
set -e
show() {
	echo "\$ $*"
	"$@"
}
echo "== kernel $(uname -r), $(nproc) CPUs, $(awk '/MemTotal/ {print $2 " kB"}' /proc/meminfo)"
show modinfo -F version mmfree
show modprobe mmfree enabled=1
show lsmod
for f in /sys/kernel/mmfree/*; do
	echo "$f = $(cat "$f")"
done
show sh -c 'echo 0 > /sys/kernel/mmfree/enabled'
echo "enabled = $(cat /sys/kernel/mmfree/enabled)"
echo "\$ echo 2 > /sys/kernel/mmfree/enabled   (rejected)"
if sh -c 'echo 2 > /sys/kernel/mmfree/enabled'; then exit 1; fi
echo "enabled = $(cat /sys/kernel/mmfree/enabled)"
show modprobe -r mmfree
echo "== kernel log"
dmesg | grep 'mmfree'
