# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The verdict on a KTAP report, for tests/vm.sh (a guest's) and
# tests/installed.sh (this machine's); sourced by both, as splat.awk is
# run by both.
#
#   ktap_count FILE        sets plan, passed, skipped, failed and notok
#                          (the names of the tests not ok)
#   ktap_why FILE          each test not ok with the reason it gave
#                          (its last "FAIL:" or status line), for the
#                          summary line that CI's tail keeps
#   ktap_verdict [FILTER]  after the caller's own entries in reasons[]
#                          (timeout, crash, splat, ...): adds the plan's,
#                          then counts a failure if there is any reason,
#                          and every planned test that never reported
#
# The variables are the callers' (shellcheck cannot see them used here).
# shellcheck disable=SC2034

ktap_count() {	# file
	plan=$(sed -nE 's/^1\.\.([0-9]+)$/\1/p' "$1" | head -n 1)
	passed=$(grep -E '^ok [0-9]+' "$1" | grep -cviE '^[^#]*#[[:space:]]*skip' || true)
	skipped=$(grep -E '^(not )?ok [0-9]+' "$1" | grep -ciE '^[^#]*#[[:space:]]*skip' || true)
	failed=$(grep -E '^not ok [0-9]+' "$1" | grep -cviE '^[^#]*#[[:space:]]*skip' || true)
	notok=$(sed -nE 's/^not ok [0-9]+ ([^#]*[^# ]).*/\1/p' "$1" |
		grep -viE '#[[:space:]]*skip' | tr '\n' ' ' || true)
}

ktap_why() {	# file
	awk '
	/^# [^ ]+: start$/ { why = "" }
	/^# FAIL: / || /^# [^ ]+: (timed out|exit status)/ {
		if ($2 == "FAIL:")
			why = substr($0, 3)
		else if (why == "")
			why = substr($0, length($2) + 4)
	}
	/^not ok [0-9]+ / && !/#[[:space:]]*[Ss][Kk][Ii][Pp]/ {
		printf "%s%s: %s", sep, $4, substr(why, 1, 160)
		sep = "; "
	}' "$1"
}

# A timeout, crash, splat or missing plan counts as one failure, on top of
# any planned tests that never reported.
ktap_verdict() {	# [test filter]
	local extra=0 missing

	if [[ -z $plan ]]; then
		reasons+=("no KTAP plan line")
	elif ((plan == 0)); then
		reasons+=("no test matched${1:+ \"$1\"}")
	fi
	((${#reasons[@]} == 0)) || extra=1
	if [[ -n $plan ]] && ((passed + failed + skipped < plan)); then
		missing=$((plan - passed - failed - skipped))
		reasons+=("$missing of $plan planned tests reported no result")
		failed=$((failed + missing))
	fi
	failed=$((failed + extra))
}
