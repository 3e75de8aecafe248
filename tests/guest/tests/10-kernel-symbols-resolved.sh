#!/bin/sh
# Every kernel symbol and struct field the features need resolves on a
# supported kernel; a missing one turns off only the features that need
# it, each with one dmesg line naming it, and the module still loads.
# Resolving a symbol patches no kernel text: during a load, every
# synchronised text patch comes from attaching hooks, none from the
# lookup.  (Before, each lookup armed a kprobe on the symbol: 51 patches on
# 6.12, and under multi-threaded TCG an "Oops: int3" in idle_cpu.)
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"

# The functions that finish a text patch (kprobes' int3 and ftrace's
# batches; renamed smp_text_poke_* in 6.16), each traced with a stack.
pokes=$(grep -xE 'text_poke_(sync|finish|bp)|smp_text_poke_(sync_each_cpu|batch_finish|single)' \
	$T/available_filter_functions | sort -u | tr '\n' ' ')
echo "tracing text patches at: $pokes"
[ -n "$pokes" ] || fail "no text_poke function to trace"
untrace_pokes() {
	for f in $pokes; do
		echo "!$f:stacktrace" >>$T/set_ftrace_filter
	done
	trace_off
}
unload
trap untrace_pokes EXIT
for f in $pokes; do
	echo "$f:stacktrace" >>$T/set_ftrace_filter || fail "tracing $f"
done
trace_start
dmesg_clear
load
trace_stop
# Stack traces with a frame in function $1.
stacks() {
	awk -v f="$1" '/<stack trace>/ { n += hit; hit = 0 }
		$0 ~ "=> " f "([+ ]|$)" { hit = 1 } END { print n + hit }' $T/trace
}
lookup=$(stacks mmfree_ksym_lookup)
attach=$(stacks mmfree_hooks_attach)
echo "text patches during the load: $lookup from symbol lookups, $attach from attaching hooks"
[ "$attach" -gt 0 ] || fail "no text patch seen from attaching hooks: the trace proves nothing"
assert_eq "$lookup" 0 "text patches from symbol lookups"
untrace_pokes
trap - EXIT
log=$(dmesg_new)
echo "$log" | grep 'mmfree:'
echo "$log" | grep -q 'mmfree: percpu: [0-9]* units, chunk layout from BTF' ||
	fail "percpu did not come up"
echo "$log" | grep -q 'mmfree: pagefree: .* mode, [0-9]* workers' ||
	fail "pagefree did not come up"
echo "$log" | grep -q 'disabled' && fail "a feature was disabled"
[ -d "$MMFREE/percpu" ] || fail "percpu/ missing"
[ -d "$MMFREE/pagefree" ] || fail "pagefree/ missing"
unload

# symbol, then the features it turns off (the others must stay up).
for case in "pcpu_lock percpu" "pcpu_balance_workfn percpu" \
	    "__start_BTF percpu pagefree" \
	    "free_pages_and_swap_cache pagefree" "tlb_finish_mmu pagefree" \
	    "idle_cpu pagefree"; do
	# shellcheck disable=SC2086 # the symbol, then the features
	set -- $case
	sym=$1
	shift
	dmesg_clear
	load test_missing_ksym="$sym"
	log=$(dmesg_new)
	echo "$log" | grep 'mmfree:'
	for f in percpu pagefree; do
		case " $* " in
		*" $f "*)
			n=$(echo "$log" | grep -c "$f disabled: kernel symbol $sym not found")
			assert_eq "$n" 1 "lines reporting $f off without $sym"
			[ -d "$MMFREE/$f" ] && fail "$f/ present without $sym"
			;;
		*)
			[ -d "$MMFREE/$f" ] || fail "$f/ missing, though it does not need $sym"
			;;
		esac
	done
	assert_eq "$(echo "$log" | grep -c 'disabled')" $# \
		"lines reporting a disabled feature without $sym"
	assert_eq "$(knob enabled)" 1 "enabled with $* off"
	knob_write enabled 0 || fail "master switch with $* off"
	unload
done
