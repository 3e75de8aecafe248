#!/bin/sh
# runs: once
# percpu/interval_ms keeps its pace while other knobs are written more
# often than the interval: a write that leaves the interval as it was
# must not put the next periodic scan off.  Kicks from percpu frees add
# a scan at most once per quiet second (or ten seconds of churn), well
# below what the tick gives.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"

SECS=8
INTERVAL=1000
unload
load percpu_interval_ms=$INTERVAL
workers=$(knob pagefree/workers)
scans=$(pcpu_stat scans)
writes=0
end=$(($(date +%s) + SECS))
while [ "$(date +%s)" -lt $end ]; do
	knob_write pagefree/workers "$workers" || fail "writing pagefree/workers"
	writes=$((writes + 1))
	sleep 0.05
done
scans=$(($(pcpu_stat scans) - scans))
echo "$scans scans in about $SECS s at interval_ms=$INTERVAL, $writes writes to pagefree/workers meanwhile"
# Half of what the interval gives, at the least.
[ "$scans" -ge $((SECS * 1000 / INTERVAL / 2)) ] ||
	fail "$scans scans in $SECS s: the knob writes kept putting the tick off"
unload
