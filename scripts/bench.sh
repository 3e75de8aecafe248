#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The main job: benchmarks in a VM per kernel, stock against mmfree in one
# boot, written to build/bench/ and printed.
#
#   scripts/bench.sh [--kernel 6.1|6.12] [--a PARENTS] [--b CGROUPS]
#
# --a and --b shrink the percpu patterns (default 1000 parents x 10
# children, and 11000 flat cgroups): under TCG, creating memory cgroups
# with 64 possible CPUs takes minutes per thousand.
#
# Percpu: the guest gets 64 possible CPUs (-smp 64, maxcpus=2 on the
# kernel command line: 64 units per chunk, 2 CPUs running), because the
# percpu footprint scales with possible CPUs; QEMU's hotplug slots
# (maxcpus=) give 6.12 only 2 possible CPUs.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
kernel= append=maxcpus=2
while (($#)); do
	case "$1" in
	--kernel) kernel=${2:?}; shift 2 ;;
	--a) append+=" mmfree_bench_a=${2:?}"; shift 2 ;;
	--b) append+=" mmfree_bench_b=${2:?}"; shift 2 ;;
	*) echo "usage: $0 [--kernel 6.1|6.12] [--a PARENTS] [--b CGROUPS]" >&2; exit 2 ;;
	esac
done

out=$top/build/bench
mkdir -p "$out"
rc=0
for kver in $("$top/scripts/kernels.sh" ${kernel:+"$kernel"}); do
	module=$("$top/scripts/build-module.sh" "$kver" | tail -n 1)
	"$top/tests/vm.sh" --kernel "$kver" --module "$module" \
		--script bench-percpu --smp 64 --append "$append" --mem 6G \
		--timeout 7200 >/dev/null || rc=1
	# The guest's output comes back as KTAP diagnostics; keep the
	# report, not the kernel log lines.
	report=$out/percpu-$kver.md
	{
		echo "## Percpu, $kver"
		echo
		sed -n 's/^# //p' "$top/build/logs/$kver.ktap" | grep -v '^\['
	} >"$report"
	cat "$report"
	echo
done
exit $rc
