#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The Debian suites of the kernel matrix (scripts/kernels.sh).  The host's
# own suite (bookworm) is the host; any other is a debootstrap chroot under
# build/cache/suite/SUITE, with that suite's compiler, dkms and kernel
# headers, so that a kernel's module is built the way a user of that
# distribution builds it.  The host's apt sources are never touched.
#
#   scripts/suite.sh of KVER             the suite of a kernel release
#   scripts/suite.sh root SUITE          set up the suite (cached), print
#                                        its root: / for the host
#   scripts/suite.sh run SUITE CMD...    run CMD there (in a chroot: with
#                                        /proc, /dev and this checkout at
#                                        /mnt/mmfree, in a private mount
#                                        namespace)
#   scripts/suite.sh install SUITE PKG...  apt-get install there
#   scripts/suite.sh apt SUITE ARGS...   apt-cache ARGS there
#   scripts/suite.sh sources SUITE DIR   write the suite's apt sources into
#                                        the root filesystem DIR (the
#                                        host's own for the host's suite)
#
# Env: MMFREE_MIRROR (default http://deb.debian.org/debian).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=help.sh
. "$top/scripts/help.sh"
help_if_asked "$@"
mirror=${MMFREE_MIRROR:-http://deb.debian.org/debian}
host_suite=bookworm

# Debian names its kernels after the release: 6.1.0-NN-amd64 and
# 6.12.N+deb12-FLAVOUR in bookworm, +deb13 in trixie, +deb14 in sid.
suite_of() {
	case "$1" in
	6.1.0-* | *+deb12-*) echo bookworm ;;
	*+deb13-*) echo trixie ;;
	*+deb14-*) echo sid ;;
	*) echo "suite.sh: no Debian suite known for kernel $1" >&2; return 1 ;;
	esac
}

chroot_dir() { echo "$top/build/cache/suite/$1"; }

# apt sources of a suite: its security and updates archives where it has
# them; sid's Release file on the mirror may be past its Valid-Until.
write_sources() {	# suite dir
	case "$1" in
	sid)
		echo "deb $mirror sid main" >"$2/etc/apt/sources.list"
		echo 'Acquire::Check-Valid-Until "false";' \
			>"$2/etc/apt/apt.conf.d/99mmfree"
		;;
	*)
		printf 'deb %s %s main\ndeb %s %s-updates main\ndeb %s %s-security main\n' \
			"$mirror" "$1" "$mirror" "$1" \
			"${mirror%/debian}/debian-security" "$1" \
			>"$2/etc/apt/sources.list"
		;;
	esac
}

# Create the chroot once (the stamp names what it was made from), and
# refresh its package lists when they are older than 6 hours: the newest
# kernel of a suite is what the matrix tests.
ensure() {	# suite
	local dir stamp want tmp
	dir=$(chroot_dir "$1")
	stamp=$dir.stamp
	# git: scripts/tracked.sh, which DKMS's source tree is copied with.
	want="suite=$1 mirror=$mirror tools=dkms,make,libc6-dev,kmod,sparse,git"
	mkdir -p "$(dirname "$dir")"
	exec 8>"$dir.lock"
	flock 8
	if [[ ! -f $stamp || $(<"$stamp") != "$want" ]]; then
		[[ $(id -u) == 0 ]] || { echo "suite.sh: debootstrap needs root" >&2; exit 1; }
		echo "suite.sh: debootstrap $1 into $dir (a minute or two)" >&2
		rm -rf "$dir" "$stamp"
		tmp=$dir.new
		rm -rf "$tmp"
		debootstrap --variant=minbase --include=ca-certificates \
			"$1" "$tmp" "$mirror" >"$tmp.log" 2>&1 ||
			{ tail -n 20 "$tmp.log" >&2; exit 1; }
		write_sources "$1" "$tmp"
		# A kernel's headers pull its image: no initramfs, no services.
		chroot "$tmp" dpkg-divert --local --rename \
			--add /usr/sbin/update-initramfs >/dev/null
		ln -sf /bin/true "$tmp/usr/sbin/update-initramfs"
		printf '#!/bin/sh\nexit 101\n' >"$tmp/usr/sbin/policy-rc.d"
		chmod 755 "$tmp/usr/sbin/policy-rc.d"
		chroot "$tmp" apt-get update -q >&2
		chroot "$tmp" env DEBIAN_FRONTEND=noninteractive apt-get install \
			-y -q --no-install-recommends dkms make libc6-dev kmod sparse git >&2
		mkdir -p "$tmp/mnt/mmfree"
		rm -f "$tmp.log"
		mv "$tmp" "$dir"
		echo "$want" >"$stamp"
	elif [[ -n $(find "$dir/var/lib/apt/lists" -maxdepth 0 -mmin +360) ]]; then
		chroot "$dir" apt-get update -q >&2
		touch "$dir/var/lib/apt/lists"
	fi
	exec 8>&-
}

# Run in the chroot: mounts live in a mount namespace of their own, so
# they go away with the command whatever happens to it.
run() {	# suite cmd...
	local suite=$1 dir
	shift
	if [[ $suite == "$host_suite" ]]; then
		"$@"
		return
	fi
	dir=$(chroot_dir "$suite")
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare --mount --propagation private -- /bin/sh -c '
		dir=$1 top=$2
		shift 2
		mount -t proc proc "$dir/proc" &&
		mount --rbind /dev "$dir/dev" &&
		mount --bind "$top" "$dir/mnt/mmfree" &&
		exec chroot "$dir" "$@"' sh "$dir" "$top" "$@"
}

cmd=${1:-}
[[ $# -ge 2 ]] || usage_error ""
shift
case "$cmd" in
of)
	suite_of "$1"
	;;
root)
	if [[ $1 == "$host_suite" ]]; then
		echo /
	else
		ensure "$1"
		chroot_dir "$1"
	fi
	;;
run)
	[[ $1 == "$host_suite" ]] || ensure "$1"
	run "$@"
	;;
install)
	suite=$1
	shift
	[[ $suite == "$host_suite" ]] || ensure "$suite"
	run "$suite" env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -q --no-install-recommends "$@" >&2
	;;
apt)
	suite=$1
	shift
	[[ $suite == "$host_suite" ]] || ensure "$suite"
	run "$suite" apt-cache "$@"
	;;
sources)
	[[ $# == 2 && -d $2/etc/apt ]] || usage_error ""
	rm -rf "$2"/etc/apt/sources.list*
	if [[ $1 == "$host_suite" ]]; then
		# bookworm's point releases and security updates, as the host
		# has them (debootstrap alone sees the release only).
		cp -a /etc/apt/sources.list* "$2/etc/apt/"
	else
		mkdir "$2/etc/apt/sources.list.d"
		write_sources "$1" "$2"
	fi
	;;
*)
	usage_error "unknown command ${1:-}"
	;;
esac
