#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# mmfreectl on the host, against fake sysfs trees (MMFREECTL_SYSFS, see
# mmfreectl(8)) built in a temporary directory: no module, no VM, no root.
#
# The trees: mmfree not loaded; loaded with both features; loaded without
# percpu; loaded with statistics and knobs holding what a file can (INT64
# extremes and beyond, negative, non-numeric, empty, 0xff bytes); and
# loaded with a version and a kernel release (uname(2), faked by an
# LD_PRELOAD shim) holding invalid UTF-8 and control characters.  For each, status, status
# --json and status --prometheus must exit as documented (0 loaded, 3 not
# loaded), every JSON output must be accepted by a strict parser
# (Python's json: UTF-8, no duplicate key, no NaN) and every exposition
# by promtool (scripts/guest-bin.sh fetches it from Debian's prometheus
# package), and neither may hold a raw control character.  The commands
# that write are refused while MMFREECTL_SYSFS is set.  And mmfreectl
# wait: its exit statuses and timeout on regular files (which never
# signal POLLPRI: the kernel's side is tested in a VM).
#
# Usage: tests/host/mmfreectl-outputs.sh
#   MMFREECTL=PATH  the mmfreectl to test (default: make mmfreectl, then
#                   build/mmfreectl)
#   PROMTOOL=PATH   the promtool to use (default: scripts/guest-bin.sh's)
#   PYTHON=PATH     the Python 3 to parse JSON with (default: the system's,
#                   /usr/bin/python3, whose start no version manager's shim
#                   slows; else python3)
# Prints one "ok"/"FAIL" line per check, what failed indented below it;
# exits 1 if any failed.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
page=$(getconf PAGESIZE)
python=${PYTHON:-python3}
[[ -n ${PYTHON:-} || ! -x /usr/bin/python3 ]] || python=/usr/bin/python3

if [[ -z ${MMFREECTL:-} ]]; then
	make -s -C "$root" mmfreectl >&2
	MMFREECTL=$root/build/mmfreectl
fi
if [[ -z ${PROMTOOL:-} ]]; then
	# It also builds the guest's test programs, quickly once built.
	gb=$root/build/host-test/guest-bin
	"$root/scripts/guest-bin.sh" "$gb" >&2 ||
		echo "mmfreectl-outputs.sh: scripts/guest-bin.sh failed" >&2
	PROMTOOL=$gb/promtool
fi

# uname(2) with the release of $FAKE_RELEASE, for the kernel string.
cat >"$tmp/fake-uname.c" <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/utsname.h>

int uname(struct utsname *u)
{
	int (*real)(struct utsname *) = dlsym(RTLD_NEXT, "uname");
	const char *release = getenv("FAKE_RELEASE");
	int ret = real(u);

	if (!ret && release)
		snprintf(u->release, sizeof(u->release), "%s", release);
	return ret;
}
EOF
"${CC:-gcc}" -shared -fPIC -o "$tmp/fake-uname.so" "$tmp/fake-uname.c" -ldl
# A sanitizer build of mmfreectl would object to a library before its own.
export ASAN_OPTIONS=${ASAN_OPTIONS:-verify_asan_link_order=0}

report() {	# name status logfile
	if [[ $2 == 0 ]]; then
		echo "ok   $1"
	else
		echo "FAIL $1"
		sed 's/^/     /' "$3"
		fail=1
	fi
}

# The knobs and statistics, as mmfreectl lists them for an unknown key.
lists=$("$MMFREECTL" get no-such-key 2>&1 >/dev/null || true)
read -ra knobs <<<"$(sed -n 's/^knobs: //p' <<<"$lists")"
read -ra stats <<<"$(sed -n 's/^read-only: version //p' <<<"$lists")"
((${#knobs[@]} > 5 && ${#stats[@]} > 5)) || {
	echo "mmfreectl-outputs.sh: no knob or stat list from '$MMFREECTL get'" >&2
	exit 1
}

# A knob's default, as the module sets it (knobs.h); 1 for a new one.
knob_default() {
	case $1 in
	pagefree/mode) echo sync ;;
	percpu/keep_empty_pages) echo 4 ;;
	percpu/interval_ms) echo 0 ;;
	pagefree/workers) echo 4 ;;
	pagefree/batch_pages) echo 512 ;;
	pagefree/min_pages) echo 1024 ;;
	pagefree/max_inflight_pages) echo 1048576 ;;
	*) echo 1 ;;
	esac
}

put() {	# file content: written as sysfs shows it, with its directories
	mkdir -p "$(dirname "$1")"
	printf '%s\n' "$2" >"$1"
}

# A loaded module's tree in $1 with the features named after it: its
# knobs at their defaults, its statistics at small values (3; units 2;
# wait_ns 1.5 s).
tree() {	# dir feature...
	local dir=$1/kernel/mmfree f k s v
	shift
	mkdir -p "$dir"
	put "$dir/version" 0.1.0
	for k in "${knobs[@]}"; do
		f=${k%%/*}
		[[ $k != */* || " $* " == *" $f "* ]] || continue
		put "$dir/$k" "$(knob_default "$k")"
	done
	for s in "${stats[@]}"; do
		f=${s%%/*}
		[[ " $* " == *" $f "* ]] || continue
		case ${s##*/} in
		units) v=2 ;;
		wait_ns) v=1500000000 ;;
		*) v=3 ;;
		esac
		put "$dir/$s" "$v"
	done
}

# status in each format against the tree $1: the exit status, the JSON
# parsed strictly and checked by $4 (Python, with the object as j), the
# exposition by promtool and grep -x of each of $5 (newline-separated
# lines); the outputs are left in $tmp/out.{txt,json,prom}.
json_strict='
import json, re, sys

def pairs(kv):
    keys = [k for k, _ in kv]
    if len(keys) != len(set(keys)):
        raise ValueError("duplicate key")
    return dict(kv)

def constant(c):
    raise ValueError("not JSON: " + c)

text = sys.stdin.buffer.read().decode("utf-8")
if re.search("[\x00-\x09\x0b-\x1f\x7f-\x9f]", text):
    raise ValueError("a raw control character")
j = json.loads(text, object_pairs_hook=pairs, parse_constant=constant)
exec(sys.argv[1])
'
prom_clean='
import re, sys
text = sys.stdin.buffer.read().decode("utf-8")
if re.search("[\x00-\x09\x0b-\x1f\x7f-\x9f]", text):
    raise ValueError("a raw control character")
'

# The log of the check being made, empty while it holds.
log=$tmp/log
report_log() {	# name
	report "$1" "$([[ -s $log ]] && echo 1 || echo 0)" "$log"
}

check_status() {	# name sysfs want-rc json-check prom-lines [env...]
	local name=$1 sysfs=$2 want=$3 jcheck=$4 plines=$5 fmt ext rc line
	shift 5
	for fmt in "" --json --prometheus; do
		case $fmt in
		--json) ext=json ;;
		--prometheus) ext=prom ;;
		*) ext=txt ;;
		esac
		: >"$log"
		rc=0
		env MMFREECTL_SYSFS="$sysfs" "$@" "$MMFREECTL" status $fmt \
			>"$tmp/out.$ext" 2>>"$log" || rc=$?
		[[ $rc == "$want" ]] ||
			echo "status $fmt: exit status $rc, expected $want" >>"$log"
		case $fmt in
		"")
			grep -q '^mmfree: ' "$tmp/out.txt" ||
				echo "status: no 'mmfree:' line" >>"$log"
			;;
		--json)
			"$python" -c "$json_strict" "$jcheck" <"$tmp/out.json" >>"$log" 2>&1 ||
				{ echo "status --json: rejected; the output:"; cat -v "$tmp/out.json"; } >>"$log"
			;;
		--prometheus)
			if ! "$PROMTOOL" check metrics <"$tmp/out.prom" >>"$log" 2>&1 ||
			   ! "$python" -c "$prom_clean" <"$tmp/out.prom" >>"$log" 2>&1; then
				{ echo "status --prometheus: rejected; the output:"; cat -v "$tmp/out.prom"; } >>"$log"
			fi
			while IFS= read -r line; do
				[[ -z $line ]] || grep -qxF -- "$line" "$tmp/out.prom" ||
					echo "status --prometheus: no line '$line'" >>"$log"
			done <<<"$plines"
			;;
		esac
		report_log "$name: status${fmt:+ $fmt}"
	done
}

if [[ ! -x $PROMTOOL ]]; then
	echo "no promtool at $PROMTOOL" >"$log"
	report_log "promtool (scripts/guest-bin.sh)"
	exit 1
fi

# Not loaded: no kernel/mmfree at all.
mkdir -p "$tmp/none"
check_status "not loaded" "$tmp/none" 3 \
	'assert j["loaded"] is False and j["version"] is None and j["stats"] == {}' \
	'mmfree_up 0'

# Loaded, both features: every knob and statistic, the values converted.
tree "$tmp/full" percpu pagefree
check_status "loaded" "$tmp/full" 0 "
assert j['loaded'] is True and j['version'] == '0.1.0'
assert len(j['knobs']) == ${#knobs[@]} and None not in j['knobs'].values(), j['knobs']
assert j['knobs']['pagefree/mode'] == 'sync'
assert j['features'] == {'percpu': {'available': True}, 'pagefree': {'available': True}}
assert len(j['stats']) == ${#stats[@]}, sorted(j['stats'])
p = j['stats']['percpu/stats/populated_pages']
assert p['system_pages'] == 6 and p['system_bytes'] == 6 * $page, p
assert j['stats']['pagefree/stats/offloaded_pages']['bytes'] == 3 * $page
" "mmfree_up 1
mmfree_percpu_populated_bytes $((6 * page))
mmfree_pagefree_offloaded_bytes_total $((3 * page))
mmfree_pagefree_wait_seconds_total 1.500000000
mmfree_knob_info{knob=\"pagefree/mode\",value=\"sync\"} 1
mmfree_feature_available{feature=\"percpu\"} 1"

# Loaded without percpu (the kernel could not run it).
tree "$tmp/nopercpu" pagefree
check_status "loaded, percpu unavailable" "$tmp/nopercpu" 0 "
assert j['features']['percpu'] == {'available': False}
assert j['features']['pagefree'] == {'available': True}
assert not [s for s in j['stats'] if s.startswith('percpu/')]
assert j['knobs']['percpu/enabled'] is None and j['knobs']['pagefree/enabled'] == 1
" 'mmfree_feature_available{feature="percpu"} 0'
: >"$log"
grep -qx 'percpu: unavailable (see dmesg)' "$tmp/out.txt" ||
	echo "status: no 'percpu: unavailable (see dmesg)' line" >"$log"
report_log "loaded, percpu unavailable: status says so"

# Whatever a file can hold.  Round r gives statistic (and knob) i value
# (i + r) mod n, so that each statistic, units included, meets each value.
values=(9223372036854775807 -9223372036854775808 -1 0 1
	9223372036854775808 -9223372036854775809 99999999999999999999
	abc '' 12abc ' 5' 0x10 +7 1e3 $'\xff\xfe' $'5\n6' 2251799813685248
	-2251799813685249 4611686018427387904 -1500000000)
n=${#values[@]}
# Each statistic's system pages and bytes, if given, exact (what a 64-bit
# overflow would wrap), and given whenever they fit in 64 bits.
stats_check="
assert j['loaded'] is True and j['version'] == '0.1.0'
fits = lambda x: -2**63 <= x < 2**63
units = j['stats'].get('percpu/stats/units', {}).get('value', 0)
for k, s in j['stats'].items():
    v = s['value']
    assert fits(v), (k, s)
    if s['unit'] == 'pages':
        b = v * $page
        assert s['bytes'] == (b if fits(b) else None), (k, s)
    elif s['unit'] == 'pages_per_unit' and units < 1:
        assert 'system_pages' not in s, (k, s)
    elif s['unit'] == 'pages_per_unit':
        p, b = v * units, v * units * $page
        assert s['system_pages'] == (p if fits(p) else None), (k, s)
        assert s['system_bytes'] == (b if fits(p) and fits(b) else None), (k, s)
"
for ((r = 0; r < n; r++)); do
	rm -rf "$tmp/values"
	tree "$tmp/values" percpu pagefree
	dir=$tmp/values/kernel/mmfree
	for i in "${!stats[@]}"; do
		printf '%s' "${values[(i + r) % n]}" >"$dir/${stats[i]}"
	done
	for i in "${!knobs[@]}"; do
		printf '%s' "${values[(i + r) % n]}" >"$dir/${knobs[i]}"
	done
	check_status "values, round $r" "$tmp/values" 0 "$stats_check" 'mmfree_up 1'
done

# A version (sysfs) and a kernel release (uname(2)) holding anything but
# a NUL: invalid UTF-8, control characters, 40 two-byte characters that
# the version's 64 bytes cut in two.
strings=($'0.1\xff' $'6.12-\xc3' $'\xe2\x82' $'\xf0\x9f\x98' $'\xc0\xaf'
	$'\xed\xa0\x80' $'\xf4\x90\x80\x80' $'a\tb\rc\x1b[0m\x7f' $'x"y\\z\n'
	$'\xc2\x85\xc2\xa0' "$(printf '\xc3\xa9%.0s' {1..40})" '' 'ok-6.12.0')
m=${#strings[@]}
tree "$tmp/strings" percpu pagefree
for ((r = 0; r < m; r++)); do
	printf '%s\n' "${strings[r]}" >"$tmp/strings/kernel/mmfree/version"
	check_status "strings, round $r" "$tmp/strings" 0 \
		'assert j["loaded"] is True and isinstance(j["kernel"], str)' \
		'mmfree_up 1' \
		LD_PRELOAD="$tmp/fake-uname.so" FAKE_RELEASE="${strings[(r + 3) % m]}"
done

# While MMFREECTL_SYSFS is set, what would write is refused: exit status
# 2, the tree unchanged; what reads works.
: >"$log"
cp -a "$tmp/full" "$tmp/before"
for cmd in "set enabled 0" "set pagefree/mode async" "enable" "disable percpu" \
	"percpu reclaim" "load" "unload"; do
	rc=0
	# shellcheck disable=SC2086 # $cmd: the command and its arguments
	MMFREECTL_SYSFS=$tmp/full "$MMFREECTL" $cmd >/dev/null 2>"$tmp/err" || rc=$?
	[[ $rc == 2 ]] || echo "$cmd: exit status $rc, expected 2" >>"$log"
	grep -q 'refused while MMFREECTL_SYSFS is set' "$tmp/err" ||
		{ echo "$cmd: says:"; cat "$tmp/err"; } >>"$log"
done
diff -r "$tmp/before" "$tmp/full" >>"$log" 2>&1 || true
report_log "MMFREECTL_SYSFS: commands that write are refused"

: >"$log"
out=$(MMFREECTL_SYSFS=$tmp/full "$MMFREECTL" get pagefree/workers 2>>"$log") || true
[[ $out == 4 ]] || echo "get pagefree/workers: '$out', expected 4" >>"$log"
out=$(MMFREECTL_SYSFS=$tmp/full "$MMFREECTL" get percpu/stats/units 2>>"$log") || true
[[ $out == 2 ]] || echo "get percpu/stats/units: '$out', expected 2" >>"$log"
rc=0
MMFREECTL_SYSFS=$tmp/none "$MMFREECTL" get version >/dev/null 2>&1 || rc=$?
[[ $rc == 3 ]] || echo "get version, not loaded: exit status $rc, expected 3" >>"$log"
rc=0
MMFREECTL_SYSFS=$tmp/nopercpu "$MMFREECTL" get percpu/enabled >/dev/null 2>&1 || rc=$?
[[ $rc == 3 ]] || echo "get percpu/enabled, unavailable: exit status $rc, expected 3" >>"$log"
report_log "MMFREECTL_SYSFS: get reads the fake tree"

# wait: on regular files, which never signal POLLPRI, only the value and
# the timeout count.  Its exit statuses, its wall time within generous
# bounds, and no busy polling: little CPU time spent waiting.
wait_run() {	# sysfs args...: $rc, $secs (wall), $cpu (user + sys)
	local sysfs=$1 t
	shift
	rc=0
	TIMEFORMAT='%R %U %S'
	{ time MMFREECTL_SYSFS=$sysfs timeout 20 "$MMFREECTL" wait "$@" \
		>/dev/null 2>"$tmp/err" || rc=$?; } 2>"$tmp/time"
	read -r secs t cpu <"$tmp/time"
	cpu=$(awk -v u="$t" -v s="$cpu" 'BEGIN { print u + s }')
}

between() {	# value low high
	awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }'
}

inflight=$tmp/full/kernel/mmfree/pagefree/stats/inflight_pages
put "$inflight" 0
: >"$log"
wait_run "$tmp/full"
[[ $rc == 0 ]] || echo "inflight 0: exit status $rc, expected 0" >>"$log"
between "$secs" 0 2 || echo "inflight 0: took $secs s" >>"$log"
wait_run "$tmp/full" --timeout 0
[[ $rc == 0 ]] || echo "inflight 0, --timeout 0: exit status $rc, expected 0" >>"$log"
report_log "wait: nothing in flight returns 0 at once"

put "$inflight" 5
: >"$log"
wait_run "$tmp/full" --timeout 0.3
[[ $rc == 4 ]] || echo "inflight 5, --timeout 0.3: exit status $rc, expected 4" >>"$log"
between "$secs" 0.25 10 || echo "inflight 5, --timeout 0.3: took $secs s" >>"$log"
between "$cpu" 0 0.2 || echo "inflight 5, --timeout 0.3: $cpu s of CPU" >>"$log"
wait_run "$tmp/full" --timeout=0.3
[[ $rc == 4 ]] || echo "inflight 5, --timeout=0.3: exit status $rc, expected 4" >>"$log"
wait_run "$tmp/full" --timeout 0
[[ $rc == 4 ]] || echo "inflight 5, --timeout 0: exit status $rc, expected 4" >>"$log"
between "$secs" 0 2 || echo "inflight 5, --timeout 0: took $secs s" >>"$log"
report_log "wait: pages in flight until the timeout exit 4"

# The value is read again at the timeout: 0 by then is success.
: >"$log"
(sleep 0.3; put "$inflight" 0) &
wait_run "$tmp/full" --timeout 1.5
wait
[[ $rc == 0 ]] || echo "inflight 5 then 0, --timeout 1.5: exit status $rc, expected 0" >>"$log"
report_log "wait: the value read again at the timeout"

# No timeout: still waiting a second later, without spinning.
put "$inflight" 5
: >"$log"
rc=0
TIMEFORMAT='%R %U %S'
{ time MMFREECTL_SYSFS=$tmp/full timeout 1 "$MMFREECTL" wait \
	>/dev/null 2>&1 || rc=$?; } 2>"$tmp/time"
read -r secs t cpu <"$tmp/time"
[[ $rc == 124 ]] || echo "inflight 5, no timeout: exit status $rc, expected to be killed (124)" >>"$log"
between "$(awk -v u="$t" -v s="$cpu" 'BEGIN { print u + s }')" 0 0.2 ||
	echo "inflight 5, no timeout: $t s user, $cpu s system in 1 s" >>"$log"
report_log "wait: no timeout waits, idle"

: >"$log"
for bad in -1 +1 '' ' 1' '1 ' 1. .5 1e3 0x10 inf nan 1,5 1..2 86400.000000001 \
	86401 99999999999999999999999 0.0000000001 abc; do
	wait_run "$tmp/full" --timeout "$bad"
	[[ $rc == 2 ]] || echo "--timeout '$bad': exit status $rc, expected 2" >>"$log"
	grep -q "invalid timeout" "$tmp/err" ||
		{ echo "--timeout '$bad' says:"; cat "$tmp/err"; } >>"$log"
done
for args in "--timeout" "--timeout 1 --timeout 2" "--time 1" "1" "--timeout 1 extra"; do
	# shellcheck disable=SC2086 # $args: the arguments
	wait_run "$tmp/full" $args
	[[ $rc == 2 ]] || echo "wait $args: exit status $rc, expected 2" >>"$log"
done
wait_run "$tmp/full" --timeout 86400.000000000 --timeout
[[ $rc == 2 ]] || echo "wait --timeout 86400.000000000 --timeout: exit status $rc, expected 2" >>"$log"
report_log "wait: a bad command line exits 2 at once"

: >"$log"
wait_run "$tmp/none" --timeout 5
[[ $rc == 0 ]] || echo "not loaded: exit status $rc, expected 0" >>"$log"
grep -q "not loaded" "$tmp/err" || { echo "not loaded says:"; cat "$tmp/err"; } >>"$log"
rm -rf "$tmp/nopagefree"
tree "$tmp/nopagefree" percpu
wait_run "$tmp/nopagefree" --timeout 5
[[ $rc == 0 ]] || echo "pagefree unavailable: exit status $rc, expected 0" >>"$log"
grep -q "pagefree: unavailable" "$tmp/err" ||
	{ echo "pagefree unavailable says:"; cat "$tmp/err"; } >>"$log"
for v in abc -1 '' 1x; do
	put "$inflight" "$v"
	wait_run "$tmp/full" --timeout 5
	[[ $rc == 1 ]] || echo "inflight '$v': exit status $rc, expected 1" >>"$log"
done
report_log "wait: not loaded or unavailable 0, a bad value 1"

# Being unloaded: the module's directory without the count.  A new
# instance's count that appears meanwhile is read, not taken for the
# old one's end; a wait that starts mid-unload waits for the module to
# go.
: >"$log"
rm -rf "$tmp/reload"
tree "$tmp/reload" pagefree
mkdir -p "$tmp/reload/module/mmfree"
rm "$tmp/reload/kernel/mmfree/pagefree/stats/inflight_pages"
# Written whole, then renamed into place: never read half-written.
(sleep 0.3; put "$tmp/reload/new" 5
	mv "$tmp/reload/new" "$tmp/reload/kernel/mmfree/pagefree/stats/inflight_pages") &
wait_run "$tmp/reload" --timeout 1.5
wait
[[ $rc == 4 ]] || echo "reloaded with 5 pages in flight: exit status $rc, expected 4" >>"$log"
between "$secs" 1.4 10 || echo "reloaded with 5 pages in flight: took $secs s" >>"$log"
rm -rf "$tmp/reload/kernel"
wait_run "$tmp/reload" --timeout 0.3
[[ $rc == 4 ]] || echo "mid-unload, --timeout 0.3: exit status $rc, expected 4" >>"$log"
(sleep 0.3; rmdir "$tmp/reload/module/mmfree") &
wait_run "$tmp/reload" --timeout 5
wait
[[ $rc == 0 ]] || echo "mid-unload, then gone: exit status $rc, expected 0" >>"$log"
between "$secs" 0.25 4 || echo "mid-unload, then gone: took $secs s" >>"$log"
report_log "wait: an unload's end, or a new instance's count"

# A module still loading (initstate "coming") whose pagefree turns out
# unavailable: once it is live, nothing can be in flight.  One going
# (its features' directories go first) is waited for.
: >"$log"
rm -rf "$tmp/coming"
tree "$tmp/coming" percpu
put "$tmp/coming/module/mmfree/initstate" coming
(sleep 0.3; put "$tmp/coming/new" live
	mv "$tmp/coming/new" "$tmp/coming/module/mmfree/initstate") &
wait_run "$tmp/coming" --timeout 3
wait
[[ $rc == 0 ]] || echo "loading, then live without pagefree: exit status $rc, expected 0" >>"$log"
between "$secs" 0.25 2.5 || echo "loading, then live without pagefree: took $secs s" >>"$log"
grep -q "pagefree: unavailable" "$tmp/err" ||
	{ echo "loading, then live without pagefree says:"; cat "$tmp/err"; } >>"$log"
# Started before the module's files exist: the same, once they do.
mv "$tmp/coming/kernel" "$tmp/coming-kernel"
put "$tmp/coming/module/mmfree/initstate" coming
(sleep 0.3; mv "$tmp/coming-kernel" "$tmp/coming/kernel"
	put "$tmp/coming/new" live
	mv "$tmp/coming/new" "$tmp/coming/module/mmfree/initstate") &
wait_run "$tmp/coming" --timeout 3
wait
[[ $rc == 0 ]] || echo "loading before its files, then live without pagefree: exit status $rc, expected 0" >>"$log"
between "$secs" 0.25 2.5 || echo "loading before its files, then live without pagefree: took $secs s" >>"$log"
put "$tmp/coming/module/mmfree/initstate" going
wait_run "$tmp/coming" --timeout 0.3
[[ $rc == 4 ]] || echo "unloading without pagefree's directory, --timeout 0.3: exit status $rc, expected 4" >>"$log"
report_log "wait: a module loading or unloading is waited for"

exit $fail
