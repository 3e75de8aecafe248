#!/bin/sh
# needs: packages
# timeout: 1800
# The Debian packages, used the way an administrator uses them, on a
# machine with DKMS, a compiler and the running kernel's headers and no
# mmfree: apt installs mmfree-dkms and mmfreectl (scripts/deb.sh's
# build); DKMS, from the package's own postinst, builds and installs the
# module for the running kernel, and modprobe loads it; the example
# /etc files are conffiles of mmfreectl; a second kernel's headers
# installed afterwards (the same release's cloud flavour, whose headers
# need no kernel image) get the module from DKMS's own header hook; apt
# purge leaves no module, no DKMS tree and no file that was not there
# before, other than the second kernel's headers and the module index
# depmod wrote for that kernel (a kernel's image package owns its
# modules.* files; here the image is not installed).
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"

export DEBIAN_FRONTEND=noninteractive
debs=$MMFREE_GUEST/debs
kver=$(uname -r)
next=${kver%-amd64}-cloud-amd64
[ -d "$debs" ] || fail "no packages in $debs (tests/run.sh copies scripts/deb.sh's)"
ls /root/debs/linux-headers-"$next"_*.deb >/dev/null 2>&1 ||
	fail "no linux-headers-$next package in /root/debs (scripts/mkrootfs.sh packages)"
[ -d /lib/modules/"$kver"/build ] || fail "no headers for $kver"
loaded && fail "mmfree is loaded before the packages are installed"

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
apt-get install -y -q "$debs"/mmfree-dkms_*.deb "$debs"/mmfreectl_*.deb >/tmp/apt.log 2>&1 ||
	{ tail -n 30 /tmp/apt.log; fail "apt install of the packages failed"; }
echo "apt install (DKMS build for $kver included): $(($(date +%s) - t0)) s"
grep -E '^(Setting up|Building|Installing|Running depmod)' /tmp/apt.log

version=$(dpkg-query -W -f='${Version}' mmfree-dkms)
ko=/lib/modules/$kver/updates/dkms/mmfree.ko
[ -f "$ko" ] || fail "DKMS did not install $ko"
assert_match "$(modinfo -F vermagic "$ko")" "^$kver " "vermagic of the module built for $kver"
assert_eq "$(modinfo -F version "$ko")" "$version" "version of the module built by DKMS"
assert_match "$(dkms status mmfree)" "^mmfree/$version, $kver, x86_64: installed" "dkms status"
conffiles=$(dpkg-query -W -f='${Conffiles}' mmfreectl)
assert_contains "$conffiles" " /etc/modprobe.d/mmfree.conf " "conffiles of mmfreectl"
assert_contains "$conffiles" " /etc/modules-load.d/mmfree.conf " "conffiles of mmfreectl"

modprobe mmfree || fail "modprobe mmfree failed"
assert_eq "$(cat $MMFREE/version)" "$version" "version of the loaded module"
/usr/sbin/mmfreectl status >/tmp/status || fail "the packaged mmfreectl status failed"
head -n 3 /tmp/status
modprobe -r mmfree || fail "modprobe -r mmfree failed"

t0=$(date +%s)
apt-get install -y -q /root/debs/linux-headers-"$next"_*.deb >/tmp/apt.log 2>&1 ||
	{ tail -n 30 /tmp/apt.log; fail "apt install of the $next headers failed"; }
echo "apt install of the $next headers (DKMS build included): $(($(date +%s) - t0)) s"
grep -E 'dkms|mmfree' /tmp/apt.log
ko2=/lib/modules/$next/updates/dkms/mmfree.ko
[ -f "$ko2" ] || fail "DKMS's header hook did not build the module for $next"
assert_match "$(modinfo -F vermagic "$ko2")" "^$next " "vermagic of the module built for $next"

apt-get purge -y -q mmfreectl mmfree-dkms >/tmp/apt.log 2>&1 ||
	{ tail -n 30 /tmp/apt.log; fail "apt purge failed"; }
left=$(find /lib/modules /usr/src /var/lib/dkms /etc -name '*mmfree*' 2>/dev/null)
[ -z "$left" ] || fail "left after purge: $left"
! dpkg-query -W -f='${Status}\n' mmfree-dkms mmfreectl 2>/dev/null | grep -qv not-installed ||
	fail "dpkg still knows the packages after purge"

snapshot >/tmp/files-after
# dpkg names them as packaged (/lib/...), find as they are (merged /usr).
dpkg -L "linux-headers-$next" | sed -E 's,^/(lib|bin|sbin)/,/usr/\1/,' | sort >/tmp/headers-files
comm -13 /tmp/files-before /tmp/files-after | comm -23 - /tmp/headers-files |
	grep -vE "^/var/lib/dpkg/info/linux-headers-$next\\." >/tmp/extra || true
# depmod's index for the second kernel (its image package would own it).
depmod_re="^/usr/lib/modules/$next(/modules\\.[a-z.]+)?\$"
echo "left beside the headers, depmod's for $next: $(grep -E "$depmod_re" /tmp/extra | tr '\n' ' ')"
grep -vE "$depmod_re" /tmp/extra >/tmp/new || true
comm -23 /tmp/files-before /tmp/files-after >/tmp/gone
echo "files: $(wc -l </tmp/files-before) before, $(wc -l </tmp/files-after) after;" \
	"$(wc -l </tmp/headers-files) are the $next headers'"
if [ -s /tmp/new ] || [ -s /tmp/gone ]; then
	sed 's/^/new: /' /tmp/new
	sed 's/^/gone: /' /tmp/gone
	fail "the file tree after purge differs from before, beyond the second kernel's headers"
fi
