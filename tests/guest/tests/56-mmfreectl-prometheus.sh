#!/bin/sh
# runs: once
# mmfreectl status --prometheus is valid Prometheus text format by
# Prometheus's own checker (promtool check metrics, from Debian's
# prometheus package: format and naming conventions, counters ending in
# _total, units in names), loaded or not, as root or as a user; its
# values are sysfs's in base units (pages as bytes, percpu pages times
# the units, nanoseconds as seconds); a root-only statistic a user cannot
# read is left out, not given as 0.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"
# shellcheck source=../lib-pagefree.sh
. "$MMFREE_GUEST/lib-pagefree.sh"

NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups"
command -v promtool >/dev/null || fail "no promtool (scripts/guest-bin.sh)"
page=$(getconf PAGESIZE)

# Checked by promtool; "$out" holds the exposition.  Exit status 3 when
# mmfree is not loaded, as for every status.
prom_check() {	# what expected-status [runner...]
	local what="$1" want="$2" rc=0
	shift 2
	out=$("$@" mmfreectl status --prometheus) || rc=$?
	[ "$rc" = "$want" ] || fail "$what: status --prometheus exit status $rc, expected $want"
	lint=$(echo "$out" | promtool check metrics 2>&1) ||
		{ echo "$out"; echo "$lint"; fail "$what: promtool check metrics"; }
	echo "$what: $(echo "$out" | grep -vc '^#') samples, promtool: ok"
}

# The value of one sample: "name" or "name{labels}" exactly.
sample() {	# name
	echo "$out" | awk -v n="$1" '$1 == n { print $2; found = 1 } END { exit !found }'
}

unload
prom_check "not loaded" 3
assert_eq "$(sample mmfree_up)" 0 "mmfree_up when not loaded"
assert_contains "$(echo "$out" | grep '^mmfree_info')" "kernel=\"$(uname -r)\"" "mmfree_info's kernel"

pf_load pagefree_idle_only=0 pagefree_workers=3
pf_run pftest munmap 64 1
prom_check "loaded, as root" 0
echo "$out" | grep -E '^mmfree_(up|knob\{knob="pagefree/(workers|mode)"|knob_info|pagefree_offloaded|pagefree_wait|percpu_populated)'
assert_eq "$(sample mmfree_up)" 1 "mmfree_up"
assert_eq "$(sample 'mmfree_knob{knob="pagefree/workers"}')" 3 "pagefree/workers as a gauge"
assert_eq "$(sample 'mmfree_knob_info{knob="pagefree/mode",value="sync"}')" 1 "pagefree/mode by name"
# Sysfs, the exposition, then sysfs again: promtool's own exit (a large
# Go heap) is offloaded too, and a fork may populate a percpu page, so
# only an exposition that unchanged readings bracket is compared.
sysfs_now() {
	echo "$(pf_stat offloaded_pages) $(pf_stat wait_ns) $(pcpu_stat populated_pages)"
}
units=$(pcpu_stat units)
exposition() {
	out=$(mmfreectl status --prometheus) || fail "status --prometheus failed"
}
bracketed 10 0.2 sysfs_now exposition ||
	fail "the statistics changed during each of 10 expositions"
read -r off wait_ns pop <<EOS
$bracket
EOS
[ "$off" -gt 0 ] || fail "a 64 MiB munmap offloaded nothing"
assert_eq "$(sample mmfree_pagefree_offloaded_bytes_total)" "$((off * page))" \
	"offloaded bytes vs offloaded_pages"
assert_eq "$(sample mmfree_pagefree_wait_seconds_total)" \
	"$(awk -v n="$wait_ns" 'BEGIN { printf "%d.%09d", n / 1e9, n % 1e9 }')" "wait seconds vs wait_ns"
assert_eq "$(sample mmfree_percpu_populated_bytes)" "$((pop * units * page))" \
	"percpu populated bytes vs populated_pages * units"
sample mmfree_percpu_floor_bytes >/dev/null || fail "root sees no mmfree_percpu_floor_bytes"

# shellcheck disable=SC2086 # $NOBODY: a command and its options
prom_check "loaded, as a user" 0 $NOBODY
sample mmfree_percpu_floor_bytes >/dev/null &&
	fail "a user's exposition has the root-only mmfree_percpu_floor_bytes"
sample mmfree_percpu_populated_bytes >/dev/null ||
	fail "a user's exposition lacks mmfree_percpu_populated_bytes"
unload
