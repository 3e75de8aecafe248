#!/bin/sh
# 15 load/unload cycles leave free memory where it was, and no splat
# (the host fails the run on any oops, WARN or BUG in the console).
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"

cycles=15

unload
load && unload		# the first load warms caches that stay
settle
free=$(free_kb)
slab=$(meminfo_kb SUnreclaim)
vmalloc=$(meminfo_kb VmallocUsed)
percpu=$(meminfo_kb Percpu)
i=0
while [ $i -lt $cycles ]; do
	load
	[ "$(knob enabled)" = 1 ] || fail "cycle $i: enabled not 1"
	unload
	i=$((i + 1))
done
settle
echo "after $cycles load/unload cycles:"
# Kernel allocations of the module itself: module text and data live in
# vmalloc space, its objects in slab and percpu memory.
assert_kb_near VmallocUsed "$vmalloc" 128
assert_kb_near SUnreclaim "$slab" 512
assert_kb_near Percpu "$percpu" 0
# Page allocations show only in free memory (MemFree plus the per-CPU
# lists), which moves by up to ~10 MB between readings in this VM
# (measured); a leak of 550 kB or more per cycle still exceeds this.
now=$(free_kb)
echo "free (MemFree + per-CPU lists): $free kB -> $now kB"
[ $((free - now)) -le 16384 ] || fail "free memory off by $((free - now)) kB (tolerance 16384 kB)"
