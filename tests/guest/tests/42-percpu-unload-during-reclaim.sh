#!/bin/sh
# rmmod while reclaim writes and percpu frees are in flight: the module
# leaves cleanly (no splat), and a fresh load finds exact accounting.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"

unload
memcg_setup
i=0
while [ $i -lt 3 ]; do
	load percpu_interval_ms=100
	memcg_create 200
	(
		while [ -e "$MMFREE/percpu/reclaim" ]; do
			echo 1 >"$MMFREE/percpu/reclaim" 2>/dev/null
			sleep 0.05
		done
	) &
	memcg_delete_all &
	sleep 0.$((i * 2))
	unload
	wait
	memcg_setup
	i=$((i + 1))
done
load
assert_pcpu_accounting "after 3 unloads in flight"
memcg_delete_all
unload
echo "3 unloads during reclaim"
