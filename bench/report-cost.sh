#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The report of bench/bench.sh --cost-only, from its data file (each line
# "boot N " and a line of bench/guest/bench-cost.sh): markdown on stdout.
#
#   bench/report-cost.sh DATA...
#
# Several files count as one run of all their boots, numbered on from
# one file to the next.
#
# Each place's time per page: the median of the boots' medians, the
# range of every repetition, and that median over inline's; data files
# of the first version (before it was committed) also carry the charge
# call's time per item, reported as the median of every repetition's
# mean.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=report-lib.sh
. "$top/bench/report-lib.sh"

report_awk '
$3 == "PFINFO" && $4 == "kernel" { kernel = $5 }
$3 == "PFINFO" && $4 == "cost" { reps = $6; mb = $8 }
$3 == "PFHOST" && $4 == "other_vms" && $5 > others { others = $5 }
$3 == "PFCOST" && $4 == "charge" {
	charge = charge " " $6; calls += $7
	next
}
$3 == "PFCOST" {
	b = $2; c = $4
	if (b > boots) boots = b
	if (!(c in seen)) { seen[c] = 1; order[++n] = c }
	per[b, c] = per[b, c] " " $6
	all[c] = all[c] " " $6
	items[c] += $7
}
END {
	if (!n) { print "no PFCOST lines" > "/dev/stderr"; exit 1 }
	for (i = 1; i <= n; i++) {
		c = order[i]; list = ""
		for (b = 1; b <= boots; b++)
			if ((b, c) in per)
				list = list " " median(per[b, c])
		med[c] = median(list)
		median(all[c])
		lo[c] = LO; hi[c] = HI
	}
	printf "### %s\n\n", kernel
	printf "%d boot(s) x %d repetitions of a %d MiB munmap: ", boots, reps, mb
	printf "the time per page of free_pages_and_swap_cache(), where it ran: "
	printf "median of the boots'"'"' medians (range of every repetition).\n\n"
	print "| where | ns per page | over inline | items |"
	print "|---|---|---|---|"
	for (i = 1; i <= n; i++) {
		c = order[i]
		printf "| %s | %.0f (%.0f-%.0f) | %.2f | %d |\n", c, med[c],
			lo[c], hi[c], med["inline"] ? med[c] / med["inline"] : 0,
			items[c]
	}
	if (calls) {
		m = median(charge)
		printf "\nThe charge, per item: __cgroup_account_cputime() in a worker, "
		printf "timed with the function graph tracer (its own cost included): "
		printf "%.0f ns, median of the repetitions'"'"' means (%.0f-%.0f), %d calls.\n",
			m, LO, HI, calls
	}
	printf "\nOther VMs on the host during the boots: %d at most.\n", others
}' "$@"
