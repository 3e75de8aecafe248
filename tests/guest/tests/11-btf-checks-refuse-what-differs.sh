#!/bin/sh
# At load every function a feature hooks or calls must have, in the
# kernel's BTF, the prototype its wrapper or gate was written for, and
# every struct field it reads must be there with the type it reads it as,
# on every kernel series, tested ones included.  test_btf_mismatch=NAME
# makes one function (or struct.member) differ: the feature that relies
# on it stays off with exactly one dmesg line naming it, the other
# feature comes up; an optional function only costs its own use.  On a
# series mmfree was not run on (test_untested_kernel=1 pretends) every
# feature stays off with one line naming the untested_kernel parameter,
# and not even the symbol lookup's kretprobe is registered (a function
# trace of register_kretprobe sees none, where with untested_kernel=1 it
# sees the lookup's); with untested_kernel=1 the features come up.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"

# name, then the feature it belongs to
checks="pcpu_balance_workfn:percpu pcpu_balance_free:percpu free_percpu:percpu
pcpu_chunk.list:percpu pcpu_chunk.md_blocks:percpu pcpu_chunk.isolated:percpu
pcpu_chunk.nr_populated:percpu pcpu_chunk.populated:percpu
pcpu_block_md.contig_hint:percpu
out_of_memory:pagefree tlb_finish_mmu:pagefree free_pages_and_swap_cache:pagefree
tlb_flush_mmu:pagefree idle_cpu:pagefree lru_add_drain:pagefree
__cgroup_account_cputime:pagefree cpuset_cpus_allowed:pagefree
zone_watermark_ok:pagefree
mmu_gather.mm:pagefree mmu_gather.local:pagefree mmu_gather_batch.nr:pagefree
mmu_gather_batch.next:pagefree task_group.parent:pagefree
cfs_bandwidth.quota:pagefree"

up() {	# feature
	[ -d "$MMFREE/$1" ]
}

unload
for c in $checks; do
	name=${c%:*} feature=${c#*:}
	dmesg_clear
	load test_btf_mismatch="$name"
	log=$(dmesg_new | grep 'mmfree:')
	echo "test_btf_mismatch=$name: $(echo "$log" | grep disabled)"
	assert_eq "$(echo "$log" | grep -c 'disabled')" 1 "lines reporting a feature off for $name"
	echo "$log" | grep -q "$feature disabled: .*$name.*test_btf_mismatch" ||
		fail "no line saying $feature is off because of $name"
	up "$feature" && fail "$feature/ present though $name differs"
	for f in percpu pagefree; do
		[ "$f" = "$feature" ] || up "$f" || fail "$f/ missing though it does not rely on $name"
	done
	unload
done

# Optional functions: pagefree comes up without them.
for name in apply_workqueue_attrs workqueue_set_min_active; do
	dmesg_clear
	load test_btf_mismatch="$name"
	log=$(dmesg_new | grep 'mmfree:')
	if ! echo "$log" | grep -q "$name"; then
		# workqueue_set_min_active is only called on 6.9 and later.
		echo "$name: not used on $(uname -r)"
		unload
		continue
	fi
	echo "test_btf_mismatch=$name: $(echo "$log" | grep "$name")"
	echo "$log" | grep -q 'disabled' && fail "a feature is off for the optional $name"
	up pagefree || fail "pagefree/ missing without the optional $name"
	unload
done

grep -qx register_kretprobe $T/available_filter_functions ||
	fail "register_kretprobe cannot be traced here"
# Loads with a function trace of register_kretprobe; how many it saw.
kretprobes_at_load() {	# parameters...
	trace_functions register_kretprobe || fail "tracing register_kretprobe"
	trace_start
	load "$@"
	KRETPROBES=$(trace_count register_kretprobe)
	trace_off
}

dmesg_clear
kretprobes_at_load test_untested_kernel=1
log=$(dmesg_new | grep 'mmfree:')
echo "$log"
for f in percpu pagefree; do
	up "$f" && fail "$f/ present on an untested kernel without untested_kernel=1"
	assert_eq "$(echo "$log" | grep -c "$f disabled: kernel $(uname -r) is untested; .*untested_kernel=1")" 1 \
		"lines saying $f is off on an untested kernel"
done
assert_eq "$KRETPROBES" 0 "kretprobes registered on an untested series"
unload
dmesg_clear
kretprobes_at_load test_untested_kernel=1 untested_kernel=1
[ "$KRETPROBES" -ge 1 ] || fail "the trace saw no kretprobe with untested_kernel=1: it proves nothing"
log=$(dmesg_new | grep 'mmfree:')
echo "$log"
for f in percpu pagefree; do
	up "$f" || fail "$f/ missing with untested_kernel=1"
done
echo "$log" | grep -q 'disabled' && fail "a feature is off with untested_kernel=1"
unload
