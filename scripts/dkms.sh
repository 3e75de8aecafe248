#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Register mmfree with DKMS and build and install it for the given kernels
# (default: the running kernel), the way users install it.
#
#   scripts/dkms.sh install [KVER...]   add (once), build and install
#   scripts/dkms.sh remove              remove every version from DKMS
#
# The DKMS source tree (/usr/src/mmfree-VERSION) gets only the tracked
# files the build needs (scripts/tracked.sh), never build leftovers.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=help.sh
. "$top/scripts/help.sh"
help_if_asked "$@"
name=mmfree
version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$top/dkms.conf")
[[ -n $version ]] || { echo "dkms.sh: no PACKAGE_VERSION in dkms.conf" >&2; exit 1; }

stage() {
	local dst=/usr/src/$name-$version

	rm -rf "$dst"
	"$top/scripts/tracked.sh" "$dst" Kbuild Makefile dkms.conf module include
}

remove_all() {
	local v

	for v in $(dkms status -m "$name" 2>/dev/null |
		   sed -n "s|^$name/\([^,:]*\).*|\1|p" | sort -u); do
		dkms remove -m "$name" -v "$v" --all >/dev/null
	done
}

# Where DKMS installed the module for KVER (it may compress it).
installed_path() {
	local f

	for f in /lib/modules/"$1"/updates/dkms/$name.ko{,.xz,.zst,.gz}; do
		if [ -e "$f" ]; then
			echo "$f"
			return 0
		fi
	done
	echo "dkms.sh: $name not found under /lib/modules/$1/updates/dkms" >&2
	return 1
}

case "${1:-}" in
install)
	shift
	[ $# -gt 0 ] || set -- "$(uname -r)"
	# A fresh add each time: DKMS caches builds by version, and the
	# source may have changed without the version changing.
	remove_all
	stage
	dkms add -m "$name" -v "$version" >/dev/null
	for kver in "$@"; do
		dkms build -m "$name" -v "$version" -k "$kver" >&2
		dkms install -m "$name" -v "$version" -k "$kver" --force >&2
		installed_path "$kver"
	done
	;;
remove)
	remove_all
	rm -rf "/usr/src/$name-$version"
	;;
*)
	echo "usage: $0 install [KVER...] | remove" >&2
	exit 2
	;;
esac
