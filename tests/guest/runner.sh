#!/bin/sh
# Run the guest tests (MMFREE_TESTS, by default tests/*.sh beside this
# script) in name order and report KTAP on stdout. A test's name is its
# file name without ".sh" and without a leading "NN-"; MMFREE_TEST (from
# mmfree_test= on the kernel command line) keeps only the tests whose
# name contains it (or one of its comma-separated words).
# A test declares what the machine must have in a line "# needs: numa=N"
# (N NUMA nodes), "# needs: cma" (a CMA area: the 2-node boot has one),
# "# needs: packages" (the package test's root
# filesystem: DKMS, a compiler, headers, no module installed) or "# needs:
# rt" (a PREEMPT_RT kernel).  With MMFREE_NEEDS=numa, =packages or =rt
# (mmfree_needs= on the kernel command line: the 2-node boot, with its
# CMA area, and the package and RT boots of tests/run.sh) only such tests
# run; otherwise a test whose
# needs this machine does not meet is skipped.
# A test marked "# runs: once" does not depend on the kernel (the
# mmfreectl tool, the sysfs surface): tests/run.sh runs it on the first
# kernel of its matrix only (MMFREE_ONCE=1, from mmfree_once=1); without
# MMFREE_ONCE it is skipped.
# Exit status of a test: 0 = ok, 77 = skip (reason = its last output line),
# anything else = not ok. Each test gets MMFREE_TEST_TIMEOUT seconds (600),
# or what it declares in a line "# timeout: SECONDS".
# The tests find lib.sh and the other files here through MMFREE_GUEST:
# this script's directory, wherever it is (/mmfree in the VM, the
# checkout's tests/guest for tests/installed.sh).

MMFREE_GUEST=$(cd "$(dirname "$0")" && pwd)
export MMFREE_GUEST
dir=${MMFREE_TESTS:-$MMFREE_GUEST/tests}
timeout_s=${MMFREE_TEST_TIMEOUT:-600}
work=$(mktemp -d)

name_of() {
	n=$(basename "$1" .sh)
	echo "$n" | sed -E 's/^[0-9]+-//'
}

# NUMA nodes a test needs (0: none).
numa_need() {
	sed -n 's/^# needs:.*numa=\([0-9]*\).*/\1/p' "$1" | head -n 1 | grep . || echo 0
}

# Whether a test needs the boot with a CMA area (cma= on the command line).
cma_need() {
	grep -qE '^# needs:.*\<cma\>' "$1"
}

# "packages" or "rt" if a test needs that boot of its own.
pkg_need() {
	sed -n 's/^# needs:.*\(packages\|rt\).*/\1/p' "$1" | head -n 1
}

nodes=0
for n in /sys/devices/system/node/node[0-9]*; do
	[ ! -d "$n" ] || nodes=$((nodes + 1))
done

# Collect the selected tests first: the plan line comes before any result.
: >"$work/list"
for t in "$dir"/*.sh; do
	[ -f "$t" ] || continue
	n=$(name_of "$t")
	selected=0
	for want in $(echo "$MMFREE_TEST" | tr , ' '); do
		case "$n" in
		*"$want"*) selected=1 ;;
		esac
	done
	[ -z "$MMFREE_TEST" ] || [ $selected = 1 ] || continue
	need=$(numa_need "$t")
	if [ "${MMFREE_NEEDS:-}" = numa ] && [ "$need" = 0 ] && ! cma_need "$t"; then
		continue
	fi
	case "${MMFREE_NEEDS:-}" in
	packages | rt) [ "$(pkg_need "$t")" = "$MMFREE_NEEDS" ] || continue ;;
	esac
	echo "$t" >>"$work/list"
done

echo "KTAP version 1"
echo "1..$(wc -l <"$work/list")"

i=0
while read -r t; do
	i=$((i + 1))
	n=$(name_of "$t")
	need=$(numa_need "$t")
	if [ "${MMFREE_ONCE:-}" != 1 ] && grep -q '^# runs: once' "$t"; then
		echo "ok $i $n # SKIP does not depend on the kernel: runs once, on the first kernel of the matrix"
		continue
	fi
	boot=$(pkg_need "$t")
	if [ -n "$boot" ] && [ "${MMFREE_NEEDS:-}" != "$boot" ]; then
		echo "ok $i $n # SKIP needs the $boot boot (tests/run.sh runs it there)"
		continue
	fi
	if cma_need "$t" && [ "${MMFREE_NEEDS:-}" != numa ]; then
		echo "ok $i $n # SKIP needs the boot with a CMA area (tests/run.sh runs it in the 2-node boot)"
		continue
	fi
	if [ "$need" -gt "$nodes" ]; then
		echo "ok $i $n # SKIP needs $need NUMA nodes, this machine has $nodes (tests/run.sh runs it in a $need-node boot)"
		continue
	fi
	limit=$(sed -n 's/^# timeout: *\([0-9][0-9]*\)$/\1/p' "$t" | head -n 1)
	limit=${limit:-$timeout_s}
	echo "# $n: start"
	t0=$(date +%s)
	# The test's output streams as diagnostics; its status comes back
	# through a file because a pipeline only reports the last command's.
	{
		if [ -x "$t" ]; then
			timeout -k 10 "$limit" "$t" </dev/null 2>&1
		else
			timeout -k 10 "$limit" sh "$t" </dev/null 2>&1
		fi
		echo $? >"$work/rc"
	} | tee "$work/out" | sed -u 's/^/# /'
	rc=$(cat "$work/rc")
	echo "# $n: $(($(date +%s) - t0)) s"
	case "$rc" in
	0) echo "ok $i $n" ;;
	77) echo "ok $i $n # SKIP $(tail -n 1 "$work/out")" ;;
	124 | 137) echo "# $n: timed out after ${limit}s"; echo "not ok $i $n" ;;
	*) echo "# $n: exit status $rc"; echo "not ok $i $n" ;;
	esac
done <"$work/list"
rm -rf "$work"
