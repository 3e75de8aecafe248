#!/bin/sh
# runs: once
# A write to enabled other than 0 or 1 fails with EINVAL and changes
# nothing, a long one too (printf splits 4096 zeros and an x in two
# writes, the first of which alone parses as 0), and one with a NUL
# inside (the parsers used to stop at it: "0\0x" set enabled to 0, "1\0x"
# to percpu/reclaim reclaimed); version is read-only; a non-root user
# cannot write.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"

unload
load
nl='
'
for start in 1 0; do
	knob_write enabled "$start" || fail "writing $start to enabled"
	for bad in 2 -1 abc '1 1' 0x1 +1 ' 1' 11 01x 4294967296 \
		   99999999999999999999 "1$nl$nl" "$nl" "1${nl}x" \
		   "$(printf '%04096dx' 0)"; do
		what="'$bad'"
		[ ${#bad} -le 32 ] || what="of ${#bad} characters"
		if err=$(knob_write enabled "$bad"); then
			fail "write $what to enabled succeeded"
		fi
		# printf may lose the long write's errno by the time it says so.
		case "$err" in
		*"Invalid argument"*) ;;
		*"write error"*) [ ${#bad} -gt 32 ] ||
			fail "write $what: expected EINVAL, got: $err" ;;
		*) fail "write $what: expected EINVAL, got: $err" ;;
		esac
		assert_eq "$(knob enabled)" "$start" "enabled after a write $what"
	done
	# One write, NUL inside: the value before it would parse.
	other=$((1 - start))
	if err=$({ /usr/bin/printf "${other}\\000x" >"$MMFREE/enabled"; } 2>&1); then
		fail "write '${other}<NUL>x' to enabled succeeded"
	fi
	assert_match "$err" "Invalid argument" "write '${other}<NUL>x' to enabled"
	assert_eq "$(knob enabled)" "$start" "enabled after a write '${other}<NUL>x'"
	# An empty write transfers nothing and must leave the value alone.
	knob_write enabled '' >/dev/null
	assert_eq "$(knob enabled)" "$start" "enabled after an empty write"
done

knob_write enabled 1 || fail "writing 1"
assert_eq "$(knob enabled)" 1 "enabled after writing 1"
if [ -w "$MMFREE/percpu/reclaim" ]; then
	if err=$({ /usr/bin/printf '1\000x' >"$MMFREE/percpu/reclaim"; } 2>&1); then
		fail "write '1<NUL>x' to percpu/reclaim succeeded"
	fi
	assert_match "$err" "Invalid argument" "write '1<NUL>x' to percpu/reclaim"
fi
knob_write enabled "0$nl" || fail "writing 0 with a newline"
assert_eq "$(knob enabled)" 0 "enabled after writing '0\n'"

version=$(knob version)
knob_write version 9.9.9 && fail "write to version succeeded"
assert_eq "$(knob version)" "$version" "version after a write"

setpriv --reuid=65534 --regid=65534 --clear-groups \
	sh -c "echo 1 > $MMFREE/enabled" 2>/dev/null &&
	fail "a non-root user wrote enabled"
assert_eq "$(knob enabled)" 0 "enabled after a non-root write"
unload
echo "every bad write rejected, value unchanged"
