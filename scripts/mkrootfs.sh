#!/bin/bash
# Build the guest's root filesystem: a Debian 12 (bookworm) minbase
# debootstrap, stripped, packed as a zstd-compressed newc cpio that the kernel
# unpacks as its initramfs: build/cache/rootfs-bookworm.cpio.zst
#
#   scripts/mkrootfs.sh                   the base every test boot uses
#   scripts/mkrootfs.sh bench             rootfs-bookworm-bench.cpio.zst:
#       the base and redis-server (with redis-cli), the real program of
#       the peers benchmark (bench/guest/bench-peers.sh); kept out of the
#       base so that the test boots do not carry it
#   scripts/mkrootfs.sh packages KVER NEXT
#       rootfs-SUITE-packages.cpio.zst for the package test
#       (tests/guest/tests/*-packages-*), SUITE being KVER's
#       (scripts/suite.sh of): that suite's minbase with the base's
#       packages, DKMS, a compiler and KVER's headers (and what they
#       pull: trixie's pull the kernel's image, as on a real machine), and
#       in /root/debs the packages that installing NEXT's headers adds
#       (the headers, and the image where they need it) for the test to
#       install as a second kernel
#
# Cached: rebuilt only when the package list, suite or mirror changes.
# Env: MMFREE_MIRROR (default http://deb.debian.org/debian). Needs root.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=help.sh
. "$root/scripts/help.sh"
help_if_asked "$@"
suite=bookworm
mirror=${MMFREE_MIRROR:-http://deb.debian.org/debian}
# kmod: modprobe/depmod; procps: ps, free, sysctl, vmstat; stress-ng: load;
# jq: mmfreectl status --json checked and read (tests/guest/tests).
# util-linux (mount, dmesg, swapon, taskset) and coreutils (timeout) are in
# minbase already.
packages=kmod,procps,stress-ng,jq
out=$root/build/cache/rootfs-$suite.cpio.zst
headers='' next=''
if [[ ${1:-} == bench ]]; then
	[[ $# == 1 ]] || { echo "mkrootfs.sh: usage: mkrootfs.sh bench" >&2; exit 2; }
	packages+=,redis-server
	out=$root/build/cache/rootfs-$suite-bench.cpio.zst
elif [[ ${1:-} == packages ]]; then
	[[ $# == 3 ]] || { echo "mkrootfs.sh: usage: mkrootfs.sh packages KVER NEXT" >&2; exit 2; }
	# What apt install of mmfree-dkms needs on the machine already: DKMS
	# (which pulls make and dpkg-dev), the compiler and the headers.
	packages+=,dkms,gcc,libc6-dev
	headers=linux-headers-$2 next=linux-headers-$3
	suite=$("$root/scripts/suite.sh" of "$2")
	out=$root/build/cache/rootfs-$suite-packages.cpio.zst
fi
stamp=$out.stamp
want="suite=$suite mirror=$mirror packages=$packages${next:+ next=$next+deps initrd=no} merged-usr"

mkdir -p "$root/build/cache"
# Concurrent callers wait for one build instead of racing.
exec 9>"$out.lock"
flock 9
if [[ -s $out && -f $stamp && $(<"$stamp") == "$want" ]]; then
	exit 0
fi
[[ $(id -u) == 0 ]] || { echo "mkrootfs.sh: debootstrap needs root" >&2; exit 1; }

tmp=$(mktemp -d "$root/build/rootfs.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
dir=$tmp/root

echo "mkrootfs.sh: debootstrap $suite from $mirror (a few minutes)" >&2
# --merged-usr: the per-kernel overlay relies on /lib -> usr/lib (see
# tests/vm.sh); make it explicit rather than a debootstrap default.
if ! debootstrap --variant=minbase --merged-usr --include="$packages" \
	"$suite" "$dir" "$mirror" >"$tmp/debootstrap.log" 2>&1; then
	tail -n 30 "$tmp/debootstrap.log" >&2
	tail -n 30 "$dir/debootstrap/debootstrap.log" >&2 2>/dev/null || true
	exit 1
fi
[[ -L $dir/lib && $(readlink "$dir/lib") == usr/lib ]] ||
	{ echo "mkrootfs.sh: expected a merged-/usr rootfs (/lib -> usr/lib)" >&2; exit 1; }

# Shrink: the guest needs no docs, manuals, translations or apt metadata.
rm -rf "$dir"/usr/share/{doc,man,info,locale,lintian,linda,bug}/* \
	"$dir"/var/lib/apt/lists/* "$dir"/var/cache/apt/*.bin \
	"$dir"/var/cache/apt/archives/*.deb "$dir"/var/cache/debconf/*-old \
	"$dir"/var/log/*.log
# The kernels' headers come from the suite's full apt sources (bookworm's
# point releases and security updates, which debootstrap does not see):
# KVER's installed, NEXT's downloaded with what they add, for the test to
# install.  INITRD=No: the image KVER's headers may pull needs no initramfs
# here (the guest boots the cached kernel; /etc/kernel/postinst.d's
# initramfs-tools hook honours it); nor does NEXT's, which the test
# installs with INITRD=No too.
if [[ -n $next ]]; then
	mv "$dir/etc/apt/sources.list" "$tmp/sources.list"
	"$root/scripts/suite.sh" sources "$suite" "$dir"
	mkdir -p "$dir/root/debs"
	if ! chroot "$dir" sh -ec "apt-get update -q
		INITRD=No apt-get install -y -q --no-install-recommends $headers
		apt-get clean
		apt-get install -y -q --no-install-recommends --download-only $next
		mv /var/cache/apt/archives/*.deb /root/debs/" >"$tmp/apt.log" 2>&1; then
		tail -n 30 "$tmp/apt.log" >&2
		exit 1
	fi
	rm -rf "$dir"/etc/apt/sources.list* "$dir"/var/lib/apt/lists/* \
		"$dir"/var/cache/apt/*.bin
	mkdir "$dir/etc/apt/sources.list.d"
	mv "$tmp/sources.list" "$dir/etc/apt/sources.list"
fi
# The guest boots straight into tests/guest/init; no getty, no fstab mounts.
echo "mmfree-vm" >"$dir/etc/hostname"
: >"$dir/etc/fstab"

# Pack. Device nodes made by debootstrap (/dev/console, /dev/null) travel
# with the archive, so PID 1 has a console before devtmpfs is mounted.
(cd "$dir" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc --quiet) |
	zstd -q -T0 -10 -o "$tmp/rootfs.cpio.zst"
mv "$tmp/rootfs.cpio.zst" "$out"
echo "$want" >"$stamp"
echo "mkrootfs.sh: $(du -sh "$dir" | cut -f1) unpacked, $(du -h "$out" | cut -f1) as $out" >&2
