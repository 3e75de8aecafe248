#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The kernel matrix: which stock Debian kernels mmfree is tested on, the
# newest release of each in its suite.  Prints one line per kernel:
#
#   ID RELEASE SUITE RUNS
#
# RUNS is "all" (the whole guest suite, and a 2-node boot for the NUMA
# tests), "subset" (tests/run.sh's subset: another build of a kernel
# that runs all, where only the compiler and configuration differ),
# either with "+packages" (also the package test, in a boot of
# the suite's own userspace: one kernel per Debian release), or "rt" (a
# PREEMPT_RT kernel, which mmfree refuses: DKMS must not build it, and a
# Kbuild build must refuse to load, in one boot), or "flavour"
# (tests/run.sh's FLAVOUR: another configuration of a subset kernel's
# build: its symbols and BTF, page freeing and percpu at work).
# Usage: scripts/kernels.sh [ID...] (default: all of them); an ID may
# also be a release, for one kernel outside the matrix.
# --releases prints the releases only, --suites the suites only.
# MMFREE_KERNELS="rel1 rel2" replaces the matrix by those releases.
#
# A release counts when its headers and its image are in the suite's apt
# lists (the host's for bookworm, the suite's chroot for the others: see
# scripts/suite.sh, which creates the chroot the first time).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=help.sh
. "$top/scripts/help.sh"
help_if_asked "$@"

# ID, suite, kernel flavour, release pattern (before the flavour), runs.
# Debian 12's two kernels, Debian 13 (the current stable) with the cloud
# flavour cloud images boot, and sid.  Debian 13's 6.12 is the same
# upstream series as Debian 12's, built by gcc 14: the subset.
matrix="
6.1           bookworm  amd64        6\.1\.0-[0-9]+                    all+packages
6.12          bookworm  amd64        6\.12\.[0-9]+\+deb12               all
trixie        trixie    amd64        6\.12\.[0-9]+\+deb13               subset+packages
trixie-cloud  trixie    cloud-amd64  6\.12\.[0-9]+\+deb13               flavour
trixie-rt     trixie    rt-amd64     6\.12\.[0-9]+\+deb13               rt
sid           sid       amd64        [0-9]+\.[0-9]+\.[0-9]+\+deb14      all
"

what=lines
case "${1:-}" in
--releases) what=releases; shift ;;
--suites) what=suites; shift ;;
esac

if [[ $what == suites ]]; then
	awk 'NF { print $2 }' <<<"$matrix" | awk '!seen[$0]++'
	exit 0
fi

emit() {	# id release suite runs
	case "$what" in
	releases) echo "$2" ;;
	*) echo "$1 $2 $3 $4" ;;
	esac
}

if [[ -n ${MMFREE_KERNELS:-} ]]; then
	for k in $MMFREE_KERNELS; do
		emit "$k" "$k" "$("$top/scripts/suite.sh" of "$k")" all
	done
	exit 0
fi

# The newest release with both an image and headers package.
newest() {	# suite flavour pattern
	local avail
	avail=$("$top/scripts/suite.sh" apt "$1" search --names-only \
		"^linux-(headers|image|binary-unsigned)-.*-$2" 2>/dev/null |
		cut -d' ' -f1) || return 1
	comm -12 <(sed -nE "s/^linux-headers-($3-$2)\$/\\1/p" <<<"$avail" | sort) \
		<(sed -nE "s/^linux-(image-($3-$2)-unsigned|binary-unsigned-($3-$2))\$/\\2\\3/p" <<<"$avail" | sort) |
		sort -V | tail -n 1 | grep .
}

found=0 want=("$@")
while read -r id suite flavour pattern runs; do
	[[ -n $id ]] || continue
	if ((${#want[@]})); then
		printf '%s\n' "${want[@]}" | grep -qxF -- "$id" || continue
	fi
	if rel=$(newest "$suite" "$flavour" "$pattern"); then
		emit "$id" "$rel" "$suite" "$runs"
		found=$((found + 1))
	else
		echo "kernels.sh: no $id kernel ($suite, $flavour) with headers and an image in apt's lists (run apt-get update?)" >&2
	fi
done <<<"$matrix"

# An ID that is no matrix entry: a release, tested alone.
for id in "${want[@]}"; do
	grep -qE "^$id " <<<"$matrix" && continue
	[[ $id == *-*-* || $id == *+deb* ]] || { echo "kernels.sh: unknown kernel $id" >&2; exit 2; }
	emit "$id" "$id" "$("$top/scripts/suite.sh" of "$id")" all
	found=$((found + 1))
done
((found > 0))
