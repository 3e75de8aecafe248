#!/bin/sh
# Hysteresis: under steady memory cgroup churn mmfree asks for at most one
# depopulating balance run per 10 s, as a page emptied now is likely
# refilled soon and each such run flushes every CPU's TLB; once the churn
# stops, the run a second later takes the empty pages down to the float.
# 20 s of deleting and re-creating 50 of 400 cgroups: scans grew by at
# most 20 / 10 + 2 (one for a stalled guest); then 20% deleted and 3 s
# of quiet: a run came, at most one chunk besides the first still holds
# empty pages (the float holder), and the kernel's accounting is exact.
# (A kick 100 ms after the first free used to isolate chunks about ten
# times a second under churn.)
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"

secs=${PCPU_CHURN_SECONDS:-20}
n=400
unload
load
memcg_setup
memcg_create $n
pcpu_quiesce
scans0=$(pcpu_stat scans)
end=$(($(date +%s) + secs))
cycles=0
while [ "$(date +%s)" -lt $end ]; do
	i=0
	while [ $i -lt 50 ]; do
		rmdir "$CG/$((i * 8))" || fail "rmdir"
		mkdir "$CG/$((i * 8))" || fail "mkdir"
		i=$((i + 1))
	done
	cycles=$((cycles + 1))
done
scans1=$(pcpu_stat scans)
echo "$cycles churn cycles in $secs s: $((scans1 - scans0)) mmfree balance runs, $(pcpu_stat isolated_chunks) chunks isolated so far"
# One run more than the hysteresis allows: a stall of the whole guest
# of a second (TCG, a busy host) looks like a quiet second to the kick.
# Without the hysteresis the runs come ten times a second.
[ $((scans1 - scans0)) -le $((secs / 10 + 2)) ] ||
	fail "$((scans1 - scans0)) runs during $secs s of churn (at most $((secs / 10 + 2)))"

memcg_delete_pct $n 20
sleep 3
pcpu_quiesce
sleep 2
scans2=$(pcpu_stat scans)
pcpu_accounting | grep chunk
echo "after the churn: $((scans2 - scans1)) runs; populated $(pcpu_stat populated_pages), empty $(pcpu_stat empty_pages), floor $(pcpu_stat floor_pages)"
[ "$scans2" -gt "$scans1" ] || fail "no balance run once the churn stopped"
holders=$(pcpu_accounting | awk '$1 == "chunk" && $NF != "first" && $9 > 0' | wc -l)
[ "$holders" -le 1 ] || fail "$holders chunks besides the first still hold empty pages"
assert_pcpu_accounting "after the churn"
memcg_delete_all
unload
