#!/bin/bash
# Fetch and unpack the stock kernel image package for one release, without
# installing it on the host: build/cache/kernels/KVER/{boot,lib/modules}.
# Usage: scripts/fetch-kernel.sh KVER
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
kver=${1:?usage: $0 KVER}
pkg=linux-image-$kver-unsigned
cache=$root/build/cache/kernels
dest=$cache/$kver

mkdir -p "$cache"
# Concurrent callers (two vm.sh runs) wait for one fetch instead of racing.
exec 9>"$cache/.lock-$kver"
flock 9
if [[ ! -e $dest/.extracted ]]; then
	# Download into a private dir so a half-finished fetch never looks done.
	tmp=$(mktemp -d "$cache/.fetch.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	# _apt cannot write into this private dir; download as root, quietly.
	(cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root "$pkg" >&2)
	deb=$(echo "$tmp"/"${pkg}"_*.deb)
	[[ -f $deb ]] || { echo "fetch-kernel.sh: $pkg not downloaded" >&2; exit 1; }
	rm -rf "$dest"
	mkdir -p "$tmp/x"
	dpkg-deb -x "$deb" "$tmp/x"
	mv "$tmp/x" "$dest"
	touch "$dest/.extracted"
fi

# The package ships modules.order/builtin but not modules.dep (postinst runs
# depmod); generate it against the unpacked tree.
if [[ ! -s $dest/lib/modules/$kver/modules.dep ]]; then
	depmod -b "$dest" "$kver"
fi

[[ -f $dest/boot/vmlinuz-$kver ]] || { echo "fetch-kernel.sh: no vmlinuz in $pkg" >&2; exit 1; }
