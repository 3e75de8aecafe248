#!/bin/sh
# runs: once
# mmfreectl status, as text and as JSON, shows what sysfs holds: version,
# kernel, every knob (a knob with names by name, a string in JSON), every
# stat (percpu pages per unit, and system wide in pages and bytes;
# pagefree pages also in bytes, nanoseconds also readable); a feature the
# kernel cannot run shows as unavailable without failing; not loaded is
# exit status 3.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"

# A header field of the text status: "NAME:   VALUE".
text_field() {	# text name
	echo "$1" | sed -n "s/^$2: *//p" | head -n 1
}

unload
ctl_rc 3 status
assert_eq "$(text_field "$out" mmfree)" "not loaded" "status when not loaded"
assert_eq "$(text_field "$out" kernel)" "$(uname -r)" "kernel when not loaded"
ctl_rc 3 status --json
echo "$out" | json_object || fail "status --json (not loaded) is not one JSON object"
assert_eq "$(json_get "$out" .loaded)" false "JSON: loaded when not loaded"
assert_eq "$(json_get "$out" .kernel)" "\"$(uname -r)\"" "JSON: kernel when not loaded"
assert_eq "$(json_get "$out" '[.version, .knobs, .features, .stats]')" \
	'[null,{},{},{}]' "JSON: version, knobs, features, stats when not loaded"
ctl_usage status --bogus

load percpu_min_empty_pages=5 percpu_keep_empty_pages=6 pagefree_mode=async \
	pagefree_workers=2
# Stats then hold still: the master switch off detaches every hook.
knob_write enabled 0 || fail "enabled=0"

# A text line's value: "  NAME  VALUE ...".
text_val() {	# text name
	echo "$1" | awk -v k="$2" '$1 == k { print $2; exit }'
}

# Every stat file, by its path under $MMFREE ("percpu/stats/scans").
stats=$(cd "$MMFREE" && find . -path '*/stats/*' -type f | sed 's|^\./||' | sort)
[ -n "$stats" ] || fail "no stats"
snapshot() {
	for f in $stats; do
		echo "$f $(knob "$f")"
	done
}

# Knobs and stats may move between two readings: retry until sysfs reads
# the same before and after mmfreectl did.
statuses() {
	ctl_rc 0 status
	text=$out
	ctl_rc 0 status --json
	json=$out
}
bracketed 10 0 snapshot statuses || fail "stats never held still"

assert_eq "$(text_field "$text" mmfree)" loaded "loaded"
assert_eq "$(text_field "$text" version)" "$(knob version)" "version"
assert_eq "$(text_field "$text" kernel)" "$(uname -r)" "kernel"
assert_eq "$(text_field "$text" module)" "$(modinfo -n mmfree)" "module file"
echo "$json" | json_object || fail "status --json is not one JSON object"
assert_eq "$(json_get "$json" .version)" "\"$(knob version)\"" "JSON version"
assert_eq "$(json_get "$json" .kernel)" "\"$(uname -r)\"" "JSON kernel"
assert_eq "$(json_get "$json" .module)" "\"$(modinfo -n mmfree)\"" "JSON module file"
assert_eq "$(json_get "$json" .loaded)" true "JSON loaded"
assert_eq "$(json_get "$json" .features.percpu)" '{"available":true}' "JSON percpu available"
assert_eq "$(json_get "$json" .features.pagefree)" '{"available":true}' "JSON pagefree available"

# Every knob file under /sys/kernel/mmfree, in both outputs: a number, or
# for a knob with names its name, a string in JSON.
nknobs=0
for f in $(cd "$MMFREE" && find . -type f -perm -u+r -perm -u+w | sed 's|^\./||'); do
	case "$f" in */stats/*) continue ;; esac
	v=$(knob "$f")
	nknobs=$((nknobs + 1))
	assert_eq "$(text_val "$text" "$f")" "$v" "status: $f"
	case "$v" in
	*[!0-9]*) want="\"$v\"" ;;
	*) want=$v ;;
	esac
	# shellcheck disable=SC2016 # $f: jq's variable (--arg)
	assert_eq "$(json_get "$json" '.knobs[$f]' --arg f "$f")" "$want" "JSON: $f"
done
assert_eq "$nknobs" 12 "knobs found in sysfs"
assert_eq "$(json_get "$json" '.knobs | length')" "$nknobs" "knobs in JSON"
# A knob with names: value, default and range by name.
assert_match "$text" "^  pagefree/mode +async +sync +sync\|async\$" \
	"status: pagefree/mode line"
assert_match "$text" "^  pagefree/workers +2 +4 +1-512\$" \
	"status: pagefree/workers line"

# Each stat by its unit: percpu pages are per unit, pagefree pages system
# wide, *_ns nanoseconds, anything else a count.
units=$(pcpu_stat units)
pagesize=$(getconf PAGESIZE)
nstats=0
for f in $stats; do
	v=$(knob "$f")
	name=${f##*/}
	nstats=$((nstats + 1))
	assert_eq "$(text_val "$text" "$name")" "$v" "status: $f"
	tline=$(echo "$text" | grep "^  $name ")
	# The stat's whole JSON object, members in order ($f: jq's).
	# shellcheck disable=SC2016
	line=$(json_get "$json" '.stats[$f]' --arg f "$f")
	case "$f" in
	percpu/stats/*_pages)
		assert_eq "$line" "{\"value\":$v,\"unit\":\"pages_per_unit\",\"system_pages\":$((v * units)),\"system_bytes\":$((v * units * pagesize))}" \
			"JSON: $f system wide"
		assert_match "$tline" \
			" $((v * units)) pages, -?[0-9.]+ (B|KiB|MiB|GiB)\$" \
			"status: $f system wide"
		;;
	pagefree/stats/*_pages)
		assert_eq "$line" "{\"value\":$v,\"unit\":\"pages\",\"bytes\":$((v * pagesize))}" \
			"JSON: $f in bytes"
		assert_match "$tline" " $v  \([0-9.]+ (B|KiB|MiB|GiB|TiB)\)\$" \
			"status: $f in bytes"
		;;
	*_ns)
		assert_eq "$line" "{\"value\":$v,\"unit\":\"ns\"}" "JSON: $f unit"
		# charged_ns: ", N% of worker_ns" once worker_ns is not 0.
		assert_match "$tline" " $v  \([0-9.]+ (ns|us|ms|s)(, [0-9]+% of worker_ns)?\)\$" \
			"status: $f readable"
		;;
	*)
		assert_eq "$line" "{\"value\":$v,\"unit\":\"count\"}" "JSON: $f unit"
		assert_match "$tline" " $v\$" "status: $f"
		;;
	esac
done
assert_eq "$nstats" 25 "stats found in sysfs"
assert_eq "$(json_get "$json" '.stats | length')" "$nstats" "stats in JSON"

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

# A feature the kernel cannot run: no directory, said so, status still
# succeeds and shows the other feature; exit status 3 for what needs it,
# 2 for a bad value all the same.
modprobe mmfree test_missing_ksym=pcpu_lock || fail "modprobe"
[ -d "$MMFREE/percpu" ] && fail "percpu present with pcpu_lock missing"
ctl_rc 0 status
assert_match "$out" "^percpu: unavailable \(see dmesg\)\$" "status: percpu unavailable"
assert_eq "$(text_val "$out" enabled)" 1 "status: enabled without percpu"
assert_eq "$(text_val "$out" pagefree/mode)" sync "status: pagefree without percpu"
assert_eq "$(text_val "$out" percpu/enabled)" "" "status: no percpu knobs"
assert_eq "$(text_val "$out" populated_pages)" "" "status: no percpu stats"
ctl_rc 0 status --json
echo "$out" | json_object || fail "status --json without percpu is not one JSON object"
assert_eq "$(json_get "$out" .features.percpu)" '{"available":false}' "JSON: percpu unavailable"
assert_eq "$(json_get "$out" .features.pagefree)" '{"available":true}' "JSON: pagefree available"
assert_eq "$(json_get "$out" '.knobs | has("percpu/enabled") and .["percpu/enabled"] == null')" \
	true "JSON: percpu knob null"
assert_eq "$(json_get "$out" '.knobs["pagefree/mode"]')" '"sync"' "JSON: pagefree/mode without percpu"
ctl_rc 3 get percpu/min_empty_pages
assert_match "$err" "percpu: unavailable \(see dmesg\)" "get without percpu"
ctl_rc 3 set percpu/min_empty_pages 2
ctl_rc 3 enable percpu
ctl_rc 3 percpu reclaim
ctl_rc 3 get percpu/stats/scans
ctl_rc 0 get enabled
assert_eq "$out" 1 "get enabled without percpu"
unload

# The same for pagefree, with a symbol only pagefree needs (the first of
# these that takes pagefree away and leaves percpu).
found=
for sym in free_pages_and_swap_cache tlb_finish_mmu tlb_flush_mmu \
	   free_swap_cache lru_add_drain release_pages; do
	modprobe mmfree test_missing_ksym=$sym || continue
	if [ ! -d "$MMFREE/pagefree" ] && [ -d "$MMFREE/percpu" ]; then
		found=$sym
		break
	fi
	unload
done
[ -n "$found" ] || fail "no symbol of the list disables pagefree alone"
echo "pagefree unavailable without $found"
ctl_rc 0 status
assert_match "$out" "^pagefree: unavailable \(see dmesg\)\$" "status: pagefree unavailable"
assert_eq "$(text_val "$out" percpu/enabled)" 1 "status: percpu without pagefree"
assert_eq "$(text_val "$out" pagefree/mode)" "" "status: no pagefree knobs"
assert_eq "$(text_val "$out" offloaded_pages)" "" "status: no pagefree stats"
ctl_rc 0 status --json
echo "$out" | json_object || fail "status --json without pagefree is not one JSON object"
assert_eq "$(json_get "$out" .features.pagefree)" '{"available":false}' "JSON: pagefree unavailable"
assert_eq "$(json_get "$out" .features.percpu)" '{"available":true}' "JSON: percpu available"
for k in pagefree/mode pagefree/workers; do
	# shellcheck disable=SC2016 # $k: jq's variable (--arg)
	assert_eq "$(json_get "$out" '.knobs | has($k) and .[$k] == null' --arg k "$k")" \
		true "JSON: $k null"
done
assert_eq "$(json_get "$out" '[.stats | keys[] | select(startswith("pagefree/"))]')" '[]' \
	"JSON: stats of an unavailable feature"
ctl_rc 3 get pagefree/mode
assert_match "$err" "pagefree: unavailable \(see dmesg\)" "get without pagefree"
ctl_rc 3 set pagefree/mode async
ctl_usage set pagefree/mode 1
ctl_rc 3 enable pagefree
ctl_rc 3 disable pagefree
ctl_rc 3 get pagefree/stats/work_items
ctl_rc 0 get percpu/enabled
assert_eq "$out" 1 "get percpu/enabled without pagefree"
unload
echo "status text and JSON match sysfs"
