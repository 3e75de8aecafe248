#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Stress mmfree in a VM (tests/guest/stress.sh): stress-ng memory
# stressors, knob and mode churn, module reloads, injected allocation
# failures and OOM storms for a bounded time; then no splat, no leak.
# Writes the report to build/stress/KVER.md and prints it.
#
# Usage: scripts/stress.sh [--kernel ID|debug|KVER] [--minutes N]
#                          [--seconds N] [--mem SIZE] [--timeout SEC]
# --kernel debug: the debug kernel of scripts/debug-kernel.sh (KASAN,
# lockdep, kmemleak, failslab), built first if needed (hours; cached).
# Default: 6.1, 2 minutes.  Exit status 0 only if the guest's checks held
# and the console shows no splat.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=help.sh
. "$top/scripts/help.sh"
help_if_asked "$@"

kernel=6.1 minutes=2 seconds='' mem='' timeout_s=''
while (($#)); do
	case "$1" in
	--kernel) kernel=${2:?}; shift 2 ;;
	--minutes) minutes=${2:?}; shift 2 ;;
	--seconds) seconds=${2:?}; shift 2 ;;
	--mem) mem=${2:?}; shift 2 ;;
	--timeout) timeout_s=${2:?}; shift 2 ;;
	-h | --help) help_text; exit 0 ;;
	*) usage_error "unknown argument $1" ;;
	esac
done
[[ $minutes =~ ^[0-9]+$ && ( -z $seconds || $seconds =~ ^[0-9]+$ ) ]] ||
	{ echo "stress.sh: --minutes and --seconds take whole numbers" >&2; exit 2; }
secs=${seconds:-$((minutes * 60))}

debug=0
case "$kernel" in
6.1 | 6.12 | trixie | trixie-cloud | sid) kver=$("$top/scripts/kernels.sh" --releases "$kernel") ;;
debug) kver=$("$top/scripts/debug-kernel.sh" | tail -n 1); debug=1 ;;
*) kver=$kernel ;;
esac
[[ $kver == *-mmfree-debug ]] && debug=1

# The module: Kbuild against the debug kernel's build tree (it has no
# headers package), the usual way (DKMS by default) for a stock kernel.
if ((debug)); then
	kdir=$top/build/cache/kernels/$kver/lib/modules/$kver/build
	[[ -f $kdir/Module.symvers ]] || { echo "stress.sh: no build tree $kdir (make debug-kernel)" >&2; exit 2; }
	module=$(MMFREE_BUILD=make MMFREE_KDIR=$kdir "$top/scripts/build-module.sh" "$kver" | tail -n 1)
else
	module=$("$top/scripts/build-module.sh" "$kver" | tail -n 1)
fi
[[ -f $module ]] || { echo "stress.sh: building mmfree for $kver failed" >&2; exit 1; }

# Kernel command line: the duration; a large log buffer (OOM reports);
# WARN does not panic, so that every splat is counted and the run still
# reports (an oops still panics).  The debug kernel marks mmfree's item
# cache for failslab, and under KASAN and lockdep in TCG everything is
# several times slower: longer watchdogs, more memory, more time.
append="mmfree_stress_seconds=$secs log_buf_len=16M panic_on_warn=0"
if ((debug)); then
	# no5lvl: with -cpu max's 5-level paging, KASAN reports a wild access in
	# an interrupt during boot (identify_cpu(), before mmfree loads), and the
	# taint switches lock debugging off for the rest of the run.
	# The hung-task timeout is a sysctl: "hung_task_timeout_secs=" alone
	# is no boot parameter, and the kernel ignored it (120 s stayed).
	append+=" slub_debug=A,mmfree_item watchdog_thresh=60"
	# A hung task report then shows every CPU's stack too: the holder of
	# the lock a task waits on may be running.
	append+=" sysctl.kernel.hung_task_timeout_secs=600"
	append+=" sysctl.kernel.hung_task_all_cpu_backtrace=1 no5lvl"
	: "${mem:=4G}" "${timeout_s:=$((secs * 3 + 2400))}"
else
	: "${mem:=3G}" "${timeout_s:=$((secs * 2 + 900))}"
fi

out=$top/build/stress
mkdir -p "$out"
vmlog=$out/$kver.vm.log
report=$out/$kver.md
echo "stress.sh: $kver, $secs s of stress (VM -m $mem, timeout $timeout_s s; log $vmlog)" >&2
start=$SECONDS
vm_rc=0
"$top/tests/vm.sh" --kernel "$kver" --module "$module" --script stress \
	--mem "$mem" --append "$append" --timeout "$timeout_s" >"$vmlog" 2>&1 || vm_rc=$?
wall=$((SECONDS - start))

console=$top/build/logs/$kver.console
ktap=$top/build/logs/$kver.ktap
guest=$(sed -n 's/^# //p' "$ktap" 2>/dev/null | tr -d '\r')
val() { awk -v k="$1" '$1 == "STRESS" && $2 == k { print $3; exit }' <<<"$guest"; }

# Splats on the console (kernel lines only: timestamped, not the KTAP
# copy).  OOM reports carry a Call Trace by design and are skipped; the
# kmemleak banner at boot is not a report (tests/guest/splat.awk).
splats=$(tr -d '\r' <"$console" | grep -E '\[ *[0-9]+\.[0-9]+\] ' | grep -vE '^# ' |
	awk -f "$top/tests/guest/splat.awk" || true)
nsplat=$(grep -c . <<<"$splats" || true)

reasons=()
grep -q '^ok 1 stress' <(tr -d '\r' <"$ktap" 2>/dev/null) ||
	reasons+=("the guest's checks failed or did not finish (vm.sh exit $vm_rc)")
((nsplat == 0)) || reasons+=("$nsplat splat lines on the console, first: $(head -n 1 <<<"$splats")")
grep -q 'timed out after' "$vmlog" && reasons+=("timed out after ${timeout_s}s")

{
	echo "## Stress, $kver"
	echo
	echo "$(date -u '+%Y-%m-%d %H:%M UTC'); VM: -m $mem, $(grep -o 'booting [^ ]* ([^)]*)' "$vmlog" | head -n 1 | sed 's/booting [^ ]* //'), $wall s wall"
	echo
	echo "| minutes | stress-ng bogo ops | load/unload cycles | faults injected | OOM kills | splats | kmemleak | pages leaked |"
	echo "|---|---|---|---|---|---|---|---|"
	faults="failslab $(val faults_failslab); test_fail_alloc: $(val inline_nomem_pages) pages inline"
	gsplats=$(val splats)
	echo "| $(val minutes) | $(val bogo_ops) | $(val load_unload_cycles) | $faults | $(val oom_kills) | ${gsplats:-?} (console: $nsplat) | $(val kmemleak) | $(val pages_leaked) |"
	echo
	echo "Stressors:$(awk '$1 == "STRESS" && $2 == "stressors" { $1 = $2 = ""; print; exit }' <<<"$guest");" \
		"$(val knob_writes) knob writes, $(val reclaims) percpu reclaims" \
		"($(val reclaim_eperm) refused while off), $(val oom_storms) OOM storms," \
		"$(val hugetlb_rounds) hugetlb rounds, $(val mrelease_rounds) process_mrelease" \
		"kills ($(val mrelease_short) with less than 90% back when the call returned)," \
		"$(val offloaded_pages) pages offloaded in $(val work_items) work items," \
		"swap use up to $(val swap_peak_kb) kB," \
		"$(val percpu_checks) percpu accounting checks;" \
		"change over the run: MemFree $(val memfree_change_kb) kB, memory that" \
		"/proc/meminfo does not account for $(val unaccounted_change_kb) kB" \
		"(pages leaked: the part above 16 MB)."
	echo
	if ((${#reasons[@]})); then
		echo "**FAILED**:"
		printf -- '- %s\n' "${reasons[@]}"
		if [[ -n $splats ]]; then
			echo
			echo '```'
			head -n 40 <<<"$splats"
			echo '```'
		fi
		errs=$(grep -E '^(ERROR|FAIL):' <<<"$guest" || true)
		if [[ -n $errs ]]; then
			echo
			echo '```'
			head -n 40 <<<"$errs"
			echo '```'
		fi
		echo
		echo "Console: $console; guest output: $ktap; vm.sh: $vmlog"
	else
		echo "All checks held: no splat, no kmemleak report, no pages leaked, percpu accounting consistent."
	fi
} >"$report"
cat "$report"
((${#reasons[@]} == 0))
