#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the mmfree debug kernel: Debian's linux-source-6.1 with KASAN,
# lockdep (PROVE_LOCKING, PROVE_RCU), DEBUG_ATOMIC_SLEEP, kmemleak,
# DEBUG_LIST and fault injection (FAILSLAB), plus what mmfree needs
# (ftrace, kprobes, KALLSYMS_ALL, BTF, memcg, NUMA).  Config:
# x86_64_defconfig merged with scripts/debug-kernel.config.
#
# Installed as build/cache/kernels/KVER/{boot,lib/modules/KVER} like the
# stock kernels, so tests/vm.sh --kernel KVER boots it; the build tree is
# lib/modules/KVER/build (KDIR for "make -C KDIR M=...").  Prints KVER on
# the last stdout line.  Cached: nothing is done when that kernel exists
# and the source version, this script's config step and the fragment are
# unchanged.  The compile runs under "nice -n 19" (the host runs
# timing-sensitive VMs): about an hour on 2 busy cores.
#
# Usage: scripts/debug-kernel.sh [--force] [--print-kver]
# Env: MMFREE_DEBUG_JOBS (default 2).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=help.sh
. "$root/scripts/help.sh"
help_if_asked "$@"
fragment=$root/scripts/debug-kernel.config
work=$root/build/cache/debug-kernel
tarball=/usr/src/linux-source-6.1.tar.xz
jobs=${MMFREE_DEBUG_JOBS:-2}

force=0 print_only=0
while (($#)); do
	case "$1" in
	--force) force=1; shift ;;
	--print-kver) print_only=1; shift ;;
	*) echo "debug-kernel.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done

# --print-kver: the release of the installed debug kernel, if any.
if ((print_only)); then
	[[ -s $work/kver ]] || { echo "debug-kernel.sh: no debug kernel built (make debug-kernel)" >&2; exit 1; }
	cat "$work/kver"
	exit 0
fi

mkdir -p "$work"
exec 9>"$work/.lock"
flock -n 9 || { echo "debug-kernel.sh: waiting for another build" >&2; flock 9; }

# What the build needs beyond scripts/setup.sh's tools (installed here,
# not there: only this target needs them): the sources, the kernel
# build's helpers, pahole for BTF.
need=()
[[ -f $tarball ]] || need+=(linux-source-6.1)
for t in gcc:gcc make:make bc:bc bison:bison flex:flex pahole:pahole \
	cpio:cpio zstd:zstd xz:xz-utils perl:perl-base; do
	command -v "${t%%:*}" >/dev/null || need+=("${t#*:}")
done
[[ -f /usr/include/libelf.h ]] || need+=(libelf-dev)
[[ -f /usr/include/openssl/ssl.h ]] || need+=(libssl-dev)
if ((${#need[@]})); then
	[[ $(id -u) == 0 ]] || { echo "debug-kernel.sh: need ${need[*]} (run as root to install them)" >&2; exit 1; }
	echo "debug-kernel.sh: installing ${need[*]}" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}" >&2
fi
srcver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || stat -c %Y "$tarball")

# The cache key: source version, the config step below and the fragment.
key=$( {
	echo "src=$srcver"
	sed -n '/^# --- config step ---/,/^# --- end config step ---/p' "$0"
	cat "$fragment"
} | sha256sum | cut -d' ' -f1)

if ((!force)) && [[ -s $work/kver && -f $work/key && $(<"$work/key") == "$key" ]]; then
	kver=$(<"$work/kver")
	if [[ -f $root/build/cache/kernels/$kver/boot/vmlinuz-$kver &&
		-s $root/build/cache/kernels/$kver/lib/modules/$kver/modules.dep ]]; then
		echo "debug-kernel.sh: $kver is up to date" >&2
		echo "$kver"
		exit 0
	fi
fi

src=$work/linux-source-6.1
if [[ ! -f $src/.mmfree-extracted || $(<"$src/.mmfree-extracted") != "$srcver" ]]; then
	echo "debug-kernel.sh: extracting $tarball" >&2
	rm -rf "$src"
	tar -C "$work" -xf "$tarball"
	[[ -f $src/Makefile ]] || { echo "debug-kernel.sh: no $src/Makefile after extracting" >&2; exit 1; }
	echo "$srcver" >"$src/.mmfree-extracted"
fi

# LOCALVERSION set (even empty) on the command line: no "+" suffix.
kmake=(nice -n 19 make -C "$src" LOCALVERSION= -j"$jobs")

# --- config step ---
# x86_64_defconfig: boots in QEMU with a serial console as is; the
# fragment adds the debug and mmfree options and trims drivers.
"${kmake[@]}" -s x86_64_defconfig >&2
# merge_config.sh keeps its temporary files in the current directory.
(cd "$src" && ./scripts/kconfig/merge_config.sh -m .config "$fragment") >&2
"${kmake[@]}" -s olddefconfig >&2
# --- end config step ---

# Every option of the fragment must have survived olddefconfig: a
# dependency that is missing silently drops an option otherwise.
bad=0
while IFS= read -r line; do
	if [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=(.*)$ ]]; then
		grep -qxF "$line" "$src/.config" || {
			echo "debug-kernel.sh: wanted $line, got: $(grep -E "^(# )?${BASH_REMATCH[1]}[= ]" "$src/.config" || echo absent)" >&2
			bad=1
		}
	elif [[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set$ ]]; then
		! grep -qE "^${BASH_REMATCH[1]}=" "$src/.config" || {
			echo "debug-kernel.sh: wanted ${BASH_REMATCH[1]} unset, got: $(grep -E "^${BASH_REMATCH[1]}=" "$src/.config")" >&2
			bad=1
		}
	fi
done <"$fragment"
((bad == 0)) || { echo "debug-kernel.sh: config check failed" >&2; exit 1; }

echo "debug-kernel.sh: building with $jobs jobs under nice -n 19 (log: $work/build.log)" >&2
start=$SECONDS
if ! "${kmake[@]}" bzImage modules >"$work/build.log" 2>&1; then
	tail -n 40 "$work/build.log" >&2
	echo "debug-kernel.sh: build failed (log: $work/build.log)" >&2
	exit 1
fi
# The release is known once the build has written include/config/.
kver=$("${kmake[@]}" -s kernelrelease)
echo "debug-kernel.sh: built $kver in $(((SECONDS - start) / 60)) min" >&2

# Install like scripts/fetch-kernel.sh unpacks a stock kernel; the
# .extracted stamp tells fetch-kernel.sh there is nothing to download.
dest=$root/build/cache/kernels/$kver
rm -rf "$dest"
mkdir -p "$dest/boot"
cp "$src/arch/x86/boot/bzImage" "$dest/boot/vmlinuz-$kver"
cp "$src/.config" "$dest/boot/config-$kver"
cp "$src/System.map" "$dest/boot/System.map-$kver"
# Modules stripped of DWARF (BTF stays in .BTF); modules_install runs
# depmod and points lib/modules/KVER/build at the build tree.
"${kmake[@]}" -s INSTALL_MOD_PATH="$dest" INSTALL_MOD_STRIP=1 modules_install >&2
[[ -s $dest/lib/modules/$kver/modules.dep ]] || depmod -b "$dest" "$kver"
touch "$dest/.extracted"
echo "$kver" >"$work/kver"
echo "$key" >"$work/key"
echo "debug-kernel.sh: installed $dest" >&2
echo "$kver"
