#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A gate called while closed stops its caller (BUG()), it does not warn
# and return (module/gate.c): in the built module, every gate function
# (mmfree_call_*) holds an entry of the kernel's bug table, and none of
# them is a warning's (BUGFLAG_WARNING, bit 0 of the entry's flags, its
# last 16 bits).  Read with readelf from the relocatable .ko: an entry's
# first word is relocated against .text, which says where its ud2 is.
#
# Usage: tests/host/gates-stop.sh MODULE.ko
set -euo pipefail

# shellcheck source=../../scripts/help.sh
. "$(dirname "$0")/../../scripts/help.sh"
help_if_asked "$@"
[[ $# == 1 && -f ${1:-} ]] || usage_error "a built mmfree.ko"
ko=$1

# Section __bug_table: its size and its offset in the file (hex).
read -r size off < <(readelf -SW "$ko" | sed 's/^ *\[ *[0-9]*\]//' |
	awk '$1 == "__bug_table" { print $5, $4 }')
[[ -n ${size:-} ]] || { echo "no __bug_table in $ko"; exit 1; }
size=$((16#$size)) off=$((16#$off))
# Each entry's code section and address, in entry order (GCC may place
# a gate in .text.unlikely: its body only stops).
addrs=() secs=()
while read -r _ sec what; do
	secs+=("$sec")
	addrs+=($((16#$what)))
done < <(readelf -rW "$ko" | awk '
	/^Relocation section/ { on = ($3 == "'"'"'.rela__bug_table'"'"'"); next }
	on && $5 ~ /^\.text/ { print $1, $5, $7 }' | sort)
n=${#addrs[@]}
((n > 0 && size % n == 0)) || { echo "cannot tell the bug table's entries ($size bytes, $n .text relocations)"; exit 1; }
esize=$((size / n))
# The gates: name, section, start, end.
gates=$(join -1 1 -2 2 -o 2.1,1.2,2.3,2.4 \
	<(readelf -SW "$ko" | sed -n 's/^ *\[ *\([0-9]*\)\] \([^ ]*\).*/\1 \2/p' | sort -k1,1) \
	<(readelf -sW "$ko" | awk '$8 ~ /^mmfree_call_/ && $4 == "FUNC" { print $8, $7, $2, $3 }' | sort -k2,2))
[[ -n $gates ]] || { echo "no gate function in $ko"; exit 1; }
bad=0
while read -r name sec start len; do
	start=$((16#$start))
	end=$((start + len))
	found=0 warns=0
	for ((i = 0; i < n; i++)); do
		a=${addrs[i]}
		[[ ${secs[i]} == "$sec" ]] || continue
		((a >= start && a < end)) || continue
		flags=$(od -An -tu2 -j $((off + (i + 1) * esize - 2)) -N2 "$ko" | tr -d ' ')
		found=1
		((flags & 1)) && warns=1
	done
	if ((!found)); then
		echo "FAIL $name: no bug table entry"
		bad=1
	elif ((warns)); then
		echo "FAIL $name: a warning's entry: it would warn and return"
		bad=1
	else
		echo "ok   $name stops"
	fi
done <<<"$gates"
exit $bad
