#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The start that bench/report-*.sh share, sourced with their arguments
# after setting $top: each takes data files whose lines begin "boot N ",
# and several files (boots run in different sessions, say) count as one
# run of all their boots, numbered on from one file to the next.

: "${top:?set by the script that sources this}"
# shellcheck source=../scripts/help.sh
. "$top/scripts/help.sh"
help_if_asked "$@"
(($# >= 1)) || usage_error "no data file"
for f in "$@"; do
	[[ -r $f ]] || usage_error "cannot read $f"
done

# Run the awk PROGRAM over the data files, after median() (bench/median.awk)
# and with each file's boots numbered on from the last file's.
report_awk() {	# program file...
	local program=$1
	shift
	awk "$(<"$top/bench/median.awk")"'
FNR == 1 { off = last }
$1 == "boot" { $2 += off; if ($2 > last) last = $2 }
'"$program" "$@"
}
