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
		fail "$f accepted $1 ($(od -An -tx1 -N16 "$in"))"
	fi
	case "$e" in
	*"Invalid argument"*) ;;
	*) fail "$f, $1 ($(od -An -tx1 -N16 "$in")): expected EINVAL, got: $e" ;;
	esac
	rejected=$((rejected + 1))
}

# Random bytes (no NUL: the kernel would see only what precedes it), 1
# to 64 of them, with at least one byte that is neither a digit nor a
# newline, so that no file can accept them: 20 inputs a file, written
# by one awk (a process per input would cost a minute under TCG).
inputs=$(($(echo "$files" | wc -l) * 20))
rm -rf /tmp/fuzz.d
mkdir /tmp/fuzz.d
od -An -v -tu1 -N $((inputs * 65)) /dev/urandom | LC_ALL=C awk -v n=$inputs '
	{ for (i = 1; i <= NF; i++) b[m++] = $i }
	END {
		for (k = 0; k < n; k++) {
			len = b[p++] % 64 + 1
			s = ""
			other = 0
			for (j = 0; j < len; j++) {
				c = b[p++]
				if (c == 0)
					continue
				s = s sprintf("%c", c)
				if ((c < 48 || c > 57) && c != 10)
					other = 1
			}
			if (!other)
				s = s "x"
			printf "%s", s > ("/tmp/fuzz.d/" k)
			close("/tmp/fuzz.d/" k)
		}
	}' || fail "making random inputs"
k=0
for f in $files; do
	i=0
	while [ $i -lt 20 ]; do
		try "$f" /tmp/fuzz.d/$k "random bytes"
		k=$((k + 1))
		i=$((i + 1))
	done
	unchanged "random bytes to $f"
done
assert_eq "$k" "$inputs" "random inputs written"

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
