#!/bin/bash
# Print the QEMU accelerator to use: "kvm" or "tcg".
# KVM is chosen only when the CPU advertises vmx/svm, /dev/kvm opens, and a
# tiny guest actually runs to completion under it (on some hosts /dev/kvm
# exists but guests hang). The answer is cached in build/cache/accel;
# MMFREE_ACCEL=kvm|tcg overrides it.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=help.sh
. "$root/scripts/help.sh"
help_if_asked "$@"
cache=$root/build/cache/accel

if [[ -n ${MMFREE_ACCEL:-} ]]; then
	echo "$MMFREE_ACCEL"
	exit 0
fi
if [[ -s $cache ]]; then
	cat "$cache"
	exit 0
fi
mkdir -p "$(dirname "$cache")"

probe() {
	grep -qwE 'vmx|svm' /proc/cpuinfo || return 1
	[[ -r /dev/kvm && -w /dev/kvm ]] || return 1
	local tmp rc=0
	tmp=$(mktemp -d)
	# A boot sector that writes 0x10 to the isa-debug-exit port: QEMU then
	# exits with status (0x10 << 1) | 1 = 33. Anything else means KVM is not
	# usable. Code: mov dx,0xf4; mov al,0x10; out dx,al; 1: hlt; jmp 1b
	{
		printf '\xba\xf4\x00\xb0\x10\xee\xf4\xeb\xfd'
		head -c $((510 - 9)) /dev/zero
		printf '\x55\xaa'
	} >"$tmp/boot.img"
	# PROBE_ACCEL=tcg checks the probe image itself on any host.
	timeout 30 qemu-system-x86_64 -accel "${PROBE_ACCEL:-kvm}" -m 16 \
		-display none -nodefaults -no-reboot \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		-drive file="$tmp/boot.img",format=raw,if=ide >/dev/null 2>&1 || rc=$?
	rm -rf "$tmp"
	[[ $rc == 33 ]]
}

if probe; then accel=kvm; else accel=tcg; fi
echo "$accel" >"$cache"
echo "$accel"
