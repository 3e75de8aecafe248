#!/bin/sh
# needs: packages
# timeout: 1800
# The Debian packages, used the way an administrator uses them, on a
# machine with DKMS, a compiler and the running kernel's headers and no
# mmfree, following the README's own commands (its blocks marked
# "<!-- test: NAME", run as they are): apt installs mmfree-dkms and
# mmfreectl (scripts/deb.sh's build); DKMS, from the package's own
# postinst, builds and installs the module for the running kernel; the
# README's load and toggle commands load it with a parameter and switch
# modes, and its workload gets pages offloaded; the example /etc files
# are conffiles of mmfreectl; the Prometheus timer is installed disabled
# and its service writes metrics promtool accepts; a second kernel installed
# afterwards (the same release's cloud flavour: its headers, and in
# trixie its image, which they depend on) gets the module from DKMS's own
# kernel and header hooks; apt purge leaves no module, no DKMS tree and no
# file that was not there before, other than the second kernel's
# packages' files and what their maintainer scripts made (depmod's index,
# the /boot links; no initramfs: it is installed with INITRD=No).  Runs on each Debian release's own
# userspace (scripts/mkrootfs.sh packages).
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"

export DEBIAN_FRONTEND=noninteractive
# Regular expression of a literal name (kernel releases hold . and +).
ere() { echo "$1" | sed 's/[.+]/\\&/g'; }
debs=$MMFREE_GUEST/debs
kver=$(uname -r)
next=${kver%-amd64}-cloud-amd64
[ -d "$debs" ] || fail "no packages in $debs (tests/run.sh copies scripts/deb.sh's)"
ls /root/debs/linux-headers-"$next"_*.deb >/dev/null 2>&1 ||
	fail "no linux-headers-$next package in /root/debs (scripts/mkrootfs.sh packages)"
# The second kernel's packages: its headers and what they need that is
# not installed yet.
next_pkgs=$(for d in /root/debs/*.deb; do dpkg-deb -f "$d" Package; done)
echo "$(. /etc/os-release && echo "$PRETTY_NAME"), second kernel's packages: $(echo "$next_pkgs" | paste -sd' ')"
[ -d /lib/modules/"$kver"/build ] || fail "no headers for $kver"
loaded && fail "mmfree is loaded before the packages are installed"

README=$MMFREE_GUEST/README.md
[ -f "$README" ] || fail "no $README (tests/run.sh copies it)"
# The commands of the README's block marked "<!-- test: NAME".
readme_block() {	# name
	awk -v n="<!-- test: $1" 'index($0, n) == 1 { on = 1; next }
		on && /^```sh$/ { body = 1; next } body && /^```$/ { exit }
		body { print }' "$README"
}
# Run a block as a user would paste it into a root shell.
readme_run() {	# name
	local block
	block=$(readme_block "$1")
	[ -n "$block" ] || fail "no block '$1' in the README"
	echo "README $1:"
	# printf: dash's echo would make the perl line's \0 a NUL byte.
	printf '%s\n' "$block" | sed 's/^/  $ /'
	sh -e -c "$block"
}
# The README's apt install asks before it installs, as apt does.
echo 'APT::Get::Assume-Yes "true";' >/etc/apt/apt.conf.d/90assume-yes-test

# Every file but the virtual and scratch ones, and apt's and dpkg's
# bookkeeping (compared on their own below).
snapshot() {
	find / -xdev \( -path /proc -o -path /sys -o -path /dev -o -path /run \
		-o -path /tmp -o -path /mmfree -o -path /root/debs \
		-o -path /var/cache -o -path /var/log -o -path /var/lib/apt \
		-o -path '/var/lib/dpkg/*-old' -o -path /var/lib/dpkg/triggers \) \
		-prune -o -print | sort
}
snapshot >/tmp/files-before

t0=$(date +%s)
# Its paths are a clone's: the packages are in ./build/deb there.
mkdir -p /tmp/clone/build
ln -s "$debs" /tmp/clone/build/deb
(cd /tmp/clone && readme_run install) >/tmp/apt.log 2>&1 ||
	{ tail -n 30 /tmp/apt.log; fail "the README's apt install of the packages failed"; }
echo "apt install (DKMS build for $kver included): $(($(date +%s) - t0)) s"
grep -E '^(Setting up|Building|Installing|Running depmod)' /tmp/apt.log

version=$(dpkg-query -W -f='${Version}' mmfree-dkms)
# DKMS compresses the module as the kernel's own are (trixie: .ko.xz).
ko=$(find /lib/modules/"$kver"/updates/dkms -name 'mmfree.ko*' 2>/dev/null | head -n 1)
[ -f "$ko" ] || fail "DKMS did not install mmfree.ko* in /lib/modules/$kver/updates/dkms"
assert_match "$(modinfo -F vermagic "$ko")" "^$(ere "$kver") " "vermagic of the module built for $kver"
assert_eq "$(modinfo -F version "$ko")" "$version" "version of the module built by DKMS"
assert_match "$(dkms status mmfree)" "^mmfree/$version, $(ere "$kver"), x86_64: installed" "dkms status"
conffiles=$(dpkg-query -W -f='${Conffiles}' mmfreectl)
assert_contains "$conffiles" " /etc/modprobe.d/mmfree.conf " "conffiles of mmfreectl"
assert_contains "$conffiles" " /etc/modules-load.d/mmfree.conf " "conffiles of mmfreectl"

# The packaged mmfreectl, not the test's own copy in /mmfree.
export PATH="/usr/sbin:$PATH"
readme_run load >/tmp/load.out 2>&1 || { cat /tmp/load.out; fail "the README's load commands failed"; }
head -n 8 /tmp/load.out
assert_eq "$(cat $MMFREE/version)" "$version" "version of the loaded module"
grep -qx async /tmp/load.out || fail "the README's mmfreectl get pagefree/mode did not print async"
assert_eq "$(knob pagefree/mode)" sync "pagefree/mode after the README's mmfreectl set"
assert_eq "$(knob enabled)$(knob pagefree/enabled)" 11 "enabled and pagefree/enabled after the README's toggles"
offloaded=$(cat $MMFREE/pagefree/stats/offloaded_pages)
grep -E '^(MemFree|MemAvailable|Shmem):' /proc/meminfo
readme_run see || fail "the README's workload failed"
mmfreectl wait || fail "mmfreectl wait after the README's workload"
offloaded=$(($(cat $MMFREE/pagefree/stats/offloaded_pages) - offloaded))
echo "the README's workload: $offloaded pages offloaded"
(cd $MMFREE/pagefree/stats && grep . inline_*) | sed 's/:/ /'
grep -E '^(MemFree|MemAvailable|Shmem):' /proc/meminfo
[ "$offloaded" -gt 0 ] || fail "the README's workload offloaded no page"

# The Prometheus timer: installed, disabled; its service's command
# writes what promtool accepts (no systemd runs here: the command is
# taken from the unit and run as systemd would).
unit=$(dpkg -L mmfreectl | grep '/mmfree-prometheus\.service$')
[ -f "$unit" ] || fail "no mmfree-prometheus.service in mmfreectl"
dpkg -L mmfreectl | grep -q '/mmfree-prometheus\.timer$' || fail "no mmfree-prometheus.timer in mmfreectl"
[ -z "$(find /etc/systemd -name 'mmfree-prometheus*' 2>/dev/null)" ] ||
	fail "mmfree-prometheus is enabled after install: $(find /etc/systemd -name 'mmfree-prometheus*')"
prom=/var/lib/prometheus/node-exporter
mkdir -p $prom
sed -n 's/^ExecStart=//p' "$unit" | sed 's/\$\$/$/g' >/tmp/execstart
sh -c ". /tmp/execstart" || fail "mmfree-prometheus.service's command failed: $(cat /tmp/execstart)"
promtool check metrics <$prom/mmfree.prom || fail "promtool refused $prom/mmfree.prom"
assert_eq "$(sed -n 's/^mmfree_up //p' $prom/mmfree.prom)" 1 "mmfree_up in $prom/mmfree.prom"
rm -rf /var/lib/prometheus
modprobe -r mmfree || fail "modprobe -r mmfree failed"

t0=$(date +%s)
# INITRD=No (the initramfs-tools hook honours it): the guest never boots
# the second kernel, and its initramfs tests nothing of mmfree.
INITRD=No apt-get install -y -q --no-install-recommends /root/debs/*.deb >/tmp/apt.log 2>&1 ||
	{ tail -n 30 /tmp/apt.log; fail "apt install of the $next kernel failed"; }
echo "apt install of the $next kernel (DKMS build included): $(($(date +%s) - t0)) s"
grep -E 'dkms|mmfree' /tmp/apt.log
ko2=$(find /lib/modules/"$next"/updates/dkms -name 'mmfree.ko*' 2>/dev/null | head -n 1)
[ -f "$ko2" ] || fail "DKMS's hooks did not build the module for $next"
assert_match "$(modinfo -F vermagic "$ko2")" "^$(ere "$next") " "vermagic of the module built for $next"

apt-get purge -y -q mmfreectl mmfree-dkms >/tmp/apt.log 2>&1 ||
	{ tail -n 30 /tmp/apt.log; fail "apt purge failed"; }
left=$(find /lib/modules /usr/src /var/lib/dkms /etc -name '*mmfree*' 2>/dev/null)
[ -z "$left" ] || fail "left after purge: $left"
! dpkg-query -W -f='${Status}\n' mmfree-dkms mmfreectl 2>/dev/null | grep -qv not-installed ||
	fail "dpkg still knows the packages after purge"

snapshot >/tmp/files-after
# dpkg names them as packaged (/lib/...), find as they are (merged /usr).
# shellcheck disable=SC2086 # package names, one word each
dpkg -L $next_pkgs | sed -E 's,^/(lib|bin|sbin)/,/usr/\1/,' | sort -u >/tmp/next-files
info_re="^/var/lib/dpkg/info/($(ere "$next_pkgs" | paste -sd'|'))(:amd64)?\\."
comm -13 /tmp/files-before /tmp/files-after | comm -23 - /tmp/next-files |
	grep -vE "$info_re" >/tmp/extra || true
# What the second kernel's maintainer scripts made: depmod's index (no
# image package owns it), an initramfs, the /vmlinuz and /initrd.img links.
made_re="^/usr/lib/modules/$(ere "$next")(/modules\\.[a-z.]+)?\$|^/boot/initrd\\.img-$(ere "$next")\$"
made_re="$made_re|^/var/lib/initramfs-tools/$(ere "$next")\$|^/(vmlinuz|initrd\\.img)(\\.old)?\$"
echo "left beside the $next packages, made by their scripts: $(grep -E "$made_re" /tmp/extra | paste -sd' ')"
grep -vE "$made_re" /tmp/extra >/tmp/new || true
comm -23 /tmp/files-before /tmp/files-after >/tmp/gone
echo "files: $(wc -l </tmp/files-before) before, $(wc -l </tmp/files-after) after;" \
	"$(wc -l </tmp/next-files) are the $next packages'"
if [ -s /tmp/new ] || [ -s /tmp/gone ]; then
	sed 's/^/new: /' /tmp/new
	sed 's/^/gone: /' /tmp/gone
	fail "the file tree after purge differs from before, beyond the second kernel"
fi
rm -f /etc/apt/apt.conf.d/90assume-yes-test
