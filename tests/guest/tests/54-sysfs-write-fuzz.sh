#!/bin/sh
# runs: once
# Bounded fuzzing of every writable file under /sys/kernel/mmfree: random
# bytes, huge and negative numbers, near misses of the names a knob with
# names takes (and numbers for it, its names for the others), empty
# writes, and writes by a non-root user are all rejected and change no
# value; the module works afterwards.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"

unload
load
[ -d "$MMFREE/pagefree" ] || fail "pagefree unavailable (see dmesg)"
files=$(cd "$MMFREE" && find . -type f -perm -u+w | sed 's|^\./||' | sort)
# shellcheck disable=SC2086 # the list on one line
echo "writable:" $files
[ "$(echo "$files" | wc -l)" -ge 13 ] || fail "expected 12 knobs and reclaim"

# Every readable value (stats excepted: they move by themselves), read
# with one process after each group of writes (a value a write changed
# stays changed: no write here could set it back).
readable=$(find "$MMFREE" -type f -perm -u+r ! -path '*/stats/*' | sort)
[ "$(echo "$readable" | wc -l)" -ge 13 ] || fail "expected 12 knobs and version"
values() {
	# shellcheck disable=SC2086 # a list of paths without spaces
	grep -H . $readable
}
start=$(values)
echo "$start"

unchanged() {	# after what
	[ "$(values)" = "$start" ] || fail "a value changed after $1"
}

writes=0 rejected=0
# Write file $1 from file $2 in one write(2); it must fail (unchanged
# checks that it changed nothing).
try() {	# file input what...
	local e f in
	f=$1 in=$2
	shift 2
	set -- "$*"
	writes=$((writes + 1))
	if e=$(dd if="$in" of="$MMFREE/$f" bs=4096 count=1 2>&1); then
		fail "$f accepted $1"
	fi
	case "$e" in
	*"Invalid argument"*) ;;
	*) fail "$f, $1: expected EINVAL, got: $e" ;;
	esac
	rejected=$((rejected + 1))
}

# Random bytes (no NUL: the kernel would see only what precedes it), 1
# to 64 of them, with at least one byte that is neither a digit nor a
# newline, so that no file can accept them.
lengths=$(od -An -v -N2000 -tu1 /dev/urandom)
# shellcheck disable=SC2086 # one number a word
set -- $lengths
for f in $files; do
	i=0
	while [ $i -lt 20 ]; do
		[ $# -gt 0 ] || fail "out of random lengths"
		head -c $(($1 % 64 + 1)) /dev/urandom | tr -d '\000' >/tmp/fuzz
		shift
		LC_ALL=C grep -q '[^0-9]' /tmp/fuzz || continue
		# shellcheck disable=SC2046 # the bytes as one line of hex
		try "$f" /tmp/fuzz "random bytes" $(od -An -tx1 -N16 /tmp/fuzz)
		i=$((i + 1))
	done
	unchanged "random bytes to $f"
done

# Numbers no knob accepts (every range ends at or below 2^30, reclaim
# takes only 1, a knob with names no number), and malformed ones.
for v in 4294967296 4294967297 18446744073709551616 99999999999999999999 \
	 1073741825 -1 -0 -4294967296 0x1 1e3 1.0 +1 ' 1' '1 ' '1 1' '1\n\n' \
	 '\n' ' '; do
	printf '%b' "$v" >/tmp/fuzz
	for f in $files; do
		try "$f" /tmp/fuzz "'$v'"
	done
	unchanged "'$v' to every file"
done

# The knobs with names: near misses of their names (case, prefixes,
# suffixes, blanks, two names, more than one newline) and numbers are
# rejected; their names are rejected by every other file.  (Random bytes
# and the numbers above cover the other files already.)
named=
for f in $files; do
	case "$f" in reclaim | */reclaim) continue ;; esac
	case "$(knob "$f" 2>/dev/null)" in *[!0-9]*) named="$named $f" ;; esac
done
assert_eq "$named" " pagefree/mode" "knobs with names"
for v in Sync SYNC ASYNC Async syn asyn syncc asyncc ' sync' 'sync ' \
	 '\tsync' 'sync\n\n' '\nsync' 'sync\nasync' 'sync async' sync,async \
	 'sync\r' 'sync\n1' "$(printf 'sync\303\251')" 0 1 2 '1\n'; do
	printf '%b' "$v" >/tmp/fuzz
	for f in $named; do
		try "$f" /tmp/fuzz "'$v'"
	done
	unchanged "'$v' to$named"
done
for v in sync async 'sync\n'; do
	printf '%b' "$v" >/tmp/fuzz
	for f in $files; do
		case " $named " in *" $f "*) continue ;; esac
		try "$f" /tmp/fuzz "'$v'"
	done
	unchanged "'$v' to the files without names"
done

# Empty writes (an open for writing with nothing written) change nothing.
for f in $files; do
	/usr/bin/printf '' >"$MMFREE/$f" 2>/dev/null
	[ "$(values)" = "$start" ] || fail "$f changed after an empty write"
done

# Not root, with values that root could write.
printf 1 >/tmp/fuzz-ok
chmod 644 /tmp/fuzz-ok
for f in $files; do
	writes=$((writes + 1))
	if setpriv --reuid=65534 --regid=65534 --clear-groups \
		dd if=/tmp/fuzz-ok of="$MMFREE/$f" bs=4096 count=1 2>/dev/null; then
		fail "a non-root user wrote $f"
	fi
	rejected=$((rejected + 1))
	[ "$(values)" = "$start" ] || fail "$f changed after a non-root write"
done
echo "$writes writes, $rejected rejected, no value changed"
assert_eq "$rejected" "$writes" "rejected writes"
[ "$writes" -ge 200 ] || fail "only $writes writes"

# Still working: a valid write, a reclaim scan, an unload and a reload.
knob_write percpu/min_empty_pages 2 || fail "valid write after fuzzing"
assert_eq "$(knob percpu/min_empty_pages)" 2 "percpu/min_empty_pages after fuzzing"
knob_write pagefree/mode async || fail "valid name after fuzzing"
assert_eq "$(knob pagefree/mode)" async "pagefree/mode after fuzzing"
scans=$(pcpu_stat scans)
knob_write percpu/reclaim 1 || fail "reclaim after fuzzing"
[ "$(pcpu_stat scans)" -gt "$scans" ] || fail "reclaim did not scan after fuzzing"
unload
load
assert_eq "$(values)" "$start" "values after a reload"
unload
echo "fuzzing rejected, module still works"
