#!/bin/bash
# Run every test: the host's static checks (scripts/lint.sh), then for
# each supported kernel build (by default: DKMS-install) mmfree and run the
# guest suite in a QEMU VM (tests/vm.sh), then the NUMA test in a second
# boot with two NUMA nodes (the suite's guest has one).  --test and --demo
# skip the static checks; --test runs only the boot its tests need.
#
# Usage: tests/run.sh [--kernel 6.1|6.12|KVER] [--test NAME] [vm.sh options]
# Env: MMFREE_BUILD_MODULE = command run as "CMD KVER" that builds the module
#      and prints its path on its last stdout line (default
#      scripts/build-module.sh); MMFREE_KERNELS overrides the kernel list;
#      MMFREE_VM_JOBS = guests booted at once (default: host CPUs).
# Last line of output: "N passed, N failed" over all kernels; exit status 0
# only if nothing failed.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${MMFREE_BUILD_MODULE:-$root/scripts/build-module.sh}

kernel='' vmargs=() host=1 demo=0 test=''
while (($#)); do
	case "$1" in
	--kernel) kernel=${2:?}; shift 2 ;;
	--test) vmargs+=("$1" "${2?}"); test=${2?}; host=0; shift 2 ;;
	--mem | --smp | --append | --timeout) vmargs+=("$1" "${2?}"); shift 2 ;;
	--demo) vmargs+=("$1"); host=0; demo=1; shift ;;
	-h | --help) sed -n '5,10s/^# \?//p' "$0" >&2; exit 2 ;;
	*) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done

# Tests that declare "# needs: numa=2" (tests/guest/runner.sh) run in a
# second boot with two NUMA nodes; the names of those --test selects.
# Test names (from their files on stdin) that --test selects: those that
# contain it, or one of its comma-separated words.
test_names() {
	sed -E 's|.*/[0-9]+-||; s|\.sh$||' | grep -F -e "${test//,/$'\n'}" || true
}
selected=$(printf '%s\n' "$root"/tests/guest/tests/*.sh | test_names)
numa_tests=$(grep -l '^# needs:.*numa=2' "$root"/tests/guest/tests/*.sh | test_names)

# Guests booted at once (see the module builds below), checked before
# anything runs.
vm_jobs=${MMFREE_VM_JOBS:-$(nproc)}
((!demo)) || vm_jobs=1	# a demo is watched: one console at a time
[[ $vm_jobs =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: MMFREE_VM_JOBS must be a positive number" >&2; exit 2; }

case "$kernel" in
'' | 6.1 | 6.12) kernels=$("$root/scripts/kernels.sh" ${kernel:+"$kernel"}) ;;
*) kernels=$kernel ;;
esac

[[ -x $build ]] || command -v "$build" >/dev/null ||
	{ echo "run.sh: no module build script $build (set MMFREE_BUILD_MODULE)" >&2; exit 2; }

lines=() total_pass=0 total_fail=0 host_pass=0 host_fail=0
if ((host)); then
	echo "run.sh: === static checks ===" >&2
	lint=$("$root/scripts/lint.sh") || true
	echo "$lint" >&2
	host_pass=$(grep -c '^ok ' <<<"$lint" || true)
	host_fail=$(grep -c '^FAIL ' <<<"$lint" || true)
	((host_pass + host_fail > 0)) || host_fail=1
fi

# mmfreectl for the guests: vm.sh copies build/guest-bin/ into /mmfree,
# which is on the guest's PATH (Debian 12 as here: the same libkmod).  The
# example /etc/modprobe.d file goes along for the test that uses it.
guest_bin=$root/build/guest-bin
rm -f "$guest_bin/mmfreectl"
mkdir -p "$guest_bin/etc/modprobe.d"
cp "$root/etc/modprobe.d/mmfree.conf" "$guest_bin/etc/modprobe.d/"
if ! make -s -C "$root" MMFREECTL=build/guest-bin/mmfreectl mmfreectl >&2; then
	echo "run.sh: building mmfreectl failed" >&2
	lines+=("mmfreectl build: 0 passed, 1 failed")
	total_fail=$((total_fail + 1))
fi
"$root/scripts/guest-bin.sh" "$guest_bin" || { lines+=("guest test programs build: 0 passed, 1 failed"); total_fail=$((total_fail + 1)); }

# Build every kernel's module first, then boot the guests side by side:
# single-threaded TCG keeps one host CPU busy per guest, so on 2 or more
# CPUs both kernels take about as long as one.  MMFREE_VM_JOBS=1 runs
# them one after another.  Each built module is copied aside: the next
# DKMS install (scripts/dkms.sh) removes the previous kernel's.
results=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$results"' EXIT
i=0
for k in $kernels; do
	i=$((i + 1))
	mkdir "$results/$i"
	echo "run.sh: === $k: module ===" >&2
	# The build's last stdout line is the module path; show the rest.
	if out=$("$build" "$k"); then
		module=$(tail -n 1 <<<"$out")
		head -n -1 <<<"$out" >&2
	else
		module=
		echo "$out" >&2
	fi
	if [[ -z $module || ! -f $module ]]; then
		echo "run.sh: building the module for $k failed" >&2
		echo "$k: 0 passed, 1 failed (module build failed)" >"$results/$i/summary"
		continue
	fi
	((!host)) || host_pass=$((host_pass + 1))
	cp "$module" "$results/$i/"
done

i=0 running=0
for k in $kernels; do
	i=$((i + 1))
	module=$(find "$results/$i" -name 'mmfree.ko*' | head -n 1)
	[[ -n $module ]] || continue
	if ((running >= vm_jobs)); then
		wait -n || true
		running=$((running - 1))
	fi
	echo "run.sh: === $k: guest ===" >&2
	# vm.sh's last stdout line is its summary; its exit status is implied
	# by the counts.  Its progress goes to stderr, each line marked with
	# the kernel when guests run side by side.
	(
		boot() {
			if ((vm_jobs > 1)); then
				"$root/tests/vm.sh" --kernel "$k" --module "$module" "$@" \
					2> >(sed -u "s/^/[$k] /" >&2)
			else
				"$root/tests/vm.sh" --kernel "$k" --module "$module" "$@"
			fi | tail -n 1 >>"$results/$i/summary"
		}
		main=1 numa=1
		[[ -n $numa_tests ]] || numa=0
		((!demo)) || numa=0
		# --test naming only NUMA tests needs only the NUMA boot.
		if [[ -n $test && -n $numa_tests ]] && ! grep -qvxF -f <(echo "$numa_tests") <<<"$selected"; then
			main=0
		fi
		echo $((main + numa)) >"$results/$i/boots"
		# A failed boot is in its summary line; the next one still runs.
		((!main)) || boot "${vmargs[@]}" || true
		((!numa)) || boot "${vmargs[@]}" --numa 2 --smp 2 --append mmfree_needs=numa || true
	) &
	running=$((running + 1))
done
wait || true

i=0
for k in $kernels; do
	i=$((i + 1))
	boots=$(cat "$results/$i/boots" 2>/dev/null || echo 1)
	got=0
	while IFS= read -r line; do
		[[ $line =~ ^"$k"(" ("[0-9]+" NUMA nodes)")?": "([0-9]+)" passed, "([0-9]+)" failed" ]] ||
			line="$k: 0 passed, 1 failed (vm.sh gave no result)"
		lines+=("$line")
		[[ $line =~ ([0-9]+)" passed, "([0-9]+)" failed" ]]
		total_pass=$((total_pass + BASH_REMATCH[1]))
		total_fail=$((total_fail + BASH_REMATCH[2]))
		got=$((got + 1))
	done < <(cat "$results/$i/summary" 2>/dev/null || true)
	for ((; got < boots; got++)); do
		lines+=("$k: 0 passed, 1 failed (vm.sh gave no result)")
		total_fail=$((total_fail + 1))
	done
done

((!host)) || lines=("host (lint, module builds): $host_pass passed, $host_fail failed" "${lines[@]}")
total_pass=$((total_pass + host_pass))
total_fail=$((total_fail + host_fail))
printf '%s\n' "${lines[@]}"
echo "$total_pass passed, $total_fail failed"
((total_fail == 0))
