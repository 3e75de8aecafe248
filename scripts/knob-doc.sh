#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The knobs are declared once, in include/mmfree/knobs.h; their
# documentation in the README's knob table, in mmfreectl(8)'s knob list
# and in the /etc/modprobe.d example is made from it (scripts/knob-doc.c)
# and committed.  This puts it there; --check only says whether what is
# committed is what the declaration makes (scripts/lint.sh runs it).
#
# Usage: scripts/knob-doc.sh [--check]
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=help.sh
. "$top/scripts/help.sh"
help_if_asked "$@"
check=0
case "${1:-}" in
'') ;;
--check) check=1 ;;
*) usage_error "unknown argument $1" ;;
esac

gen=$top/build/knob-doc
mkdir -p "$top/build"
"${CC:-cc}" -Wall -Wextra -Werror -I"$top/include" -o "$gen" "$top/scripts/knob-doc.c"

# FILE FORMAT BEGIN END: the lines between the line BEGIN and the line
# END (or the end of the file, for an empty END) become the generated
# text; the markers stay.
splice() {
	local file=$top/$1 new
	new=$(mktemp)
	# The markers through the environment: awk -v would eat backslashes.
	BEGIN_LINE=$3 END_LINE=$4 GEN="$gen $2" awk '
		BEGIN { begin = ENVIRON["BEGIN_LINE"]; end = ENVIRON["END_LINE"] }
		$0 == begin { print; while ((ENVIRON["GEN"] | getline l) > 0) print l; skip = 1; found = 1; next }
		skip && end != "" && $0 == end { skip = 0 }
		!skip { print }
		END { if (!found) { print "knob-doc.sh: no marker line: " begin > "/dev/stderr"; exit 1 } }
	' "$file" >"$new" || { rm -f "$new"; return 1; }
	if ((check)); then
		if ! diff -u "$file" "$new" >&2; then
			echo "knob-doc.sh: $1 differs from include/mmfree/knobs.h: run scripts/knob-doc.sh" >&2
			rm -f "$new"
			return 1
		fi
		rm -f "$new"
	else
		cat "$new" >"$file"
		rm -f "$new"
	fi
}

st=0
splice README.md readme \
	'<!-- knobs: made from include/mmfree/knobs.h by scripts/knob-doc.sh -->' \
	'<!-- end knobs -->' || st=1
splice mmfreectl/mmfreectl.8 man \
	'.\" knobs: made from include/mmfree/knobs.h by scripts/knob-doc.sh' \
	'.\" end knobs' || st=1
splice etc/modprobe.d/mmfree.conf modprobe \
	'# The options, made from include/mmfree/knobs.h by scripts/knob-doc.sh:' \
	'' || st=1
exit $st
