#!/bin/sh
# The pipeline works: the guest resolves and loads a stock kernel module
# copied into the VM (zram and its dependencies), then removes it.
set -eu
modprobe zram
grep -q '^zram ' /proc/modules
rmmod zram
echo "zram loaded and removed"
