# SPDX-License-Identifier: GPL-2.0
# Helpers for the guest tests (sourced; POSIX sh).  A test prints what it
# checks, exits 0 when every assertion held, 77 to skip, anything else to
# fail.  The runner turns the output into KTAP diagnostics.

MMFREE=/sys/kernel/mmfree

fail() {
	echo "FAIL: $*"
	exit 1
}

skip() {
	echo "$*"
	exit 77
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
	/usr/bin/printf '%s' "$2" 2>&1 >"$MMFREE/$1"
}

# Drop what the kernel can drop and drain the per-CPU page lists
# (compaction does), so that readings differ by memory really held.
settle() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	echo 1 >/proc/sys/vm/compact_memory
}

meminfo_kb() {	# field of /proc/meminfo, e.g. MemFree
	awk -v f="$1:" '$1 == f { print $2 }' /proc/meminfo
}

# Check that field $1 of /proc/meminfo has not grown (for a "free" field:
# shrunk) by more than $3 kB since the reading $2.
assert_kb_near() {	# field before tolerance
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
