#!/bin/bash
# Install what building and VM-testing mmfree needs on a Debian 12 host:
# QEMU, debootstrap, kmod/dkms tooling, shellcheck and python3
# (scripts/lint.sh, tests/host/), the
# Debian packaging tools (scripts/deb.sh) and
# the headers of each kernel of the matrix (scripts/kernels.sh): on the
# host for bookworm's kernels, in the suite's chroot (scripts/suite.sh)
# for the others. Idempotent:
# installed packages are skipped and apt-get update runs only when apt's
# lists lack something we need.
#
#   scripts/setup.sh               the lab (make check, bench, demo, lint)
#   scripts/setup.sh --packaging   only what make deb needs (Debian 12 or
#                                  13: no VM, no other suite, no headers)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=help.sh
. "$root/scripts/help.sh"
help_if_asked "$@"
export DEBIAN_FRONTEND=noninteractive

[[ $(id -u) == 0 ]] || { echo "setup.sh: run as root" >&2; exit 1; }

# What scripts/deb.sh runs: dpkg-buildpackage, dh with dh-dkms, lintian,
# and mmfreectl's build (libkmod).
packaging=(dpkg-dev debhelper dh-dkms fakeroot lintian make gcc libc6-dev
	libkmod-dev pkg-config git)
tools=(qemu-system-x86 debootstrap kmod dkms sparse zstd cpio xz-utils
	pahole gnuplot-nox util-linux shellcheck python3 "${packaging[@]}")

updated=0
apt_update() {
	if [[ $updated == 0 ]]; then
		echo "setup.sh: apt-get update" >&2
		apt-get update -q >&2
		updated=1
	fi
}

installed() {
	[[ $(dpkg-query -W -f='${Status}' "$1" 2>/dev/null) == "install ok installed" ]]
}

if [[ ${1:-} == --packaging ]]; then
	missing=()
	for p in "${packaging[@]}"; do
		installed "$p" || missing+=("$p")
	done
	if ((${#missing[@]})); then
		apt_update
		echo "setup.sh: installing ${missing[*]}" >&2
		apt-get install -y -q --no-install-recommends "${missing[@]}"
	fi
	exit 0
fi
[[ -z ${1:-} ]] || usage_error "unknown argument $1"

# debootstrap first: the other suites' chroots need it.
if ! installed debootstrap; then
	apt_update
	apt-get install -y -q --no-install-recommends debootstrap >&2
fi

# Kernel choice needs apt's lists; fetch them if they know no kernel yet.
# The other suites' chroots, side by side: each is mostly downloads and
# dpkg, on one core (kernels.sh needs them for their apt lists).
pids=()
for suite in $("$root/scripts/kernels.sh" --suites); do
	[[ $suite == bookworm ]] && continue
	"$root/scripts/suite.sh" root "$suite" >/dev/null &
	pids+=($!)
done
for pid in "${pids[@]}"; do
	wait "$pid"
done

if ! matrix=$("$root/scripts/kernels.sh" 2>/dev/null); then
	apt_update
	matrix=$("$root/scripts/kernels.sh")
fi

want=("${tools[@]}")
others=()
while read -r _ rel suite _; do
	if [[ $suite == bookworm ]]; then
		want+=("linux-headers-$rel")
	else
		others+=("$suite:$rel")
	fi
done <<<"$matrix"

missing=()
for p in "${want[@]}"; do
	installed "$p" || missing+=("$p")
done

if ((${#missing[@]})); then
	# Stale lists (a package unknown, or a version gone from the mirror)
	# are cured by one update and a retry.
	if ! apt-cache show "${missing[@]}" >/dev/null 2>&1; then
		apt_update
	fi
	echo "setup.sh: installing ${missing[*]}" >&2
	if ! apt-get install -y -q --no-install-recommends "${missing[@]}"; then
		[[ $updated == 0 ]] || exit 1
		apt_update
		apt-get install -y -q --no-install-recommends "${missing[@]}"
	fi
fi
# The other suites' kernels: headers in their chroots.
# Each suite's missing headers in one apt run, the suites side by side.
declare -A headers=()
for o in "${others[@]}"; do
	suite=${o%%:*} rel=${o#*:}
	sroot=$("$root/scripts/suite.sh" root "$suite")
	[[ -d $sroot/usr/src/linux-headers-$rel ]] ||
		headers[$suite]+=" linux-headers-$rel"
done
pids=()
for suite in "${!headers[@]}"; do
	echo "setup.sh: installing${headers[$suite]} in the $suite chroot" >&2
	# shellcheck disable=SC2086 # package names, one word each
	"$root/scripts/suite.sh" install "$suite" ${headers[$suite]} &
	pids+=($!)
done
for pid in "${pids[@]}"; do
	wait "$pid"
done
echo "setup.sh: ready for kernels: $(awk '{ printf "%s%s", sep, $2; sep = " " }' <<<"$matrix")" >&2
