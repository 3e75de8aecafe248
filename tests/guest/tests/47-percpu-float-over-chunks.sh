#!/bin/sh
# When no single chunk can keep the float (keep_empty_pages) alone, a few
# chunks keep it together and the others are depopulated.  With percpu
# off, memory cgroups are deleted in a scattered pattern (as in
# percpu-reclaims-what-stock-leaves); then keep_empty_pages is set one
# above what the first chunk and the chunk with the most empty pages hold
# together, so no chunk can keep it alone.  One write to percpu/reclaim
# depopulates pages, the chunks left hold at least the float (the
# kernel's own count of empty pages outside isolated chunks), and the
# accounting stays exact.  (Nothing was isolated then: the reclaim left
# every empty page.)
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"

n=${PCPU_CGROUPS:-1500}
trap 'memcg_delete_all' EXIT
pcpu_stock_holes "$n"
acct=$(pcpu_accounting)
echo "$acct" | grep chunk
first=$(echo "$acct" | awk '$1 == "first_chunk_empty_pages" { print $2 }')
# Chunks the reclaim may isolate: not the first, not isolated already.
read -r nc total most least <<STATS
$(echo "$acct" | awk '$1 == "chunk" && $13 == 0 && $NF != "first" && $9 > 0 {
	n++; t += $9; if ($9 > m) m = $9; if (l == "" || $9 < l) l = $9 }
	END { print n + 0, t + 0, m + 0, l + 0 }')
STATS
echo "stock: $nc chunks with $total empty pages, $least to $most in one; first chunk $first"
keep=$((first + most + 1))
# One chunk at least can go: the others then hold the float.
[ $((first + total - least)) -ge "$keep" ] ||
	fail "no chunks to show a float kept by several: $nc chunks, $total empty pages, $least to $most in one"
knob_write percpu/keep_empty_pages $keep || fail "keep_empty_pages $keep"
knob_write percpu/enabled 1 || fail "enabling percpu"
knob_write percpu/reclaim 1 || fail "reclaim"
pcpu_accounting | grep chunk
# A process forked to read it may take an empty page for its mm's
# percpu counters while it lives: the most of up to 5 readings.
kept=0
for _ in 1 2 3 4 5; do
	k=$(pcpu_accounting | awk '$1 == "pcpu_nr_empty_pop_pages" { print $2 }')
	[ "$k" -le "$kept" ] || kept=$k
	[ "$kept" -lt "$keep" ] || break
	sleep 0.2
done
echo "keep_empty_pages $keep: depopulated $(pcpu_stat depopulated_pages) pages, isolated $(pcpu_stat isolated_chunks) chunks, $kept empty pages kept"
assert_pcpu_accounting "float over several chunks"
[ "$(pcpu_stat depopulated_pages)" -gt 0 ] ||
	fail "nothing depopulated when no single chunk could keep the float of $keep"
[ "$kept" -ge "$keep" ] || fail "$kept empty pages kept, below the float of $keep"
memcg_delete_all
pcpu_quiesce
assert_pcpu_accounting "after deleting all"
unload
