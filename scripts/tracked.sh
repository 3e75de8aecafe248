#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Copy the files git tracks under PATH... of this checkout into DEST, as
# they are in the work tree: what the DKMS tree and the source package
# are made of.  Build leftovers (*.o, .*.cmd with this machine's absolute
# paths) and anything else untracked stay behind.
#
# Usage: scripts/tracked.sh DEST PATH...
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=help.sh
. "$top/scripts/help.sh"
help_if_asked "$@"

(($# >= 2)) || usage_error "a destination and at least one path"
dst=$1
shift
git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
	{ echo "tracked.sh: $top is not a git checkout: cannot tell sources from leftovers" >&2; exit 1; }
files=$(git -C "$top" ls-files -- "$@")
[[ -n $files ]] || { echo "tracked.sh: no tracked file under $*" >&2; exit 1; }
mkdir -p "$dst"
# tar: it is in every Debian system (the suites' chroots have no cpio).
tar -C "$top" -T - -cf - <<<"$files" | tar -C "$dst" -xf -
