#!/bin/bash
# Boot one stock Debian kernel in QEMU with the mmfree module and run the
# guest test suite (tests/guest/) in it; judge the run from the guest's KTAP
# report and the kernel console.
#
# Usage: tests/vm.sh --kernel KVER --module PATH [--helper PATH]
#                    [--test NAME] [--demo]
#                    [--mem SIZE] [--smp N] [--numa NODES] [--memnode MB]
#                    [--append "ARGS"]
#                    [--timeout SEC] [--boot-limit SEC]
#                    [--rootfs packages|bench]
# --memnode adds one more NUMA node, with MB MiB of memory and no CPU,
# its memory a cold-plugged DIMM left offline at boot
# (memhp_default_state=offline): a test onlines it, and other tests never
# see it.  With --numa only.
# --helper adds a test helper module (scripts/build-module.sh --helper)
# that the guest's modprobe finds (not with --rootfs packages).
# --rootfs packages boots the package test's root filesystem (see
# scripts/mkrootfs.sh) without the module: the test installs it with apt;
# --rootfs bench the benchmarks' (the base and redis-server).
# --boot-limit: a boot that has not started the guest's /init within SEC
# seconds (default 300; a boot takes 5-15) is stopped and booted once
# more.  Nothing of mmfree runs before /init, so such a hang is the
# kernel's or QEMU's, not a test's: under multi-threaded TCG, sid's
# kernel once hung at its HPET setup for 30 minutes (bench run 8).
# Env: V=1 shows the console on the terminal; MMFREE_ACCEL=kvm|tcg;
#      MMFREE_TCG_THREAD=single (default)|multi; MMFREE_TCG_CPU = the
#      -cpu model under TCG (default max,-erms,-fsrm).
# Last line of output: "KVER: N passed, N failed"; exit 0 only if 0 failed.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../scripts/help.sh
. "$root/scripts/help.sh"
help_if_asked "$@"

kver='' module='' helper='' test='' demo=0 script=demo mem=3G smp=2 numa=1 memnode=0 append=''
timeout_s=2400 boot_limit=300 rootfs=base
while (($#)); do
	case "$1" in
	--kernel) kver=${2:?}; shift 2 ;;
	--module) module=${2:?}; shift 2 ;;
	--helper) helper=${2:?}; shift 2 ;;
	--test) test=${2:?}; shift 2 ;;
	--demo) demo=1; shift ;;
	--script) demo=1; script=${2:?}; shift 2 ;;
	--mem) mem=${2:?}; shift 2 ;;
	--smp) smp=${2:?}; shift 2 ;;
	--numa) numa=${2:?}; shift 2 ;;
	--memnode) memnode=${2:?}; shift 2 ;;
	--append) append+=" ${2?}"; shift 2 ;;
	--timeout) timeout_s=${2:?}; shift 2 ;;
	--boot-limit) boot_limit=${2:?}; shift 2 ;;
	--rootfs) rootfs=${2:?}; shift 2 ;;
	-h | --help) help_text; exit 0 ;;
	*) usage_error "unknown argument $1" ;;
	esac
done
[[ -n $kver && -n $module ]] || usage_error "--kernel and --module are needed"
[[ -f $module ]] || { echo "vm.sh: no module file $module" >&2; exit 2; }
[[ -z $helper || -f $helper ]] || { echo "vm.sh: no helper module file $helper" >&2; exit 2; }
[[ $test != *[[:space:]]* ]] || { echo "vm.sh: --test takes one word" >&2; exit 2; }
[[ $timeout_s =~ ^[1-9][0-9]*$ && $boot_limit =~ ^[1-9][0-9]*$ ]] ||
	{ echo "vm.sh: --timeout and --boot-limit take seconds" >&2; exit 2; }
if ! [[ $numa =~ ^[1-9][0-9]*$ && $smp =~ ^[1-9][0-9]*$ ]] || ((smp % numa != 0)); then
	echo "vm.sh: --numa takes a number of nodes that divides --smp's CPUs" >&2
	exit 2
fi
if ! [[ $memnode =~ ^[0-9]+$ ]] || ((memnode && numa == 1)); then
	echo "vm.sh: --memnode takes MiB, with --numa" >&2
	exit 2
fi
case "$mem" in
*[Gg]) mem_mb=$((${mem%[Gg]} * 1024)) ;;
*[Mm]) mem_mb=${mem%[Mm]} ;;
*) echo "vm.sh: --mem takes NG or NM" >&2; exit 2 ;;
esac

kdir=$root/build/cache/kernels/$kver
base=$root/build/cache/rootfs-bookworm.cpio.zst
mkrootfs=("$root/scripts/mkrootfs.sh")
case "$rootfs" in
base) ;;
packages)
	# The kernel's own suite; the second kernel is the same release's
	# cloud flavour, small enough to carry in the initramfs (in bookworm
	# 6.1's headers need no image at all; trixie's bring it).
	[[ $kver == *-amd64 && $kver != *-cloud-amd64 ]] ||
		{ echo "vm.sh: --rootfs packages needs an -amd64 kernel" >&2; exit 2; }
	suite=$("$root/scripts/suite.sh" of "$kver")
	base=$root/build/cache/rootfs-$suite-packages.cpio.zst
	mkrootfs+=(packages "$kver" "${kver%-amd64}-cloud-amd64")
	;;
bench)
	base=$root/build/cache/rootfs-bookworm-bench.cpio.zst
	mkrootfs+=(bench)
	;;
*) echo "vm.sh: --rootfs takes packages or bench" >&2; exit 2 ;;
esac
logs=$root/build/logs
# A NUMA or package boot keeps its own work dir and logs, so it can run
# beside the same kernel's main boot.
name=$kver label=$kver
((numa == 1)) || name=$kver.numa$numa label="$kver ($numa NUMA nodes)"
[[ $rootfs == base ]] || name=$kver.$rootfs label="$kver ($rootfs)"
work=$root/build/vm/$name
console=$logs/$name.console
ktap=$logs/$name.ktap

# One run per boot kind at a time: they share the overlay dir and logs.
mkdir -p "$work"
exec 9>"$work.lock"
flock -n 9 || { echo "vm.sh: waiting for another run of $label" >&2; flock 9; }

# 1. Kernel and base root filesystem (both cached).
"$root/scripts/fetch-kernel.sh" "$kver"
"${mkrootfs[@]}"
config=$kdir/boot/config-$kver
grep -qx 'CONFIG_RD_ZSTD=y' "$config" ||
	{ echo "vm.sh: $kver cannot unpack a zstd initramfs (no CONFIG_RD_ZSTD)" >&2; exit 2; }

# 2. Per-kernel overlay: modules, the test scripts and /init.
# The base rootfs is merged-/usr: /lib is a symlink to usr/lib. The overlay
# must keep it a symlink (the kernel replaces an existing path whose type
# differs from the archive entry), so modules go under usr/lib and lib is
# the same symlink.
stage=$work/overlay
rm -rf "$stage"
mkdir -p "$stage/usr/lib/modules/$kver" "$stage/mmfree"
ln -s usr/lib "$stage/lib"
kmods=$kdir/lib/modules/$kver
omods=$stage/usr/lib/modules/$kver

# Module names are the same with "-" or "_"; modules.dep paths are relative.
norm() { tr - _ <<<"$1"; }
modpath() { # $1 = module name -> its modules.dep path, or nothing if builtin
	local n
	n=$(norm "$1")
	awk -F: -v n="$n" '{ f = $1; sub(/.*\//, "", f); sub(/\.ko(\.[a-z]+)?$/, "", f);
		gsub(/-/, "_", f); if (f == n) { print $1; exit } }' "$kmods/modules.dep"
}
is_builtin() {
	grep -q "/$(norm "$1")\.ko\$" <(tr - _ <"$kmods/modules.builtin")
}

# Wanted modules: tests/guest/modules.list plus whatever mmfree itself
# depends on (modinfo reads the "depends" that modpost recorded).
wanted=$(sed -e 's/#.*//' "$root/tests/guest/modules.list" | tr -s ' \t' '\n' | grep . || true)
wanted+=$'\n'$(modinfo -F depends "$module" | tr , '\n')
declare -A copied=()
for m in $wanted; do
	optional=0
	[[ $m != *\? ]] || { optional=1; m=${m%\?}; }
	p=$(modpath "$m")
	if [[ -z $p ]]; then
		is_builtin "$m" && continue
		((!optional)) || continue
		echo "vm.sh: module $m not found in $kver" >&2
		exit 2
	fi
	# modules.dep lists a module's full dependency closure on its line.
	for f in $p $(awk -F: -v p="$p" '$1 == p { print $2; exit }' "$kmods/modules.dep"); do
		[[ -z ${copied[$f]:-} ]] || continue
		mkdir -p "$omods/$(dirname "$f")"
		cp "$kmods/$f" "$omods/$f"
		copied[$f]=1
	done
done
cp "$kmods"/modules.builtin* "$kmods/modules.order" "$omods/"
if [[ $rootfs != packages ]]; then
	mkdir -p "$omods/updates/dkms"
	cp "$module" "$omods/updates/dkms/"
fi
if [[ -n $helper && $rootfs != packages ]]; then
	mkdir -p "$omods/extra"
	cp "$helper" "$omods/extra/"
fi
# depmod resolves base/lib/modules, which the symlink above makes usr/lib.
if ! depmod_out=$(depmod -b "$stage" "$kver" 2>&1); then
	echo "$depmod_out" >&2
	echo "vm.sh: depmod failed" >&2
	exit 2
fi
[[ -z $depmod_out ]] || echo "$depmod_out" >&2

cp -a "$root/tests/guest/." "$stage/mmfree/"
# The benchmarks and the demo (bench/guest/) run with the tests' helpers.
cp "$root"/bench/guest/*.sh "$stage/mmfree/"
# For --script elsewhere (tests/guest/elsewhere.sh), which runs it.
cp "$root/tests/installed.sh" "$stage/mmfree/"
if [[ -d $root/build/guest-bin ]]; then
	cp -a "$root/build/guest-bin/." "$stage/mmfree/"
fi
install -m 0755 "$root/tests/guest/init" "$stage/init"

(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
	zstd -q -T0 -3 >"$work/overlay.cpio.zst"
# The kernel unpacks concatenated archives in order; later entries win.
cat "$base" "$work/overlay.cpio.zst" >"$work/initrd.img"

# 3. Boot.
accel=$("$root/scripts/kvm-probe.sh")
accel_opt=$accel
case "$accel" in
kvm) cpu=host ;;
*)
	# No ERMS: TCG runs "rep stosb" one byte a loop, so with it the
	# kernel's clear_page() and copies (which pick rep stosb/movsb on
	# ERMS) take 8 times the iterations of rep stosq: faulting 1 GiB in
	# took 6 times as long.
	cpu=${MMFREE_TCG_CPU:-max,-erms,-fsrm}
	# One host thread runs all vCPUs by default: QEMU 7.2's multi-threaded
	# TCG executes stale code after the guest patches its text (ftrace,
	# static keys, text_poke_bp), so both stock kernels oops ("int3",
	# nested NMI BUG) or lock up as soon as ftrace is switched on under
	# load (single: 0 failures in 5 such runs; multi: 5 of 5 failed).
	# MMFREE_TCG_THREAD=multi can speed up CPU-bound tests that never
	# patch kernel text; boot time is the same either way.
	accel_opt+=",thread=${MMFREE_TCG_THREAD:-single}"
	;;
esac
cmdline="console=ttyS0 printk.time=1 panic=-1 oops=panic panic_on_warn=1"
cmdline+=" softlockup_panic=1 hung_task_panic=1"
[[ -z $test ]] || cmdline+=" mmfree_test=$test"
((demo == 0)) || cmdline+=" mmfree_demo=$script"
cmdline+=$append

mkdir -p "$logs"
# With NUMA nodes, -m is their sum, and each node is a socket (the
# kernel warns when CPUs sharing a cache sit on different nodes).
smp_opt=$smp
if ((numa > 1)); then
	mem_mb=$((mem_mb / numa * numa))
	mem=${mem_mb}M
	smp_opt+=",sockets=$numa,cores=$((smp / numa)),threads=1"
fi
mem_opt=$mem
if ((memnode)); then
	mem_opt+=",slots=1,maxmem=$((mem_mb + memnode))M"
	cmdline+=" memhp_default_state=offline"
fi
qemu=(qemu-system-x86_64 -accel "$accel_opt" -cpu "$cpu" -smp "$smp_opt" -m "$mem_opt"
	-nodefaults -no-user-config -display none -monitor none -no-reboot
	-kernel "$kdir/boot/vmlinuz-$kver" -initrd "$work/initrd.img"
	-append "$cmdline"
	-chardev "file,id=con,path=$console" -serial chardev:con
	-serial "file:$ktap")
# NUMA nodes: the CPUs and the memory split evenly, in order.
if ((numa > 1)); then
	for ((n = 0; n < numa; n++)); do
		qemu+=(-object "memory-backend-ram,id=m$n,size=$((mem_mb / numa))M"
			-numa "node,nodeid=$n,cpus=$((n * smp / numa))-$(((n + 1) * smp / numa - 1)),memdev=m$n")
	done
fi
# The CPU-less node: QEMU's SRAT gives the DIMM range to the last node.
if ((memnode)); then
	qemu+=(-object "memory-backend-ram,id=mx,size=${memnode}M" -numa "node,nodeid=$numa"
		-device "pc-dimm,id=dimm0,memdev=mx,node=$numa")
fi
echo "vm.sh: booting $kver ($accel, -smp $smp -m $mem):$(printf ' %q' "${qemu[@]}")" >&2

# One boot: sets rc, QEMU's exit status, and stalled=1 when the guest had
# not started /init (its first line, "mmfree-vm: ...") after boot_limit
# seconds and QEMU was stopped.
boot_once() {
	local t0=$SECONDS tailpid='' reached=0
	: >"$console"
	: >"$ktap"
	rc=0 stalled=0
	timeout -k 10 "$timeout_s" "${qemu[@]}" </dev/null >"$work/qemu.out" 2>&1 &
	qpid=$!
	# timeout(1) runs QEMU in its own process group, out of reach of the
	# terminal's ^C: stop it (timeout forwards SIGTERM) when this script ends.
	trap 'kill "$qpid" 2>/dev/null || true' EXIT
	trap 'exit 130' INT TERM
	if ((demo)) || [[ ${V:-0} == 1 ]]; then
		# Shown on stderr: stdout carries only the summary line (tests/run.sh
		# reads it).
		tail -n +1 -f --pid="$qpid" "$console" >&2 &
		tailpid=$!
	fi
	while ((!reached)) && kill -0 "$qpid" 2>/dev/null; do
		if grep -q 'mmfree-vm: ' "$console"; then
			reached=1
		elif ((SECONDS - t0 >= boot_limit)); then
			stalled=1
			kill "$qpid" 2>/dev/null || true
			break
		else
			sleep 1
		fi
	done
	wait "$qpid" || rc=$?
	trap - EXIT INT TERM
	[[ -z $tailpid ]] || wait "$tailpid" || true
}

start=$SECONDS
boot_once
if ((stalled)); then
	cp "$console" "$console.stalled"
	echo "vm.sh: $label: no /init after ${boot_limit}s, the kernel hung" \
		"while booting (console kept in $console.stalled): booting again" >&2
	boot_once
fi
elapsed=$((SECONDS - start))

# 4. Verdict.
tr -d '\r' <"$ktap" >"$work/ktap"
# shellcheck source=guest/ktap-verdict.sh
. "$root/tests/guest/ktap-verdict.sh"
ktap_count "$work/ktap"

# Kernel splats (tests/guest/splat.awk): only timestamped kernel lines
# count, not test output ("# " lines replaying dmesg are skipped).
splats=$(tr -d '\r' <"$console" | grep -E '\[ *[0-9]+\.[0-9]+\] ' |
	grep -vE '^# \[ *[0-9]+\.[0-9]+\]' | awk -f "$root/tests/guest/splat.awk" || true)

reasons=()
if ((stalled)); then
	reasons+=("no /init after ${boot_limit}s in two boots: the kernel hung while booting")
elif ((rc == 124 || rc == 137)); then
	reasons+=("timed out after ${timeout_s}s")
elif ((rc != 0)); then
	reasons+=("qemu exited with status $rc: $(tail -n 3 "$work/qemu.out" | tr '\n' ' ')")
fi
[[ -z $splats ]] || reasons+=("kernel splat: $(head -n 1 <<<"$splats")")
ktap_verdict "$test"

[[ -z $notok ]] || echo "vm.sh: $label: not ok: $notok(details in $ktap)" >&2
if ((${#reasons[@]})); then
	echo "vm.sh: $label FAILED:" >&2
	printf '  %s\n' "${reasons[@]}" >&2
	echo "---- last 40 console lines ($console) ----" >&2
	tr -d '\r' <"$console" | tail -n 40 >&2
	echo "----" >&2
fi
echo "vm.sh: $label ran in ${elapsed}s; console $console, KTAP $ktap" >&2
summary="$label: $passed passed, $failed failed"
((skipped == 0)) || summary+=", $skipped skipped"
# What failed, on the line CI's tail keeps.
[[ -z $notok ]] || summary+=" (not ok: $(ktap_why "$work/ktap"))"
((${#reasons[@]} == 0)) || summary+=" (${reasons[0]:0:120})"
echo "$summary"
((failed == 0))
