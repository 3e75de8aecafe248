#!/bin/sh
# Percpu allocations keep working under aggressive reclaim: cgroups are
# created and deleted in a loop while percpu/reclaim is written
# concurrently; no mkdir fails and the accounting never drifts.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"

rounds=${PCPU_ROUNDS:-2}
n=${PCPU_CGROUPS:-400}
unload
load percpu_interval_ms=200
memcg_setup
(
	while [ -d "$MMFREE/percpu" ]; do
		echo 1 >"$MMFREE/percpu/reclaim" 2>/dev/null || exit 1
		sleep 0.1
	done
) &
writer=$!
r=0
while [ $r -lt "$rounds" ]; do
	memcg_create "$n"
	memcg_delete_pct "$n" $((30 + r * 10))
	memcg_setup
	r=$((r + 1))
	echo "round $r: scans $(pcpu_stat scans), populated $(pcpu_stat populated_pages)"
done
kill $writer 2>/dev/null
wait $writer 2>/dev/null
pcpu_quiesce
knob_write percpu/reclaim 1 || fail "final reclaim"
echo "$rounds rounds of $n cgroups: scans $(pcpu_stat scans), isolated $(pcpu_stat isolated_chunks) chunks, depopulated $(pcpu_stat depopulated_pages) pages"
[ "$(pcpu_stat scans)" -gt "$rounds" ] || fail "too few scans"
assert_pcpu_accounting "after churn"
memcg_delete_all
unload
