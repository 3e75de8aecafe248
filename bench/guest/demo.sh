#!/bin/sh
# The main job, in about five minutes (make demo; tests/vm.sh --demo): in
# one boot of a stock kernel, munmap 1 GiB with the stock kernel's own
# freeing, with mmfree sync and with mmfree async, three times each and
# alternating; print the times and ratios, then the README's workload
# (perl freeing 1 GiB) with mmfreectl status before and after, then the
# trace events of one offload.  Ratios under TCG are what carries over;
# absolute times are about 10x hardware's.
set -e

T=/sys/kernel/tracing
MB=1024

# printf, not echo: dash's echo would turn the perl line's \0 into a NUL.
show() {
	printf '$ %s\n' "$*"
	"$@"
}

# One munmap of MB, the pool idle first: its seconds.
munmap_s() {
	mmfreectl wait >/dev/null 2>&1
	pfbench munmap $MB 1 | awk '{ print $3 }'
}

median() {
	sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

echo "== kernel $(uname -r), $(nproc) CPUs, $(awk '/MemTotal/ { print $2 " kB" }' /proc/meminfo)"
# Base pages, as in the benchmarks: with THP the kernel frees 2 MiB at a
# time and there is little to parallelise.
echo never >/sys/kernel/mm/transparent_hugepage/enabled
show modprobe mmfree
show mmfreectl status | sed -n '1,4p'

echo "== munmap of $MB MiB, touched first: stock, sync, async, 3 times each, alternating"
: >/tmp/demo.times
for rep in 1 2 3; do
	mmfreectl disable pagefree >/dev/null
	s=$(munmap_s)
	mmfreectl enable pagefree >/dev/null
	mmfreectl set pagefree/mode sync >/dev/null
	y=$(munmap_s)
	mmfreectl set pagefree/mode async >/dev/null
	a=$(munmap_s)
	echo "rep $rep: stock $s s, sync $y s, async $a s"
	echo "$s $y $a" >>/tmp/demo.times
done
s=$(awk '{ print $1 }' /tmp/demo.times | median)
y=$(awk '{ print $2 }' /tmp/demo.times | median)
a=$(awk '{ print $3 }' /tmp/demo.times | median)
awk -v s="$s" -v y="$y" -v a="$a" 'BEGIN {
	printf "medians: stock %.3f s, sync %.3f s, async %.3f s\n", s, y, a
	printf "munmap returned %.2fx as fast with sync, %.2fx with async (async: the pool frees after it returned)\n", s / y, s / a
}'

echo "== the README's workload: perl builds a 1 GiB string (and a copy) and exits (sync mode)"
mmfreectl set pagefree/mode sync >/dev/null
mmfreectl wait >/dev/null 2>&1
show sh -c "mmfreectl status | grep -A3 '^pagefree/stats'"
# shellcheck disable=SC2016 # perl's own variable
show perl -e '$x = "\0" x 2**30'
show sh -c "mmfreectl status | grep -A3 '^pagefree/stats'"

echo "== the trace events of one offload (async, 64 MiB)"
mmfreectl set pagefree/mode async >/dev/null
echo 1 >$T/events/mmfree/enable
echo >$T/trace
pfbench munmap 64 1 >/dev/null
mmfreectl wait >/dev/null 2>&1
echo 0 >$T/events/mmfree/enable
grep -m 1 ' mmfree_offload: .*reason=offloaded_pages' $T/trace
grep -m 3 ' mmfree_item_freed: ' $T/trace
grep -m 1 ' mmfree_wait: ' $T/trace
echo "... $(grep -c ' mmfree_item_freed: ' $T/trace) items freed in all"

show modprobe -r mmfree
echo "== kernel log"
dmesg | grep mmfree
