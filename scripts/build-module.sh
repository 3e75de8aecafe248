#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build mmfree.ko for one kernel and print its path on the last line.
#
#   scripts/build-module.sh [--helper] KVER
#
# --helper builds the tests' helper module instead (tests/kmod, with
# Kbuild in build/kmod/KVER, whatever MMFREE_BUILD says): the guests load
# it, no package carries it.
#
# The build runs in the kernel's own suite (scripts/suite.sh): on the host
# for bookworm, in the suite's chroot for the others, with that suite's
# compiler, dkms and the kernel's headers, as a user of that distribution
# builds it.  MMFREE_BUILD=dkms (default) installs it through DKMS as users
# do; MMFREE_BUILD=make builds it with Kbuild in build/mod/KVER,
# rebuilding only what changed (the fast loop), against MMFREE_KDIR if set
# (the debug kernel's build tree: scripts/stress.sh --kernel debug).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=help.sh
. "$top/scripts/help.sh"
help_if_asked "$@"
how=${MMFREE_BUILD:-dkms}
[[ ${1:-} != --helper ]] || { how=--helper; shift; }
kver=${1:?usage: $0 [--helper] KVER}

if [[ -n ${MMFREE_KDIR:-} ]]; then
	suite=bookworm
else
	suite=$("$top/scripts/suite.sh" of "$kver")
fi
sroot=$("$top/scripts/suite.sh" root "$suite")
# This checkout, as the build sees it: in a chroot, bind-mounted there.
src=$top
if [[ $sroot != / ]]; then
	src=/mnt/mmfree
	[[ -d $sroot/usr/src/linux-headers-$kver ]] ||
		"$top/scripts/suite.sh" install "$suite" "linux-headers-$kver"
fi

# Build with Kbuild in build/DIR/KVER, from the sources given, and print
# the module's path.  cp -u keeps unchanged sources' timestamps: Kbuild
# recompiles only what changed.
kbuild() {	# DIR MODULE SOURCE...
	local dir=$1 ko=$2 out=$top/build/$1/$kver
	shift 2
	mkdir -p "$out"
	cp -au "$@" "$out/"
	"$top/scripts/suite.sh" run "$suite" make -s \
		-C "${MMFREE_KDIR:-/lib/modules/$kver/build}" \
		M="$src/build/$dir/$kver" modules >&2
	echo "$out/$ko"
}

case "$how" in
--helper)
	kbuild kmod mmfree_test_ipmodify.ko "$top/tests/kmod/."
	;;
dkms)
	path=$("$top/scripts/suite.sh" run "$suite" "$src/scripts/dkms.sh" \
		install "$kver" | tail -n 1)
	echo "${sroot%/}$path"
	;;
make)
	kbuild mod mmfree.ko "$top/Kbuild" "$top/dkms.conf" "$top/module" \
		"$top/include"
	;;
*)
	echo "build-module.sh: MMFREE_BUILD must be dkms or make" >&2
	exit 2
	;;
esac
