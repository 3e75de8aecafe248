#!/bin/bash
# Run every test: the host's static checks (scripts/lint.sh), vm.sh's boot
# watchdog (tests/host/vm-stall.sh, beside the module builds), then for
# each kernel of the matrix (scripts/kernels.sh) build (by default:
# DKMS-install, in the kernel's own suite) mmfree, then boot QEMU VMs
# (tests/vm.sh): the guest suite; the NUMA tests in a boot with two NUMA
# nodes; on the kernels the matrix marks "+packages" (one per Debian
# release), the package test (mmfree-dkms and mmfreectl from
# scripts/deb.sh installed with apt, a second kernel, purge).  A kernel
# the matrix marks "subset" runs SUBSET only (no NUMA boot): a build of a
# kernel that runs everything, where only the compiler and configuration
# differ; one marked "flavour" runs FLAVOUR, less again: another
# configuration of a subset kernel's build.  Tests marked "# runs: once"
# (what does not depend on the kernel: mmfreectl, the sysfs surface) run
# on the first kernel only.  The boots, longest first, share MMFREE_VM_JOBS lanes;
# the end prints each lane's boots and times.  --test and --demo skip
# the static checks; --test runs only the boots its tests need.
#
# Usage: tests/run.sh [--kernel ID|KVER[,...]] [--test NAME[,NAME...]]
#                     [vm.sh options]
# Env: MMFREE_BUILD_MODULE = command run as "CMD KVER" that builds the module
#      and prints its path on its last stdout line, and as "CMD --helper
#      KVER" the same for the tests' helper module (default
#      scripts/build-module.sh); MMFREE_KERNELS overrides the kernel list;
#      MMFREE_VM_JOBS = guests booted at once (default: host CPUs: a TCG
#      guest keeps a CPU busy; a third guest on 2 CPUs slowed each by 1.8x).
# Output: one "ID RELEASE: N passed, N failed" line per boot, then a last
# line "N passed, N failed" over all; exit status 0 only if nothing failed.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../scripts/help.sh
. "$root/scripts/help.sh"
help_if_asked "$@"
build=${MMFREE_BUILD_MODULE:-$root/scripts/build-module.sh}

# What a "subset" kernel runs: the module loads, its checks, page freeing
# and percpu at work, toggling under load.
SUBSET=smoke,kernel-symbols,btf-checks,pagefree-leak,pagefree-cow,pagefree-shared-file,pagefree-hugetlb,pagefree-toggle-churn,percpu-reclaims,percpu-float,percpu-sidelined
# What a "flavour" kernel runs: another configuration of a subset
# kernel's build (same source, same compiler), where what can differ is
# which symbols and fields the build has and whether the features work.
FLAVOUR=smoke,kernel-symbols,btf-checks,pagefree-leak,percpu-reclaims,percpu-float,percpu-sidelined

kernel='' vmargs=() host=1 demo=0 test=''
while (($#)); do
	case "$1" in
	--kernel) kernel=${2:?}; shift 2 ;;
	--test) test=${2?}; host=0; shift 2 ;;
	--mem | --smp | --append | --timeout) vmargs+=("$1" "${2?}"); shift 2 ;;
	--demo) vmargs+=("$1"); host=0; demo=1; shift ;;
	*) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done

# Tests that declare "# needs: numa=2" or "# needs: cma"
# (tests/guest/runner.sh) run in a second boot with two NUMA nodes and a
# CMA area (cma=256M: sid's kernel has CMA, Debian's 6.1 and 6.12 do not
# and ignore it); the names of those --test selects.
# Test names (from their files on stdin) that --test selects: those that
# contain it, or one of its comma-separated words.
test_names() {
	sed -E 's|.*/[0-9]+-||; s|\.sh$||' | grep -F -e "${test//,/$'\n'}" || true
}
selected=$(printf '%s\n' "$root"/tests/guest/tests/*.sh | test_names)
numa_tests=$(grep -lE '^# needs:.*(numa=2|\<cma\>)' "$root"/tests/guest/tests/*.sh | test_names)
pkg_tests=$(grep -l '^# needs:.*packages' "$root"/tests/guest/tests/*.sh | test_names)
rt_tests=$(grep -lx '# needs: rt' "$root"/tests/guest/tests/*.sh | test_names)
# Whether the package test runs (on the kernels the matrix marks
# "+packages"): it is selected, and this is no demo.
pkg_wanted=1
((!demo)) && [[ -n $pkg_tests ]] || pkg_wanted=0
[[ -z $test ]] || grep -qxF -f <(echo "$pkg_tests") <<<"$selected" || pkg_wanted=0

# Guests booted at once (see the module builds below), checked before
# anything runs.
vm_jobs=${MMFREE_VM_JOBS:-$(nproc)}
((!demo)) || vm_jobs=1	# a demo is watched: one console at a time
[[ $vm_jobs =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: MMFREE_VM_JOBS must be a positive number" >&2; exit 2; }

# ID RELEASE SUITE RUNS, one kernel per line.
matrix=$("$root/scripts/kernels.sh" ${kernel:+${kernel//,/ }})

[[ -x $build ]] || command -v "$build" >/dev/null ||
	{ echo "run.sh: no module build script $build (set MMFREE_BUILD_MODULE)" >&2; exit 2; }

lines=() total_pass=0 total_fail=0 host_pass=0 host_fail=0
run_t0=$SECONDS static_s=0

# The kernels' images and the root filesystems the boots need, fetched
# and built in the background while the static checks and the module
# builds run: mostly downloads and dpkg, which a lane would otherwise
# wait for at its first boot.  vm.sh finds them ready, or waits on their
# locks; a failure here shows again, and is counted, in that boot.
prefetch() {
	local id k suite runs
	"$root/scripts/mkrootfs.sh"
	while read -r id k suite runs; do
		"$root/scripts/fetch-kernel.sh" "$k"
		((!pkg_wanted)) || [[ $runs != *+packages ]] ||
			"$root/scripts/mkrootfs.sh" packages "$k" "${k%-amd64}-cloud-amd64"
	done <<<"$matrix"
}
prefetch_log=$(mktemp)
prefetch >"$prefetch_log" 2>&1 &
prefetch_pid=$!
if ((host)); then
	echo "run.sh: === static checks ===" >&2
	lint=$("$root/scripts/lint.sh") || true
	echo "$lint" >&2
	host_pass=$(grep -c '^ok ' <<<"$lint" || true)
	host_fail=$(grep -c '^FAIL ' <<<"$lint" || true)
	((host_pass + host_fail > 0)) || host_fail=1
	static_s=$((SECONDS - run_t0))
fi

# vm.sh's boot watchdog (tests/host/vm-stall.sh) with the module the
# static checks built for the first kernel, in the background while the
# modules build: its guest sleeps most of the time.
stall_pid=''
if ((host)); then
	stall_log=$(mktemp)
	k=$(awk '{ print $2; exit }' <<<"$matrix")
	"$root/tests/host/vm-stall.sh" "$k" "$root/build/lint/$k/mmfree.ko" >"$stall_log" 2>&1 &
	stall_pid=$!
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
# The packages (make deb: built, then lintian), for the package test.
rm -rf "$guest_bin/debs"
if ((pkg_wanted)); then
	echo "run.sh: === packages (scripts/deb.sh) ===" >&2
	if "$root/scripts/deb.sh" >&2; then
		mkdir "$guest_bin/debs"
		cp "$root"/build/deb/mmfree-dkms_*.deb "$root"/build/deb/mmfreectl_*.deb "$guest_bin/debs/"
		# The package test runs the README's own commands.
		cp "$root/README.md" "$guest_bin/"
		host_pass=$((host_pass + 1))
	else
		echo "run.sh: make deb failed" >&2
		host_fail=$((host_fail + 1))
		pkg_tests=''
	fi
fi

# Build every kernel's module first, then boot the guests side by side:
# single-threaded TCG keeps one host CPU busy per guest, so on 2 CPUs two
# kernels take about as long as one.  MMFREE_VM_JOBS=1 runs them one
# after another.  Each built module is copied aside: the next DKMS install
# (scripts/dkms.sh) removes the previous kernel's.
results=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$results"' EXIT
build_t0=$SECONDS
i=0
while read -r id k suite runs; do
	i=$((i + 1))
	mkdir "$results/$i"
	echo "$id $k $runs" >"$results/$i/kernel"
	echo "run.sh: === $id ($k, $suite): module ===" >&2
	# A kernel mmfree refuses (PREEMPT_RT): DKMS must not build it
	# (dkms.conf), and the boot loads a Kbuild build, which must refuse
	# to load.
	if [[ $runs == rt ]]; then
		if out=$(MMFREE_BUILD=dkms "$root/scripts/build-module.sh" "$k" 2>&1); then
			echo "$k (DKMS): 0 passed, 1 failed (DKMS built mmfree for PREEMPT_RT)" >"$results/$i/pre"
		elif grep -q BUILD_EXCLUSIVE <<<"$out"; then
			echo "$k (DKMS): 1 passed, 0 failed (refused: BUILD_EXCLUSIVE_CONFIG)" >"$results/$i/pre"
		else
			echo "$out" >&2
			echo "$k (DKMS): 0 passed, 1 failed (DKMS failed otherwise)" >"$results/$i/pre"
		fi
		cat "$results/$i/pre" >&2
	fi
	how=${MMFREE_BUILD:-dkms}
	[[ $runs != rt ]] || how="make"
	# The build's last stdout line is the module path; show the rest.
	if out=$(MMFREE_BUILD=$how "$build" "$k"); then
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
	# Keep the name modprobe finds it by (.ko, or .ko.xz from dkms).
	cp "$module" "$results/$i/mmfree.ko${module##*.ko}"
	# The tests' helper module, for the kernels that run the whole suite.
	[[ $runs != subset* && $runs != flavour && $runs != rt ]] || continue
	if out=$("$build" --helper "$k"); then
		cp "$(tail -n 1 <<<"$out")" "$results/$i/"
	else
		echo "$out" >&2
		echo "run.sh: building the test helper module for $k failed" >&2
	fi
done <<<"$matrix"
build_s=$((SECONDS - build_t0))
if [[ -n $stall_pid ]]; then
	if wait "$stall_pid"; then
		host_pass=$((host_pass + 1))
	else
		echo "run.sh: tests/host/vm-stall.sh failed:" >&2
		cat "$stall_log" >&2
		host_fail=$((host_fail + 1))
	fi
	rm -f "$stall_log"
fi

# The boots of kernel $1 (its results directory), one line each in the
# queue: "WEIGHT I KIND vm.sh-args...".  KIND main is the suite (or the
# subset), numa the 2-node boot, packages the package test; the first
# kernel's main boot also runs the "once" tests.  WEIGHT is a boot's
# expected length in seconds (measured with both lanes busy), for the order.
queue_boots() {	# i
	local id k runs main=1 numa=1 pkg=$pkg_wanted sel w args list
	read -r id k runs <"$results/$1/kernel"
	if [[ $runs == rt ]]; then
		sel=$rt_tests
		[[ -z $test ]] || sel=$(grep -xF -f <(echo "$rt_tests") <<<"$selected" || true)
		((demo)) || [[ -z $sel ]] ||
			echo "30 $1 rt$(quote --test "$(paste -sd, <<<"$sel")" \
				--append mmfree_needs=rt "${vmargs[@]}")"
		return
	fi
	sel=$test
	if [[ $runs == subset* || $runs == flavour ]]; then
		list=$SUBSET
		[[ $runs != flavour ]] || list=$FLAVOUR
		sel=${test:-$list}
		[[ -z $test ]] || sel=$(tr , '\n' <<<"$list" | grep -xF -f <(tr , '\n' <<<"$test") | paste -sd, || true)
		[[ -n $sel ]] || main=0
		numa=0
	fi
	[[ -n $numa_tests ]] || numa=0
	((!demo)) || numa=0
	[[ $runs == *+packages ]] || pkg=0
	# --test naming only NUMA, package or RT tests needs only their boots.
	# shellcheck disable=SC2086 # lists of names, one per word
	if [[ -n $test ]] && ! grep -qvxF -f <(printf '%s\n' $numa_tests $pkg_tests $rt_tests) <<<"$selected"; then
		main=0
	fi
	w=1020
	[[ $runs != subset* ]] || w=250
	[[ $runs != flavour ]] || w=150
	# The first kernel's suite carries the "once" tests too.
	if (($1 == 1)) && [[ -z $test ]]; then
		w=1060
	fi
	if ((main)); then
		args=(${sel:+--test "$sel"})
		(($1 != 1)) || args+=(--append mmfree_once=1)
		echo "$w $1 main$(quote "${args[@]}" "${vmargs[@]}")"
	fi
	# Two nodes of a CPU each, and a CPU-less one (pagefree-numa).
	((!numa)) || echo "180 $1 numa$(quote ${test:+--test "$test"} --numa 2 --smp 2 \
		--memnode 256 --append mmfree_needs=numa --append cma=256M "${vmargs[@]}")"
	# The package rootfs lives in the guest's RAM (up to 900 MB
	# unpacked) beside the README's 2 GiB workload: 5 GiB.
	((!pkg)) || echo "510 $1 packages$(quote ${test:+--test "$test"} --rootfs packages --mem 5G \
		--append mmfree_needs=packages "${vmargs[@]}")"
}

# Each argument, quoted for eval; nothing for none (printf ' %q' with no
# argument prints an empty word, which vm.sh refuses).
quote() {
	(($# == 0)) || printf ' %q' "$@"
}

# vm.sh's last stdout line is its summary; its exit status is implied by
# the counts (and must not end the lane: set -e, pipefail).  Its progress goes to stderr, each line marked with the
# kernel and boot when guests run side by side.
boot() {	# lane i kind vm.sh-args...
	local lane=$1 i=$2 kind=$3 id k runs module helper t0 tag
	shift 3
	read -r id k runs <"$results/$i/kernel"
	module=$(find "$results/$i" -name 'mmfree.ko*' | head -n 1)
	# The helper module goes to the main boot only: the package test
	# checks that nothing named mmfree is left after the purge.
	helper=$(find "$results/$i" -name 'mmfree_test_*.ko' | head -n 1)
	[[ -z $helper || $kind != main ]] || set -- --helper "$helper" "$@"
	tag=$id
	[[ $kind == main ]] || tag+=" $kind"
	t0=$SECONDS
	if ((vm_jobs > 1)); then
		"$root/tests/vm.sh" --kernel "$k" --module "$module" "$@" \
			2> >(sed -u "s/^/[$tag] /" >&2)
	else
		"$root/tests/vm.sh" --kernel "$k" --module "$module" "$@"
	fi | tail -n 1 >"$results/$i/summary.$kind" || true
	echo "$lane $((SECONDS - t0))" >"$results/$i/time.$kind"
}

# Every boot, longest first, on vm_jobs lanes: each lane takes the next
# boot from the queue when its last one ends (a boot list, not a kernel
# list, so one kernel's boots may run side by side).
n=$i
for ((i = 1; i <= n; i++)); do
	[[ -n $(find "$results/$i" -name 'mmfree.ko*') ]] || continue
	queue_boots "$i" | tee "$results/$i/boots"
done | sort -rn -k1,1 >"$results/queue"
lane() {	# lane
	local line
	while :; do
		# A lock file of its own: sed -i replaces the queue's inode.
		# shellcheck disable=SC2016 # the inner shell expands $1
		line=$(flock "$results/queue.lock" sh -c 'head -n 1 "$1"; sed -i 1d "$1"' _ "$results/queue")
		[[ -n $line ]] || return 0
		# The line's arguments were quoted with printf %q.  A failed
		# boot is in its summary line; the lane goes on.
		eval "boot $1 ${line#* }" || true
	done
}
prefetch_t0=$SECONDS
wait "$prefetch_pid" || { echo "run.sh: fetching kernels or building root filesystems failed:" >&2; cat "$prefetch_log" >&2; }
rm -f "$prefetch_log"
echo "run.sh: kernels and root filesystems ready ($((SECONDS - prefetch_t0)) s after the module builds)" >&2
boots_t0=$SECONDS
for ((l = 1; l <= vm_jobs; l++)); do
	lane "$l" &
done
wait || true
boots_s=$((SECONDS - boots_t0))

for ((i = 1; i <= n; i++)); do
	read -r id k runs <"$results/$i/kernel"
	# What was checked before the boots (DKMS refusing PREEMPT_RT).
	if [[ -f $results/$i/pre ]]; then
		line=$(cat "$results/$i/pre")
		lines+=("$id $line")
		[[ $line =~ ([0-9]+)" passed, "([0-9]+)" failed" ]]
		total_pass=$((total_pass + BASH_REMATCH[1]))
		total_fail=$((total_fail + BASH_REMATCH[2]))
	fi
	# Its module did not build: no boot, one failure.
	if [[ -f $results/$i/summary ]]; then
		lines+=("$id $(cat "$results/$i/summary")")
		total_fail=$((total_fail + 1))
		continue
	fi
	while read -r _ _ kind _; do
		line=$(cat "$results/$i/summary.$kind" 2>/dev/null || true)
		[[ $line =~ ^"$k"(" ("([0-9]+" NUMA nodes"|"packages")")")?": "([0-9]+)" passed, "([0-9]+)" failed" ]] ||
			line="$k ($kind): 0 passed, 1 failed (vm.sh gave no result)"
		lines+=("$id $line")
		[[ $line =~ ([0-9]+)" passed, "([0-9]+)" failed" ]]
		total_pass=$((total_pass + BASH_REMATCH[1]))
		total_fail=$((total_fail + BASH_REMATCH[2]))
	done < <(cat "$results/$i/boots" 2>/dev/null || true)
done

# Where the time went: the budget of CI's run is kept in sight.
{
	echo "run.sh: time: static checks ${static_s}s, module builds ${build_s}s, boots ${boots_s}s on $vm_jobs lanes, all $((SECONDS - run_t0))s"
	for ((l = 1; l <= vm_jobs; l++)); do
		for f in "$results"/*/time.*; do
			[[ -f $f ]] || continue
			read -r fl secs <"$f"
			((fl == l)) || continue
			kind=${f##*/time.}
			read -r id _ <"${f%/*}/kernel"
			echo "$id $kind ${secs}s"
		done | awk -v l="$l" '{ t += $3; s = s sep $0; sep = ", " }
			END { printf "run.sh: lane %d: %ds: %s\n", l, t, s }'
	done
} >&2

((!host)) || lines=("host (lint, module builds): $host_pass passed, $host_fail failed" "${lines[@]}")
total_pass=$((total_pass + host_pass))
total_fail=$((total_fail + host_fail))
printf '%s\n' "${lines[@]}"
echo "$total_pass passed, $total_fail failed"
((total_fail == 0))
