#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Peers benchmark (make bench, part "peers"): mmfree against what a user
# could do without it, on a real program, and as memory grows; in one
# boot, every configuration once per repetition (alternating), so that
# drift over the boot counts for none of them; the exits at PEER_MB run
# back to back (exit_block).
#
#   - the curve: munmap, and exit of a process holding the region (kill
#     until it exits and until the memory is back: pfbench reap), at
#     every size, stock (mmfree not loaded), sync and async;
#   - peers at PEER_MB: process_mrelease() from a reaper on the other CPU
#     (pfbench mrelease, stock kernel), and THP always (configs thp-stock,
#     thp-sync, thp-async; THP is never everywhere else);
#   - zap only (pages pinned, nothing freed: pfbench zap, exitzap) at
#     PEER_MB, for the model (bench/plot-peers.sh);
#   - redis-server filled to REDIS_MB with its own DEBUG POPULATE, no
#     persistence, shut down with SIGTERM (what systemctl stop sends):
#     until it exits and until the memory is back;
#   - the over-kill scenario: an OOM daemon as earlyoom is (pfbench
#     overkill) watches 4 hogs that together need room for all but half
#     of one: one kill makes room.  It kills the biggest whenever memory
#     available falls below a tenth and looks again OVERKILL_MS later
#     (earlyoom's 100 ms, scaled to TCG); config async-wait is async
#     with the daemon waiting (pidfd, then mmfreectl wait) before it
#     looks again.
#
# Lines: "PF test config size rep seconds" (tests munmap, exit, avail,
# reaper, redisexit, redisavail, overkillback; -1: not reached within
# 20 s; and overkill, whose value is the number of processes killed),
# "PFSTAT config test size stat delta" per run, "PFINFO key value...".
#
# Sizes come from the kernel command line (bench/bench.sh):
# mmfree_peers_quick=1, mmfree_peers_reps=N, mmfree_peers_sizes=MB,...,
# mmfree_peers_mb=MB, mmfree_peers_redis_mb=MB.  mmfree_peers_targets=1
# (bench.sh --peers-targets) runs only what issue 23's targets and the
# model's exit bound need: no munmap, no THP configurations.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")" && pwd)}
# shellcheck source=../../tests/guest/lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=bench-lib.sh
. "$MMFREE_GUEST/bench-lib.sh"

THP=/sys/kernel/mm/transparent_hugepage/enabled
SOCK=/tmp/redis.sock
REPS=5
SIZES="1024 2048 4096 8192 16384"
PEER_MB=4096
REDIS_MB=4096
TARGETS=0

cmdline=$(cat /proc/cmdline)
for arg in $cmdline; do
	[ "$arg" = mmfree_peers_quick=1 ] || continue
	REPS=3
	SIZES="512 1024 2048"
	PEER_MB=1024
	REDIS_MB=1024
done
for arg in $cmdline; do
	case "$arg" in
	mmfree_peers_reps=*) REPS=${arg#*=} ;;
	mmfree_peers_sizes=*) SIZES=$(echo "${arg#*=}" | tr , ' ') ;;
	mmfree_peers_mb=*) PEER_MB=${arg#*=} ;;
	mmfree_peers_redis_mb=*) REDIS_MB=${arg#*=} ;;
	mmfree_peers_overkill_ms=*) OVERKILL_MS=${arg#*=} ;;
	mmfree_peers_targets=*) TARGETS=${arg#*=} ;;
	esac
done
OVERKILL_MS=${OVERKILL_MS:-500}
# The peers' size is on the curve too: its stock, sync and async runs
# are the peers' own.
SIZES=$(echo "$SIZES $PEER_MB" | tr ' ' '\n' | sort -nu | tr '\n' ' ')
# About 1350 bytes of heap per key with a 1024-byte value (jemalloc's
# 1280-byte class, the key, its object and dict entry); the RSS reached
# is printed (PFINFO redis_rss_kb).
REDIS_KEYS=$((REDIS_MB * 1048576 / 1350))

# One timed run of a command (pfbench): its PF lines, and mmfree's
# statistics over it.
timed() {	# config size rep command...
	local cfg size rep out
	cfg=$1 size=$2 rep=$3
	shift 3
	quiesce
	stats_snap /tmp/st.before
	out=$("$@") || fail "$*: $out"
	# Async pages count as offloaded once a worker has freed them.
	quiesce
	stats_snap /tmp/st.after
	echo "$out" | awk -v h="$cfg $size $rep" '
		$1 == "munmap" || $1 == "zap" { print "PF munmap", h, $3 }
		$1 == "exitzap" { print "PF exit", h, $3 }
		$1 == "reap" || $1 == "mrelease" {
			print "PF exit", h, $3; print "PF avail", h, $4 }
		$1 == "mrelease" { print "PF reaper", h, $5 }
		$1 == "term" { print "PF redisexit", h, $3; print "PF redisavail", h, $4 }'
	stats_diff "$cfg" "$2" "$size" /tmp/st.before /tmp/st.after
}

thp() {	# always|never
	echo "$1" >"$THP" || fail "THP $1"
}

# One redis-server from start to shutdown; the timed part is the SIGTERM.
redis_run() {	# config rep
	local base pid n
	settle
	base=$(pfbench avail)
	# A unix socket: the guest brings up no network, not even lo.
	redis-server --port 0 --unixsocket "$SOCK" --save '' --appendonly no \
		--enable-debug-command yes --protected-mode no \
		--daemonize no --logfile /tmp/redis.log </dev/null >/dev/null 2>&1 &
	pid=$!
	n=0
	until [ "$(redis-cli -s "$SOCK" ping 2>/dev/null)" = PONG ]; do
		n=$((n + 1))
		[ $n -lt 300 ] || { kill "$pid"; fail "redis-server did not answer: $(tail -n 5 /tmp/redis.log)"; }
		sleep 0.2
	done
	redis-cli -s "$SOCK" DEBUG POPULATE "$REDIS_KEYS" key 1024 >/dev/null ||
		{ kill "$pid"; fail "redis DEBUG POPULATE: $(tail -n 5 /tmp/redis.log)"; }
	echo "PFINFO redis_rss_kb $1 $2 $(awk '$1 == "VmRSS:" { print $2 }' "/proc/$pid/status")"
	timed "$1" "$REDIS_MB" "$2" pfbench term "$pid" "$base"
	wait "$pid" || true
}

# The exits at PEER_MB that issue 23's ratios pair (stock, sync, async,
# process_mrelease and the zap-only model), back to back.  The host's
# CPUs run at full or about half speed for seconds to minutes at a
# time (the zap-only run, mmfree unloaded, shows both): a ratio of two
# runs minutes apart measured that as much as mmfree.  The order turns
# by one each repetition, so that none is always first after the module
# is loaded or unloaded.
exit_block() {	# rep
	local rep units i u cfg cmd
	rep=$1
	units="stock mrelease zaponly sync async"
	i=1
	while [ $i -lt "$rep" ]; do
		units="${units#* } ${units%% *}"
		i=$((i + 1))
	done
	for u in $units; do
		case $u in
		mrelease) cfg=stock cmd=mrelease ;;
		zaponly) cfg=stock cmd=exitzap ;;
		*) cfg=$u cmd=reap ;;
		esac
		main_config "$cfg"
		timed "$u" "$PEER_MB" "$rep" pfbench "$cmd" "$PEER_MB" 1
	done
}

# Everything else of one configuration in one repetition.
config_block() {	# stock|sync|async rep
	local cfg rep mb
	cfg=$1 rep=$2
	main_config "$cfg"
	for mb in $SIZES; do
		[ "$TARGETS" = 1 ] ||
			timed "$cfg" "$mb" "$rep" pfbench munmap "$mb" 1
		[ "$mb" = "$PEER_MB" ] ||
			timed "$cfg" "$mb" "$rep" pfbench reap "$mb" 1
	done
	if [ "$TARGETS" = 0 ]; then
		thp always
		timed "thp-$cfg" "$PEER_MB" "$rep" pfbench munmap "$PEER_MB" 1
		timed "thp-$cfg" "$PEER_MB" "$rep" pfbench reap "$PEER_MB" 1
		thp never
	fi
	if [ "$cfg" = stock ] && [ "$TARGETS" = 0 ]; then
		timed zaponly "$PEER_MB" "$rep" pfbench zap "$PEER_MB" 1
	fi
	redis_run "$cfg" "$rep"
	overkill "$cfg" "$rep" 0
	[ "$cfg" != async ] || overkill async-wait "$rep" 1
}

# The over-kill scenario: 4 hogs that need all the room above the
# daemon's threshold but half of one hog: one kill is enough.
overkill() {	# config rep wait
	local avail min mb out
	settle
	avail=$(($(pfbench avail) / 1024))
	min=$((avail / 10))
	mb=$(((avail - min) * 2 / 7))
	out=$(pfbench overkill 4 "$mb" "$min" "$OVERKILL_MS" "$3") || fail "pfbench overkill"
	# Size 4: the hogs; their MiB each and the kills needed are info.
	echo "$out" | awk -v c="$1" -v r="$2" '{
		print "PF overkill", c, 4, r, $4
		print "PF overkillback", c, 4, r, $6
		print "PFINFO overkill_hog", c, r, $3, "MiB, kills needed", $5 }'
	quiesce
}

# Untimed runs first in each configuration: the first runs of a code path
# under TCG pay for its translation.
warm_up() {
	local cfg
	for cfg in stock sync async; do
		main_config "$cfg"
		pfbench munmap 256 1 >/dev/null || fail "pfbench munmap"
		pfbench reap 256 1 >/dev/null || fail "pfbench reap"
		pfbench mrelease 256 1 >/dev/null || fail "pfbench mrelease"
	done
}

thp never
settle
echo "PFINFO kernel $(uname -r)"
echo "PFINFO cpus $(nproc)"
echo "PFINFO memtotal_kb $(meminfo_kb MemTotal)"
echo "PFINFO reps $REPS"
echo "PFINFO sizes $SIZES"
echo "PFINFO peer $PEER_MB"
echo "PFINFO overkill_interval_ms $OVERKILL_MS"
echo "PFINFO targets_only $TARGETS"
pfbench info | sed 's/^/PFINFO /'
echo "PFINFO redis $REDIS_MB $REDIS_KEYS $(redis-server --version | sed 's/.* v=\([^ ]*\).*/\1/')"
start=$(date +%s)

load
have_pagefree || { echo "PFINFO nopagefree this mmfree has no pagefree feature"; unload; exit 0; }
knob_write pagefree/enabled 1 || fail "pagefree/enabled"
echo "PFINFO defaults $(for k in mode workers batch_pages min_pages; do
	printf '%s=%s ' $k "$(knob pagefree/$k)"; done)"
warm_up

rep=1
while [ $rep -le "$REPS" ]; do
	t0=$(date +%s)
	exit_block $rep
	for cfg in stock sync async; do
		config_block $cfg $rep
	done
	echo "   (repetition $rep: $(($(date +%s) - t0)) s)"
	rep=$((rep + 1))
done
quiesce
unload
echo "PFINFO seconds $(($(date +%s) - start))"
