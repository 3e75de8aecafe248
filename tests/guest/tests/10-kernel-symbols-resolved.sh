#!/bin/sh
# Every kernel symbol and struct field the features need resolves on a
# supported kernel; a missing one turns off only the features that need
# it, each with one dmesg line naming it, and the module still loads.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"

unload
dmesg_clear
load
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
