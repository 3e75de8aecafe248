#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run the guest test suite (tests/guest/) on THIS machine, against the
# mmfree module installed for the running kernel (make dkms-install), as
# tests/run.sh runs it in a VM; judge it from its KTAP report and the
# kernel log.
#
# Run it on a disposable machine only: the tests load and unload mmfree,
# allocate most of the memory (OOM kills included), create memory
# cgroups, change THP, sysctls and the workqueue CPU mask, swap on zram,
# write and remove /etc/modprobe.d/mmfree.conf, move the module file aside
# for a moment and clear the kernel log.
#
# Usage: tests/installed.sh [--test LIST] [--no-build]
#   --test LIST  only the tests whose name contains LIST, or one of its
#                comma-separated words (as tests/run.sh --test)
#   --no-build   use the test programs and mmfreectl already in
#                build/guest-bin (for a machine without a compiler)
# Needs root, the module installed and not loaded, the guest's tools
# (jq, stress-ng: scripts/mkrootfs.sh) and, to build, gcc, make,
# pkg-config and libkmod-dev.  Refuses with exit status 2 and one line on
# stderr when it cannot run.  Prints the KTAP report, then any kernel
# splat (tests/guest/splat.awk) logged during the run, which counts as
# one failure; last line "N passed, N failed"; exit 0 only if 0 failed.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../scripts/help.sh
. "$root/scripts/help.sh"
help_if_asked "$@"
guest=$root/tests/guest
bin=$root/build/guest-bin

refuse() {
	echo "installed.sh: $*" >&2
	exit 2
}

test='' build=1
while (($#)); do
	case "$1" in
	--test) test=${2?}; shift 2 ;;
	--no-build) build=0; shift ;;
	*) refuse "unknown argument $1 (see --help)" ;;
	esac
done

[[ $(id -u) == 0 ]] || refuse "run as root: the tests load mmfree and change the system"
modinfo mmfree >/dev/null 2>&1 ||
	refuse "no mmfree module installed for $(uname -r) (make dkms-install)"
[[ ! -d /sys/module/mmfree ]] ||
	refuse "mmfree is loaded: unload it first (mmfreectl unload)"

# The programs the tests run, first on PATH (as /mmfree is in the VM).
if ((build)); then
	"$root/scripts/guest-bin.sh" "$bin" >&2 || refuse "building the test programs failed"
	make -s -C "$root" MMFREECTL=build/guest-bin/mmfreectl mmfreectl >&2 ||
		refuse "building mmfreectl failed"
fi
for p in "$guest"/bin-src/*.c mmfreectl; do
	p=$(basename "$p" .c)
	[[ -x $bin/$p ]] || refuse "no $bin/$p (run without --no-build)"
done
for c in jq stress-ng; do
	command -v "$c" >/dev/null ||
		echo "installed.sh: no $c on this machine: the tests that use it fail" >&2
done
export PATH=$bin:$PATH LC_ALL=C.UTF-8
# One machine, one kernel: the tests marked "runs: once" run here too.
export MMFREE_TEST=$test MMFREE_NEEDS='' MMFREE_ONCE=1 MMFREE_TESTS=$guest/tests

work=$(mktemp -d)
follower=
cleanup() {
	[[ -z $follower ]] || kill "$follower" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

# The kernel log, followed through /dev/kmsg: the tests clear the log
# (dmesg -C), which a follower does not see.  What counts is what comes
# after a marker written to the log before the suite; another at the end
# shows that the follower has read everything.
tag="tests/installed.sh: run $$.$(date +%s)"
dmesg --follow >"$work/kmsg" 2>&1 &
follower=$!
mark() {	# word: log it and wait until the follower has it
	local i
	echo "$tag $1" >/dev/kmsg
	for ((i = 0; i < 100; i++)); do
		! grep -qF "$tag $1" "$work/kmsg" || return 0
		sleep 0.1
	done
	return 1
}
followed=1
mark starts || followed=0

# The suite, in a scratch directory (the VM's is /tmp); its KTAP report
# on stdout.
(cd "$work" && "$guest/runner.sh" </dev/null 2>&1) | tee "$work/ktap" || true

mark ends || followed=0
kill "$follower" 2>/dev/null || true
wait "$follower" 2>/dev/null || true
follower=

# A test that failed half-way may leave the module loaded.
if [[ -d /sys/module/mmfree ]]; then
	echo "installed.sh: mmfree left loaded by the tests: removing it" >&2
	modprobe -r mmfree || true
fi

# The verdict, as tests/vm.sh gives it.
ktap=$work/ktap
# shellcheck source=guest/ktap-verdict.sh
. "$guest/ktap-verdict.sh"
ktap_count "$ktap"
splats=$(awk -v m="$tag starts" 'on; index($0, m) { on = 1 }' "$work/kmsg" |
	awk -f "$guest/splat.awk" || true)

reasons=()
((followed)) || reasons+=("the kernel log could not be followed (dmesg --follow)")
[[ -z $splats ]] || reasons+=("kernel splat: $(head -n 1 <<<"$splats")")
ktap_verdict "$test"

if [[ -n $splats ]]; then
	echo "---- kernel splats during the run ----"
	echo "$splats"
	echo "----"
fi
[[ -z $notok ]] || echo "installed.sh: not ok: $notok" >&2
((${#reasons[@]} == 0)) || printf 'installed.sh: %s\n' "${reasons[@]}" >&2
((skipped == 0)) || echo "installed.sh: $skipped skipped" >&2
echo "$passed passed, $failed failed"
((failed == 0))
