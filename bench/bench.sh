#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The full benchmark (make bench; make demo is the short one): in VMs,
# one boot per kernel and part, stock against mmfree, written to
# build/bench/ and printed.
#
#   bench/bench.sh [--kernel ID|KVER[,...]] [--quick] [--percpu-only |
#                    --pagefree-only | --peers-only | --floors-only |
#                    --charge-only | --cost-only] [--charge-boots N]
#                    [--charge-mb MB] [--charge-reps N] [--charge-control]
#                    [--cost-boots N] [--a PARENTS]
#                    [--b CGROUPS] [--churn SECONDS] [--pf-reps N]
#                    [--pf-sizes MB,MB,...] [--peers-reps N]
#                    [--peers-sizes MB,MB,...] [--peers-mb MB]
#                    [--peers-targets] [--peers-boots N]
#
# --kernel        kernels of the matrix (scripts/kernels.sh: 6.1, 6.12,
#                 trixie, trixie-cloud, sid) or releases, comma-separated
#                 (default: 6.1,6.12, Debian 12's two)
# --quick         smaller runs: percpu --a 100 --b 1100 --churn 20; pagefree
#                 256, 512 and 1024 MiB, 3 repetitions (6 for small ops);
#                 peers: curve 512, 1024, 2048 MiB, peers and redis at
#                 1024 MiB, 3 repetitions
# --percpu-only, --pagefree-only, --peers-only
#                 run one part only
# --floors-only   the knob floors only (not part of the full run): what
#                 the smallest pagefree/min_pages and percpu/interval_ms
#                 cost (bench/guest/bench-floors.sh), printed and written
#                 to build/bench/floors-KVER.md; about 10 minutes a kernel
# --charge-only   what charging the workers' time to cgroups costs (not
#                 part of the full run): bench/guest/bench-charge.sh, in
#                 --charge-boots boots (default 2) per kernel; each boot's
#                 lines and the report across boots (bench/report-charge.sh)
#                 go to build/bench/charge-KVER.data and .md; about 12
#                 minutes a boot at 4096 MiB, alone on the host
# --charge-mb MB  charge: munmap and exit size (default 4096, issue 25's
#                 size); the guest gets MB and 3 GiB more
# --charge-control charge: an A/A run, the noise floor: the configurations
#                 called uncharged are charged too, so that their ratios
#                 to the charged ones measure the bench, not the charge
# --charge-reps N charge: repetitions per boot (default 4: each charged
#                 configuration and its uncharged one swap places every
#                 repetition, so an even count gives both orders alike)
# --cost-only     where a worker's time per page goes (not part of the
#                 full run): bench/guest/bench-cost.sh times the kernel's
#                 free inline, in a worker alone and in a worker beside
#                 the task that helps it, in --cost-boots boots (default
#                 2) per kernel; lines and report (bench/report-cost.sh)
#                 go to build/bench/cost-KVER.data and .md; about 2
#                 minutes a boot, alone on the host
# --a, --b        percpu: shrink the patterns (default 1000 parents x 10
#                 children, and 11000 flat cgroups): under TCG, creating
#                 memory cgroups with 64 possible CPUs takes minutes per
#                 thousand
# --churn N       percpu: seconds per run of the steady-churn series C
#                 (default 60; 3 runs each of stock and mmfree)
# --pf-reps N     pagefree: repetitions per series (default 5, quick 3)
# --pf-sizes L    pagefree: munmap sizes in MiB, comma-separated; the
#                 largest is also the exit, split and headline size
#                 (default 256,1024,2048,4096)
# --peers-reps N  peers: repetitions (default 5, quick 3)
# --peers-sizes L peers: the curve's sizes in MiB (default 1024,...,16384;
#                 sizes the host cannot give the guest are dropped)
# --peers-mb MB   peers: process_mrelease, THP and redis-server size
#                 (default 4096)
# --peers-targets peers: only what issue 23's targets (and the model's
#                 exit bound) need: exits at --peers-mb, process_mrelease,
#                 redis-server, the over-kill scenario; no munmap, no THP
# --peers-boots N peers: boots per kernel (default 1); each boot's
#                 report is peers-KVER-bootN.md (peers-KVER.md with one
#                 boot), and the targets across the boots
#                 (bench/report-peers.sh) peers-KVER.targets.md
#
# Percpu (build/bench/percpu-KVER.md): the guest gets 64 possible CPUs
# (-smp 64, maxcpus=2 on the kernel command line: 64 units per chunk, 2
# CPUs running), because the percpu footprint scales with possible CPUs;
# QEMU's hotplug slots (maxcpus=) give 6.12 only 2 possible CPUs.
#
# Pagefree (build/bench/pagefree-KVER.md, .png, and the raw lines in
# .data; bench/guest/bench-pagefree.sh says what runs): 2 vCPUs, 6 GiB,
# THP off, multi-threaded TCG so that both vCPUs really run in parallel.
# About 25 minutes per kernel, 6-7 with --quick (2-core host, TCG).
# Other VMs running on the host at the same time skew the times: the
# report says whether any did.  bench/plot-pagefree.sh DATA MD [PNG]
# rebuilds a report from the .data file.
#
# Peers (build/bench/peers-KVER.md, .png, .data; bench/guest/bench-peers.sh
# says what runs, bench/plot-peers.sh reports it, the model included):
# 2 vCPUs, multi-threaded TCG, memory for the largest size plus 3 GiB.
# A run with --peers-sizes 1024,4096,8192 --peers-mb 4096 --peers-reps 3
# took 31 minutes of guest time on 6.12, alone on the host; the full
# sizes (to 16384 MiB, 5 repetitions) take several times that.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../scripts/help.sh
. "$top/scripts/help.sh"
help_if_asked "$@"
# The guests' CPU model of every result in docs/results.md: -cpu max,
# with ERMS, which tests/vm.sh leaves out for the tests' speed (TCG makes
# the kernel's page zeroing and copies slower with it).  The ratios were
# not measured again without it.
export MMFREE_TCG_CPU=${MMFREE_TCG_CPU:-max}

kernel='' quick=0 only='' a='' b='' churn='' pf_append='' peers_append=''
charge_boots=2 cost_boots=2 peers_boots=1 peers_targets=0
charge_mb=4096 charge_reps=4 charge_control=0
peers_sizes=1024,2048,4096,8192,16384 peers_mb=4096
while (($#)); do
	case "$1" in
	--kernel) kernel=${2:?}; shift 2 ;;
	--quick) quick=1; shift ;;
	--percpu-only | --pagefree-only | --peers-only | --floors-only | \
	--charge-only | --cost-only)
		[[ -z $only ]] || { echo "bench.sh: $only and $1 exclude each other" >&2; exit 2; }
		only=$1; shift ;;
	--a) a=${2:?}; shift 2 ;;
	--b) b=${2:?}; shift 2 ;;
	--churn) churn=${2:?}; shift 2 ;;
	--charge-boots) charge_boots=${2:?}; shift 2 ;;
	--charge-mb) charge_mb=${2:?}; shift 2 ;;
	--charge-reps) charge_reps=${2:?}; shift 2 ;;
	--charge-control) charge_control=1; shift ;;
	--cost-boots) cost_boots=${2:?}; shift 2 ;;
	--pf-reps) pf_append+=" mmfree_pf_reps=${2:?}"; shift 2 ;;
	--pf-sizes) pf_append+=" mmfree_pf_sizes=${2:?}"; shift 2 ;;
	--peers-reps) peers_append+=" mmfree_peers_reps=${2:?}"; shift 2 ;;
	--peers-sizes) peers_sizes=${2:?}; peers_set=1; shift 2 ;;
	--peers-mb) peers_mb=${2:?}; peers_set=1; shift 2 ;;
	--peers-targets) peers_targets=1; shift ;;
	--peers-boots) peers_boots=${2:?}; shift 2 ;;
	-h | --help) help_text; exit 0 ;;
	*) usage_error "unknown argument $1" ;;
	esac
done
[[ $charge_boots =~ ^[1-9][0-9]*$ ]] || usage_error "--charge-boots takes a number of boots, not '$charge_boots'"
[[ $charge_mb =~ ^[1-9][0-9]*$ ]] || usage_error "--charge-mb takes a size in MiB, not '$charge_mb'"
[[ $charge_reps =~ ^[1-9][0-9]*$ ]] || usage_error "--charge-reps takes a number of repetitions, not '$charge_reps'"
[[ $cost_boots =~ ^[1-9][0-9]*$ ]] || usage_error "--cost-boots takes a number of boots, not '$cost_boots'"
[[ $peers_boots =~ ^[1-9][0-9]*$ ]] || usage_error "--peers-boots takes a number of boots, not '$peers_boots'"
percpu=1 pagefree=1 peers=1 floors=0 charge=0 cost=0
case "$only" in
--percpu-only) pagefree=0 peers=0 ;;
--pagefree-only) percpu=0 peers=0 ;;
--peers-only) percpu=0 pagefree=0 ;;
--floors-only) percpu=0 pagefree=0 peers=0 floors=1 ;;
--charge-only) percpu=0 pagefree=0 peers=0 charge=1 ;;
--cost-only) percpu=0 pagefree=0 peers=0 cost=1 ;;
esac
if ((quick)); then
	a=${a:-100} b=${b:-1100} churn=${churn:-20}
	pf_append="mmfree_pf_quick=1$pf_append"
	[[ -n ${peers_set:-} ]] || peers_sizes=512,1024,2048 peers_mb=1024
	peers_append=" mmfree_peers_quick=1$peers_append"
fi
if ((peers_targets)); then
	peers_sizes=$peers_mb
	peers_append+=" mmfree_peers_targets=1"
fi
# A guest holds a part's largest size and 3 GiB more; the host keeps 4 GiB.
guest_extra_mb=3072 host_keep_mb=4096
host_mb=$(($(awk '$1 == "MemAvailable:" { print $2 }' /proc/meminfo) / 1024))
fits_host() {	# mb
	(($1 + guest_extra_mb + host_keep_mb <= host_mb))
}
guest_mem() {	# mb: QEMU's -m for a guest that holds mb
	echo "$((($1 + guest_extra_mb + 1023) / 1024))G"
}
fit='' dropped=''
for mb in ${peers_sizes//,/ }; do
	if fits_host "$mb"; then fit+=${fit:+,}$mb; else dropped+=" $mb"; fi
done
((peers == 0)) || [[ -z $dropped ]] || echo "bench.sh: peers: the host cannot hold the curve's sizes$dropped MiB: dropped" >&2
((charge == 0)) || fits_host "$charge_mb" ||
	usage_error "--charge-mb $charge_mb: the guest needs $((charge_mb + guest_extra_mb)) MiB and the host keeps $host_keep_mb; $host_mb MiB available"
peers_mem=0
for mb in ${fit//,/ } "$peers_mb"; do ((mb <= peers_mem)) || peers_mem=$mb; done
peers_mem=$(guest_mem "$peers_mem")
((quick == 0)) || peers_mem=6G
peers_append="mmfree_peers_sizes=$fit mmfree_peers_mb=$peers_mb mmfree_peers_redis_mb=$peers_mb$peers_append"
percpu_append=maxcpus=2
[[ -z $a ]] || percpu_append+=" mmfree_bench_a=$a"
[[ -z $b ]] || percpu_append+=" mmfree_bench_b=$b"
[[ -z $churn ]] || percpu_append+=" mmfree_bench_churn=$churn"

out=$top/build/bench
mkdir -p "$out"

# The guest's programs (pfbench) go into /mmfree through build/guest-bin.
if ((pagefree || peers || floors || charge || cost)); then
	"$top/scripts/guest-bin.sh"
fi

# While a VM runs, note the most other QEMU processes seen and the highest
# host load average: timings taken beside other VMs are not representative.
watch_host() {	# file
	local n max=0 load maxload=0
	while :; do
		n=$(pgrep -c -x qemu-system-x86 || true)
		((n - 1 <= max)) || max=$((n - 1))
		read -r load _ </proc/loadavg
		awk -v a="$load" -v b="$maxload" 'BEGIN { exit !(a > b) }' && maxload=$load
		printf 'PFHOST other_vms %d\nPFHOST max_load %s\nPFHOST host_cpus %d\n' \
			"$max" "$maxload" "$(nproc)" >"$1"
		sleep 10
	done
}

# The guest's output comes back as KTAP diagnostics ("# " lines) once the
# script ends; if the VM died before that, what reached the console.
guest_lines() {	# log name (tests/vm.sh: KVER, KVER.bench) pattern
	local ktap=$top/build/logs/$1.ktap console=$top/build/logs/$1.console
	if grep -q '^# PFINFO seconds' "$ktap" 2>/dev/null || [[ ! -s $console ]]; then
		sed -n 's/^# //p' "$ktap"
	else
		tr -d '\r' <"$console"
	fi | grep -E "$2" || true
}

# A part that runs bench/guest/bench-PART.sh in BOOTS boots of $kver
# with $module, 2 vCPUs: each boot's lines (those matching PATTERN, "boot
# N " in front) and the host's go to build/bench/PART-KVER.data, the
# report of them all (bench/report-PART.sh, when a line matches RESULT)
# to PART-KVER.md.  The guest gets MEM and APPEND on its command line, and
# TIMEOUT seconds a boot.
boots_part() {	# part boots pattern result mem append timeout
	local data=$out/$1-$kver.data host=$out/$1-$kver.host boot
	: >"$data"
	for ((boot = 1; boot <= $2; boot++)); do
		: >"$host"
		watch_host "$host" &
		watcher=$!
		MMFREE_TCG_THREAD=multi "$top/tests/vm.sh" --kernel "$kver" \
			--module "$module" --script "bench-$1" --smp 2 \
			--mem "$5" --append "$6" --timeout "$7" >/dev/null || rc=1
		kill "$watcher" 2>/dev/null || true
		wait "$watcher" 2>/dev/null || true
		watcher=''
		{
			guest_lines "$kver" "$3"
			cat "$host"
		} | sed "s/^/boot $boot /" >>"$data"
		rm -f "$host"
	done
	if grep -q "$4" "$data"; then
		"$top/bench/report-$1.sh" "$data" >"$out/$1-$kver.md"
		cat "$out/$1-$kver.md"
	else
		echo "bench.sh: $kver: no $1 results" >&2
		rc=1
	fi
	echo
}

rc=0
# The host watcher (watch_host, in the background during each boot) goes
# with this script however it ends.
watcher=''
trap '[[ -z $watcher ]] || kill "$watcher" 2>/dev/null || true' EXIT
kernel=${kernel:-6.1,6.12}
# shellcheck disable=SC2086 # the IDs, one word each
for kver in $("$top/scripts/kernels.sh" --releases ${kernel//,/ }); do
	module=$("$top/scripts/build-module.sh" "$kver" | tail -n 1)

	if ((percpu)); then
		"$top/tests/vm.sh" --kernel "$kver" --module "$module" \
			--script bench-percpu --smp 64 --append "$percpu_append" \
			--mem 6G --timeout 7200 >/dev/null || rc=1
		# Keep the report, not the kernel log lines.
		report=$out/percpu-$kver.md
		{
			echo "## Percpu, $kver"
			echo
			sed -n 's/^# //p' "$top/build/logs/$kver.ktap" | grep -v '^\['
		} >"$report"
		cat "$report"
		echo
	fi

	if ((floors)); then
		# One CPU for the timed ops, the other idle: multi-threaded TCG.
		MMFREE_TCG_THREAD=multi "$top/tests/vm.sh" --kernel "$kver" \
			--module "$module" --script bench-floors --smp 64 \
			--append maxcpus=2 --mem 3G --timeout 3600 >/dev/null || rc=1
		report=$out/floors-$kver.md
		{
			echo "## Knob floors, $kver"
			echo
			guest_lines "$kver" '^(PF|==|\|)'
		} >"$report"
		cat "$report"
		echo
	fi

	if ((charge)); then
		boots_part charge "$charge_boots" '^PF(INFO|STAT)? ' '^boot [0-9]* PF ' \
			"$(guest_mem "$charge_mb")" \
			"mmfree_charge_mb=$charge_mb mmfree_charge_reps=$charge_reps mmfree_charge_control=$charge_control" \
			$((1200 + 60 * charge_reps * charge_mb / 1024))
	fi

	if ((cost)); then
		boots_part cost "$cost_boots" '^PF(INFO|COST) ' '^boot [0-9]* PFCOST ' 4G '' 2400
	fi

	if ((pagefree)); then
		host=$out/pagefree-$kver.host
		: >"$host"
		watch_host "$host" &
		watcher=$!
		timeout=5400
		((quick == 0)) || timeout=1800
		MMFREE_TCG_THREAD=multi "$top/tests/vm.sh" --kernel "$kver" \
			--module "$module" --script bench-pagefree --smp 2 --mem 6G \
			--append "$pf_append" --timeout "$timeout" >/dev/null || rc=1
		kill "$watcher" 2>/dev/null || true
		wait "$watcher" 2>/dev/null || true
		watcher=''
		data=$out/pagefree-$kver.data
		{
			guest_lines "$kver" '^PF(INFO|STAT)? '
			cat "$host"
		} >"$data"
		rm -f "$host"
		if grep -q '^PF ' "$data"; then
			"$top/bench/plot-pagefree.sh" "$data" "$out/pagefree-$kver.md" \
				"$out/pagefree-$kver.png"
			cat "$out/pagefree-$kver.md"
			[[ ! -f $out/pagefree-$kver.png ]] ||
				echo "Plot: $out/pagefree-$kver.png"
		else
			echo "bench.sh: $kver: no pagefree results" >&2
			rc=1
		fi
		echo
	fi

	if ((peers)); then
		boots=$out/peers-$kver.boots.data
		: >"$boots"
		for ((boot = 1; boot <= peers_boots; boot++)); do
			name=peers-$kver
			((peers_boots == 1)) || name+=-boot$boot
			host=$out/$name.host
			: >"$host"
			watch_host "$host" &
			watcher=$!
			timeout=$((quick ? 2400 : 14400))
			MMFREE_TCG_THREAD=multi "$top/tests/vm.sh" --kernel "$kver" \
				--module "$module" --script bench-peers --smp 2 \
				--mem "$peers_mem" --rootfs bench \
				--append "$peers_append" --timeout "$timeout" \
				>/dev/null || rc=1
			kill "$watcher" 2>/dev/null || true
			wait "$watcher" 2>/dev/null || true
			watcher=''
			data=$out/$name.data
			{
				guest_lines "$kver.bench" '^PF(INFO|STAT)? '
				echo "PFHOST quick $quick"
				cat "$host"
			} >"$data"
			rm -f "$host"
			sed "s/^/boot $boot /" "$data" >>"$boots"
			if grep -q '^PF ' "$data"; then
				"$top/bench/plot-peers.sh" "$data" "$out/$name.md" \
					"$out/$name.png" || rc=1
				cat "$out/$name.md"
				[[ ! -f $out/$name.png ]] ||
					echo "Plot: $out/$name.png"
			else
				echo "bench.sh: $kver: boot $boot: no peers results" >&2
				rc=1
			fi
			echo
		done
		if grep -q '^boot [0-9]* PF ' "$boots"; then
			"$top/bench/report-peers.sh" "$boots" >"$out/peers-$kver.targets.md" || rc=1
			cat "$out/peers-$kver.targets.md"
			echo
		fi
	fi
done
exit $rc
