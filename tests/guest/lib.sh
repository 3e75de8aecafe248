# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Helpers for the guest tests (sourced; POSIX sh).  A test prints what it
# checks, exits 0 when every assertion held, 77 to skip, anything else to
# fail.  The runner turns the output into KTAP diagnostics.
#
# A test finds these files from MMFREE_GUEST, the directory holding
# runner.sh, lib.sh and the rest (the runner exports it), or from where
# it is itself when run alone:
#	MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
#	# shellcheck source=../lib.sh
#	. "$MMFREE_GUEST/lib.sh"
# The programs they run (pftest, pfbench, mmfreectl) are found on PATH.

: "${MMFREE_GUEST:?set MMFREE_GUEST to the directory of lib.sh}"
MMFREE=/sys/kernel/mmfree

# A failing test must not leave helpers running: they would hold the
# runner's output pipe open.
trap 'kill $(jobs -p) 2>/dev/null' EXIT

fail() {
	echo "FAIL: $*"
	exit 1
}

skip() {
	echo "$*"
	exit 77
}

# Shell builtins only, where a test runs a helper hundreds of times: under
# TCG each process started costs tens of milliseconds.

# Standard input into $slurped, as $(cat) would give it.
slurp() {
	local line nl='
'
	slurped=''
	while IFS= read -r line || [ -n "$line" ]; do
		slurped="$slurped$line$nl"
	done
	while :; do
		case "$slurped" in
		*"$nl") slurped=${slurped%"$nl"} ;;
		*) return 0 ;;
		esac
	done
}

# The CPU time task PID has run, in ns (the first field of its schedstat).
task_runtime_ns() {	# pid
	cut -d' ' -f1 "/proc/$1/schedstat"
}

# The time since boot, in ms: the guest's clock, which the host's load
# does not move.
uptime_ms() {
	awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime
}

# Each line of text $2, after prefix $1.
indent() {	# prefix text
	local line
	while IFS= read -r line; do
		printf '%s%s\n' "$1" "$line"
	done <<EOF
$2
EOF
}

assert_eq() {	# actual expected what
	[ "$1" = "$2" ] || fail "$3: expected '$2', got '$1'"
}

loaded() {
	[ -d /sys/module/mmfree ]
}

load() {
	modprobe mmfree "$@" || fail "modprobe mmfree $*"
	[ -d "$MMFREE" ] || fail "$MMFREE missing after modprobe"
}

unload() {
	if loaded; then
		modprobe -r mmfree || fail "modprobe -r mmfree"
	fi
	loaded && fail "mmfree still loaded after modprobe -r"
	return 0
}

knob() {	# path under /sys/kernel/mmfree
	cat "$MMFREE/$1"
}

# Write $2 (verbatim, no newline added) to knob $1 with write(2); print
# the error text and return non-zero when the write fails.  coreutils'
# printf reports errno as text, unlike dash's builtin.
knob_write() {
	{ /usr/bin/printf '%s' "$2" >"$MMFREE/$1"; } 2>&1
}

# Drop what the kernel can drop, so that readings differ by memory
# really held.  No compaction: under TCG it migrates the rootfs (tmpfs)
# pages of every binary run so far, and the old pages, reused by the next
# big allocation, still carry QEMU's translated code; stores into them go
# through QEMU's self-modifying-code path, slowly enough for a big
# allocation to trip the soft-lockup watchdog (seen on 6.12, with or
# without mmfree).  Pages left on the per-CPU lists are counted by
# free_kb instead of drained.
settle() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
}

meminfo_kb() {	# field of /proc/meminfo, e.g. MemFree
	awk -v f="$1:" '$1 == f { print $2 }' /proc/meminfo
}

# Free pages on the per-CPU lists (kB): not in MemFree, and 6.12 tunes
# the lists' size up (to tens of MB) after heavy freeing on a CPU.
pcp_kb() {
	awk '$1 == "count:" { n += $2 } END { print n * 4 }' /proc/zoneinfo
}

# Free memory the way a leak check needs it: MemFree plus the per-CPU
# lists, which MemFree does not count.
free_kb() {
	echo $(($(meminfo_kb MemFree) + $(pcp_kb)))
}

# Check that field $1 of /proc/meminfo has not grown (for a "free" field:
# shrunk) by more than $3 kB since the reading $2.
assert_kb_near() {	# field before tolerance
	local now delta
	now=$(meminfo_kb "$1")
	case "$1" in
	Mem*) delta=$(($2 - now)) ;;
	*) delta=$((now - $2)) ;;
	esac
	echo "$1: $2 kB -> $now kB"
	[ "$delta" -le "$3" ] || fail "$1 off by $delta kB (tolerance $3 kB)"
}

# Kernel messages since the last dmesg_clear.
dmesg_clear() {
	dmesg -C
}

dmesg_new() {
	dmesg
}

# --- percpu -----------------------------------------------------------

pcpu_stat() {	# name under percpu/stats
	cat "$MMFREE/percpu/stats/$1"
}

# The kernel's empty-page counter against two recounts (debugfs).
pcpu_accounting() {
	cat /sys/kernel/debug/mmfree/percpu_accounting
}

# Run a function between two readings until both read the same, so that
# what it saw is compared with a reading from one moment: up to TRIES
# times, PAUSE seconds apart.  The function runs in this shell, so the
# variables it sets stay; $bracket holds the reading.  False when the
# reading changed every time.
bracketed() {	# tries pause reading-command function
	local n=0
	while [ $n -lt "$1" ]; do
		bracket=$($3)
		$4
		[ "$($3)" != "$bracket" ] || return 0
		n=$((n + 1))
		sleep "$2"
	done
	return 1
}

# The kernel's counter and both recounts agree: true on the first of up
# to 10 readings 50 ms apart that agrees; $pcpu_counts holds the last.
# One reading may disagree without a drift: pcpu_alloc() takes the
# pages of the empty blocks it allocates from the counts, then drops
# pcpu_lock to populate those that were not populated, and
# pcpu_chunk_populated() adds them back (mm/percpu.c, "will be added
# back").  A drift stays.
pcpu_counts_agree() {
	local acct k l b tries=0
	while [ $tries -lt 10 ]; do
		acct=$(pcpu_accounting)
		k=$(echo "$acct" | awk '$1 == "pcpu_nr_empty_pop_pages" { print $2 }')
		l=$(echo "$acct" | awk '$1 == "chunks_nr_empty_pop_pages" { print $2 }')
		b=$(echo "$acct" | awk '$1 == "bitmap_empty_pop_pages" { print $2 }')
		pcpu_counts="pcpu_nr_empty_pop_pages $k, chunks $l, bitmaps $b"
		[ -z "$k" ] || [ "$k" != "$l" ] || [ "$k" != "$b" ] || return 0
		tries=$((tries + 1))
		sleep 0.05
	done
	return 1
}

# Percpu: of /proc/meminfo in $kb.
pcpu_meminfo_kb() {
	kb=$(meminfo_kb Percpu)
}

assert_pcpu_accounting() {	# what
	local pop units kb
	pcpu_counts_agree ||
		fail "$1: percpu empty-page accounting drifted ($pcpu_counts in 10 readings)"
	echo "$1: $pcpu_counts"
	# /proc/meminfo's Percpu: is populated pages times units.  The
	# kernel's balance work may still be populating: compare only a
	# reading that the populated count brackets unchanged.
	units=$(pcpu_stat units)
	bracketed 20 0.2 "pcpu_stat populated_pages" pcpu_meminfo_kb ||
		fail "$1: populated_pages still changing after 20 readings"
	pop=$bracket
	assert_eq "$kb" "$((pop * units * 4))" "$1: Percpu: kB vs populated_pages*units*4"
}

# Memory cgroups hold percpu memory (statistics per CPU): the classic way
# to fill and fragment percpu chunks.
CG=/sys/fs/cgroup/mmfree-test

memcg_setup() {
	memcg_delete_all
	grep -qw memory /sys/fs/cgroup/cgroup.subtree_control ||
		echo +memory >/sys/fs/cgroup/cgroup.subtree_control
	mkdir -p "$CG"
	echo +memory >"$CG/cgroup.subtree_control"
}

# One mkdir (rmdir) for all the cgroups, in order, not a process each.
memcg_create() {	# count
	seq 0 $(($1 - 1)) | sed "s|^|$CG/|" | xargs mkdir ||
		fail "mkdir of $1 cgroups"
}

# Remove cgroup i when (i % 100) < pct: scattered holes in every chunk.
memcg_delete_pct() {	# count pct
	seq 0 $(($1 - 1)) | awk -v pct="$2" -v cg="$CG" '$1 % 100 < pct { print cg "/" $1 }' |
		while read -r d; do [ ! -d "$d" ] || echo "$d"; done | xargs -r rmdir ||
		fail "rmdir of $2% of $1 cgroups"
}

# The stock kernel's leftovers: with mmfree's percpu off, @count cgroups
# created and 20% of them deleted in a scattered pattern, then quiet.
pcpu_stock_holes() {	# count
	unload
	load percpu_enabled=0
	memcg_setup
	memcg_create "$1"
	memcg_delete_pct "$1" 20
	pcpu_quiesce
}

memcg_delete_all() {
	[ -d "$CG" ] || return 0
	find "$CG" -mindepth 1 -depth -type d -exec rmdir {} + 2>/dev/null
	rmdir "$CG" 2>/dev/null
	return 0
}

# Freed memcgs release their percpu memory after RCU grace periods and
# offlining work: wait until the pages holding live allocations stop
# changing for two seconds (at most a minute).
pcpu_quiesce() {
	local prev cur same tries
	prev=-1 same=0 tries=0
	while [ $same -lt 2 ] && [ $tries -lt 60 ]; do
		sleep 1
		cur=$(pcpu_stat floor_pages)
		if [ "$cur" = "$prev" ]; then
			same=$((same + 1))
		else
			same=0
		fi
		prev=$cur
		tries=$((tries + 1))
	done
}

# --- mmfreectl --------------------------------------------------------

# Run mmfreectl: its stdout in $out, stderr in $err, exit status in $rc;
# all three are shown.
ctl() {
	out=$(mmfreectl "$@" 2>/tmp/mmfreectl.err)
	rc=$?
	slurp </tmp/mmfreectl.err
	err=$slurped
	echo "\$ mmfreectl $* (exit $rc)"
	[ -z "$out" ] || indent '  ' "$out"
	[ -z "$err" ] || indent '  stderr: ' "$err"
	return 0
}

# ctl, asserting the exit status.
ctl_rc() {	# expected-status args...
	local want
	want=$1
	shift
	ctl "$@"
	[ "$rc" = "$want" ] || fail "mmfreectl $*: exit status $rc, expected $want"
}

# A usage error: exit status 2, a message on stderr, nothing on stdout.
ctl_usage() {	# args...
	ctl_rc 2 "$@"
	[ -n "$err" ] || fail "mmfreectl $*: no error message"
	[ -z "$out" ] || fail "mmfreectl $*: printed on stdout: $out"
}

assert_match() {	# text pattern(ERE) what
	echo "$1" | grep -qE -- "$2" || fail "$3: no match for /$2/ in: $1"
}

assert_contains() {	# text string what
	case "$1" in
	*"$2"*) ;;
	*) fail "$3: no '$2' in: $1" ;;
	esac
}

# Exit 0 if stdin is exactly one JSON object, else exit 1 (jq says
# where the text stops being JSON).
json_object() {
	jq -e -s 'length == 1 and (.[0] | type) == "object"' >/dev/null ||
		{ echo "json: not one JSON object"; return 1; }
}

# What a jq filter makes of a JSON text, compact: a string keeps its
# quotes, so that the type shows ("2" is not 2).  Empty if the text is
# not JSON.
json_get() {	# json filter [jq options...]
	local j f
	j=$1 f=$2
	shift 2
	printf '%s\n' "$j" | jq -c "$@" "$f"
}

# Tracing, through tracefs ($T; mmfree's events under $E).  trace_start
# empties the buffer and starts recording, trace_stop stops it, and
# trace_lines prints what one event or traced function recorded
# (trace_count, how many times).
# trace_functions has the function tracer record calls to one function.
# trace_off is for EXIT traps: it stops recording and puts the tracer,
# its filter and mmfree's events back.
T=/sys/kernel/tracing
E=$T/events/mmfree

trace_start() {
	echo 0 >$T/tracing_on
	echo >$T/trace
	echo 1 >$T/tracing_on
}

trace_stop() {
	echo 0 >$T/tracing_on
}

trace_lines() {	# event or function
	grep -E " $1(: | <-)" $T/trace
}

trace_count() {	# event or function
	trace_lines "$1" | wc -l
}

trace_functions() {	# function
	echo "$1" >$T/set_ftrace_filter || return 1
	echo function >$T/current_tracer
}

trace_off() {
	[ -d $T ] || return 0
	echo 0 >$T/tracing_on
	echo nop >$T/current_tracer
	echo >$T/set_ftrace_filter
	[ ! -d $E ] || echo 0 >$E/enable
}
