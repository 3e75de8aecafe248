#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The benchmarks' shared guest helpers (bench-pagefree.sh, bench-peers.sh):
# sourced after lib.sh.

PF=$MMFREE/pagefree

have_pagefree() {
	[ -d "$PF" ] && [ -d "$PF/stats" ]
}

# Wait until mmfree has no page in flight (async mode frees after munmap
# returns), then a moment more, so that every series starts idle.
quiesce() {
	local n tries
	tries=0
	if loaded && [ -r "$PF/stats/inflight_pages" ]; then
		while n=$(cat "$PF/stats/inflight_pages") && [ "$n" != 0 ] &&
			[ $tries -lt 600 ]; do
			sleep 0.1
			tries=$((tries + 1))
		done
		[ "$n" = 0 ] || echo "warning: $n pages still in flight after 60 s"
	fi
	sleep 0.5
}

stats_snap() {	# file
	if loaded && have_pagefree; then
		grep -r . "$PF/stats/" | sed 's|.*/||; s/:/ /' >"$1"
	else
		: >"$1"
	fi
}

# PFSTAT lines: the change of each statistic over a series (inflight_pages:
# its value at the end).
stats_diff() {	# config test size before after
	[ -s "$4" ] || return 0
	awk -v c="$1" -v t="$2" -v s="$3" '
		NR == FNR { b[$1] = $2; next }
		{ d = ($1 == "inflight_pages") ? $2 : $2 - b[$1]
		  printf "PFSTAT %s %s %s %s %.0f\n", c, t, s, $1, d }' "$4" "$5"
}

mode() {
	knob_write pagefree/mode "$1" || fail "pagefree/mode $1"
}

# The headline series' configurations.  Stock is mmfree not loaded:
# loading it patches kernel text, which happens here only while no
# benchmark process runs.
main_config() {	# stock|sync|async
	case "$1" in
	stock)
		unload
		;;
	*)
		if ! loaded; then
			load
			knob_write pagefree/enabled 1 || fail "pagefree/enabled 1"
		fi
		mode "$1"
		;;
	esac
}
