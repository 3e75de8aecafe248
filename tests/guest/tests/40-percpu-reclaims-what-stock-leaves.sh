#!/bin/sh
# After memory cgroups are deleted in a scattered pattern, the stock
# heuristic (a quarter of a chunk empty) leaves empty populated pages
# behind.  One write to percpu/reclaim depopulates all of them but the
# float: keep_empty_pages, which the kernel's reclaim insists on finding
# in non-isolated chunks, so it stays in the one chunk with the fewest
# empty pages that holds it (and the first chunk is never depopulated).
# The kernel's accounting stays exact throughout, and the reclaim's trace
# events (mmfree_percpu_scan, mmfree_percpu_result) report the pages
# depopulated_pages counts.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"

n=${PCPU_CGROUPS:-1500}
[ -d $T ] || skip "no tracefs"
trap 'trace_off; memcg_delete_all' EXIT
pcpu_stock_holes "$n"
echo "stock, after deleting 20% of $n cgroups:"
stock_pop=$(pcpu_stat populated_pages)
stock_empty=$(pcpu_stat empty_pages)
floor=$(pcpu_stat floor_pages)
echo "  populated $stock_pop, empty $stock_empty, floor $floor pages per unit, $(pcpu_stat chunks) chunks"
assert_pcpu_accounting "stock"
keep=$(knob percpu/keep_empty_pages)
# The float holder's empty pages: the fewest of any chunk that has keep.
holder=$(pcpu_accounting | awk -v keep="$keep" '
	$1 == "chunk" && $13 == 0 && $NF != "first" && $9 >= keep &&
	(min == "" || $9 < min) { min = $9 }
	END { print min + 0 }')

# percpu was off until now, so that no scan of its own came first.
before=$(pcpu_stat depopulated_pages)
echo 1 >$E/enable || fail "enabling mmfree's trace events"
trace_start
knob_write percpu/enabled 1 || fail "enabling percpu"
knob_write percpu/reclaim 1 || fail "reclaim"
# A run that a late free kicked may end as tracing stops: the events
# report what the counter grew by before the stop, or after it.
mid=$(pcpu_stat depopulated_pages)
trace_stop
after=$(pcpu_stat depopulated_pages)
trace_lines 'mmfree_percpu_(scan|result)' | sed 's/^ *//' | head -n 6
trace_lines mmfree_percpu_scan | grep -qE 'chunks=[0-9]+ pages=[0-9]+' ||
	fail "no mmfree_percpu_scan with its fields"
released=$(trace_lines mmfree_percpu_result | sed -nE 's/.*depopulated=(-?[0-9]+).*/\1/p' |
	awk '$1 > 0 { n += $1 } END { print n + 0 }')
echo "depopulated_pages $before -> $mid (tracing) -> $after; mmfree_percpu_result reported $released"
if [ "$released" -lt $((mid - before)) ] || [ "$released" -gt $((after - before)) ]; then
	fail "the events report $released pages depopulated, depopulated_pages grew by $((mid - before)) to $((after - before))"
fi
pop=$(pcpu_stat populated_pages)
empty=$(pcpu_stat empty_pages)
floor=$(pcpu_stat floor_pages)
keep=$(knob percpu/keep_empty_pages)
pcpu_accounting | grep chunk
echo "mmfree, after one reclaim write:"
echo "  populated $pop, empty $empty, floor $floor, depopulated $(pcpu_stat depopulated_pages), isolated $(pcpu_stat isolated_chunks) chunks, scans $(pcpu_stat scans)"
pcpu_accounting | grep chunk
assert_pcpu_accounting "after reclaim"
[ "$stock_empty" -gt "$keep" ] ||
	skip "stock left only $stock_empty empty pages: nothing to prove"
[ "$empty" -lt "$stock_empty" ] || fail "reclaim freed no empty page"
[ "$pop" -lt "$stock_pop" ] || fail "populated pages did not drop"
[ "$(pcpu_stat depopulated_pages)" -gt 0 ] || fail "depopulated_pages is 0"
first=$(pcpu_accounting | awk '$1 == "first_chunk_empty_pages" { print $2 }')
[ "$holder" -gt "$keep" ] || holder=$keep
echo "bound: float holder $holder + first chunk $first empty pages"
if [ "$empty" -gt $((holder + first)) ]; then
	# Frees deferred past pcpu_quiesce (RCU-freed objects of the deleted
	# cgroups, slower under load) can empty a page after the reclaim:
	# a second reclaim must then leave only the float.
	echo "$empty empty pages after one reclaim: again, after late frees"
	pcpu_quiesce
	knob_write percpu/reclaim 1 || fail "reclaim"
	empty=$(pcpu_stat empty_pages)
	first=$(pcpu_accounting | awk '$1 == "first_chunk_empty_pages" { print $2 }')
	pcpu_accounting | grep chunk
fi
[ "$empty" -le $((holder + first)) ] ||
	fail "$empty empty pages left (float holder $holder + first chunk $first)"
memcg_delete_all
pcpu_quiesce
assert_pcpu_accounting "after deleting all"
unload
