#!/bin/sh
# MAP_SHARED file mappings while the pool frees: a child writes a pattern
# through a shared mapping of a 16 MiB file and unmaps or exits (or exits
# holding a mapping its parent also has); the parent finds the pattern
# through read(2), through a new mapping, through its own mapping, and
# again after fsync and POSIX_FADV_DONTNEED (from the disk).  On tmpfs and
# on ext4 (on a zram disk), in sync and in async mode.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

rounds=${PF_FILE_ROUNDS:-3}
dirs=/tmp
mnt=/tmp/pf-ext4
if modprobe ext4 2>/dev/null && pf_zram 256M &&
	mkfs.ext4 -q -F /dev/zram0 && mkdir -p $mnt &&
	mount -t ext4 /dev/zram0 $mnt; then
	PF_ZRAM_MNT=$mnt
	dirs="$dirs $mnt"
else
	echo "no ext4 on zram here: testing tmpfs only"
fi

for mode in sync async; do
	pf_load pagefree_mode=$mode
	for d in $dirs; do
		pf_snap
		echo "$mode, $(stat -f -c %T "$d") ($d):"
		pf_run pftest file "$d/pf-shared.dat" 16 "$rounds"
		pf_wait_inflight
		pf_show "$mode on $d"
		pf_assert_pooled "$mode on $d"
	done
done
unload
