#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/vm.sh stops a boot whose guest never starts the suite's /init and
# boots it once more; after two such boots it fails with that reason,
# well before its --timeout.  The guest's /init here is sleep(1), which
# never prints the "mmfree-vm:" line vm.sh waits for, as a kernel that
# hangs while booting never does.
#
# Usage: tests/host/vm-stall.sh KVER MODULE.ko
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../scripts/help.sh
. "$top/scripts/help.sh"
help_if_asked "$@"
[[ $# == 2 && -f $2 ]] || usage_error "a kernel release and a module built for it"
kver=$1 module=$2
limit=30 timeout=600

# A copy left by an earlier run must not pass the console check.
rm -f "$top/build/logs/$kver.console.stalled"
t0=$SECONDS
rc=0
out=$("$top/tests/vm.sh" --kernel "$kver" --module "$module" \
	--boot-limit "$limit" --timeout "$timeout" \
	--append "rdinit=/bin/sleep -- 3600" 2>&1) || rc=$?
took=$((SECONDS - t0))
echo "$out"
echo "vm-stall: vm.sh exited $rc after ${took}s"

st=0
check() {	# what command...
	local what=$1
	shift
	if "$@"; then
		echo "ok: $what"
	else
		echo "FAIL: $what"
		st=1
	fi
}
check "vm.sh fails" test "$rc" -ne 0
check "it booted again once" \
	test "$(grep -c "no /init after ${limit}s, .*booting again" <<<"$out")" = 1
check "its summary gives the reason" \
	grep -q "^$kver: .*no /init after ${limit}s in two boots" <<<"$(tail -n 1 <<<"$out")"
# The kernel's banner, not a later line: beside the module builds on two
# CPUs the first boot may not reach init within the limit.
check "it kept the first boot's console" \
	grep -q "Linux version $kver " "$top/build/logs/$kver.console.stalled"
# Two boots of the limit each, and the start-up: far below --timeout.
check "it stopped the boots itself" test "$took" -lt $((timeout / 2))
exit $st
