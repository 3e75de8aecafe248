#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build mmfree.ko for one kernel and print its path on the last line.
#
#   scripts/build-module.sh KVER
#
# MMFREE_BUILD=dkms (default) installs it through DKMS as users do;
# MMFREE_BUILD=make builds it with Kbuild in build/mod/KVER, rebuilding
# only what changed (the fast loop), against MMFREE_KDIR if set (the
# debug kernel's build tree: scripts/stress.sh --kernel debug).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
kver=${1:?usage: $0 KVER}

case "${MMFREE_BUILD:-dkms}" in
dkms)
	"$top/scripts/dkms.sh" install "$kver" | tail -n 1
	;;
make)
	out=$top/build/mod/$kver
	mkdir -p "$out"
	# cp -u keeps unchanged sources' timestamps: Kbuild recompiles
	# only what changed.
	cp -au "$top/Kbuild" "$top/dkms.conf" "$top/module" "$top/include" "$out/"
	make -s -C "${MMFREE_KDIR:-/lib/modules/$kver/build}" M="$out" modules >&2
	echo "$out/mmfree.ko"
	;;
*)
	echo "build-module.sh: MMFREE_BUILD must be dkms or make" >&2
	exit 2
	;;
esac
