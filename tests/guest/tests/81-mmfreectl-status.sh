#!/bin/sh
# mmfreectl status, as text and as JSON, shows what sysfs holds: version,
# kernel, every knob, every stat (pages per unit, and system wide in pages
# and bytes); a feature the kernel cannot run shows as unavailable; not
# loaded is exit status 3.
. /mmfree/lib.sh

# A header field of the text status: "NAME:   VALUE".
text_field() {	# text name
	echo "$1" | sed -n "s/^$2: *//p" | head -n 1
}

unload
ctl_rc 3 status
assert_eq "$(text_field "$out" mmfree)" "not loaded" "status when not loaded"
assert_eq "$(text_field "$out" kernel)" "$(uname -r)" "kernel when not loaded"
ctl_rc 3 status --json
echo "$out" | json_check || fail "status --json (not loaded) is not JSON"
assert_match "$out" '"loaded": false' "JSON when not loaded"
ctl_usage status --bogus

load percpu_min_empty_pages=5 percpu_keep_empty_pages=6
# Stats then hold still: the master switch off detaches every hook.
knob_write enabled 0 || fail "enabled=0"

# A text line's value: "  NAME  VALUE ...".
text_val() {	# text name
	echo "$1" | awk -v k="$2" '$1 == k { print $2; exit }'
}

# Every stat file and every knob, read directly.
stats=$(cd "$MMFREE/percpu/stats" && ls)
[ -n "$stats" ] || fail "no stats"
snapshot() {
	for f in $stats; do
		echo "$f $(pcpu_stat "$f")"
	done
}

# Knobs and stats may move between two readings: retry until sysfs reads
# the same before and after mmfreectl did.
tries=0
while :; do
	before=$(snapshot)
	ctl_rc 0 status
	text=$out
	ctl_rc 0 status --json
	json=$out
	[ "$(snapshot)" = "$before" ] && break
	tries=$((tries + 1))
	[ $tries -lt 10 ] || fail "percpu stats never held still"
done

assert_eq "$(text_field "$text" mmfree)" loaded "loaded"
assert_eq "$(text_field "$text" version)" "$(knob version)" "version"
assert_eq "$(text_field "$text" kernel)" "$(uname -r)" "kernel"
assert_eq "$(text_field "$text" module)" "$(modinfo -n mmfree)" "module file"
echo "$json" | json_check || fail "status --json is not JSON"
assert_match "$json" "\"version\": \"$(knob version)\"" "JSON version"
assert_contains "$json" "\"kernel\": \"$(uname -r)\"," "JSON kernel"
assert_match "$json" '"loaded": true' "JSON loaded"
assert_match "$json" '"percpu": \{ "available": true \}' "JSON percpu available"

# Every knob file under /sys/kernel/mmfree, in both outputs.
nknobs=0
for f in $(cd "$MMFREE" && find . -type f -perm -u+r -perm -u+w | sed 's|^\./||'); do
	case "$f" in */stats/*) continue ;; esac
	v=$(knob "$f")
	nknobs=$((nknobs + 1))
	assert_eq "$(text_val "$text" "$f")" "$v" "status: $f"
	assert_match "$json" "^ *\"$f\": $v,?\$" "JSON: $f"
done
assert_eq "$nknobs" 5 "knobs found in sysfs"

units=$(pcpu_stat units)
pagesize=$(getconf PAGESIZE)
nstats=0
for f in $stats; do
	v=$(pcpu_stat "$f")
	nstats=$((nstats + 1))
	assert_eq "$(text_val "$text" "$f")" "$v" "status: $f"
	line=$(echo "$json" | grep "\"percpu/stats/$f\":") ||
		fail "JSON: no percpu/stats/$f"
	assert_match "$line" "\"value\": $v," "JSON: percpu/stats/$f"
	case "$f" in
	*_pages)
		assert_match "$line" "\"unit\": \"pages_per_unit\", \"system_pages\": $((v * units)), \"system_bytes\": $((v * units * pagesize)) " \
			"JSON: $f system wide"
		assert_match "$(echo "$text" | grep "^  $f ")" \
			" $((v * units)) pages, [0-9.]+ (B|KiB|MiB|GiB)\$" \
			"status: $f system wide"
		;;
	*)
		assert_match "$line" '"unit": "count" }' "JSON: $f unit"
		;;
	esac
done
assert_eq "$nstats" 8 "stats found in sysfs"

# Human-readable bytes: populated pages, checked to one decimal.
pop=$(text_val "$text" populated_pages)
human=$(echo "$text" | awk '$1 == "populated_pages" { print $5, $6 }')
want=$(awk -v b=$((pop * units * pagesize)) 'BEGIN {
	split("B KiB MiB GiB TiB", u, " ")
	for (i = 1; b >= 1024 && i < 5; i++)
		b /= 1024
	if (i == 1)
		printf "%d B\n", b
	else
		printf "%.1f %s\n", b, u[i]
}')
assert_eq "$human" "$want" "populated_pages in bytes"
unload

# A feature the kernel cannot run: no directory, said so, exit status 3
# for what needs it.
modprobe mmfree test_missing_ksym=pcpu_lock || fail "modprobe"
[ -d "$MMFREE/percpu" ] && fail "percpu present with pcpu_lock missing"
ctl_rc 0 status
assert_match "$out" "^percpu: unavailable \(see dmesg\)\$" "status: percpu unavailable"
assert_eq "$(text_val "$out" enabled)" 1 "status: enabled without percpu"
ctl_rc 0 status --json
echo "$out" | json_check || fail "status --json without percpu is not JSON"
assert_match "$out" '"percpu": \{ "available": false \}' "JSON: percpu unavailable"
assert_match "$out" '"percpu/enabled": null' "JSON: percpu knob null"
ctl_rc 3 get percpu/min_empty_pages
assert_match "$err" "percpu: unavailable \(see dmesg\)" "get without percpu"
ctl_rc 3 set percpu/min_empty_pages 2
ctl_rc 3 enable percpu
ctl_rc 3 percpu reclaim
ctl_rc 3 get percpu/stats/scans
ctl_rc 0 get enabled
assert_eq "$out" 1 "get enabled without percpu"
unload
echo "status text and JSON match sysfs"
