#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the Debian packages, mmfree-dkms and mmfreectl, with Debian's own
# tooling (dpkg-buildpackage, dh with dh-dkms), then check them with
# lintian: any error or warning fails the build (debian/*.lintian-overrides
# say why each tag is overridden).  The version is dkms.conf's: the
# changelog is written from it here, in a staged copy of the source under
# build/deb/, so no second copy of the version is kept in the tree.
#
#   scripts/deb.sh        packages in build/deb/
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=help.sh
. "$top/scripts/help.sh"
help_if_asked "$@"
version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$top/dkms.conf")
out=$top/build/deb
src=$out/mmfree-$version

[[ -n $version ]] || { echo "deb.sh: no PACKAGE_VERSION in dkms.conf" >&2; exit 1; }
for t in dpkg-buildpackage dh_dkms lintian fakeroot; do
	command -v "$t" >/dev/null ||
		{ echo "deb.sh: $t missing: run scripts/setup.sh" >&2; exit 1; }
done

rm -rf "$out"
mkdir -p "$src"
# What the packages are built from: tracked files only, no leftovers.
"$top/scripts/tracked.sh" "$src" Kbuild Makefile dkms.conf README.md \
	module include etc debian mmfreectl

# The changelog's date is the last commit's, so that two builds of one
# commit are the same packages.
date=$(git -C "$top" log -1 --format=%aD 2>/dev/null || date -R)
maint=$(sed -n 's/^Maintainer: //p' "$top/debian/control")
cat >"$src/debian/changelog" <<EOT
mmfree ($version) unstable; urgency=medium

  * Release $version (built from dkms.conf's PACKAGE_VERSION).

 -- $maint  $date
EOT

(cd "$src" && dpkg-buildpackage -us -uc --build=full) >"$out/build.log" 2>&1 || {
	tail -40 "$out/build.log" >&2
	echo "deb.sh: dpkg-buildpackage failed; log in $out/build.log" >&2
	exit 1
}
changes=$out/mmfree_${version}_$(dpkg --print-architecture).changes
if ! lintian --fail-on error,warning --info "$changes" >"$out/lintian.log" 2>&1; then
	cat "$out/lintian.log" >&2
	echo "deb.sh: lintian found errors or warnings" >&2
	exit 1
fi
grep -v '^N:' "$out/lintian.log" >&2 || true
ls "$out"/*.deb
