#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch.pl lives only in the kernel source package: take it, with
# the data files it reads, out of linux-source-6.12 into build/cache and
# print that directory.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=help.sh
. "$top/scripts/help.sh"
help_if_asked "$@"
dst=$top/build/cache/checkpatch

# The source tarball of the installed linux-source-6.12, if any.
tarball() {
	local f
	for f in /usr/src/linux-source-6.12.tar.*; do
		if [ -f "$f" ]; then
			echo "$f"
			return
		fi
	done
}

if [ ! -x "$dst/checkpatch.pl" ]; then
	tarball=$(tarball)
	if [ -z "$tarball" ]; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y \
			--no-install-recommends linux-source-6.12 >&2
		tarball=$(tarball)
		[ -n "$tarball" ] || { echo "checkpatch-fetch.sh: no /usr/src/linux-source-6.12.tar.*" >&2; exit 1; }
	fi
	mkdir -p "$dst"
	tar -xf "$tarball" -C "$dst" --strip-components=2 \
		linux-source-6.12/scripts/checkpatch.pl \
		linux-source-6.12/scripts/spelling.txt \
		linux-source-6.12/scripts/const_structs.checkpatch
fi
echo "$dst"
