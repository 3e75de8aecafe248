#!/bin/bash
# Fetch and unpack the stock kernel of one release, without installing it
# anywhere: build/cache/kernels/KVER/{boot/vmlinuz-KVER,boot/config-KVER,
# lib/modules/KVER}.  The packages come from the release's suite
# (scripts/suite.sh): linux-image-KVER-unsigned where the suite has it;
# in sid, whose packaging split the image, linux-binary-unsigned-KVER
# (the kernel, as /usr/lib/modules/KVER/vmlinuz.unsigned),
# linux-modules-KVER and linux-base-KVER (its config).
# Usage: scripts/fetch-kernel.sh KVER
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=help.sh
. "$root/scripts/help.sh"
help_if_asked "$@"
kver=${1:?usage: $0 KVER}
cache=$root/build/cache/kernels
dest=$cache/$kver

mkdir -p "$cache"
# Concurrent callers (two vm.sh runs) wait for one fetch instead of racing.
exec 9>"$cache/.lock-$kver"
flock 9
if [[ ! -e $dest/.extracted ]]; then
	suite=$("$root/scripts/suite.sh" of "$kver")
	sroot=$("$root/scripts/suite.sh" root "$suite")
	if "$root/scripts/suite.sh" apt "$suite" show "linux-image-$kver-unsigned" >/dev/null 2>&1; then
		pkgs=("linux-image-$kver-unsigned")
	else
		pkgs=("linux-binary-unsigned-$kver" "linux-modules-$kver" "linux-base-$kver")
	fi
	# Download into a private dir so a half-finished fetch never looks
	# done; in a chroot, a dir it can see.
	tmp=$(mktemp -d "$sroot/tmp/mmfree-fetch.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	# _apt cannot write into this private dir; download as root, quietly.
	# shellcheck disable=SC2016 # expanded by the inner shell
	"$root/scripts/suite.sh" run "$suite" sh -c 'cd "$1" && shift &&
		apt-get download -q -o APT::Sandbox::User=root "$@"' \
		sh "${tmp#"${sroot%/}"}" "${pkgs[@]}" >&2
	mkdir -p "$tmp/x"
	for deb in "$tmp"/*.deb; do
		[[ -f $deb ]] || { echo "fetch-kernel.sh: ${pkgs[*]} not downloaded" >&2; exit 1; }
		dpkg-deb -x "$deb" "$tmp/x"
	done
	# One layout whatever the packaging: /boot and /lib/modules.
	if [[ -d $tmp/x/usr/lib/modules && ! -d $tmp/x/lib/modules ]]; then
		mkdir -p "$tmp/x/lib"
		mv "$tmp/x/usr/lib/modules" "$tmp/x/lib/modules"
	fi
	mods=$tmp/x/lib/modules/$kver
	mkdir -p "$tmp/x/boot"
	[[ -f $tmp/x/boot/vmlinuz-$kver || ! -f $mods/vmlinuz.unsigned ]] ||
		mv "$mods/vmlinuz.unsigned" "$tmp/x/boot/vmlinuz-$kver"
	[[ -f $tmp/x/boot/config-$kver || ! -f $mods/config ]] ||
		cp "$mods/config" "$tmp/x/boot/config-$kver"
	rm -rf "$dest"
	mv "$tmp/x" "$dest"
	touch "$dest/.extracted"
fi

# The packages ship modules.order/builtin but not modules.dep (postinst
# runs depmod); generate it against the unpacked tree.
if [[ ! -s $dest/lib/modules/$kver/modules.dep ]]; then
	depmod -b "$dest" "$kver"
fi

[[ -f $dest/boot/vmlinuz-$kver && -f $dest/boot/config-$kver ]] ||
	{ echo "fetch-kernel.sh: no vmlinuz or config for $kver" >&2; exit 1; }
